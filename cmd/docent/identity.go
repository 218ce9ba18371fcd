package main

import (
	"context"
	"os"
	"os/user"
	"path/filepath"
	"strings"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/memory"
	"github.com/docent-sh/docent/store/postgres"
)

// noteReadsFile is the embedded store's audit of private notes read,
// beside the notes file.
const noteReadsFile = "note-reads.jsonl"

// scope is who is asking, from --workspace and --user (or their variables
// and config keys): every notes command, and every read of notes, is made
// in it. A missing workspace is a usage error naming the flag and the
// variable that set it.
func (e *env) scope() (knowledge.Scope, error) {
	s := knowledge.Scope{Workspace: strings.TrimSpace(e.cfg.workspace), User: e.user()}
	if err := s.Validate(); err != nil {
		return knowledge.Scope{}, usageErrorf("%v", err)
	}
	return s, nil
}

// user is --user, else the name the operating system knows the person
// running docent by, else $USER: a default a team member rarely needs to
// set, since it is who they logged in as.
func (e *env) user() string {
	if u := strings.TrimSpace(e.cfg.user); u != "" {
		return u
	}
	if u, err := user.Current(); err == nil && strings.TrimSpace(u.Username) != "" {
		return strings.TrimSpace(u.Username)
	}
	return strings.TrimSpace(e.rawGetenv("USER"))
}

// notesPath is the embedded store's notes file: --notes-file, else
// notes.jsonl in docent's XDG data directory. Notes are data a person
// keeps, not state docent can rebuild, hence not beside the log.
func (e *env) notesPath() string {
	if e.cfg.notesFile != "" {
		return e.cfg.notesFile
	}
	return filepath.Join(dataDir(e.getenv), "notes.jsonl")
}

// dataDir follows the XDG base directory spec: data belongs under
// $XDG_DATA_HOME, falling back to ~/.local/share.
func dataDir(getenv func(string) string) string {
	if dir := getenv("XDG_DATA_HOME"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "docent")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "share", "docent")
	}
	return filepath.Join(os.TempDir(), "docent")
}

// notesStore is the store notes commands use, with a description for
// errors and a way to release it.
type notesStore interface {
	store.Notes
	Describe() string
	Close()
}

// openNotes opens where team notes live: the PostgreSQL database the docs
// are in when a URL is configured (its schema brought up to date unless
// --no-migrate, as for the docs), else the embedded store's JSON Lines
// file (notesPath) with the audit of private reads beside it. The file is
// read at once, so a corrupt one is reported here, naming it and the
// line; nothing is created until a note is written. close releases the
// store and is never nil when err is nil.
func (e *env) openNotes(ctx context.Context) (st store.Notes, close func(), err error) {
	ns, err := e.openNotesStore(ctx)
	if err != nil {
		return nil, nil, err
	}
	return ns, ns.Close, nil
}

func (e *env) openNotesStore(ctx context.Context) (notesStore, error) {
	if e.cfg.dbURL != "" {
		st, err := postgres.Open(ctx, e.cfg.dbURL, postgres.Options{
			Migrate: !e.cfg.noMigrate, CheckSchema: true, LockWait: e.cfg.lockWait,
		})
		if err != nil {
			return nil, err
		}
		return st, nil
	}
	path := e.notesPath()
	st, err := memory.Open(ctx, memory.Options{
		NotesPath:     path,
		NoteReadsPath: filepath.Join(filepath.Dir(path), noteReadsFile),
	})
	if err != nil {
		return nil, err
	}
	return embeddedNotes{st, path}, nil
}

// embeddedNotes names the notes file in errors: "embedded (in-memory)"
// alone would not say where the notes are.
type embeddedNotes struct {
	*memory.Store
	path string
}

func (n embeddedNotes) Describe() string { return "notes file " + n.path }
