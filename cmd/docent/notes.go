package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing/fstest"
	"text/tabwriter"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/textsafe"
)

func newNotesCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "notes",
		Short: "Add, edit, remove, list, import and reindex the team's notes (needs --workspace)",
		Long: "Team notes are what support staff know that the docs do not say. Each belongs to one workspace\n" +
			"(--workspace) and one owner (--user), and is seen by the whole workspace or, with --private, by its\n" +
			"owner only. Without a database they live in a JSON Lines file (--notes-file).",
	}
	cmd.AddCommand(newNotesAddCmd(e), newNotesEditCmd(e), newNotesRmCmd(e), newNotesListCmd(e),
		newNotesImportCmd(e), newNotesReindexCmd(e))
	return cmd
}

// openScopedNotes is what every notes command starts with: the caller's
// scope, checked before anything is opened, and the store.
func (e *env) openScopedNotes(ctx context.Context) (knowledge.Scope, notesStore, error) {
	scope, err := e.scope()
	if err != nil {
		return scope, nil, err
	}
	st, err := e.openNotesStore(ctx)
	if err != nil {
		return scope, nil, err
	}
	return scope, st, nil
}

func newNotesAddCmd(e *env) *cobra.Command {
	var in noteInput
	var private bool
	cmd := &cobra.Command{
		Use:   "add [FILE | -]",
		Short: "Add a note from a file or stdin and print its id",
		Long: "add stores a note owned by --user in --workspace and prints its id. The body is markdown (front matter\n" +
			"may give title and tags), or TipTap JSON with --format tiptap. The title is --title, else the front\n" +
			"matter's, else the first heading, else the file's name. Without FILE, or with -, the note is read from stdin.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			scope, err := e.scope()
			if err != nil {
				return err
			}
			src := "-"
			if len(args) == 1 {
				src = args[0]
			}
			n, err := in.read(ctx, cmd.InOrStdin(), src)
			if err != nil {
				return err
			}
			if n.Title == "" {
				if src == "-" {
					return usageErrorf("note from stdin has no title: pass --title or start it with a # heading")
				}
				n.Title = fileTitle(src)
			}
			n.Visibility = knowledge.VisibilityWorkspace
			if private {
				n.Visibility = knowledge.VisibilityPrivate
			}
			if err := chunkNote(&n, src); err != nil {
				return err
			}
			st, err := e.openNotesStore(ctx)
			if err != nil {
				return err
			}
			defer st.Close()
			added, err := st.AddNote(ctx, scope, n)
			if err != nil {
				return fmt.Errorf("add note %s to %s: %w", inputName(src), st.Describe(), err)
			}
			fmt.Fprintln(cmd.OutOrStdout(), added.ID)
			return nil
		},
	}
	in.register(cmd, string(knowledge.FormatMarkdown), "body format: markdown or tiptap (TipTap/ProseMirror JSON)")
	cmd.Flags().BoolVar(&private, "private", false, "only you may read the note (default: the whole workspace)")
	return cmd
}

func newNotesEditCmd(e *env) *cobra.Command {
	var in noteInput
	var visibility string
	cmd := &cobra.Command{
		Use:   "edit ID FILE | edit ID -",
		Short: "Replace a note you own with a file's or stdin's text",
		Long: "edit replaces the body of a note you own. The title is --title, else the new text's front matter or\n" +
			"first heading, else the note's; the format is --format, else the note's; tags are the new text's front\n" +
			"matter's and --tag's, else the note's; visibility is --visibility, else the note's.",
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			id, src := args[0], args[1]
			scope, st, err := e.openScopedNotes(ctx)
			if err != nil {
				return err
			}
			defer st.Close()
			stored, err := st.GetNote(ctx, scope, id)
			if err != nil {
				return noteError("edit", id, scope, st, err)
			}
			if stored.Owner != scope.User {
				return noteError("edit", id, scope, st, &notOwnerError{owner: stored.Owner})
			}
			if in.format == "" {
				in.format = string(stored.Format)
			}
			n, err := in.read(ctx, cmd.InOrStdin(), src)
			if err != nil {
				return err
			}
			n.ID, n.Title = stored.ID, cmp.Or(n.Title, stored.Title)
			if len(n.Tags) == 0 {
				n.Tags = stored.Tags
			}
			n.Visibility = stored.Visibility
			if visibility != "" {
				n.Visibility = knowledge.Visibility(strings.ToLower(visibility))
				if n.Visibility != knowledge.VisibilityWorkspace && n.Visibility != knowledge.VisibilityPrivate {
					return usageErrorf("--visibility %q: want %s or %s", textsafe.Line(visibility), knowledge.VisibilityWorkspace, knowledge.VisibilityPrivate)
				}
			}
			if err := chunkNote(&n, src); err != nil {
				return err
			}
			ingest.SetNoteID(&n, stored.ID)
			updated, err := st.UpdateNote(ctx, scope, n)
			if err != nil {
				return noteError("edit", id, scope, st, err)
			}
			what := "updated"
			if updated.UpdatedAt.Equal(stored.UpdatedAt) {
				what = "unchanged"
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s %s\n", updated.ID, what)
			return nil
		},
	}
	in.register(cmd, "", "body format of the new text: markdown or tiptap (default: the note's)")
	cmd.Flags().StringVar(&visibility, "visibility", "", "workspace or private (default: the note's)")
	return cmd
}

func newNotesRmCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "rm ID",
		Short: "Delete a note you own; it leaves answers at once",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			id := args[0]
			scope, st, err := e.openScopedNotes(ctx)
			if err != nil {
				return err
			}
			defer st.Close()
			// Read first so a refusal can name the owner.
			stored, err := st.GetNote(ctx, scope, id)
			if err != nil {
				return noteError("delete", id, scope, st, err)
			}
			if stored.Owner != scope.User {
				return noteError("delete", id, scope, st, &notOwnerError{owner: stored.Owner})
			}
			if err := st.DeleteNote(ctx, scope, id); err != nil {
				return noteError("delete", id, scope, st, err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s deleted\n", stored.ID)
			return nil
		},
	}
}

func newNotesListCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "The notes you may read: the workspace's and your private ones, newest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			scope, st, err := e.openScopedNotes(ctx)
			if err != nil {
				return err
			}
			defer st.Close()
			list, err := st.ListNotes(ctx, scope)
			if err != nil {
				return fmt.Errorf("list the notes of workspace %q in %s: %w", scope.Workspace, st.Describe(), err)
			}
			out := cmd.OutOrStdout()
			if asJSON {
				if list == nil {
					list = []knowledge.NoteSummary{} // [] rather than null for scripts
				}
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(list)
			}
			if len(list) == 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "docent: no notes in workspace %q yet (docent notes add adds one)\n", textsafe.Line(scope.Workspace))
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tVISIBILITY\tOWNER\tUPDATED\tTITLE")
			for _, n := range list {
				// Owners and titles come from people and files: Line keeps
				// escape sequences, tabs and newlines out of the columns.
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", n.ID, n.Visibility, textsafe.Line(n.Owner),
					n.UpdatedAt.UTC().Format("2006-01-02 15:04"), textsafe.Line(n.Title))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
	return cmd
}

func newNotesImportCmd(e *env) *cobra.Command {
	var dryRun, private bool
	cmd := &cobra.Command{
		Use:   "import DIR | import FILE.jsonl",
		Short: "Import many notes: a folder of markdown files, or JSON Lines of markdown or TipTap notes",
		Long: "import backfills notes into --workspace: every markdown file under DIR (front matter may give title\n" +
			"and tags), or every line of FILE.jsonl:\n" +
			"  {\"title\": \"...\", \"body\": \"markdown\" or {TipTap}, \"format\": \"markdown\"|\"tiptap\", \"tags\": [...],\n" +
			"   \"visibility\": \"workspace\"|\"private\", \"owner\": \"...\"}\n" +
			"A note without an owner gets --user, one without a visibility gets workspace (private with --private).\n" +
			"Files and lines that are not notes are skipped with a warning naming them. --dry-run reads and chunks\n" +
			"everything and reports what would be written, writing nothing.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			began := time.Now()
			scope, err := e.scope()
			if err != nil {
				return err
			}
			vis := knowledge.VisibilityWorkspace
			if private {
				vis = knowledge.VisibilityPrivate
			}
			notes, warnings, err := readNotesForImport(ctx, args[0], scope, vis)
			if err != nil {
				return err
			}
			stderr := cmd.ErrOrStderr()
			printWarnings(stderr, warnings)
			skipped := len(warnings)
			out := cmd.OutOrStdout()
			if dryRun {
				r := store.ImportReport{Notes: len(notes), Skipped: skipped, Duration: time.Since(began)}
				for _, n := range notes {
					r.Chunks += len(n.Chunks)
				}
				fmt.Fprintf(out, "dry run: would import %s; nothing written\n", r)
				return nil
			}
			st, err := e.openNotesStore(ctx)
			if err != nil {
				return err
			}
			defer st.Close()
			var progress func(int)
			if len(notes) > store.ImportBatchSize {
				progress = func(done int) {
					fmt.Fprintf(stderr, "docent: imported %d of %d notes\n", done, len(notes))
				}
			}
			r, err := st.ImportNotes(ctx, notes, progress)
			r.Skipped += skipped
			r.Duration = time.Since(began)
			if err != nil {
				// Earlier batches are stored: say how many, so a rerun is
				// not taken for a clean one.
				return fmt.Errorf("import notes into %s (%s before the failure): %w", st.Describe(), r, err)
			}
			fmt.Fprintf(out, "imported %s\n", r)
			return nil
		},
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "read and chunk the notes and report what would be written, writing nothing")
	cmd.Flags().BoolVar(&private, "private", false, "notes that do not say their visibility are private to their owner (default: the workspace's)")
	return cmd
}

