package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
)

// NewNote builds a markdown note with its chunks made the way a test
// needs them, without depending on ingest: one chunk per paragraph of
// body (see NoteChunks).
func NewNote(workspace, owner string, v knowledge.Visibility, title, body string, tags ...string) knowledge.Note {
	n := knowledge.Note{
		Workspace:  workspace,
		Owner:      owner,
		Visibility: v,
		Title:      title,
		Body:       body,
		Format:     knowledge.FormatMarkdown,
		Tags:       tags,
	}
	n.Chunks = NoteChunks(n)
	return n
}

// NoteChunks chunks a note's body one paragraph (blank-line separated
// block) per chunk, the first headed by the title, each with its hash,
// plain text and body count the way Finish derives a doc's.
func NoteChunks(n knowledge.Note) []knowledge.Chunk {
	var chunks []knowledge.Chunk
	for i, para := range strings.Split(strings.TrimSpace(n.Body), "\n\n") {
		content := strings.TrimSpace(para)
		if i == 0 {
			content = strings.TrimSpace("# " + n.Title + "\n\n" + content)
		}
		body := bodyChars(content)
		chunks = append(chunks, knowledge.Chunk{
			HeaderPath:  n.Title,
			Index:       i,
			Content:     content,
			Text:        plainText(content),
			Hash:        md5Hex(content),
			BodyChars:   body,
			HeadingOnly: body == 0,
		})
	}
	return chunks
}

// GenerateNotes returns n small deterministic markdown notes of about
// three chunks each, in workspace "bench", spread over 10 owners, a
// quarter of them private. The same n always yields the same notes.
func GenerateNotes(n int) []knowledge.Note {
	r := rand.New(rand.NewPCG(uint64(n), 0x6e6f746573))
	pick := func(words []string) string { return words[r.IntN(len(words))] }
	notes := make([]knowledge.Note, 0, n)
	for i := range n {
		noun, verb := pick(genNouns), pick(genVerbs)
		v := knowledge.VisibilityWorkspace
		if i%4 == 0 {
			v = knowledge.VisibilityPrivate
		}
		paras := make([]string, 3)
		for p := range paras {
			paras[p] = fmt.Sprintf("When a customer cannot %s the %s, check %s first (case %d-%d).",
				verb, noun, pick(genHeadings), i, p)
		}
		notes = append(notes, NewNote("bench", fmt.Sprintf("agent-%d", i%10), v,
			fmt.Sprintf("Cannot %s a %s", verb, noun), strings.Join(paras, "\n\n"), noun))
	}
	return notes
}

// OpenNotes returns an empty notes store of the test's own (subtests run
// in parallel), cleaned up with t.Cleanup.
type OpenNotes func(t *testing.T) store.Notes

// RunNotes runs the notes conformance suite.
func RunNotes(t *testing.T, open OpenNotes) {
	t.Helper()
	tests := []struct {
		name string
		run  func(t *testing.T, s store.Notes)
	}{
		{"AddGet", testNoteAddGet},
		{"InvalidNotesAreRefused", testInvalidNotes},
		{"Update", testNoteUpdate},
		{"OnlyOwnerWrites", testOnlyOwnerWrites},
		{"Delete", testNoteDelete},
		{"ListNewestFirst", testListNotes},
		{"Generation", testNotesGeneration},
		{"Import", testImportNotes},
		{"Reindex", testReindexNotes},
		{"RecordReads", testRecordNoteReads},
		{"CancelledContext", testNotesCancelled},
		{"ScopeProperty", testScopeProperty},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, open(t))
		})
	}
}

var (
	alice    = knowledge.Scope{Workspace: "acme", User: "alice"}
	bob      = knowledge.Scope{Workspace: "acme", User: "bob"}
	outsider = knowledge.Scope{Workspace: "globex", User: "alice"} // same user name, other team
)

func mustAdd(t *testing.T, s store.Notes, scope knowledge.Scope, n knowledge.Note) knowledge.Note {
	t.Helper()
	got, err := s.AddNote(t.Context(), scope, n)
	if err != nil {
		t.Fatalf("AddNote %q: %v", n.Title, err)
	}
	return got
}

