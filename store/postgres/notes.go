package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
)

// Store keeps the notes contract too.
var _ store.Notes = (*Store)(nil)

// undefinedTable is SQLSTATE 42P01: migration 008 was not applied.
const undefinedTable = "42P01"

// inScope is the scope filter every read of notes carries: $1 is the
// caller's workspace, $2 the caller.
const inScope = `workspace_id = $1 AND (visibility = 'workspace' OR owner_id = $2) AND deleted_at IS NULL`

// chunkInScope is the same filter on the chunk rows, which copy their
// note's scope columns (a deleted note has no chunks).
const chunkInScope = `workspace_id = $1 AND (visibility = 'workspace' OR owner_id = $2)`

const noteColumns = `id::text, workspace_id, owner_id, visibility, title, body, body_format, tags, created_at, updated_at, content_hash`

var noteChunkColumns = []string{"id", "note_id", "workspace_id", "owner_id", "visibility", "header_path", "chunk_index",
	"content", "text", "keywords", "chunk_hash", "is_heading_only", "body_char_count"}

// notesFail wraps a notes operation's error. Missing tables, and for a
// read any database failure, also match store.ErrNotesUnavailable, which
// a turn answers around; a not-found or not-owner error passes as is.
func (s *Store) notesFail(ctx context.Context, op string, read bool, err error) error {
	if errors.Is(err, store.ErrNoteNotFound) || errors.Is(err, store.ErrNotOwner) {
		return fmt.Errorf("%s: %w", op, err)
	}
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr) && pgErr.Code == undefinedTable:
		err = fmt.Errorf("%w: %w: the notes tables are missing (run `docent migrate up`): %w", store.ErrNotesUnavailable, store.ErrNotesMissing, err)
	case read:
		err = fmt.Errorf("%w: %w", store.ErrNotesUnavailable, err)
	}
	return s.fail(ctx, op, err)
}

// now is the time writes stamp, at the database's precision so what a
// write returns equals what a read gives back.
func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// parseNoteID reads a note id; anything but a uuid in its canonical
// lower-case form names no note (as in the embedded store, whose ids are
// strings).
func parseNoteID(id string) ([16]byte, bool) {
	u, err := uuid.Parse(id)
	return [16]byte(u), err == nil && u.String() == id
}

// readNotesTx runs fn in a read-only transaction: reads never write, and
// a role with SELECT alone may make them.
func (s *Store) readNotesTx(ctx context.Context, fn func(pgx.Tx) error) error {
	return pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, fn)
}

// writeNotesTx runs fn in a transaction whose lock waits (a row another
// writer holds) are bounded by the store's lock wait.
func (s *Store) writeNotesTx(ctx context.Context, fn func(pgx.Tx) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer func() {
		rbCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rollbackTimeout)
		defer cancel()
		_ = tx.Rollback(rbCtx) // a no-op after Commit
	}()
	if _, err := tx.Exec(ctx, "SELECT set_config('lock_timeout', $1, true)", lockTimeoutSetting(s.lockWait)); err != nil {
		return fmt.Errorf("bound lock waits: %w", err)
	}
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// bumpNotesGenerations raises the generation of each workspace, in the
// writing transaction: a reader that sees the new generation sees the
// new notes, and a failed write bumps nothing.
func bumpNotesGenerations(ctx context.Context, tx pgx.Tx, workspaces ...string) error {
	slices.Sort(workspaces) // one lock order for every writer
	workspaces = slices.Compact(workspaces)
	_, err := tx.Exec(ctx, `INSERT INTO notes_generations AS g (workspace_id, generation)
		SELECT w, 1 FROM unnest($1::text[]) AS w
		ON CONFLICT (workspace_id) DO UPDATE SET generation = g.generation + 1, updated_at = now()`, workspaces)
	if err != nil {
		return fmt.Errorf("bump the notes generation of %v: %w", workspaces, err)
	}
	return nil
}

