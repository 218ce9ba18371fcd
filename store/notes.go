package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/docent-sh/docent/knowledge"
)

// Notes is the contract every notes store keeps, the embedded one
// (store/memory, a JSON Lines file) and PostgreSQL: storetest holds both
// to it. Every read takes the caller's scope and returns only what
// knowledge.Scope.Visible allows; the filter is part of the read itself
// (a WHERE clause, a skipped record), never applied to results afterwards.
//
// Writers hand over notes with their chunks already made (ingest makes
// them), and a note and its chunks change in one transaction: no reader
// ever sees a note without its chunks or chunks of a deleted note.
type Notes interface {
	// AddNote stores a new note owned by scope.User in scope.Workspace,
	// assigning its ID and times, and returns it as stored.
	AddNote(ctx context.Context, scope knowledge.Scope, n knowledge.Note) (knowledge.Note, error)
	// UpdateNote replaces the title, body, format, tags, visibility and
	// chunks of a note its owner may edit. ErrNoteNotFound when the note is
	// not in scope or deleted; ErrNotOwner when scope.User does not own it.
	UpdateNote(ctx context.Context, scope knowledge.Scope, n knowledge.Note) (knowledge.Note, error)
	// DeleteNote soft-deletes a note and drops its chunks at once, with
	// the same errors as UpdateNote.
	DeleteNote(ctx context.Context, scope knowledge.Scope, id string) error
	// GetNote returns one note in scope with its chunks.
	GetNote(ctx context.Context, scope knowledge.Scope, id string) (knowledge.Note, error)
	// ListNotes summarizes the notes in scope, newest first.
	ListNotes(ctx context.Context, scope knowledge.Scope) ([]knowledge.NoteSummary, error)
	// VisibleNotes is every note in scope with its chunks, for the index.
	VisibleNotes(ctx context.Context, scope knowledge.Scope) ([]knowledge.Note, error)
	// NotesGeneration changes whenever a write changes a workspace's
	// notes, so a reader knows when to rebuild its index.
	NotesGeneration(ctx context.Context, workspace string) (int64, error)
	// ImportNotes adds many notes owned by their own Owner in batches,
	// calling progress (when not nil) after each with the count so far.
	ImportNotes(ctx context.Context, notes []knowledge.Note, progress func(done int)) (ImportReport, error)
	// ReindexNotes re-chunks every live note of a workspace with chunk,
	// rewriting the chunks that changed.
	ReindexNotes(ctx context.Context, workspace string, chunk func(knowledge.Note) ([]knowledge.Chunk, error)) (ImportReport, error)
	// RecordNoteReads writes reads of private notes to the audit log.
	RecordNoteReads(ctx context.Context, reads []knowledge.NoteRead) error
}

// ImportReport is what an import or a reindex did.
type ImportReport struct {
	Notes    int // notes written
	Chunks   int // chunks written
	Skipped  int // notes left out, unchanged or invalid
	Duration time.Duration
}

// String renders the report on one line, e.g. "12 notes, 40 chunks, 1 skipped; 35ms".
func (r ImportReport) String() string {
	return fmt.Sprintf("%d notes, %d chunks, %d skipped; %s", r.Notes, r.Chunks, r.Skipped, roundDuration(r.Duration))
}

var (
	// ErrNoteNotFound is returned for a note that does not exist, is
	// deleted or is outside the caller's scope: the three look alike, so
	// an error never tells one user that another's private note exists.
	ErrNoteNotFound = errors.New("note not found")
	// ErrNotOwner is returned when a team member edits or deletes a team
	// note they do not own.
	ErrNotOwner = errors.New("only the note's owner may change it")
	// ErrNotesUnavailable wraps a failure to reach the notes at all (no
	// notes tables yet, a database error), which a turn answers around.
	ErrNotesUnavailable = errors.New("notes unavailable")
)