func mustGet(t *testing.T, s store.Notes, scope knowledge.Scope, id string) knowledge.Note {
	t.Helper()
	got, err := s.GetNote(t.Context(), scope, id)
	if err != nil {
		t.Fatalf("GetNote %s as %+v: %v", id, scope, err)
	}
	return got
}

func mustNotesGeneration(t *testing.T, s store.Notes, workspace string) int64 {
	t.Helper()
	g, err := s.NotesGeneration(t.Context(), workspace)
	if err != nil {
		t.Fatalf("NotesGeneration %q: %v", workspace, err)
	}
	return g
}

func mustVisible(t *testing.T, s store.Notes, scope knowledge.Scope) []knowledge.Note {
	t.Helper()
	notes, err := s.VisibleNotes(t.Context(), scope)
	if err != nil {
		t.Fatalf("VisibleNotes as %+v: %v", scope, err)
	}
	return notes
}

// sameNote compares two notes, times by instant (stores may hand back
// another location).
func sameNote(t *testing.T, what string, got, want knowledge.Note) {
	t.Helper()
	if !got.CreatedAt.Equal(want.CreatedAt) || !got.UpdatedAt.Equal(want.UpdatedAt) {
		t.Errorf("%s: times created %v updated %v, want %v %v", what, got.CreatedAt, got.UpdatedAt, want.CreatedAt, want.UpdatedAt)
	}
	got.CreatedAt, got.UpdatedAt, want.CreatedAt, want.UpdatedAt = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %#v\nwant %#v", what, got, want)
	}
}

func ids(notes []knowledge.Note) []string {
	out := make([]string, len(notes))
	for i, n := range notes {
		out[i] = n.ID
	}
	slices.Sort(out)
	return out
}

func testNoteAddGet(t *testing.T, s store.Notes) {
	in := NewNote("ignored", "ignored", knowledge.VisibilityPrivate, "VPN drops every hour",
		"Customers on **Acme VPN** lose the session hourly.\n\nWorkaround: raise the idle timeout — café 東京.", "VPN", " vpn ", "Network")
	in.ID = "00000000-0000-0000-0000-000000000001" // the store assigns its own
	start := time.Now().Add(-time.Second)
	got := mustAdd(t, s, alice, in)

	if _, err := uuid.Parse(got.ID); err != nil || got.ID == in.ID {
		t.Errorf("ID %q: want a fresh uuid (%v)", got.ID, err)
	}
	if got.Workspace != "acme" || got.Owner != "alice" {
		t.Errorf("stored in %q owned by %q, want the caller's scope acme/alice", got.Workspace, got.Owner)
	}
	if got.CreatedAt.Before(start) || !got.UpdatedAt.Equal(got.CreatedAt) {
		t.Errorf("times created %v updated %v, want now and equal", got.CreatedAt, got.UpdatedAt)
	}
	if want := []string{"vpn", "network"}; !slices.Equal(got.Tags, want) {
		t.Errorf("tags %q, want %q", got.Tags, want)
	}
	if want := store.NoteContentHash(got); got.ContentHash != want || want == "" {
		t.Errorf("content hash %q, want %q", got.ContentHash, want)
	}
	if len(got.Chunks) != 2 {
		t.Fatalf("%d chunks, want 2", len(got.Chunks))
	}
	for i, c := range got.Chunks {
		if c.DocSlug != knowledge.NoteSlug(got.ID) || c.Category != "notes" || c.Title != got.Title || c.Index != i {
			t.Errorf("chunk %d: slug %q category %q title %q index %d, want the note's", i, c.DocSlug, c.Category, c.Title, c.Index)
		}
	}
	sameNote(t, "GetNote by owner", mustGet(t, s, alice, got.ID), got)

	// The private note is nobody else's business, and looks like no note.
	for _, other := range []knowledge.Scope{bob, outsider} {
		if _, err := s.GetNote(t.Context(), other, got.ID); !errors.Is(err, store.ErrNoteNotFound) {
			t.Errorf("GetNote of alice's private note as %+v: %v, want ErrNoteNotFound", other, err)
		}
	}
	for _, id := range []string{uuid.NewString(), "not-a-uuid", ""} {
		if _, err := s.GetNote(t.Context(), alice, id); !errors.Is(err, store.ErrNoteNotFound) {
			t.Errorf("GetNote %q: %v, want ErrNoteNotFound", id, err)
		}
	}

	team := mustAdd(t, s, alice, NewNote("", "", knowledge.VisibilityWorkspace, "Refunds", "Refunds take 5 days."))
	sameNote(t, "team note read by bob", mustGet(t, s, bob, team.ID), team)
	if got := ids(mustVisible(t, s, bob)); !slices.Equal(got, []string{team.ID}) {
		t.Errorf("bob sees %v, want only the team note %s", got, team.ID)
	}
	if got := mustVisible(t, s, outsider); len(got) != 0 {
		t.Errorf("another workspace sees %d notes, want none", len(got))
	}
}