// copyNoteChunks inserts chunks of notes with COPY.
func copyNoteChunks(ctx context.Context, tx pgx.Tx, notes []knowledge.Note, chunks [][]knowledge.Chunk) (int, error) {
	var rows [][]any
	for i, n := range notes {
		id, _ := parseNoteID(n.ID) // stored notes have valid ids
		for _, c := range chunks[i] {
			rows = append(rows, []any{[16]byte(ChunkUUID(knowledge.NoteSlug(n.ID), c.Index)), id, n.Workspace, n.Owner,
				string(n.Visibility), c.HeaderPath, c.Index, c.Content, c.Text, textArray(c.Keywords), c.Hash,
				c.HeadingOnly, c.BodyChars})
		}
	}
	if len(rows) == 0 {
		return 0, nil
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"notes_knowledge_chunks"}, noteChunkColumns, pgx.CopyFromRows(rows)); err != nil {
		return 0, fmt.Errorf("insert %d chunks: %w", len(rows), err)
	}
	return len(rows), nil
}

// AddNote stores a new note owned by scope.User in scope.Workspace.
func (s *Store) AddNote(ctx context.Context, scope knowledge.Scope, n knowledge.Note) (knowledge.Note, error) {
	op := fmt.Sprintf("add note %q", n.Title)
	if err := scope.Validate(); err != nil {
		return knowledge.Note{}, fmt.Errorf("%s: %w", op, err)
	}
	n.ID, n.Workspace, n.Owner = uuid.NewString(), scope.Workspace, scope.User
	n, err := store.PrepareNote(n)
	if err != nil {
		return knowledge.Note{}, fmt.Errorf("add note: %w", err)
	}
	n.CreatedAt = now()
	n.UpdatedAt = n.CreatedAt
	err = s.writeNotesTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO notes (id, workspace_id, owner_id, visibility, title, body, body_format, tags,
			created_at, updated_at, content_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
			n.ID, n.Workspace, n.Owner, string(n.Visibility), n.Title, n.Body, string(n.Format), textArray(n.Tags),
			n.CreatedAt, n.UpdatedAt, n.ContentHash); err != nil {
			return fmt.Errorf("insert: %w", err)
		}
		if _, err := copyNoteChunks(ctx, tx, []knowledge.Note{n}, [][]knowledge.Chunk{n.Chunks}); err != nil {
			return err
		}
		return bumpNotesGenerations(ctx, tx, n.Workspace)
	})
	if err != nil {
		return knowledge.Note{}, s.notesFail(ctx, op, false, err)
	}
	return n, nil
}

// lockOwnNote reads and locks a live note in scope for a write by its
// owner: ErrNoteNotFound when scope may not see it, ErrNotOwner when
// scope.User may see but not change it.
func lockOwnNote(ctx context.Context, tx pgx.Tx, scope knowledge.Scope, id string) (knowledge.Note, error) {
	if _, ok := parseNoteID(id); !ok {
		return knowledge.Note{}, store.ErrNoteNotFound
	}
	rows, _ := tx.Query(ctx, `SELECT `+noteColumns+` FROM notes WHERE `+inScope+` AND id = $3 FOR UPDATE`,
		scope.Workspace, scope.User, id)
	notes, err := collectNotes(rows)
	if err != nil {
		return knowledge.Note{}, fmt.Errorf("read note: %w", err)
	}
	if len(notes) == 0 {
		return knowledge.Note{}, store.ErrNoteNotFound
	}
	if notes[0].Owner != scope.User {
		return knowledge.Note{}, store.ErrNotOwner
	}
	return notes[0], nil
}

