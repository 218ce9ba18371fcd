package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/memory"
	"github.com/docent-sh/docent/store/postgres"
	"github.com/docent-sh/docent/store/postgres/pgtest"
)

// notesCLI is a docent for alice in workspace acme, whose data directory
// (the embedded notes file's home) is the test's own.
type notesCLI struct {
	*cli
	dataHome string
	dbURL    string // "" for the embedded store
}

func newNotesCLI(t *testing.T, dbURL string) *notesCLI {
	t.Helper()
	data := t.TempDir()
	c := newCLI(t, "XDG_DATA_HOME", data, "DOCENT_WORKSPACE", "acme", "DOCENT_USER", "alice")
	if dbURL != "" {
		c.env["DATABASE_URL"] = dbURL
	}
	return &notesCLI{cli: c, dataHome: data, dbURL: dbURL}
}

// as runs docent as another user of the same workspace.
func (c *notesCLI) as(user string, args ...string) (stdout, stderr string, code int) {
	c.t.Helper()
	old := c.env["DOCENT_USER"]
	c.env["DOCENT_USER"] = user
	defer func() { c.env["DOCENT_USER"] = old }()
	return c.run(args...)
}

func (c *notesCLI) stdin(input string, args ...string) (stdout, stderr string, code int) {
	c.t.Helper()
	return c.runWithInput(context.Background(), strings.NewReader(input), args...)
}

func (c *notesCLI) notesFile() string { return filepath.Join(c.dataHome, "docent", "notes.jsonl") }

// peek opens the store the commands wrote, as another process would.
func (c *notesCLI) peek() store.Notes {
	c.t.Helper()
	if c.dbURL != "" {
		st, err := postgres.Open(c.t.Context(), c.dbURL, postgres.Options{})
		if err != nil {
			c.t.Fatal(err)
		}
		c.t.Cleanup(st.Close)
		return st
	}
	st, err := memory.Open(c.t.Context(), memory.Options{NotesPath: c.notesFile()})
	if err != nil {
		c.t.Fatal(err)
	}
	return st
}

func (c *notesCLI) list(user string) []knowledge.NoteSummary {
	c.t.Helper()
	out, errOut, code := c.as(user, "notes", "list", "--json")
	if code != 0 {
		c.t.Fatalf("notes list --json as %s: exit %d: %s", user, code, errOut)
	}
	var list []knowledge.NoteSummary
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		c.t.Fatalf("notes list --json: %v\n%s", err, out)
	}
	return list
}

func titles(list []knowledge.NoteSummary) []string {
	var s []string
	for _, n := range list {
		s = append(s, n.Title)
	}
	slices.Sort(s)
	return s
}