func testInvalidNotes(t *testing.T, s store.Notes) {
	good := NewNote("", "", knowledge.VisibilityWorkspace, "Title", "Body.")
	bad := map[string]knowledge.Note{}
	n := good
	n.Visibility = "public"
	bad["visibility"] = n
	n = good
	n.Format = "html"
	bad["format"] = n
	n = good
	n.Body = "bad \xff byte"
	bad["invalid UTF-8"] = n
	n = good.Clone()
	n.Chunks = append(n.Chunks, n.Chunks[0])
	bad["repeated chunk index"] = n
	for what, n := range bad {
		if got, err := s.AddNote(t.Context(), alice, n); err == nil {
			t.Errorf("AddNote with a bad %s stored %s", what, got.ID)
		}
	}
	if _, err := s.AddNote(t.Context(), knowledge.Scope{Workspace: "acme"}, good); err == nil {
		t.Error("AddNote with no user in scope succeeded")
	}
	if got := mustVisible(t, s, alice); len(got) != 0 {
		t.Errorf("%d notes stored after refused adds, want none", len(got))
	}
}

func testNoteUpdate(t *testing.T, s store.Notes) {
	orig := mustAdd(t, s, alice, NewNote("", "", knowledge.VisibilityPrivate, "Draft", "First words.", "draft"))
	gen := mustNotesGeneration(t, s, "acme")

	edit := NewNote("", "", knowledge.VisibilityWorkspace, "Export fails on large files",
		"Exports over 2 GB time out.\n\nSplit them by month.\n\nFixed in 4.2.", "Export")
	edit.ID = orig.ID
	got, err := s.UpdateNote(t.Context(), alice, edit)
	if err != nil {
		t.Fatalf("UpdateNote: %v", err)
	}
	if got.ID != orig.ID || got.Owner != "alice" || got.Workspace != "acme" || !got.CreatedAt.Equal(orig.CreatedAt) {
		t.Errorf("update changed identity: %+v", got)
	}
	if got.UpdatedAt.Before(orig.UpdatedAt) {
		t.Errorf("updated at %v, before the add's %v", got.UpdatedAt, orig.UpdatedAt)
	}
	if got.Title != edit.Title || got.Visibility != knowledge.VisibilityWorkspace || len(got.Chunks) != 3 || !slices.Equal(got.Tags, []string{"export"}) {
		t.Errorf("update stored %+v", got)
	}
	sameNote(t, "GetNote after update", mustGet(t, s, bob, orig.ID), got) // now a team note
	if g := mustNotesGeneration(t, s, "acme"); g == gen {
		t.Error("the generation did not change with an update")
	}

	// An edit that changes nothing is no write.
	gen = mustNotesGeneration(t, s, "acme")
	same, err := s.UpdateNote(t.Context(), alice, edit)
	if err != nil {
		t.Fatalf("unchanged UpdateNote: %v", err)
	}
	sameNote(t, "unchanged update", same, got)
	if g := mustNotesGeneration(t, s, "acme"); g != gen {
		t.Errorf("an unchanged update moved the generation from %d to %d", gen, g)
	}

	// Fewer chunks: the extra ones go.
	short := NewNote("", "", knowledge.VisibilityWorkspace, edit.Title, "One paragraph now.")
	short.ID = orig.ID
	if _, err := s.UpdateNote(t.Context(), alice, short); err != nil {
		t.Fatalf("UpdateNote to one chunk: %v", err)
	}
	if got := mustGet(t, s, alice, orig.ID); len(got.Chunks) != 1 || got.Chunks[0].Content != short.Chunks[0].Content {
		t.Errorf("after shrinking, chunks %+v", got.Chunks)
	}

	missing := short
	missing.ID = uuid.NewString()
	if _, err := s.UpdateNote(t.Context(), alice, missing); !errors.Is(err, store.ErrNoteNotFound) {
		t.Errorf("UpdateNote of an unknown id: %v, want ErrNoteNotFound", err)
	}
	invalid := short
	invalid.Format = "rtf"
	if _, err := s.UpdateNote(t.Context(), alice, invalid); err == nil || errors.Is(err, store.ErrNoteNotFound) {
		t.Errorf("UpdateNote with a bad format: %v, want a validation error", err)
	}
}

