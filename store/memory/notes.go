package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
)

// DefaultNotesLockWait bounds how long a write waits for another docent
// process writing the same notes file.
const DefaultNotesLockWait = 5 * time.Second

// Store keeps the notes contract too.
var _ store.Notes = (*Store)(nil)

// notesStore is the notes half of a Store.
type notesStore struct {
	// writeMu makes this process's writers take turns before the file
	// lock, so readers never wait behind a writer's wait for another
	// process; mu guards state and is held only briefly.
	writeMu sync.Mutex
	mu      sync.Mutex
	state   *noteState

	readsMu sync.Mutex
	reads   []knowledge.NoteRead // the audit, when there is no NoteReadsPath
}

// noteState is the notes as last loaded or written. A write builds the
// next state aside and publishes it once the file holds it.
type noteState struct {
	byID  map[string]*storedNote // deleted notes included
	order []string               // ids in file order
	gens  map[string]int64       // per workspace
	// prints fingerprint each workspace's notes, to tell which changed
	// when another process rewrote the file.
	prints map[string][32]byte
	stamp  fileStamp // the file this state was read from or written to
	loaded bool
	err    error // why the file could not be read: reads fail, writes refuse
}

func (st *noteState) clone() *noteState {
	return &noteState{
		byID: maps.Clone(st.byID), order: slices.Clone(st.order), gens: maps.Clone(st.gens),
		prints: st.prints, stamp: st.stamp, loaded: st.loaded,
	}
}

func (st *noteState) records() []*storedNote {
	out := make([]*storedNote, len(st.order))
	for i, id := range st.order {
		out[i] = st.byID[id]
	}
	return out
}

// Open returns a store like New and reads its notes file at once, so a
// corrupt one is reported at start, naming the file and the line.
func Open(ctx context.Context, opts Options) (*Store, error) {
	s := New(opts)
	if _, err := s.notesSnapshot(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Store) notesLockWait() time.Duration {
	if s.opts.NotesLockWait > 0 {
		return s.opts.NotesLockWait
	}
	return DefaultNotesLockWait
}

// refreshLocked reloads the notes file when it is not the one the state
// came from (another docent process replaced it). The caller holds mu.
func (s *Store) refreshLocked() error {
	ns := &s.notes
	if ns.state == nil {
		ns.state = &noteState{byID: map[string]*storedNote{}, gens: map[string]int64{}, prints: map[string][32]byte{}}
	}
	path := s.opts.NotesPath
	if path == "" {
		ns.state.loaded = true
		return nil
	}
	stamp, err := statStamp(path)
	if err != nil {
		return fmt.Errorf("%w: notes file %s: %w", store.ErrNotesUnavailable, path, err)
	}
	if ns.state.loaded && stamp == ns.state.stamp {
		return ns.state.err
	}
	records, stamp, err := readNotesFile(path)
	next := ns.state.clone()
	next.loaded, next.stamp, next.err = true, stamp, nil
	if err != nil {
		// Keep serving nothing rather than stale notes, and remember the
		// file's stamp so a fixed file is read again.
		next.err = fmt.Errorf("%w: %w; fix or move the file (docent will not overwrite it)", store.ErrNotesUnavailable, err)
		ns.state = next
		return next.err
	}
	prints, err := workspacePrints(records)
	if err != nil {
		return fmt.Errorf("%w: %w", store.ErrNotesUnavailable, err)
	}
	for w := range unionKeys(prints, ns.state.prints) {
		if prints[w] != ns.state.prints[w] {
			next.gens[w]++
		}
	}
	next.byID = make(map[string]*storedNote, len(records))
	next.order = make([]string, len(records))
	for i, r := range records {
		next.byID[r.note.ID] = r
		next.order[i] = r.note.ID
	}
	next.prints = prints
	ns.state = next
	return nil
}

func unionKeys[V any](a, b map[string]V) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// readNotesFile reads the notes file through one open handle, so the
// stamp is the stamp of the content read even if the file is replaced
// meanwhile. A missing file holds no notes.
func readNotesFile(path string) ([]*storedNote, fileStamp, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fileStamp{}, nil
	}
	if err != nil {
		return nil, fileStamp{}, fmt.Errorf("open notes file %s: %w", path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fileStamp{}, fmt.Errorf("stat notes file %s: %w", path, err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fileStamp{}, fmt.Errorf("read notes file %s: %w", path, err)
	}
	records, err := decodeNotes(path, data)
	return records, stampOf(info), err
}

// notesSnapshot returns the current state for a read, reloading the file
// first if another process changed it. The state is never modified once
// published, so the caller reads it without the lock.
func (s *Store) notesSnapshot(ctx context.Context) (*noteState, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Most reads find the file as it was: its stamp is read before the
	// lock, which is then held only to compare. A busy server reads the
	// notes' generation on every request, and a lock held across a stat
	// made each request queue behind the others' syscalls.
	if path := s.opts.NotesPath; path != "" {
		if stamp, err := statStamp(path); err == nil {
			s.notes.mu.Lock()
			st := s.notes.state
			s.notes.mu.Unlock()
			if st != nil && st.loaded && st.stamp == stamp {
				if st.err != nil {
					return nil, st.err
				}
				return st, nil
			}
		}
	}
	s.notes.mu.Lock()
	defer s.notes.mu.Unlock()
	if err := s.refreshLocked(); err != nil {
		return nil, err
	}
	return s.notes.state, nil
}

// statStamp is the stamp of the file at path; the zero stamp when there
// is none.
func statStamp(path string) (fileStamp, error) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fileStamp{}, nil
	case err != nil:
		return fileStamp{}, err
	}
	return stampOf(info), nil
}