// readNotesForImport reads a folder of markdown or a JSON Lines file as
// notes of scope's workspace, with owner and visibility filled in and
// chunks made. A note that cannot be chunked or stored is a warning, so
// the store skips nothing silently that a dry run would count.
func readNotesForImport(ctx context.Context, src string, scope knowledge.Scope, vis knowledge.Visibility) ([]knowledge.Note, []ingest.Warning, error) {
	info, err := os.Stat(src)
	if err != nil {
		return nil, nil, usageErrorf("notes to import: %v", err)
	}
	var notes []knowledge.Note
	var warnings []ingest.Warning
	switch ext := strings.ToLower(filepath.Ext(src)); {
	case info.IsDir():
		notes, warnings, err = ingest.ReadNotesDir(ctx, os.DirFS(src), src)
		if err != nil {
			if errors.Is(err, ingest.ErrNoNotes) {
				return nil, nil, &exitError{code: 2, err: err}
			}
			return nil, nil, err
		}
		for i := range warnings {
			warnings[i].Path = filepath.Join(src, warnings[i].Path)
		}
	case ext == ".jsonl" || ext == ".ndjson":
		f, err := os.Open(src)
		if err != nil {
			return nil, nil, fmt.Errorf("notes to import: %w", err)
		}
		defer f.Close()
		notes, warnings, err = ingest.ReadNotesJSONL(ctx, f)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", src, err)
		}
		for i := range warnings {
			warnings[i].Path = src
		}
	default:
		return nil, nil, usageErrorf("notes to import: %s is neither a folder nor a .jsonl file (docent notes add adds one markdown file)", textsafe.Line(src))
	}
	problems, err := prepareImport(ctx, notes, scope, vis)
	if err != nil {
		return nil, nil, err
	}
	kept := notes[:0]
	first := make(map[string]int, len(notes))
	for i, n := range notes {
		if problems[i] == nil {
			if j, dup := first[n.ID]; dup {
				problems[i] = fmt.Errorf("%q: the same note, owner and workspace as note %d", textsafe.Line(n.Title), j+1)
			} else {
				first[n.ID] = i
			}
		}
		if problems[i] != nil {
			warnings = append(warnings, ingest.Warning{Path: src, Msg: fmt.Sprintf("note %d: %v", i+1, problems[i]), Kind: ingest.Problem})
			continue
		}
		kept = append(kept, n)
	}
	return kept, warnings, nil
}

// prepareImport gives every note its workspace, an owner and a
// visibility when it has none, its id (importID) and its chunks, on every core: chunking is
// most of an import's work. problems[i] says why notes[i] cannot be
// stored (no text, or what store.PrepareNote refuses), so nothing is
// skipped silently by the store that a dry run would count.
func prepareImport(ctx context.Context, notes []knowledge.Note, scope knowledge.Scope, vis knowledge.Visibility) ([]error, error) {
	problems := make([]error, len(notes))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(notes) || ctx.Err() != nil {
					return
				}
				n := &notes[i]
				n.Workspace = scope.Workspace
				if n.Owner == "" {
					n.Owner = scope.User
				}
				if n.Visibility == "" {
					n.Visibility = vis
				}
				if err := ingest.ChunkNote(n); err != nil {
					problems[i] = err
				} else if ingest.SetNoteID(n, importID(*n)); len(n.Chunks) == 0 {
					problems[i] = fmt.Errorf("%q: no text to answer from", textsafe.Line(n.Title))
				} else if _, err := store.PrepareNote(*n); err != nil {
					problems[i] = err
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("prepare notes for import: %w", err)
	}
	return problems, nil
}