func testOnlyOwnerWrites(t *testing.T, s store.Notes) {
	team := mustAdd(t, s, alice, NewNote("", "", knowledge.VisibilityWorkspace, "Team", "Shared."))
	private := mustAdd(t, s, alice, NewNote("", "", knowledge.VisibilityPrivate, "Mine", "Secret."))
	gen := mustNotesGeneration(t, s, "acme")

	cases := []struct {
		scope knowledge.Scope
		note  knowledge.Note
		want  error
	}{
		{bob, team, store.ErrNotOwner},
		{bob, private, store.ErrNoteNotFound},      // bob may not learn it exists
		{outsider, team, store.ErrNoteNotFound},    // nor may another team
		{outsider, private, store.ErrNoteNotFound}, // same user name, other workspace
	}
	for _, c := range cases {
		edit := c.note
		edit.Title = "Hijacked"
		if _, err := s.UpdateNote(t.Context(), c.scope, edit); !errors.Is(err, c.want) {
			t.Errorf("UpdateNote of %q as %+v: %v, want %v", c.note.Title, c.scope, err, c.want)
		}
		if err := s.DeleteNote(t.Context(), c.scope, c.note.ID); !errors.Is(err, c.want) {
			t.Errorf("DeleteNote of %q as %+v: %v, want %v", c.note.Title, c.scope, err, c.want)
		}
	}
	sameNote(t, "team note after refused writes", mustGet(t, s, alice, team.ID), team)
	sameNote(t, "private note after refused writes", mustGet(t, s, alice, private.ID), private)
	if g := mustNotesGeneration(t, s, "acme"); g != gen {
		t.Errorf("refused writes moved the generation from %d to %d", gen, g)
	}
}

func testNoteDelete(t *testing.T, s store.Notes) {
	keep := mustAdd(t, s, alice, NewNote("", "", knowledge.VisibilityWorkspace, "Keep", "Stays."))
	gone := mustAdd(t, s, alice, NewNote("", "", knowledge.VisibilityWorkspace, "Gone", "Goes.\n\nAll of it."))
	gen := mustNotesGeneration(t, s, "acme")
	if err := s.DeleteNote(t.Context(), alice, gone.ID); err != nil {
		t.Fatalf("DeleteNote: %v", err)
	}
	if g := mustNotesGeneration(t, s, "acme"); g == gen {
		t.Error("the generation did not change with a delete")
	}
	for _, scope := range []knowledge.Scope{alice, bob} {
		if got := ids(mustVisible(t, s, scope)); !slices.Equal(got, []string{keep.ID}) {
			t.Errorf("VisibleNotes as %s right after the delete: %v, want only %s", scope.User, got, keep.ID)
		}
		list, err := s.ListNotes(t.Context(), scope)
		if err != nil {
			t.Fatalf("ListNotes: %v", err)
		}
		if len(list) != 1 || list[0].ID != keep.ID {
			t.Errorf("ListNotes as %s after the delete: %+v", scope.User, list)
		}
		if _, err := s.GetNote(t.Context(), scope, gone.ID); !errors.Is(err, store.ErrNoteNotFound) {
			t.Errorf("GetNote of a deleted note: %v, want ErrNoteNotFound", err)
		}
	}
	if err := s.DeleteNote(t.Context(), alice, gone.ID); !errors.Is(err, store.ErrNoteNotFound) {
		t.Errorf("second DeleteNote: %v, want ErrNoteNotFound", err)
	}
	if _, err := s.UpdateNote(t.Context(), alice, gone); !errors.Is(err, store.ErrNoteNotFound) {
		t.Errorf("UpdateNote of a deleted note: %v, want ErrNoteNotFound", err)
	}
}