// UpdateNote replaces a note its owner may edit, in one transaction with
// its chunks. An edit that changes nothing writes nothing.
func (s *Store) UpdateNote(ctx context.Context, scope knowledge.Scope, n knowledge.Note) (knowledge.Note, error) {
	op := fmt.Sprintf("update note %s", n.ID)
	if err := scope.Validate(); err != nil {
		return knowledge.Note{}, fmt.Errorf("%s: %w", op, err)
	}
	var out knowledge.Note
	err := s.writeNotesTx(ctx, func(tx pgx.Tx) error {
		stored, err := lockOwnNote(ctx, tx, scope, n.ID)
		if err != nil {
			return err
		}
		next := n
		next.Workspace, next.Owner = stored.Workspace, stored.Owner
		if next, err = store.PrepareNote(next); err != nil {
			return err
		}
		next.CreatedAt, next.UpdatedAt = stored.CreatedAt, stored.UpdatedAt
		if err := readChunksInto(ctx, tx, scope, nil, &stored); err != nil {
			return err
		}
		if store.SameNoteContent(stored, next) {
			out = stored
			return nil
		}
		next.UpdatedAt = now()
		if _, err := tx.Exec(ctx, `UPDATE notes SET visibility = $2, title = $3, body = $4, body_format = $5, tags = $6,
			updated_at = $7, content_hash = $8 WHERE id = $1`,
			next.ID, string(next.Visibility), next.Title, next.Body, string(next.Format), textArray(next.Tags),
			next.UpdatedAt, next.ContentHash); err != nil {
			return fmt.Errorf("update: %w", err)
		}
		// The scope columns of every chunk may change with the note, so
		// all are rewritten.
		if _, err := tx.Exec(ctx, `DELETE FROM notes_knowledge_chunks WHERE note_id = $1`, next.ID); err != nil {
			return fmt.Errorf("delete old chunks: %w", err)
		}
		if _, err := copyNoteChunks(ctx, tx, []knowledge.Note{next}, [][]knowledge.Chunk{next.Chunks}); err != nil {
			return err
		}
		out = next
		return bumpNotesGenerations(ctx, tx, next.Workspace)
	})
	if err != nil {
		return knowledge.Note{}, s.notesFail(ctx, op, false, err)
	}
	return out, nil
}

// DeleteNote soft-deletes a note and deletes its chunks in one
// transaction; the row stays for the audit log.
func (s *Store) DeleteNote(ctx context.Context, scope knowledge.Scope, id string) error {
	op := fmt.Sprintf("delete note %s", id)
	if err := scope.Validate(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	err := s.writeNotesTx(ctx, func(tx pgx.Tx) error {
		stored, err := lockOwnNote(ctx, tx, scope, id)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE notes SET deleted_at = $2, updated_at = $2 WHERE id = $1`, id, now()); err != nil {
			return fmt.Errorf("mark deleted: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM notes_knowledge_chunks WHERE note_id = $1`, id); err != nil {
			return fmt.Errorf("delete chunks: %w", err)
		}
		return bumpNotesGenerations(ctx, tx, stored.Workspace)
	})
	if err != nil {
		return s.notesFail(ctx, op, false, err)
	}
	return nil
}

func collectNotes(rows pgx.Rows) ([]knowledge.Note, error) {
	var (
		out                        []knowledge.Note
		n                          knowledge.Note
		visibility, format         string
		created, updated           time.Time
		id, workspace, owner, hash string
	)
	_, err := pgx.ForEachRow(rows, []any{&id, &workspace, &owner, &visibility, &n.Title, &n.Body, &format, &n.Tags, &created, &updated, &hash},
		func() error {
			out = append(out, knowledge.Note{
				ID: id, Workspace: workspace, Owner: owner, Visibility: knowledge.Visibility(visibility),
				Title: n.Title, Body: n.Body, Format: knowledge.BodyFormat(format), Tags: nilIfEmpty(slices.Clone(n.Tags)),
				CreatedAt: created.UTC(), UpdatedAt: updated.UTC(), ContentHash: hash,
			})
			return nil
		})
	return out, err
}

