package postgres

import (
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/postgres/pgtest"
	"github.com/docent-sh/docent/store/storetest"
)

func TestNotesConformance(t *testing.T) {
	adminURL(t)
	storetest.RunNotes(t, func(t *testing.T) store.Notes { return openStore(t, newDatabase(t)) })
}

var (
	alice = knowledge.Scope{Workspace: "acme", User: "alice"}
	bob   = knowledge.Scope{Workspace: "acme", User: "bob"}
)

// TestNotesWithoutTheirTables opens a schema at version 7 (no migration
// 008): every notes call fails with ErrNotesUnavailable, saying what to
// run, and the docs keep working.
func TestNotesWithoutTheirTables(t *testing.T) {
	t.Parallel()
	url := newDatabase(t)
	s := openStore(t, url)
	if err := MigrateDown(t.Context(), url, stepsDownTo(t, 7), 0); err != nil {
		t.Fatal(err)
	}
	n := storetest.NewNote("", "", knowledge.VisibilityWorkspace, "T", "Body.")
	calls := map[string]error{}
	_, calls["AddNote"] = s.AddNote(t.Context(), alice, n)
	_, calls["GetNote"] = s.GetNote(t.Context(), alice, "7c9e6679-7425-40de-944b-e07fc1f90ae7")
	_, calls["ListNotes"] = s.ListNotes(t.Context(), alice)
	_, calls["VisibleNotes"] = s.VisibleNotes(t.Context(), alice)
	_, calls["NotesGeneration"] = s.NotesGeneration(t.Context(), "acme")
	imported := n
	imported.Workspace, imported.Owner = "acme", "alice"
	_, calls["ImportNotes"] = s.ImportNotes(t.Context(), []knowledge.Note{imported}, nil)
	calls["RecordNoteReads"] = s.RecordNoteReads(t.Context(), []knowledge.NoteRead{{User: "alice", NoteID: "7c9e6679-7425-40de-944b-e07fc1f90ae7", Reason: knowledge.ReadAsk}})
	for call, err := range calls {
		if !errors.Is(err, store.ErrNotesUnavailable) || !strings.Contains(err.Error(), "docent migrate up") {
			t.Errorf("%s without the notes tables: %v, want ErrNotesUnavailable saying to run docent migrate up", call, err)
		}
	}
	// Corpus reads migration 010's embedding columns, so it needs the
	// latest schema (which Open's CheckSchema demands); ListDocs does not.
	if _, err := s.ListDocs(t.Context()); err != nil {
		t.Errorf("ListDocs without the notes tables: %v", err)
	}
}

// TestNoteReadsNeedNoWrites reads notes as a role with SELECT alone: every
// read works (reads are read-only transactions), and recording the audit,
// the one write a reader makes, fails with an error the caller can report.
func TestNoteReadsNeedNoWrites(t *testing.T) {
	t.Parallel()
	url := newDatabase(t)
	owner := openStore(t, url)
	added, err := owner.AddNote(t.Context(), alice, storetest.NewNote("", "", knowledge.VisibilityPrivate, "Private", "One.\n\nTwo."))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(t.Context(), pgtest.NewReadOnlyRole(t, url), Options{CheckSchema: true})
	if err != nil {
		t.Fatalf("Open as a read-only role: %v", err)
	}
	t.Cleanup(s.Close)
	if got, err := s.GetNote(t.Context(), alice, added.ID); err != nil || len(got.Chunks) != 2 {
		t.Errorf("GetNote as a read-only role: %d chunks, %v", len(got.Chunks), err)
	}
	if got, err := s.VisibleNotes(t.Context(), alice); err != nil || len(got) != 1 {
		t.Errorf("VisibleNotes as a read-only role: %d notes, %v", len(got), err)
	}
	if got, err := s.ListNotes(t.Context(), bob); err != nil || len(got) != 0 {
		t.Errorf("ListNotes as bob, read-only: %v, %v", got, err)
	}
	if g, err := s.NotesGeneration(t.Context(), "acme"); err != nil || g == 0 {
		t.Errorf("NotesGeneration as a read-only role: %d, %v", g, err)
	}
	err = s.RecordNoteReads(t.Context(), []knowledge.NoteRead{{User: "alice", NoteID: added.ID, Reason: knowledge.ReadLookup}})
	if err == nil || !strings.Contains(err.Error(), "permission denied") || !strings.Contains(err.Error(), added.ID) {
		t.Errorf("RecordNoteReads as a read-only role: %v, want permission denied naming the note", err)
	}
}

// TestNoteRowsFollowTheirNote checks the rows themselves: chunks carry
// their note's scope after a visibility change, a delete keeps the note
// row (soft) and removes its chunks, and reads land in the audit table.
func TestNoteRowsFollowTheirNote(t *testing.T) {
	t.Parallel()
	s := openStore(t, newDatabase(t))
	n, err := s.AddNote(t.Context(), alice, storetest.NewNote("", "", knowledge.VisibilityPrivate, "N", "One.\n\nTwo."))
	if err != nil {
		t.Fatal(err)
	}
	n.Visibility = knowledge.VisibilityWorkspace
	if _, err := s.UpdateNote(t.Context(), alice, n); err != nil {
		t.Fatal(err)
	}
	var visibilities []string
	rows, _ := s.pool.Query(t.Context(), `SELECT DISTINCT visibility FROM notes_knowledge_chunks WHERE note_id = $1`, n.ID)
	visibilities, err = pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(visibilities) != 1 || visibilities[0] != "workspace" {
		t.Errorf("chunk visibilities after making the note a team note: %v, %v", visibilities, err)
	}
	if err := s.RecordNoteReads(t.Context(), []knowledge.NoteRead{{User: "bob", NoteID: n.ID, Reason: knowledge.ReadAsk}}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteNote(t.Context(), alice, n.ID); err != nil {
		t.Fatal(err)
	}
	var live, deleted, chunks, reads int
	err = s.pool.QueryRow(t.Context(), `SELECT
		(SELECT count(*) FROM notes WHERE deleted_at IS NULL),
		(SELECT count(*) FROM notes WHERE deleted_at IS NOT NULL),
		(SELECT count(*) FROM notes_knowledge_chunks),
		(SELECT count(*) FROM note_reads WHERE user_id = 'bob' AND reason = 'ask')`).Scan(&live, &deleted, &chunks, &reads)
	if err != nil || live != 0 || deleted != 1 || chunks != 0 || reads != 1 {
		t.Errorf("after delete: %d live, %d deleted, %d chunks, %d reads (%v), want 0 1 0 1", live, deleted, chunks, reads, err)
	}
}