func testListNotes(t *testing.T, s store.Notes) {
	var added []knowledge.Note
	for i := range 4 {
		v := knowledge.VisibilityWorkspace
		if i == 2 {
			v = knowledge.VisibilityPrivate
		}
		added = append(added, mustAdd(t, s, alice, NewNote("", "", v, fmt.Sprintf("Note %d", i), "One.\n\nTwo.", "t")))
		time.Sleep(2 * time.Millisecond) // distinct times, whatever the clock's resolution
	}
	// Touching the oldest makes it the newest.
	edit := added[0]
	edit.Body = "Changed.\n\nTwice.\n\nThrice."
	edit.Chunks = NoteChunks(edit)
	updated, err := s.UpdateNote(t.Context(), alice, edit)
	if err != nil {
		t.Fatalf("UpdateNote: %v", err)
	}
	list, err := s.ListNotes(t.Context(), alice)
	if err != nil {
		t.Fatalf("ListNotes: %v", err)
	}
	want := []knowledge.NoteSummary{}
	for _, n := range []knowledge.Note{updated, added[3], added[2], added[1]} {
		want = append(want, knowledge.NoteSummary{ID: n.ID, Workspace: "acme", Owner: "alice", Visibility: n.Visibility,
			Title: n.Title, Tags: []string{"t"}, ChunkCount: len(n.Chunks), UpdatedAt: n.UpdatedAt})
	}
	if len(list) != len(want) {
		t.Fatalf("ListNotes: %d summaries, want %d", len(list), len(want))
	}
	for i := range list {
		if !list[i].UpdatedAt.Equal(want[i].UpdatedAt) {
			t.Errorf("summary %d updated at %v, want %v", i, list[i].UpdatedAt, want[i].UpdatedAt)
		}
		list[i].UpdatedAt, want[i].UpdatedAt = time.Time{}, time.Time{}
	}
	if !reflect.DeepEqual(list, want) {
		t.Errorf("ListNotes:\n got %+v\nwant %+v", list, want)
	}
	bobs, err := s.ListNotes(t.Context(), bob)
	if err != nil {
		t.Fatalf("ListNotes as bob: %v", err)
	}
	if len(bobs) != 3 {
		t.Errorf("bob lists %d notes, want the 3 team notes", len(bobs))
	}
}

func testNotesGeneration(t *testing.T, s store.Notes) {
	if g := mustNotesGeneration(t, s, "acme"); g != 0 {
		t.Errorf("generation of a workspace with no notes = %d, want 0", g)
	}
	n := mustAdd(t, s, alice, NewNote("", "", knowledge.VisibilityWorkspace, "One", "Body."))
	g1 := mustNotesGeneration(t, s, "acme")
	if g1 == 0 {
		t.Error("the generation did not change with an add")
	}
	other := mustNotesGeneration(t, s, "globex")
	// Reads change nothing.
	mustGet(t, s, alice, n.ID)
	mustVisible(t, s, bob)
	if _, err := s.ListNotes(t.Context(), alice); err != nil {
		t.Fatal(err)
	}
	if g := mustNotesGeneration(t, s, "acme"); g != g1 {
		t.Errorf("reads moved the generation from %d to %d", g1, g)
	}
	// Another workspace's writes leave this one alone.
	mustAdd(t, s, outsider, NewNote("", "", knowledge.VisibilityWorkspace, "Elsewhere", "Body."))
	if g := mustNotesGeneration(t, s, "acme"); g != g1 {
		t.Errorf("a write in globex moved acme's generation from %d to %d", g1, g)
	}
	if g := mustNotesGeneration(t, s, "globex"); g == other {
		t.Error("globex's generation did not change with its add")
	}
}