// importNamespace makes imported notes' ids (uuid version 5).
var importNamespace = uuid.MustParse("6f1d6a53-3c1e-4b4f-9a43-0c5d0f1e2a77")

// importID is an imported note's id, made of its workspace, owner and
// content, so importing the same notes again (a rerun after a failed
// batch, an export read twice) stores each once: the store skips an id
// it holds. A note deleted since is not brought back.
func importID(n knowledge.Note) string {
	return uuid.NewSHA1(importNamespace, fmt.Appendf(nil, "%d:%s%d:%s%s", len(n.Workspace), n.Workspace, len(n.Owner), n.Owner, n.ContentHash)).String()
}

func newNotesReindexCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "reindex",
		Short: "Re-chunk every note of --workspace, rewriting the chunks that changed",
		Long: "reindex makes every note's chunks again, as this version of docent makes them, and rewrites the ones\n" +
			"that changed: run it after an upgrade changes how notes are chunked. Notes themselves are left alone.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			scope, st, err := e.openScopedNotes(ctx)
			if err != nil {
				return err
			}
			defer st.Close()
			r, err := st.ReindexNotes(ctx, scope.Workspace, ingest.NoteChunks)
			if err != nil {
				return fmt.Errorf("reindex the notes of workspace %q in %s: %w", scope.Workspace, st.Describe(), err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "reindexed %s\n", r)
			return nil
		},
	}
}

// chunkNote makes a note's chunks, refusing a note with no text: it could
// never be an answer, and would only fill the list.
func chunkNote(n *knowledge.Note, src string) error {
	if err := ingest.ChunkNote(n); err != nil {
		return fmt.Errorf("note %s: %w", inputName(src), err)
	}
	if len(n.Chunks) == 0 {
		return usageErrorf("note %s: no text to answer from", inputName(src))
	}
	return nil
}

// notOwnerError is store.ErrNotOwner with the owner's name, which the
// caller may know: the note is one they can see.
type notOwnerError struct{ owner string }

func (e *notOwnerError) Error() string { return store.ErrNotOwner.Error() }
func (e *notOwnerError) Unwrap() error { return store.ErrNotOwner }

// noteError turns the store's refusals into plain sentences naming the
// note, the workspace and the user; a not-found never says whether the
// note exists elsewhere, as the store's error does not.
func noteError(op, id string, scope knowledge.Scope, st notesStore, err error) error {
	id = textsafe.Line(id)
	var owner *notOwnerError
	switch {
	case errors.As(err, &owner):
		return fmt.Errorf("cannot %s note %s: it belongs to %s, and only its owner may change it (you are %s)",
			op, id, textsafe.Line(owner.owner), textsafe.Line(scope.User))
	case errors.Is(err, store.ErrNotOwner):
		return fmt.Errorf("cannot %s note %s: only its owner may change it (you are %s)", op, id, textsafe.Line(scope.User))
	case errors.Is(err, store.ErrNoteNotFound):
		return fmt.Errorf("cannot %s note %s: no such note in workspace %s that %s may read (docent notes list shows them)",
			op, id, textsafe.Line(scope.Workspace), textsafe.Line(scope.User))
	}
	return fmt.Errorf("%s note %s in %s: %w", op, id, st.Describe(), err)
}

// noteInput is how add and edit read a note's text: the flags that shape
// it and the reader.
type noteInput struct {
	title  string
	format string
	tags   []string
}

func (in *noteInput) register(cmd *cobra.Command, format, formatUsage string) {
	f := cmd.Flags()
	f.StringVar(&in.title, "title", "", "the note's title (default: front matter's title, else the first heading)")
	f.StringVar(&in.format, "format", format, formatUsage)
	f.StringArrayVar(&in.tags, "tag", nil, "a tag for the note, added to front matter's (repeat for more)")
}

// untitledName is the name a note's text is read under, so ingest's last
// resort title, the file name, is recognizably no title at all: add then
// falls back to the real file's name, edit to the note's title.
const untitledName = "-.md"

