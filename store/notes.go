package store

import (
	"github.com/google/uuid"

	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

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
	// assigning its ID and times, and returns it as stored (see
	// PrepareNote); the ID, Workspace and Owner it carries are ignored.
	AddNote(ctx context.Context, scope knowledge.Scope, n knowledge.Note) (knowledge.Note, error)
	// UpdateNote replaces the title, body, format, tags, visibility and
	// chunks of a note its owner may edit. ErrNoteNotFound when the note is
	// not in scope or deleted; ErrNotOwner when scope.User does not own it.
	// An edit that changes nothing (SameNoteContent) writes nothing and
	// returns the note as stored.
	UpdateNote(ctx context.Context, scope knowledge.Scope, n knowledge.Note) (knowledge.Note, error)
	// DeleteNote soft-deletes a note and drops its chunks at once, with
	// the same errors as UpdateNote.
	DeleteNote(ctx context.Context, scope knowledge.Scope, id string) error
	// GetNote returns one note in scope with its chunks.
	GetNote(ctx context.Context, scope knowledge.Scope, id string) (knowledge.Note, error)
	// ListNotes summarizes the notes in scope, newest first: by
	// UpdatedAt descending, then by ID.
	ListNotes(ctx context.Context, scope knowledge.Scope) ([]knowledge.NoteSummary, error)
	// VisibleNotes is every note in scope with its chunks, for the index,
	// ordered by ID.
	VisibleNotes(ctx context.Context, scope knowledge.Scope) ([]knowledge.Note, error)
	// NotesGeneration changes whenever a write changes a workspace's
	// notes, so a reader knows when to rebuild its index; reads never
	// change it, and a workspace never written reads 0. Only change is
	// meaningful: two stores sharing notes need not agree on the number.
	NotesGeneration(ctx context.Context, workspace string) (int64, error)
	// ImportNotes adds many notes owned by their own Owner in batches of
	// ImportBatchSize, each written at once, calling progress (when not
	// nil) after each with the count of input notes handled so far. A note
	// without an ID gets one and one without times gets now; a note whose
	// ID is already stored, one that is invalid (PrepareNote, an ID that
	// is not a lower-case uuid) and a repeated ID are skipped and counted.
	// A failed batch leaves the batches before it stored, and the report
	// returned with the error counts them.
	ImportNotes(ctx context.Context, notes []knowledge.Note, progress func(done int)) (ImportReport, error)
	// ReindexNotes re-chunks every live note of a workspace with chunk,
	// rewriting the chunks that changed (the note itself, its times
	// included, is left alone). Report.Notes counts the notes whose chunks
	// changed, Chunks the chunks written, Skipped the unchanged notes and
	// any edited while the reindex ran (their edit chunked them). A chunk
	// error stops the reindex, naming the note.
	ReindexNotes(ctx context.Context, workspace string, chunk func(knowledge.Note) ([]knowledge.Chunk, error)) (ImportReport, error)
	// RecordNoteReads writes reads of private notes to the audit log. It
	// is the one write a reader makes: its error (a read-only role, a full
	// disk) is returned for the caller to report, never hidden. A zero
	// Time means now; an unknown Reason is refused (ValidateNoteRead).
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
	// ErrNotesMissing marks, beside ErrNotesUnavailable, a store that has
	// no notes to read at all: the notes tables were never migrated.
	ErrNotesMissing = errors.New("no notes tables")
)

// ImportBatchSize is how many notes ImportNotes writes per transaction
// (and between progress calls) in every store.
const ImportBatchSize = 500