func testImportNotes(t *testing.T, s store.Notes) {
	const total = 2*store.ImportBatchSize + 100
	notes := make([]knowledge.Note, total)
	for i := range notes {
		v := knowledge.VisibilityWorkspace
		if i%3 == 0 {
			v = knowledge.VisibilityPrivate
		}
		notes[i] = NewNote("acme", fmt.Sprintf("user-%d", i%4), v, fmt.Sprintf("Imported %d", i),
			fmt.Sprintf("Paragraph one of %d.\n\nParagraph two.", i))
		notes[i].ID = uuid.NewString()
	}
	notes[7].Visibility = "everyone" // invalid: skipped, not fatal
	notes[8].ID = "not-a-uuid"       // invalid too
	gen := mustNotesGeneration(t, s, "acme")

	var progress []int
	r, err := s.ImportNotes(t.Context(), notes, func(done int) { progress = append(progress, done) })
	if err != nil {
		t.Fatalf("ImportNotes: %v", err)
	}
	if r.Notes != total-2 || r.Skipped != 2 || r.Chunks != 2*(total-2) {
		t.Errorf("import report %s, want %d notes, %d chunks, 2 skipped", r, total-2, 2*(total-2))
	}
	if want := []int{store.ImportBatchSize, 2 * store.ImportBatchSize, total}; !slices.Equal(progress, want) {
		t.Errorf("progress %v, want %v", progress, want)
	}
	if g := mustNotesGeneration(t, s, "acme"); g == gen {
		t.Error("the generation did not change with an import")
	}
	// Imported notes keep their ids and owners.
	got := mustGet(t, s, knowledge.Scope{Workspace: "acme", User: "user-3"}, notes[3].ID)
	if got.Owner != "user-3" || got.Title != "Imported 3" || len(got.Chunks) != 2 {
		t.Errorf("imported note read back as %+v", got)
	}
	user1 := knowledge.Scope{Workspace: "acme", User: "user-1"}
	want := 0
	for i, n := range notes {
		if i != 7 && i != 8 && user1.CanSee(n) {
			want++
		}
	}
	if got := mustVisible(t, s, user1); len(got) != want {
		t.Errorf("user-1 sees %d imported notes, want %d", len(got), want)
	}

	// Importing the same notes again adds nothing.
	gen = mustNotesGeneration(t, s, "acme")
	r, err = s.ImportNotes(t.Context(), notes, nil)
	if err != nil {
		t.Fatalf("second ImportNotes: %v", err)
	}
	if r.Notes != 0 || r.Skipped != total {
		t.Errorf("second import: %s, want everything skipped", r)
	}
	if g := mustNotesGeneration(t, s, "acme"); g != gen {
		t.Errorf("an import that wrote nothing moved the generation from %d to %d", gen, g)
	}
}

func testReindexNotes(t *testing.T, s store.Notes) {
	a := mustAdd(t, s, alice, NewNote("", "", knowledge.VisibilityWorkspace, "A", "One.\n\nTwo."))
	b := mustAdd(t, s, bob, NewNote("", "", knowledge.VisibilityPrivate, "B", "Only one."))
	gone := mustAdd(t, s, alice, NewNote("", "", knowledge.VisibilityWorkspace, "Gone", "Deleted."))
	if err := s.DeleteNote(t.Context(), alice, gone.ID); err != nil {
		t.Fatal(err)
	}
	elsewhere := mustAdd(t, s, outsider, NewNote("", "", knowledge.VisibilityWorkspace, "Elsewhere", "Other team."))

	// Same chunking: nothing to write.
	gen := mustNotesGeneration(t, s, "acme")
	var seen []string
	r, err := s.ReindexNotes(t.Context(), "acme", func(n knowledge.Note) ([]knowledge.Chunk, error) {
		seen = append(seen, n.ID)
		return NoteChunks(n), nil
	})
	if err != nil {
		t.Fatalf("ReindexNotes: %v", err)
	}
	if slices.Sort(seen); !slices.Equal(seen, ids([]knowledge.Note{a, b})) {
		t.Errorf("reindex chunked %v, want the live acme notes %v", seen, ids([]knowledge.Note{a, b}))
	}
	if r.Notes != 0 || r.Chunks != 0 || r.Skipped != 2 {
		t.Errorf("unchanged reindex: %s, want 2 skipped", r)
	}
	if g := mustNotesGeneration(t, s, "acme"); g != gen {
		t.Errorf("an unchanged reindex moved the generation from %d to %d", gen, g)
	}

	// A new chunker that makes one chunk of the whole body changes A only.
	whole := func(n knowledge.Note) ([]knowledge.Chunk, error) {
		c := NoteChunks(knowledge.Note{Title: n.Title, Body: strings.ReplaceAll(n.Body, "\n\n", " ")})
		return c, nil
	}
	r, err = s.ReindexNotes(t.Context(), "acme", whole)
	if err != nil {
		t.Fatalf("ReindexNotes: %v", err)
	}
	if r.Notes != 1 || r.Chunks != 1 || r.Skipped != 1 {
		t.Errorf("reindex: %s, want 1 note and 1 chunk written, 1 skipped", r)
	}
	if g := mustNotesGeneration(t, s, "acme"); g == gen {
		t.Error("the generation did not change with a reindex that wrote")
	}
	got := mustGet(t, s, alice, a.ID)
	if len(got.Chunks) != 1 || got.Chunks[0].Content != "# A\n\nOne. Two." || got.Chunks[0].DocSlug != knowledge.NoteSlug(a.ID) {
		t.Errorf("reindexed chunks %+v", got.Chunks)
	}
	if !got.UpdatedAt.Equal(a.UpdatedAt) || got.ContentHash != a.ContentHash {
		t.Error("a reindex changed the note itself, not only its chunks")
	}
	sameNote(t, "other workspace after reindex", mustGet(t, s, outsider, elsewhere.ID), elsewhere)

	boom := errors.New("chunker broke")
	_, err = s.ReindexNotes(t.Context(), "acme", func(n knowledge.Note) ([]knowledge.Chunk, error) { return nil, boom })
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), a.ID) && !strings.Contains(err.Error(), b.ID) {
		t.Errorf("reindex with a failing chunker: %v, want the chunker's error naming the note", err)
	}
}