// read reads a note's text from src (a file, or - for stdin) and returns
// it with Title (empty when neither --title nor the text gives one),
// Body, Format and Tags set. Markdown is read as a notes folder's file
// is, front matter and all; TipTap as a JSON Lines note is.
func (in *noteInput) read(ctx context.Context, stdin io.Reader, src string) (knowledge.Note, error) {
	format := knowledge.BodyFormat(strings.ToLower(strings.TrimSpace(in.format)))
	if format != knowledge.FormatMarkdown && format != knowledge.FormatTipTap {
		return knowledge.Note{}, usageErrorf("--format %q: want %s or %s", textsafe.Line(in.format), knowledge.FormatMarkdown, knowledge.FormatTipTap)
	}
	data, err := readNoteSource(stdin, src)
	if err != nil {
		return knowledge.Note{}, err
	}
	name := inputName(src)
	var n knowledge.Note
	switch format {
	case knowledge.FormatMarkdown:
		notes, warnings, err := ingest.ReadNotesDir(ctx, fstest.MapFS{untitledName: {Data: data, Mode: 0o444}}, name)
		if err != nil {
			return knowledge.Note{}, fmt.Errorf("note %s: %w", name, err)
		}
		if len(warnings) > 0 || len(notes) != 1 {
			return knowledge.Note{}, noteTextError(name, warnings)
		}
		n = notes[0]
		if n.Title == untitledName {
			n.Title = ""
		}
	case knowledge.FormatTipTap:
		if !json.Valid(data) {
			return knowledge.Note{}, usageErrorf("note %s: --format tiptap, but the text is not JSON", name)
		}
		n, err = readTipTap(ctx, name, data, in.title)
		if err != nil {
			return knowledge.Note{}, err
		}
	}
	if t := textsafe.Line(in.title); t != "" {
		n.Title = t
	}
	n.Tags = ingest.NoteTags(append(n.Tags, in.tags...))
	return n, nil
}

// readTipTap reads a TipTap document as a JSON Lines note is read, title
// (when given) and all. Without a title or a heading the reader refuses
// the note, so it is read again titled untitledName, and a note still
// refused is refused for its body.
func readTipTap(ctx context.Context, name string, data []byte, title string) (knowledge.Note, error) {
	var n knowledge.Note
	var warnings []ingest.Warning
	for _, t := range []string{title, untitledName} {
		// Marshal would escape <, > and & inside the raw body, and the
		// note must keep the body the user wrote, only compacted.
		var line bytes.Buffer
		enc := json.NewEncoder(&line)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(struct {
			Body   json.RawMessage `json:"body"`
			Format string          `json:"format"`
			Title  string          `json:"title"`
		}{data, string(knowledge.FormatTipTap), t}); err != nil {
			return n, fmt.Errorf("note %s: %w", name, err)
		}
		notes, warns, err := ingest.ReadNotesJSONL(ctx, &line)
		if err != nil {
			return n, fmt.Errorf("note %s: %w", name, err)
		}
		if len(warns) == 0 && len(notes) == 1 {
			n = notes[0]
			if n.Title == untitledName {
				n.Title = ""
			}
			return n, nil
		}
		for i := range warns {
			warns[i].Line = 0 // the line is ours, not the file's
		}
		warnings = warns
		if title != "" {
			break
		}
	}
	return n, noteTextError(name, warnings)
}

// noteTextError is a note's text that is no note, with ingest's reason.
func noteTextError(name string, warnings []ingest.Warning) error {
	var why []string
	for _, w := range warnings {
		w.Path = name
		why = append(why, w.String())
	}
	if len(why) == 0 {
		return usageErrorf("note %s: not a note", name)
	}
	return usageErrorf("%s", strings.Join(why, "; "))
}

// readNoteSource reads a note's text, refusing one past ingest's limit
// without reading all of it.
func readNoteSource(stdin io.Reader, src string) ([]byte, error) {
	r := stdin
	if src != "-" {
		f, err := os.Open(src)
		if err != nil {
			return nil, usageErrorf("note file: %v", err)
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, ingest.MaxNoteSize+1))
	if err != nil {
		return nil, fmt.Errorf("read note %s: %w", inputName(src), err)
	}
	if len(data) > ingest.MaxNoteSize {
		return nil, usageErrorf("note %s: over the limit of %d bytes for one note", inputName(src), ingest.MaxNoteSize)
	}
	return data, nil
}

// inputName names a note's source in messages.
func inputName(src string) string {
	if src == "-" {
		return "stdin"
	}
	return textsafe.Line(src)
}

// fileTitle titles a note after its file, as import titles a folder's
// files that have no title: the name without extension, - and _ as spaces.
func fileTitle(path string) string {
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	return textsafe.Line(strings.NewReplacer("-", " ", "_", " ").Replace(name))
}