// NoteContentHash is the hex sha256 of a note's title, format and body,
// each length-prefixed so no two different notes share an input.
func NoteContentHash(n knowledge.Note) string {
	h := sha256.New()
	for _, part := range []string{n.Title, string(n.Format), n.Body} {
		fmt.Fprintf(h, "%d:%s", len(part), part)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// PrepareNote checks a note a writer hands over and returns the copy a
// store keeps: tags lower-cased, trimmed and deduplicated (in order),
// chunks sorted by index and stamped with the note's slug, the "notes"
// category and its title, and ContentHash computed. Both stores call it,
// so they store the same thing. Text must be valid UTF-8 (PostgreSQL
// refuses anything else, and the embedded store must not differ).
func PrepareNote(n knowledge.Note) (knowledge.Note, error) {
	if err := n.Validate(); err != nil {
		return knowledge.Note{}, err
	}
	n = n.Clone()
	name := n.Title
	if n.ID != "" {
		name = n.ID + " (" + n.Title + ")"
	}
	texts := []string{n.Workspace, n.Owner, n.Title, n.Body}
	texts = append(texts, n.Tags...)
	for _, c := range n.Chunks {
		texts = append(texts, c.HeaderPath, c.Content, c.Text, c.Hash)
		texts = append(texts, c.Keywords...)
	}
	for _, s := range texts {
		if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
			return knowledge.Note{}, fmt.Errorf("note %q: text is not valid UTF-8 or holds a NUL byte", name)
		}
	}
	var tags []string
	for _, t := range n.Tags {
		t = strings.ToLower(strings.TrimSpace(t))
		if t != "" && !slices.Contains(tags, t) {
			tags = append(tags, t)
		}
	}
	n.Tags = tags
	// PostgreSQL keeps microseconds: both stores hand back the same time.
	n.CreatedAt = n.CreatedAt.UTC().Truncate(time.Microsecond)
	n.UpdatedAt = n.UpdatedAt.UTC().Truncate(time.Microsecond)
	slices.SortStableFunc(n.Chunks, func(a, b knowledge.Chunk) int { return a.Index - b.Index })
	for i := range n.Chunks {
		c := &n.Chunks[i]
		if c.Index < 0 || (i > 0 && c.Index == n.Chunks[i-1].Index) {
			return knowledge.Note{}, fmt.Errorf("note %q: chunk index %d is negative or repeated", name, c.Index)
		}
		if c.BodyChars < 0 {
			return knowledge.Note{}, fmt.Errorf("note %q: chunk %d: negative body character count", name, c.Index)
		}
		c.DocSlug, c.Category, c.Title = knowledge.NoteSlug(n.ID), "notes", n.Title
		if len(c.Keywords) == 0 {
			c.Keywords = nil
		}
	}
	n.ContentHash = NoteContentHash(n)
	return n, nil
}

// ValidateNoteRead names what is wrong with an audit record.
func ValidateNoteRead(r knowledge.NoteRead) error {
	switch r.Reason {
	case knowledge.ReadAsk, knowledge.ReadLookup, knowledge.ReadFollowUp:
	default:
		return fmt.Errorf("read of note %s by %q: reason %q is none of %q, %q, %q",
			r.NoteID, r.User, r.Reason, knowledge.ReadAsk, knowledge.ReadLookup, knowledge.ReadFollowUp)
	}
	if strings.TrimSpace(r.User) == "" {
		return fmt.Errorf("read of note %s: no user", r.NoteID)
	}
	if r.NoteID == "" {
		return fmt.Errorf("read by %q: no note id", r.User)
	}
	return nil
}

// SameNoteContent reports whether an update would store nothing new: the
// same content hash, tags, visibility and chunks (by hash, text, path and
// keywords).
func SameNoteContent(a, b knowledge.Note) bool {
	if a.ContentHash != b.ContentHash || a.Visibility != b.Visibility || !slices.Equal(a.Tags, b.Tags) || len(a.Chunks) != len(b.Chunks) {
		return false
	}
	for i := range a.Chunks {
		if !SameNoteChunk(a.Chunks[i], b.Chunks[i]) {
			return false
		}
	}
	return true
}

// SameNoteChunk reports whether two chunks store the same thing.
func SameNoteChunk(a, b knowledge.Chunk) bool {
	return a.Index == b.Index && a.Hash == b.Hash && a.Content == b.Content && a.Text == b.Text &&
		a.HeaderPath == b.HeaderPath && a.HeadingOnly == b.HeadingOnly && a.BodyChars == b.BodyChars &&
		slices.Equal(a.Keywords, b.Keywords)
}

// DiffNoteChunks compares a note's stored chunks with new ones (both
// sorted by index, as PrepareNote leaves them): write holds the new or
// changed chunks, drop the indices of stored chunks that changed or are
// gone. A reindex rewrites only those.
func DiffNoteChunks(stored, next []knowledge.Chunk) (write []knowledge.Chunk, drop []int) {
	old := make(map[int]knowledge.Chunk, len(stored))
	for _, c := range stored {
		old[c.Index] = c
	}
	kept := make(map[int]bool, len(next))
	for _, c := range next {
		if o, ok := old[c.Index]; ok && SameNoteChunk(o, c) {
			kept[c.Index] = true
			continue
		}
		write = append(write, c)
	}
	for _, c := range stored {
		if !kept[c.Index] {
			drop = append(drop, c.Index)
		}
	}
	return write, drop
}

// ImportInBatches is ImportNotes' loop, the same for both stores: the
// notes in batches of ImportBatchSize, each prepared (see PrepareNote; a
// note whose ID is no lower-case uuid or repeats one, or that does not
// prepare, is skipped and counted; times a note lacks are now's) and
// handed to write, which stores the notes it does not hold yet and says
// how many notes and chunks it wrote. progress, when not nil, hears the
// count of notes done after each batch. A failed write ends the import,
// its error naming the batch.
func ImportInBatches(notes []knowledge.Note, progress func(done int), now func() time.Time,
	write func(batch []knowledge.Note) (written, chunks int, err error)) (ImportReport, error) {
	start := time.Now()
	var r ImportReport
	seen := make(map[string]bool, len(notes))
	for from := 0; from < len(notes); from += ImportBatchSize {
		to := min(from+ImportBatchSize, len(notes))
		batch, skipped := prepareImportBatch(notes[from:to], seen, now())
		r.Skipped += skipped
		if len(batch) > 0 {
			written, chunks, err := write(batch)
			if err != nil {
				r.Duration = time.Since(start)
				return r, fmt.Errorf("import notes %d to %d (the first %s %q): %w", from+1, to, batch[0].ID, batch[0].Title, err)
			}
			r.Notes += written
			r.Chunks += chunks
			r.Skipped += len(batch) - written
		}
		if progress != nil {
			progress(to)
		}
	}
	r.Duration = time.Since(start)
	return r, nil
}

// prepareImportBatch readies one batch of an import: each note gets an ID
// when it has none and is prepared (PrepareNote); one whose ID is no
// lower-case uuid, repeats an ID already in seen, or does not prepare is
// skipped and counted. Times a note lacks are stamp's. seen gains the IDs
// of the notes returned.
func prepareImportBatch(notes []knowledge.Note, seen map[string]bool, stamp time.Time) (batch []knowledge.Note, skipped int) {
	for _, n := range notes {
		if n.ID == "" {
			n.ID = uuid.NewString()
		}
		if u, err := uuid.Parse(n.ID); err != nil || u.String() != n.ID || seen[n.ID] {
			skipped++
			continue
		}
		p, err := PrepareNote(n)
		if err != nil {
			skipped++
			continue
		}
		seen[n.ID] = true
		if p.CreatedAt.IsZero() {
			p.CreatedAt = stamp
		}
		if p.UpdatedAt.IsZero() {
			p.UpdatedAt = p.CreatedAt
		}
		p.CreatedAt, p.UpdatedAt = p.CreatedAt.UTC(), p.UpdatedAt.UTC()
		batch = append(batch, p)
	}
	return batch, skipped
}