func testRecordNoteReads(t *testing.T, s store.Notes) {
	n := mustAdd(t, s, alice, NewNote("", "", knowledge.VisibilityPrivate, "Private", "Secret."))
	gen := mustNotesGeneration(t, s, "acme")
	reads := []knowledge.NoteRead{
		{User: "alice", NoteID: n.ID, Time: time.Now(), Reason: knowledge.ReadAsk},
		{User: "alice", NoteID: n.ID, Reason: knowledge.ReadFollowUp}, // zero time: now
	}
	if err := s.RecordNoteReads(t.Context(), reads); err != nil {
		t.Fatalf("RecordNoteReads: %v", err)
	}
	if err := s.RecordNoteReads(t.Context(), nil); err != nil {
		t.Errorf("RecordNoteReads of nothing: %v", err)
	}
	bad := []knowledge.NoteRead{{User: "alice", NoteID: n.ID, Reason: "curiosity"}}
	if err := s.RecordNoteReads(t.Context(), bad); err == nil {
		t.Error("RecordNoteReads with an unknown reason succeeded")
	}
	if g := mustNotesGeneration(t, s, "acme"); g != gen {
		t.Errorf("recording reads moved the notes generation from %d to %d", gen, g)
	}
}

func testNotesCancelled(t *testing.T, s store.Notes) {
	n := mustAdd(t, s, alice, NewNote("", "", knowledge.VisibilityWorkspace, "N", "Body."))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := s.GetNote(ctx, alice, n.ID); !errors.Is(err, context.Canceled) {
		t.Errorf("GetNote with a cancelled context: %v, want context.Canceled", err)
	}
	if _, err := s.VisibleNotes(ctx, alice); !errors.Is(err, context.Canceled) {
		t.Errorf("VisibleNotes with a cancelled context: %v, want context.Canceled", err)
	}
	if _, err := s.AddNote(ctx, alice, NewNote("", "", knowledge.VisibilityWorkspace, "Late", "Never.")); !errors.Is(err, context.Canceled) {
		t.Errorf("AddNote with a cancelled context: %v, want context.Canceled", err)
	}
	if got := mustVisible(t, s, alice); len(got) != 1 {
		t.Errorf("%d notes after a cancelled add, want 1", len(got))
	}
}

// ScopeReads is how many randomized scoped reads the scope property
// test makes.
const ScopeReads = 10_000