// writeNotes runs change on a copy of the freshest state, under this
// process's writer turn and the notes file's lock, then writes the file
// whole and publishes the copy. change returns the workspaces it changed
// (none: nothing is written).
func (s *Store) writeNotes(ctx context.Context, change func(next *noteState) ([]string, error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ns := &s.notes
	ns.writeMu.Lock()
	defer ns.writeMu.Unlock()
	if path := s.opts.NotesPath; path != "" {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return fmt.Errorf("create directory for %s: %w", path, err)
		}
		release, err := lockFile(ctx, path+".lock", s.notesLockWait())
		if err != nil {
			return err
		}
		defer release()
	}
	ns.mu.Lock()
	defer ns.mu.Unlock()
	if err := s.refreshLocked(); err != nil {
		return err
	}
	next := ns.state.clone()
	workspaces, err := change(next)
	if err != nil || len(workspaces) == 0 {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, w := range slices.Compact(slices.Sorted(slices.Values(workspaces))) {
		next.gens[w]++
	}
	if path := s.opts.NotesPath; path != "" {
		records := next.records()
		data, err := encodeNotes(records)
		if err != nil {
			return err
		}
		prints, err := workspacePrints(records)
		if err != nil {
			return err
		}
		stamp, err := writeFileAtomic(path, data)
		if err != nil {
			return fmt.Errorf("write notes file: %w", err)
		}
		next.stamp, next.prints = stamp, prints
	}
	ns.state = next
	return nil
}

// now is the time writes stamp, at PostgreSQL's precision so both stores
// hand back the same.
func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// AddNote stores a new note owned by scope.User in scope.Workspace.
func (s *Store) AddNote(ctx context.Context, scope knowledge.Scope, n knowledge.Note) (knowledge.Note, error) {
	if err := scope.Validate(); err != nil {
		return knowledge.Note{}, fmt.Errorf("add note %q: %w", n.Title, err)
	}
	n.ID, n.Workspace, n.Owner = uuid.NewString(), scope.Workspace, scope.User
	n, err := store.PrepareNote(n)
	if err != nil {
		return knowledge.Note{}, fmt.Errorf("add note: %w", err)
	}
	n.CreatedAt = now()
	n.UpdatedAt = n.CreatedAt
	err = s.writeNotes(ctx, func(next *noteState) ([]string, error) {
		next.byID[n.ID] = &storedNote{note: n.Clone()}
		next.order = append(next.order, n.ID)
		return []string{n.Workspace}, nil
	})
	if err != nil {
		return knowledge.Note{}, fmt.Errorf("add note %q: %w", n.Title, err)
	}
	return n, nil
}

// ownNote finds a live note scope may change: ErrNoteNotFound when scope
// may not see it, ErrNotOwner when it may see but not change it.
func ownNote(st *noteState, scope knowledge.Scope, id string) (*storedNote, error) {
	r, ok := st.byID[id]
	if !ok || !r.live() || !scope.CanSee(r.note) {
		return nil, store.ErrNoteNotFound
	}
	if r.note.Owner != scope.User {
		return nil, store.ErrNotOwner
	}
	return r, nil
}

// UpdateNote replaces a note its owner may edit; an edit that changes
// nothing writes nothing.
func (s *Store) UpdateNote(ctx context.Context, scope knowledge.Scope, n knowledge.Note) (knowledge.Note, error) {
	op := fmt.Sprintf("update note %s", n.ID)
	if err := scope.Validate(); err != nil {
		return knowledge.Note{}, fmt.Errorf("%s: %w", op, err)
	}
	var out knowledge.Note
	err := s.writeNotes(ctx, func(next *noteState) ([]string, error) {
		stored, err := ownNote(next, scope, n.ID)
		if err != nil {
			return nil, err
		}
		edit := n
		edit.Workspace, edit.Owner = stored.note.Workspace, stored.note.Owner
		if edit, err = store.PrepareNote(edit); err != nil {
			return nil, err
		}
		if store.SameNoteContent(stored.note, edit) {
			out = stored.note.Clone()
			return nil, nil
		}
		edit.CreatedAt, edit.UpdatedAt = stored.note.CreatedAt, now()
		next.byID[edit.ID] = &storedNote{note: edit.Clone()}
		out = edit
		return []string{edit.Workspace}, nil
	})
	if err != nil {
		return knowledge.Note{}, fmt.Errorf("%s: %w", op, err)
	}
	return out, nil
}

// DeleteNote soft-deletes a note and drops its chunks in the same write.
func (s *Store) DeleteNote(ctx context.Context, scope knowledge.Scope, id string) error {
	op := fmt.Sprintf("delete note %s", id)
	if err := scope.Validate(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	err := s.writeNotes(ctx, func(next *noteState) ([]string, error) {
		stored, err := ownNote(next, scope, id)
		if err != nil {
			return nil, err
		}
		at := now()
		n := stored.note.Clone()
		n.Chunks, n.UpdatedAt = nil, at
		next.byID[id] = &storedNote{note: n, deletedAt: &at}
		return []string{n.Workspace}, nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// GetNote returns one note in scope with its chunks.
func (s *Store) GetNote(ctx context.Context, scope knowledge.Scope, id string) (knowledge.Note, error) {
	op := fmt.Sprintf("get note %s", id)
	if err := scope.Validate(); err != nil {
		return knowledge.Note{}, fmt.Errorf("%s: %w", op, err)
	}
	st, err := s.notesSnapshot(ctx)
	if err != nil {
		return knowledge.Note{}, fmt.Errorf("%s: %w", op, err)
	}
	r, ok := st.byID[id]
	if !ok || !r.live() || !scope.CanSee(r.note) {
		return knowledge.Note{}, fmt.Errorf("%s: %w", op, store.ErrNoteNotFound)
	}
	return r.note.Clone(), nil
}

// ListNotes summarizes the notes in scope, most recently updated first.
func (s *Store) ListNotes(ctx context.Context, scope knowledge.Scope) ([]knowledge.NoteSummary, error) {
	if err := scope.Validate(); err != nil {
		return nil, fmt.Errorf("list notes: %w", err)
	}
	st, err := s.notesSnapshot(ctx)
	if err != nil {
		return nil, fmt.Errorf("list notes: %w", err)
	}
	var out []knowledge.NoteSummary
	for _, id := range st.order {
		r := st.byID[id]
		if !r.live() || !scope.CanSee(r.note) {
			continue // out of scope: never copied
		}
		n := r.note
		out = append(out, knowledge.NoteSummary{ID: n.ID, Workspace: n.Workspace, Owner: n.Owner, Visibility: n.Visibility,
			Title: n.Title, Tags: slices.Clone(n.Tags), ChunkCount: len(n.Chunks), UpdatedAt: n.UpdatedAt})
	}
	slices.SortFunc(out, func(a, b knowledge.NoteSummary) int {
		if c := b.UpdatedAt.Compare(a.UpdatedAt); c != 0 {
			return c
		}
		return compareStrings(a.ID, b.ID)
	})
	return out, nil
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// VisibleNotes is every note in scope with its chunks, ordered by id.
func (s *Store) VisibleNotes(ctx context.Context, scope knowledge.Scope) ([]knowledge.Note, error) {
	if err := scope.Validate(); err != nil {
		return nil, fmt.Errorf("read visible notes: %w", err)
	}
	st, err := s.notesSnapshot(ctx)
	if err != nil {
		return nil, fmt.Errorf("read visible notes: %w", err)
	}
	var out []knowledge.Note
	for _, id := range st.order {
		r := st.byID[id]
		if !r.live() || !scope.CanSee(r.note) {
			continue // out of scope: never copied
		}
		out = append(out, r.note.Clone())
	}
	slices.SortFunc(out, func(a, b knowledge.Note) int { return compareStrings(a.ID, b.ID) })
	return out, nil
}

// NotesGeneration changes with every write to a workspace's notes, this
// process's or another's (seen when the file changed).
func (s *Store) NotesGeneration(ctx context.Context, workspace string) (int64, error) {
	st, err := s.notesSnapshot(ctx)
	if err != nil {
		return 0, fmt.Errorf("read the notes generation of %q: %w", workspace, err)
	}
	return st.gens[workspace], nil
}

// ImportNotes adds notes owned by their own Owner, store.ImportBatchSize
// per write of the file. A note without an id gets one, one with times
// keeps them; a note whose id is stored, an invalid note and a repeated
// id are skipped.
func (s *Store) ImportNotes(ctx context.Context, notes []knowledge.Note, progress func(done int)) (store.ImportReport, error) {
	return store.ImportInBatches(notes, progress, now, func(batch []knowledge.Note) (written, chunks int, err error) {
		err = s.writeNotes(ctx, func(next *noteState) ([]string, error) {
			written, chunks = 0, 0
			var workspaces []string
			for _, n := range batch {
				if _, stored := next.byID[n.ID]; stored {
					continue
				}
				next.byID[n.ID] = &storedNote{note: n}
				next.order = append(next.order, n.ID)
				workspaces = append(workspaces, n.Workspace)
				written++
				chunks += len(n.Chunks)
			}
			return workspaces, nil
		})
		return written, chunks, err
	})
}

// ReindexNotes re-chunks every live note of a workspace and rewrites the
// chunks that changed, store.ImportBatchSize notes per write. chunk runs
// outside every lock; a note edited meanwhile keeps its edit's chunks.
func (s *Store) ReindexNotes(ctx context.Context, workspace string, chunk func(knowledge.Note) ([]knowledge.Chunk, error)) (store.ImportReport, error) {
	start := time.Now()
	op := fmt.Sprintf("reindex the notes of %q", workspace)
	var r store.ImportReport
	st, err := s.notesSnapshot(ctx)
	if err != nil {
		return r, fmt.Errorf("%s: %w", op, err)
	}
	var changed []knowledge.Note
	for _, id := range st.order {
		stored := st.byID[id]
		if !stored.live() || stored.note.Workspace != workspace {
			continue
		}
		if err := ctx.Err(); err != nil {
			return r, fmt.Errorf("%s: %w", op, err)
		}
		chunks, err := chunk(stored.note.Clone())
		if err != nil {
			r.Duration = time.Since(start)
			return r, fmt.Errorf("%s: chunk note %s (%q): %w", op, id, stored.note.Title, err)
		}
		next := stored.note.Clone()
		next.Chunks = chunks
		if next, err = store.PrepareNote(next); err != nil {
			r.Duration = time.Since(start)
			return r, fmt.Errorf("%s: chunks of note %s: %w", op, id, err)
		}
		if write, drop := store.DiffNoteChunks(stored.note.Chunks, next.Chunks); len(write) == 0 && len(drop) == 0 {
			r.Skipped++
			continue
		}
		changed = append(changed, next)
	}
	for from := 0; from < len(changed); from += store.ImportBatchSize {
		batch := changed[from:min(from+store.ImportBatchSize, len(changed))]
		var notes, chunks int
		err := s.writeNotes(ctx, func(next *noteState) ([]string, error) {
			notes, chunks = 0, 0
			for _, n := range batch {
				cur, ok := next.byID[n.ID]
				if !ok || !cur.live() || cur.note.ContentHash != n.ContentHash {
					continue // deleted or edited since: its writer chunked it
				}
				write, _ := store.DiffNoteChunks(cur.note.Chunks, n.Chunks)
				updated := cur.note.Clone()
				updated.Chunks = n.Chunks
				next.byID[n.ID] = &storedNote{note: updated}
				notes++
				chunks += len(write)
			}
			if notes == 0 {
				return nil, nil
			}
			return []string{workspace}, nil
		})
		if err != nil {
			r.Duration = time.Since(start)
			return r, fmt.Errorf("%s (notes %s to %s): %w", op, batch[0].ID, batch[len(batch)-1].ID, err)
		}
		r.Notes += notes
		r.Chunks += chunks
		r.Skipped += len(batch) - notes
	}
	r.Duration = time.Since(start)
	return r, nil
}

// noteReadLine is one line of the note reads audit file.
type noteReadLine struct {
	Time   time.Time            `json:"time"`
	User   string               `json:"user"`
	NoteID string               `json:"note_id"`
	Reason knowledge.ReadReason `json:"reason"`
}

// RecordNoteReads appends reads to the audit file (NoteReadsPath) in one
// write, so lines stay whole beside another process's, or keeps them in
// memory without one.
func (s *Store) RecordNoteReads(ctx context.Context, reads []knowledge.NoteRead) error {
	if len(reads) == 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("record note reads: %w", err)
	}
	stamp := now()
	var buf []byte
	prepared := make([]knowledge.NoteRead, len(reads))
	for i, r := range reads {
		if err := store.ValidateNoteRead(r); err != nil {
			return fmt.Errorf("record note reads: %w", err)
		}
		if r.Time.IsZero() {
			r.Time = stamp
		}
		r.Time = r.Time.UTC()
		prepared[i] = r
		line, err := json.Marshal(noteReadLine{Time: r.Time, User: r.User, NoteID: r.NoteID, Reason: r.Reason})
		if err != nil {
			return fmt.Errorf("record note reads: encode: %w", err)
		}
		buf = append(append(buf, line...), '\n')
	}
	s.notes.readsMu.Lock()
	defer s.notes.readsMu.Unlock()
	path := s.opts.NoteReadsPath
	if path == "" {
		s.notes.reads = append(s.notes.reads, prepared...)
		return nil
	}
	what := fmt.Sprintf("record %d note reads (first: note %s by %q) in %s", len(reads), reads[0].NoteID, reads[0].User, path)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if err := appendFile(path, buf); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}