var uuidLine = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n$`)

// testNotesRoundTrip adds, lists, edits and removes notes through the
// commands, checking each step in the store itself.
func testNotesRoundTrip(t *testing.T, c *notesCLI) {
	ctx := t.Context()
	alice := knowledge.Scope{Workspace: "acme", User: "alice"}
	file := filepath.Join(t.TempDir(), "refunds.md")
	writeFile(t, file, "---\ntitle: Refund workaround\ntags: [Billing]\n---\n## Steps\n\nOpen the admin panel and refund the charge.\n")

	out, errOut, code := c.run("notes", "add", "--tag", "urgent", file)
	if code != 0 || !uuidLine.MatchString(out) {
		t.Fatalf("notes add FILE: exit %d, output %q: %s", code, out, errOut)
	}
	teamID := strings.TrimSpace(out)
	out, errOut, code = c.stdin("Alice's own reminder: the zebra password rotates monthly.\n",
		"notes", "add", "--private", "--title", "Zebra reminder", "-")
	if code != 0 || !uuidLine.MatchString(out) {
		t.Fatalf("notes add --private -: exit %d, output %q: %s", code, out, errOut)
	}
	privateID := strings.TrimSpace(out)

	// Stored as written, its chunks under the note's own slug.
	n, err := c.peek().GetNote(ctx, alice, teamID)
	if err != nil {
		t.Fatalf("the added note is not in the store: %v", err)
	}
	if n.Title != "Refund workaround" || n.Owner != "alice" || n.Workspace != "acme" || n.Visibility != knowledge.VisibilityWorkspace ||
		!slices.Equal(n.Tags, []string{"billing", "urgent"}) || n.Format != knowledge.FormatMarkdown || len(n.Chunks) == 0 {
		t.Fatalf("stored note: %+v", n)
	}
	for _, ch := range n.Chunks {
		if ch.DocSlug != knowledge.NoteSlug(teamID) {
			t.Errorf("chunk %d slug %q, want %q", ch.Index, ch.DocSlug, knowledge.NoteSlug(teamID))
		}
	}

	// The table, and what another user of the workspace sees.
	out, errOut, code = c.run("notes", "list")
	if code != 0 {
		t.Fatalf("notes list: exit %d: %s", code, errOut)
	}
	row := regexp.MustCompile(`(?m)^` + teamID + `\s+workspace\s+alice\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+Refund workaround$`)
	if !row.MatchString(out) || !strings.Contains(out, privateID) || !strings.HasPrefix(out, "ID") {
		t.Fatalf("notes list:\n%s", out)
	}
	if got := titles(c.list("alice")); !slices.Equal(got, []string{"Refund workaround", "Zebra reminder"}) {
		t.Fatalf("alice lists %v", got)
	}
	out, _, code = c.as("bob", "notes", "list")
	if code != 0 || !strings.Contains(out, teamID) || strings.Contains(out, privateID) || strings.Contains(out, "Zebra") {
		t.Fatalf("bob's notes list shows alice's private note or misses the team's (exit %d):\n%s", code, out)
	}
	if got := titles(c.list("bob")); !slices.Equal(got, []string{"Refund workaround"}) {
		t.Fatalf("bob lists %v, want only the team note", got)
	}

	// Only the owner edits or removes; the refusal names the owner.
	edited := filepath.Join(t.TempDir(), "edit.md")
	writeFile(t, edited, "Use the billing page now; the admin panel is gone.\n")
	_, errOut, code = c.as("bob", "notes", "edit", teamID, edited)
	if code != 1 || !strings.Contains(errOut, "belongs to alice") || !strings.Contains(errOut, "you are bob") {
		t.Fatalf("bob editing alice's note: exit %d: %s", code, errOut)
	}
	_, errOut, code = c.as("bob", "notes", "edit", privateID, edited)
	if code != 1 || !strings.Contains(errOut, "no such note") || strings.Contains(errOut, "alice") {
		t.Fatalf("bob editing alice's private note: exit %d, want a not-found that names no owner: %s", code, errOut)
	}
	_, errOut, code = c.as("bob", "notes", "rm", teamID)
	if code != 1 || !strings.Contains(errOut, "belongs to alice") {
		t.Fatalf("bob removing alice's note: exit %d: %s", code, errOut)
	}
	if after, _ := c.peek().GetNote(ctx, alice, teamID); after.ContentHash != n.ContentHash {
		t.Fatal("a refused edit changed the note")
	}

	out, errOut, code = c.run("notes", "edit", teamID, edited)
	if code != 0 || out != teamID+" updated\n" {
		t.Fatalf("notes edit: exit %d, output %q: %s", code, out, errOut)
	}
	n, err = c.peek().GetNote(ctx, alice, teamID)
	if err != nil || !strings.Contains(n.Body, "billing page") || n.Title != "Refund workaround" ||
		len(n.Chunks) == 0 || !strings.Contains(n.Chunks[0].Text, "billing page") || n.Chunks[0].DocSlug != knowledge.NoteSlug(teamID) {
		t.Fatalf("edited note: %+v (%v)", n, err)
	}
	if out, _, _ = c.run("notes", "edit", teamID, edited); out != teamID+" unchanged\n" {
		t.Errorf("the same edit again: %q, want unchanged", out)
	}

	out, errOut, code = c.run("notes", "rm", teamID)
	if code != 0 || out != teamID+" deleted\n" {
		t.Fatalf("notes rm: exit %d, output %q: %s", code, out, errOut)
	}
	if _, err := c.peek().GetNote(ctx, alice, teamID); !errors.Is(err, store.ErrNoteNotFound) {
		t.Fatalf("removed note read back: %v", err)
	}
	if got := titles(c.list("alice")); !slices.Equal(got, []string{"Zebra reminder"}) {
		t.Fatalf("after rm alice lists %v", got)
	}
	_, errOut, code = c.run("notes", "rm", teamID)
	if code != 1 || !strings.Contains(errOut, "no such note") {
		t.Fatalf("removing a removed note: exit %d: %s", code, errOut)
	}
}

func TestNotesRoundTripEmbedded(t *testing.T) {
	c := newNotesCLI(t, "")
	testNotesRoundTrip(t, c)
	if _, err := os.Stat(filepath.Join(c.dataHome, "docent", "notes.jsonl")); err != nil {
		t.Fatalf("notes file not under $XDG_DATA_HOME/docent: %v", err)
	}
}

func TestNotesRoundTripPostgres(t *testing.T) {
	c := newNotesCLI(t, pgtest.NewDatabase(t))
	testNotesRoundTrip(t, c)
	if _, err := os.Stat(c.notesFile()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("with a database, notes went to a file too: %v", err)
	}
}

func TestNotesNeedAWorkspace(t *testing.T) {
	c := newNotesCLI(t, "")
	delete(c.env, "DOCENT_WORKSPACE")
	for _, args := range [][]string{
		{"notes", "list"}, {"notes", "add", "-"}, {"notes", "rm", "x"}, {"notes", "edit", "x", "-"},
		{"notes", "import", "."}, {"notes", "reindex"},
	} {
		_, errOut, code := c.stdin("# T\n\nbody\n", args...)
		if code != 2 || !strings.Contains(errOut, "no workspace: set --workspace or DOCENT_WORKSPACE") {
			t.Errorf("%v without a workspace: exit %d: %s", args, code, errOut)
		}
	}
	if _, err := os.Stat(c.notesFile()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a refused command wrote the notes file: %v", err)
	}
	// The flag sets it as the variable does.
	if _, errOut, code := c.run("--workspace", "acme", "notes", "list"); code != 0 {
		t.Fatalf("notes list --workspace acme: exit %d: %s", code, errOut)
	}
}

// Without --user the owner is the person logged in.
func TestNotesUserDefaultsToTheOSUser(t *testing.T) {
	c := newNotesCLI(t, "")
	delete(c.env, "DOCENT_USER")
	c.env["USER"] = "fallback-user"
	_, e := newRoot(c.getenv)
	want := e.user()
	if want == "" {
		t.Fatal("no user name from the OS or $USER")
	}
	if _, errOut, code := c.stdin("# Mine\n\nText.\n", "notes", "add"); code != 0 {
		t.Fatalf("notes add: exit %d: %s", code, errOut)
	}
	if got := c.list(want); len(got) != 1 || got[0].Owner != want {
		t.Fatalf("owner %v, want %q", got, want)
	}
}

func (c *cli) getenv(k string) string { return c.env[k] }

func TestNotesAddRefusals(t *testing.T) {
	c := newNotesCLI(t, "")
	for _, tc := range []struct {
		input string
		args  []string
		want  string
	}{
		{"just text\n", nil, "has no title: pass --title"},
		{"", []string{"--title", "T"}, "no body"},
		{"{not json", []string{"--format", "tiptap", "--title", "T"}, "not JSON"},
		{`{"type":"doc","content":[{"type":"bogus"}]}`, []string{"--format", "tiptap", "--title", "T"}, "no text to answer from"},
		{"# T\n", []string{"--format", "html"}, `--format "html"`},
	} {
		_, errOut, code := c.stdin(tc.input, append([]string{"notes", "add"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("notes add %v of %q: exit %d: %s, want %q", tc.args, tc.input, code, errOut, tc.want)
		}
	}
	_, errOut, code := c.run("notes", "add", filepath.Join(t.TempDir(), "missing.md"))
	if code != 2 || !strings.Contains(errOut, "missing.md") {
		t.Errorf("notes add of a missing file: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(c.notesFile()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a refused add wrote the notes file: %v", err)
	}
}

// A TipTap note takes its title from its first heading, else the file.
func TestNotesAddTipTap(t *testing.T) {
	c := newNotesCLI(t, "")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "headed.json"), `{"type":"doc","content":[{"type":"heading","attrs":{"level":1},"content":[{"type":"text","text":"Reset 2FA"}]},{"type":"paragraph","content":[{"type":"text","text":"Ask the admin to reset it."}]}]}`)
	writeFile(t, filepath.Join(dir, "saved_reply.json"), `{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"Thanks for waiting."}]}]}`)
	for _, f := range []string{"headed.json", "saved_reply.json"} {
		if _, errOut, code := c.run("notes", "add", "--format", "tiptap", filepath.Join(dir, f)); code != 0 {
			t.Fatalf("notes add --format tiptap %s: exit %d: %s", f, code, errOut)
		}
	}
	if got := titles(c.list("alice")); !slices.Equal(got, []string{"Reset 2FA", "saved reply"}) {
		t.Fatalf("titles %q", got)
	}
}

func TestNotesImportFolder(t *testing.T) {
	c := newNotesCLI(t, "")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "billing", "refunds.md"), "# Refunds\n\nRefund from the admin panel.\n")
	writeFile(t, filepath.Join(dir, "login.md"), "---\ntags: [auth]\n---\nLOGIN LOOPS\n\nClear the cookies.\n")
	writeFile(t, filepath.Join(dir, "empty.md"), "---\ntitle: Empty\n---\n")

	out, errOut, code := c.run("notes", "import", "--dry-run", dir)
	if code != 0 || !strings.Contains(out, "would import 2 notes, 2 chunks, 1 skipped") || !strings.Contains(out, "nothing written") {
		t.Fatalf("import --dry-run: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(errOut, filepath.Join(dir, "empty.md")) {
		t.Errorf("the skipped file is not named: %s", errOut)
	}
	if _, err := os.Stat(c.notesFile()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a dry run wrote the notes file: %v", err)
	}

	out, errOut, code = c.run("notes", "import", "--private", dir)
	if code != 0 || !strings.Contains(out, "imported 2 notes, 2 chunks, 1 skipped") {
		t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
	}
	list := c.list("alice")
	if got := titles(list); !slices.Equal(got, []string{"Refunds", "login"}) {
		t.Fatalf("imported titles %q", got)
	}
	for _, n := range list {
		if n.Owner != "alice" || n.Visibility != knowledge.VisibilityPrivate || n.ChunkCount == 0 {
			t.Errorf("imported note %+v: want alice's, private, chunked", n)
		}
	}
	if got := c.list("bob"); len(got) != 0 {
		t.Fatalf("bob sees alice's private imports: %v", got)
	}
}

func TestNotesImportJSONL(t *testing.T) {
	c := newNotesCLI(t, "")
	file := filepath.Join(t.TempDir(), "export.jsonl")
	writeFile(t, file, strings.Join([]string{
		`{"title": "Bob's private trick", "body": "Restart the sync worker.", "owner": "bob", "visibility": "private"}`,
		`{"body": {"type":"doc","content":[{"type":"heading","attrs":{"level":1},"content":[{"type":"text","text":"Export CSV"}]},{"type":"paragraph","content":[{"type":"text","text":"Use the reports page."}]}]}, "tags": "reports, csv"}`,
		`{"title": "broken", "body": "x"`,
		``,
		`{"title": "No body"}`,
		`{"title": "Team reply", "body": "We are on it.", "visibility": "workspace"}`,
		`{"title": "Team reply", "body": "We are on it.", "tags": ["again"]}`,
	}, "\n")+"\n")

	out, errOut, code := c.run("notes", "import", "--dry-run", file)
	if code != 0 || !strings.Contains(out, "would import 3 notes, 3 chunks, 3 skipped") {
		t.Fatalf("import --dry-run: exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{file + ":3: not a JSON object", file + ":5: no body", `note 4: "Team reply": the same note, owner and workspace as note 3`} {
		if !strings.Contains(errOut, want) {
			t.Errorf("warnings lack %q:\n%s", want, errOut)
		}
	}
	if _, err := os.Stat(c.notesFile()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a dry run wrote the notes file: %v", err)
	}

	out, errOut, code = c.run("notes", "import", file)
	if code != 0 || !strings.Contains(out, "imported 3 notes, 3 chunks, 3 skipped") {
		t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
	}
	if got := titles(c.list("alice")); !slices.Equal(got, []string{"Export CSV", "Team reply"}) {
		t.Fatalf("alice sees %q", got)
	}
	if got := titles(c.list("bob")); !slices.Equal(got, []string{"Bob's private trick", "Export CSV", "Team reply"}) {
		t.Fatalf("bob sees %q", got)
	}
	for _, n := range c.list("bob") {
		wantOwner := "alice"
		if n.Title == "Bob's private trick" {
			wantOwner = "bob"
		}
		if n.Owner != wantOwner {
			t.Errorf("%q owned by %q, want %q", n.Title, n.Owner, wantOwner)
		}
		if n.Title == "Export CSV" && !slices.Equal(n.Tags, []string{"reports", "csv"}) {
			t.Errorf("Export CSV tags %q", n.Tags)
		}
	}
	// Another workspace sees none of it.
	if out, _, code := c.run("--workspace", "other", "notes", "list", "--json"); code != 0 || strings.TrimSpace(out) != "[]" {
		t.Fatalf("workspace other lists %q", out)
	}

	// The same notes again are each stored once already.
	out, errOut, code = c.run("notes", "import", file)
	if code != 0 || !strings.Contains(out, "imported 0 notes, 0 chunks, 6 skipped") {
		t.Fatalf("import again: exit %d\n%s%s", code, out, errOut)
	}
	if got := c.list("bob"); len(got) != 3 {
		t.Fatalf("after importing twice bob lists %d notes, want 3", len(got))
	}

	// A reindex of unchanged notes rewrites nothing.
	out, errOut, code = c.run("notes", "reindex")
	if code != 0 || !strings.Contains(out, "reindexed 0 notes, 0 chunks, 3 skipped") {
		t.Fatalf("reindex: exit %d\n%s%s", code, out, errOut)
	}
}

func TestNotesImportRefusals(t *testing.T) {
	c := newNotesCLI(t, "")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.md"), "# A\n\ntext\n")
	writeFile(t, filepath.Join(dir, "empty", "readme.txt"), "not markdown\n")
	for _, tc := range []struct{ arg, want string }{
		{filepath.Join(dir, "a.md"), "neither a folder nor a .jsonl file"},
		{filepath.Join(dir, "missing"), "missing"},
		{filepath.Join(dir, "empty"), "no notes found"},
	} {
		_, errOut, code := c.run("notes", "import", tc.arg)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("import %s: exit %d: %s, want %q", tc.arg, code, errOut, tc.want)
		}
	}
}

func TestNotesImportJSONLOnPostgres(t *testing.T) {
	c := newNotesCLI(t, pgtest.NewDatabase(t))
	file := filepath.Join(t.TempDir(), "export.jsonl")
	var lines []string
	for i := range store.ImportBatchSize + 10 {
		lines = append(lines, fmt.Sprintf(`{"title": "Note %d", "body": "Fact number %d about widgets."}`, i, i))
	}
	lines = append(lines, `not json`)
	writeFile(t, file, strings.Join(lines, "\n"))
	out, errOut, code := c.run("notes", "import", file)
	want := fmt.Sprintf("imported %d notes, %d chunks, 1 skipped", store.ImportBatchSize+10, store.ImportBatchSize+10)
	if code != 0 || !strings.Contains(out, want) {
		t.Fatalf("import: exit %d, want %q\n%s%s", code, want, out, errOut)
	}
	// Progress for an import of more than one batch, and the bad line.
	if !strings.Contains(errOut, fmt.Sprintf("imported %d of %d notes", store.ImportBatchSize, store.ImportBatchSize+10)) ||
		!strings.Contains(errOut, fmt.Sprintf("%s:%d: not a JSON object", file, store.ImportBatchSize+11)) {
		t.Errorf("stderr lacks progress or the bad line's warning:\n%s", errOut)
	}
	if got := c.list("bob"); len(got) != store.ImportBatchSize+10 {
		t.Fatalf("bob lists %d notes", len(got))
	}
}

// The text `notes add` and `notes edit` read, any bytes at all: either a
// refusal, or a note ingest can chunk and a store keep, whose title is
// one clean line; a TipTap body is stored as the compacted input, byte
// for byte.
func FuzzNoteInput(f *testing.F) {
	f.Add([]byte("---\ntitle: T\ntags: [a]\n---\n# H\n\nbody\n"), false, "")
	f.Add([]byte("PLAIN CAPS\n\ntext \x1b[31mred\n"), false, "t\x00")
	f.Add([]byte(`{"type":"doc","content":[{"type":"heading","attrs":{"level":1},"content":[{"type":"text","text":"H"}]}]}`), true, "")
	f.Add([]byte(`{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"\u001b[1m x"}]}]}`), true, "T")
	f.Add([]byte("\xff\xfe"), false, "")
	f.Fuzz(func(t *testing.T, data []byte, tiptap bool, title string) {
		in := noteInput{title: title, format: string(knowledge.FormatMarkdown)}
		if tiptap {
			in.format = string(knowledge.FormatTipTap)
		}
		n, err := in.read(context.Background(), bytes.NewReader(data), "-")
		if err != nil {
			return
		}
		if n.Format != knowledge.BodyFormat(in.format) {
			t.Fatalf("format %q, want %q", n.Format, in.format)
		}
		if strings.ContainsFunc(n.Title, unicode.IsControl) || !utf8.ValidString(n.Title) {
			t.Fatalf("title %q is not one clean line", n.Title)
		}
		if tiptap {
			var compact bytes.Buffer
			if err := json.Compact(&compact, data); err != nil {
				t.Fatalf("accepted TipTap that is not JSON: %v", err)
			}
			if n.Body != compact.String() {
				t.Fatalf("TipTap body %q, want the input compacted %q", n.Body, compact.String())
			}
		}
		if n.Title == "" {
			n.Title = "fallback"
		}
		n.Workspace, n.Owner, n.Visibility = "w", "u", knowledge.VisibilityWorkspace
		if err := ingest.ChunkNote(&n); err != nil {
			t.Fatalf("read a note ingest cannot chunk: %v", err)
		}
		if _, err := store.PrepareNote(n); err != nil {
			t.Fatalf("read a note no store keeps: %v", err)
		}
	})
}