// readChunksInto reads chunks in scope into notes: those of one note
// when single is set (notes is then ignored), otherwise every chunk in
// scope, which are the chunks of exactly the notes a read in the same
// snapshot found (a deleted note has none).
func readChunksInto(ctx context.Context, tx pgx.Tx, scope knowledge.Scope, notes []knowledge.Note, single *knowledge.Note) error {
	byID := make(map[string]*knowledge.Note, len(notes))
	for i := range notes {
		byID[notes[i].ID] = &notes[i]
	}
	query := `SELECT note_id::text, header_path, chunk_index, content, text, keywords, chunk_hash, is_heading_only, body_char_count
		FROM notes_knowledge_chunks WHERE ` + chunkInScope
	args := []any{scope.Workspace, scope.User}
	if single != nil {
		byID = map[string]*knowledge.Note{single.ID: single}
		query += ` AND note_id = $3`
		args = append(args, single.ID)
	}
	rows, _ := tx.Query(ctx, query+` ORDER BY note_id, chunk_index`, args...)
	var (
		noteID string
		c      knowledge.Chunk
	)
	_, err := pgx.ForEachRow(rows, []any{&noteID, &c.HeaderPath, &c.Index, &c.Content, &c.Text, &c.Keywords, &c.Hash, &c.HeadingOnly, &c.BodyChars},
		func() error {
			n, ok := byID[noteID]
			if !ok {
				return nil // a chunk of a note outside this read
			}
			c.DocSlug, c.Category, c.Title = knowledge.NoteSlug(noteID), "notes", n.Title
			c.Keywords = nilIfEmpty(slices.Clone(c.Keywords))
			n.Chunks = append(n.Chunks, c)
			return nil
		})
	if err != nil {
		return fmt.Errorf("read chunks: %w", err)
	}
	return nil
}

// GetNote returns one note in scope with its chunks.
func (s *Store) GetNote(ctx context.Context, scope knowledge.Scope, id string) (knowledge.Note, error) {
	op := fmt.Sprintf("get note %s", id)
	if err := scope.Validate(); err != nil {
		return knowledge.Note{}, fmt.Errorf("%s: %w", op, err)
	}
	if _, ok := parseNoteID(id); !ok {
		return knowledge.Note{}, fmt.Errorf("%s: %w", op, store.ErrNoteNotFound)
	}
	var out knowledge.Note
	err := s.readNotesTx(ctx, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `SELECT `+noteColumns+` FROM notes WHERE `+inScope+` AND id = $3`, scope.Workspace, scope.User, id)
		notes, err := collectNotes(rows)
		if err != nil {
			return fmt.Errorf("read note: %w", err)
		}
		if len(notes) == 0 {
			return store.ErrNoteNotFound
		}
		out = notes[0]
		return readChunksInto(ctx, tx, scope, nil, &out)
	})
	if err != nil {
		return knowledge.Note{}, s.notesFail(ctx, op, true, err)
	}
	return out, nil
}

// ListNotes summarizes the notes in scope, most recently updated first.
func (s *Store) ListNotes(ctx context.Context, scope knowledge.Scope) ([]knowledge.NoteSummary, error) {
	const op = "list notes"
	if err := scope.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	var out []knowledge.NoteSummary
	err := s.readNotesTx(ctx, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `SELECT n.id::text, n.workspace_id, n.owner_id, n.visibility, n.title, n.tags, n.updated_at,
			(SELECT count(*) FROM notes_knowledge_chunks c WHERE c.note_id = n.id)
			FROM notes n WHERE `+inScope+`
			ORDER BY n.updated_at DESC, n.id`, scope.Workspace, scope.User)
		var (
			sum        knowledge.NoteSummary
			visibility string
		)
		_, err := pgx.ForEachRow(rows, []any{&sum.ID, &sum.Workspace, &sum.Owner, &visibility, &sum.Title, &sum.Tags, &sum.UpdatedAt, &sum.ChunkCount},
			func() error {
				s := sum
				s.Visibility = knowledge.Visibility(visibility)
				s.Tags = nilIfEmpty(slices.Clone(sum.Tags))
				s.UpdatedAt = s.UpdatedAt.UTC()
				out = append(out, s)
				return nil
			})
		return err
	})
	if err != nil {
		return nil, s.notesFail(ctx, op, true, err)
	}
	return out, nil
}

