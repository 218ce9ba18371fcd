package store_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/storetest"
)

func TestPrepareNoteNormalizes(t *testing.T) {
	n := storetest.NewNote("acme", "alice", knowledge.VisibilityWorkspace, "VPN", "One.\n\nTwo.\n\nThree.", " VPN", "vpn", "", "Network ")
	n.ID = "7c9e6679-7425-40de-944b-e07fc1f90ae7"
	n.Chunks[0], n.Chunks[2] = n.Chunks[2], n.Chunks[0]
	n.CreatedAt = time.Date(2026, 1, 2, 3, 4, 5, 6789, time.FixedZone("CET", 3600))
	before := n.Clone()

	got, err := store.PrepareNote(n)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"vpn", "network"}; !slices.Equal(got.Tags, want) {
		t.Errorf("tags %q, want %q", got.Tags, want)
	}
	for i, c := range got.Chunks {
		if c.Index != i || c.DocSlug != "notes/"+n.ID || c.Category != "notes" || c.Title != "VPN" {
			t.Errorf("chunk %d: %+v", i, c)
		}
	}
	if got.ContentHash != store.NoteContentHash(n) || len(got.ContentHash) != 64 {
		t.Errorf("content hash %q", got.ContentHash)
	}
	if want := time.Date(2026, 1, 2, 2, 4, 5, 6000, time.UTC); got.CreatedAt != want {
		t.Errorf("created at %v, want %v (UTC, microseconds)", got.CreatedAt, want)
	}
	if n.Chunks[0].Index != before.Chunks[0].Index || !slices.Equal(n.Tags, before.Tags) {
		t.Error("PrepareNote changed its argument")
	}
}

func TestPrepareNoteRefuses(t *testing.T) {
	good := storetest.NewNote("acme", "alice", knowledge.VisibilityWorkspace, "T", "One.\n\nTwo.")
	cases := map[string]func(*knowledge.Note){
		"no workspace":        func(n *knowledge.Note) { n.Workspace = " " },
		"no owner":            func(n *knowledge.Note) { n.Owner = "" },
		"unknown visibility":  func(n *knowledge.Note) { n.Visibility = "team" },
		"unknown format":      func(n *knowledge.Note) { n.Format = "" },
		"invalid UTF-8 title": func(n *knowledge.Note) { n.Title = "a\xffb" },
		"NUL in a chunk":      func(n *knowledge.Note) { n.Chunks[1].Text = "a\x00b" },
		"bad tag":             func(n *knowledge.Note) { n.Tags = []string{"\xc3"} },
		"repeated index":      func(n *knowledge.Note) { n.Chunks[1].Index = 0 },
		"negative index":      func(n *knowledge.Note) { n.Chunks[0].Index = -1 },
		"negative body count": func(n *knowledge.Note) { n.Chunks[0].BodyChars = -1 },
	}
	for what, breakIt := range cases {
		n := good.Clone()
		breakIt(&n)
		if _, err := store.PrepareNote(n); err == nil {
			t.Errorf("%s: accepted", what)
		} else if !strings.Contains(err.Error(), "note") {
			t.Errorf("%s: error %q does not name the note", what, err)
		}
	}
}

// TestNoteContentHashSeparatesFields checks that moving text between
// title and body changes the hash: the parts are length-prefixed.
func TestNoteContentHashSeparatesFields(t *testing.T) {
	a := knowledge.Note{Title: "ab", Body: "c", Format: knowledge.FormatMarkdown}
	b := knowledge.Note{Title: "a", Body: "bc", Format: knowledge.FormatMarkdown}
	c := a
	c.Format = knowledge.FormatTipTap
	if store.NoteContentHash(a) == store.NoteContentHash(b) || store.NoteContentHash(a) == store.NoteContentHash(c) {
		t.Error("different notes share a content hash")
	}
	a.Tags, a.Visibility = []string{"x"}, knowledge.VisibilityPrivate
	if store.NoteContentHash(a) != store.NoteContentHash(knowledge.Note{Title: "ab", Body: "c", Format: knowledge.FormatMarkdown}) {
		t.Error("tags or visibility changed the content hash, which covers title, format and body only")
	}
}

func TestDiffNoteChunks(t *testing.T) {
	old := storetest.NoteChunks(knowledge.Note{Title: "T", Body: "One.\n\nTwo.\n\nThree."})
	next := storetest.NoteChunks(knowledge.Note{Title: "T", Body: "One.\n\nTwo, changed."})
	write, drop := store.DiffNoteChunks(old, next)
	if len(write) != 1 || write[0].Index != 1 || !slices.Equal(drop, []int{1, 2}) {
		t.Errorf("diff: write %+v, drop %v; want chunk 1 written, 1 and 2 dropped", write, drop)
	}
	if write, drop := store.DiffNoteChunks(old, old); len(write) != 0 || len(drop) != 0 {
		t.Errorf("diff of identical chunks: write %d, drop %v", len(write), drop)
	}
	withKeyword := slices.Clone(old)
	withKeyword[0].Keywords = []string{"k"}
	if write, _ := store.DiffNoteChunks(old, withKeyword); len(write) != 1 {
		t.Errorf("a keyword change wrote %d chunks, want 1", len(write))
	}
}

func TestValidateNoteRead(t *testing.T) {
	ok := knowledge.NoteRead{User: "alice", NoteID: "n", Reason: knowledge.ReadLookup}
	if err := store.ValidateNoteRead(ok); err != nil {
		t.Errorf("valid read: %v", err)
	}
	for _, bad := range []knowledge.NoteRead{
		{User: "alice", NoteID: "n", Reason: "browse"},
		{User: " ", NoteID: "n", Reason: knowledge.ReadAsk},
		{User: "alice", Reason: knowledge.ReadAsk},
	} {
		if err := store.ValidateNoteRead(bad); err == nil {
			t.Errorf("%+v: accepted", bad)
		}
	}
}