// testScopeProperty stores random private and team notes of 3 workspaces
// and 5 users, deletes some, then makes ScopeReads random scoped reads:
// each must return exactly what Scope.CanSee allows of the live notes,
// and nothing else.
func testScopeProperty(t *testing.T, s store.Notes) {
	r := rand.New(rand.NewPCG(2026, 11))
	workspaces := []string{"ws-a", "ws-b", "ws-c"}
	users := []string{"u1", "u2", "u3", "u4", "u5"}
	truth := map[string]knowledge.Note{} // live notes by id
	var all []string                     // every id ever stored, deleted ones too
	for i := range 45 {
		scope := knowledge.Scope{Workspace: workspaces[r.IntN(3)], User: users[r.IntN(5)]}
		v := knowledge.VisibilityWorkspace
		if r.IntN(2) == 0 {
			v = knowledge.VisibilityPrivate
		}
		n := mustAdd(t, s, scope, NewNote("", "", v, fmt.Sprintf("Note %d", i), fmt.Sprintf("Body %d.", i)))
		all = append(all, n.ID)
		if r.IntN(8) == 0 {
			if err := s.DeleteNote(t.Context(), scope, n.ID); err != nil {
				t.Fatal(err)
			}
			continue
		}
		truth[n.ID] = n
	}
	visibleTruth := func(scope knowledge.Scope) []string {
		var out []string
		for id, n := range truth {
			if scope.CanSee(n) {
				out = append(out, id)
			}
		}
		slices.Sort(out)
		return out
	}
	// Callers include a stranger and another team, who must see nothing.
	callers := []string{"u1", "u2", "u3", "u4", "u5", "stranger"}
	teams := append(slices.Clone(workspaces), "ws-none")

	type read struct {
		scope knowledge.Scope
		op    int
		id    string
	}
	draws := make([]read, ScopeReads)
	for i := range draws {
		draws[i] = read{
			scope: knowledge.Scope{Workspace: teams[r.IntN(len(teams))], User: callers[r.IntN(len(callers))]},
			op:    r.IntN(3),
			id:    all[r.IntN(len(all))],
		}
	}

	var (
		mu       sync.Mutex
		failures int
		leaks    int
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if failures++; failures <= 10 {
			t.Errorf(format, args...)
		}
	}
	check := func(d read) {
		want := visibleTruth(d.scope)
		checkSeen := func(n knowledge.Note) {
			stored, ok := truth[n.ID]
			if !ok || !d.scope.CanSee(stored) || n.Workspace != stored.Workspace || n.Owner != stored.Owner || n.Visibility != stored.Visibility {
				mu.Lock()
				leaks++
				mu.Unlock()
				fail("%+v was shown note %s (%s/%s %s), which it may not see", d.scope, n.ID, n.Workspace, n.Owner, n.Visibility)
			}
		}
		switch d.op {
		case 0:
			notes, err := s.VisibleNotes(t.Context(), d.scope)
			if err != nil {
				fail("VisibleNotes %+v: %v", d.scope, err)
				return
			}
			for _, n := range notes {
				checkSeen(n)
			}
			if got := ids(notes); !slices.Equal(got, want) {
				fail("VisibleNotes %+v = %v, want %v", d.scope, got, want)
			}
		case 1:
			list, err := s.ListNotes(t.Context(), d.scope)
			if err != nil {
				fail("ListNotes %+v: %v", d.scope, err)
				return
			}
			var got []string
			for _, sum := range list {
				checkSeen(knowledge.Note{ID: sum.ID, Workspace: sum.Workspace, Owner: sum.Owner, Visibility: sum.Visibility})
				got = append(got, sum.ID)
			}
			if slices.Sort(got); !slices.Equal(got, want) {
				fail("ListNotes %+v = %v, want %v", d.scope, got, want)
			}
		case 2:
			n, err := s.GetNote(t.Context(), d.scope, d.id)
			_, visible := slices.BinarySearch(want, d.id)
			switch {
			case err == nil:
				checkSeen(n)
			case !errors.Is(err, store.ErrNoteNotFound):
				fail("GetNote %s as %+v: %v", d.id, d.scope, err)
			case visible:
				fail("GetNote %s as %+v: not found, but it may see it", d.id, d.scope)
			}
		}
	}
	// A few readers at once, as a server would have.
	const readers = 4
	var wg sync.WaitGroup
	for w := range readers {
		wg.Go(func() {
			for i := w; i < len(draws); i += readers {
				check(draws[i])
			}
		})
	}
	wg.Wait()
	if leaks != 0 {
		t.Errorf("%d of %d scoped reads returned a note outside the caller's scope", leaks, ScopeReads)
	}
}