// VisibleNotes is every note in scope with its chunks, ordered by id, as
// of one snapshot.
func (s *Store) VisibleNotes(ctx context.Context, scope knowledge.Scope) ([]knowledge.Note, error) {
	const op = "read visible notes"
	if err := scope.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	var out []knowledge.Note
	err := s.readNotesTx(ctx, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `SELECT `+noteColumns+` FROM notes WHERE `+inScope+` ORDER BY id`, scope.Workspace, scope.User)
		notes, err := collectNotes(rows)
		if err != nil {
			return fmt.Errorf("read notes: %w", err)
		}
		if len(notes) == 0 {
			return nil
		}
		out = notes
		return readChunksInto(ctx, tx, scope, out, nil)
	})
	if err != nil {
		return nil, s.notesFail(ctx, op, true, err)
	}
	return out, nil
}

// NotesGeneration is one primary-key lookup; a workspace never written
// reads 0.
func (s *Store) NotesGeneration(ctx context.Context, workspace string) (int64, error) {
	var gen int64
	err := s.pool.QueryRow(ctx, `SELECT generation FROM notes_generations WHERE workspace_id = $1`, workspace).Scan(&gen)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, s.notesFail(ctx, fmt.Sprintf("read the notes generation of %q", workspace), true, err)
	}
	return gen, nil
}

// ImportNotes adds notes owned by their own Owner, store.ImportBatchSize
// per transaction, COPYing them through a temporary table so a note whose
// id is already stored is skipped, not an error. A note without an id gets
// one; one with times keeps them. Invalid notes (and repeated ids) are
// skipped and counted. A failed batch leaves the batches before it
// stored, and the report says how many.
func (s *Store) ImportNotes(ctx context.Context, notes []knowledge.Note, progress func(done int)) (store.ImportReport, error) {
	r, err := store.ImportInBatches(notes, progress, now, func(batch []knowledge.Note) (int, int, error) {
		return s.importBatch(ctx, batch)
	})
	if err != nil {
		return r, s.notesFail(ctx, "notes", false, err)
	}
	return r, nil
}

func (s *Store) importBatch(ctx context.Context, batch []knowledge.Note) (written, chunks int, _ error) {
	err := s.writeNotesTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `CREATE TEMPORARY TABLE notes_import (LIKE notes INCLUDING DEFAULTS) ON COMMIT DROP`); err != nil {
			return fmt.Errorf("create the import table: %w", err)
		}
		_, err := tx.CopyFrom(ctx, pgx.Identifier{"notes_import"},
			[]string{"id", "workspace_id", "owner_id", "visibility", "title", "body", "body_format", "tags", "created_at", "updated_at", "content_hash"},
			pgx.CopyFromSlice(len(batch), func(i int) ([]any, error) {
				n := batch[i]
				id, _ := parseNoteID(n.ID)
				return []any{id, n.Workspace, n.Owner, string(n.Visibility), n.Title, n.Body, string(n.Format),
					textArray(n.Tags), n.CreatedAt, n.UpdatedAt, n.ContentHash}, nil
			}))
		if err != nil {
			return fmt.Errorf("copy %d notes: %w", len(batch), err)
		}
		rows, _ := tx.Query(ctx, `INSERT INTO notes SELECT * FROM notes_import ON CONFLICT (id) DO NOTHING RETURNING id::text`)
		inserted, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return fmt.Errorf("insert notes: %w", err)
		}
		if len(inserted) == 0 {
			return nil
		}
		isNew := make(map[string]bool, len(inserted))
		for _, id := range inserted {
			isNew[id] = true
		}
		var (
			fresh      []knowledge.Note
			freshChunk [][]knowledge.Chunk
			workspaces []string
		)
		for _, n := range batch {
			if isNew[n.ID] {
				fresh = append(fresh, n)
				freshChunk = append(freshChunk, n.Chunks)
				workspaces = append(workspaces, n.Workspace)
			}
		}
		if chunks, err = copyNoteChunks(ctx, tx, fresh, freshChunk); err != nil {
			return err
		}
		written = len(fresh)
		return bumpNotesGenerations(ctx, tx, workspaces...)
	})
	if err != nil {
		return 0, 0, err
	}
	return written, chunks, nil
}

// ReindexNotes re-chunks every live note of a workspace and rewrites the
// chunks that changed, store.ImportBatchSize notes per transaction. A note
// edited meanwhile is left to its edit, which chunked it already.
func (s *Store) ReindexNotes(ctx context.Context, workspace string, chunk func(knowledge.Note) ([]knowledge.Chunk, error)) (store.ImportReport, error) {
	start := time.Now()
	op := fmt.Sprintf("reindex the notes of %q", workspace)
	var notes []knowledge.Note
	err := s.readNotesTx(ctx, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `SELECT `+noteColumns+` FROM notes WHERE workspace_id = $1 AND deleted_at IS NULL ORDER BY id`, workspace)
		var err error
		if notes, err = collectNotes(rows); err != nil {
			return fmt.Errorf("read notes: %w", err)
		}
		// Every owner's chunks: a reindex is the workspace's, not a user's.
		byID := make(map[string]*knowledge.Note, len(notes))
		for i := range notes {
			byID[notes[i].ID] = &notes[i]
		}
		rows, _ = tx.Query(ctx, `SELECT note_id::text, header_path, chunk_index, content, text, keywords, chunk_hash, is_heading_only, body_char_count
			FROM notes_knowledge_chunks WHERE workspace_id = $1 ORDER BY note_id, chunk_index`, workspace)
		var (
			noteID string
			c      knowledge.Chunk
		)
		_, err = pgx.ForEachRow(rows, []any{&noteID, &c.HeaderPath, &c.Index, &c.Content, &c.Text, &c.Keywords, &c.Hash, &c.HeadingOnly, &c.BodyChars},
			func() error {
				if n, ok := byID[noteID]; ok {
					c.DocSlug, c.Category, c.Title = knowledge.NoteSlug(noteID), "notes", n.Title
					c.Keywords = nilIfEmpty(slices.Clone(c.Keywords))
					n.Chunks = append(n.Chunks, c)
				}
				return nil
			})
		return err
	})
	var r store.ImportReport
	if err != nil {
		return r, s.notesFail(ctx, op, true, err)
	}

	type change struct {
		note  knowledge.Note
		write []knowledge.Chunk
		drop  []int
	}
	var changes []change
	for _, n := range notes {
		next := n.Clone()
		chunks, err := chunk(n.Clone())
		if err != nil {
			r.Duration = time.Since(start)
			return r, fmt.Errorf("%s: chunk note %s (%q): %w", op, n.ID, n.Title, err)
		}
		next.Chunks = chunks
		if next, err = store.PrepareNote(next); err != nil {
			r.Duration = time.Since(start)
			return r, fmt.Errorf("%s: chunks of note %s: %w", op, n.ID, err)
		}
		write, drop := store.DiffNoteChunks(n.Chunks, next.Chunks)
		if len(write) == 0 && len(drop) == 0 {
			r.Skipped++
			continue
		}
		changes = append(changes, change{note: n, write: write, drop: drop})
	}

	for from := 0; from < len(changes); from += store.ImportBatchSize {
		batch := changes[from:min(from+store.ImportBatchSize, len(changes))]
		var notesWritten, chunksWritten int
		err := s.writeNotesTx(ctx, func(tx pgx.Tx) error {
			notesWritten, chunksWritten = 0, 0
			ids := make([]string, len(batch))
			for i, c := range batch {
				ids[i] = c.note.ID
			}
			// Lock the notes; one whose content changed since the read was
			// re-chunked by its writer and is left alone.
			rows, _ := tx.Query(ctx, `SELECT id::text, content_hash FROM notes
				WHERE workspace_id = $1 AND deleted_at IS NULL AND id = ANY($2::uuid[]) ORDER BY id FOR UPDATE`, workspace, ids)
			current := map[string]string{}
			var id, hash string
			if _, err := pgx.ForEachRow(rows, []any{&id, &hash}, func() error { current[id] = hash; return nil }); err != nil {
				return fmt.Errorf("lock notes: %w", err)
			}
			var (
				dropIDs     []string
				dropIndices []int32
				writeNotes  []knowledge.Note
				writeChunks [][]knowledge.Chunk
			)
			for _, c := range batch {
				if current[c.note.ID] != c.note.ContentHash {
					continue
				}
				for _, i := range c.drop {
					dropIDs = append(dropIDs, c.note.ID)
					dropIndices = append(dropIndices, int32(i))
				}
				writeNotes = append(writeNotes, c.note)
				writeChunks = append(writeChunks, c.write)
			}
			if len(writeNotes) == 0 {
				return nil
			}
			if _, err := tx.Exec(ctx, `DELETE FROM notes_knowledge_chunks c
				USING unnest($1::uuid[], $2::int[]) AS stale(note_id, chunk_index)
				WHERE c.note_id = stale.note_id AND c.chunk_index = stale.chunk_index`, dropIDs, dropIndices); err != nil {
				return fmt.Errorf("delete %d changed chunks: %w", len(dropIDs), err)
			}
			n, err := copyNoteChunks(ctx, tx, writeNotes, writeChunks)
			if err != nil {
				return err
			}
			notesWritten, chunksWritten = len(writeNotes), n
			return bumpNotesGenerations(ctx, tx, workspace)
		})
		if err != nil {
			r.Duration = time.Since(start)
			return r, s.notesFail(ctx, fmt.Sprintf("%s (notes %s to %s)", op, batch[0].note.ID, batch[len(batch)-1].note.ID), false, err)
		}
		r.Notes += notesWritten
		r.Chunks += chunksWritten
		r.Skipped += len(batch) - notesWritten
	}
	r.Duration = time.Since(start)
	return r, nil
}

// RecordNoteReads appends reads to the audit table with COPY. It is the
// one notes call that writes on behalf of a reader: its error says so,
// and the caller decides whether to answer anyway.
func (s *Store) RecordNoteReads(ctx context.Context, reads []knowledge.NoteRead) error {
	if len(reads) == 0 {
		return nil
	}
	stamp := now()
	rows := make([][]any, len(reads))
	for i, r := range reads {
		if err := store.ValidateNoteRead(r); err != nil {
			return fmt.Errorf("record note reads: %w", err)
		}
		id, ok := parseNoteID(r.NoteID)
		if !ok {
			return fmt.Errorf("record note reads: note id %q is not a uuid", r.NoteID)
		}
		at := r.Time
		if at.IsZero() {
			at = stamp
		}
		rows[i] = []any{r.User, id, at, string(r.Reason)}
	}
	_, err := s.pool.CopyFrom(ctx, pgx.Identifier{"note_reads"}, []string{"user_id", "note_id", "read_at", "reason"}, pgx.CopyFromRows(rows))
	if err != nil {
		return s.notesFail(ctx, fmt.Sprintf("record %d note reads (first: note %s by %q)", len(reads), reads[0].NoteID, reads[0].User), false, err)
	}
	return nil
}
