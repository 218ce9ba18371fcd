package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
)

// rollbackTimeout bounds cleaning up after a failed seed; the caller's
// context may be what failed, so it cannot bound it.
const rollbackTimeout = 5 * time.Second

// chunkNamespace makes chunk ids uuid v5 of the stable chunk id: the same
// knowledge base always produces the same ids, whoever seeds it.
var chunkNamespace = uuid.MustParse("e3f20957-548f-4634-98dd-8726f43fedef")

// ChunkUUID is the id a chunk is stored under: uuid v5 of
// knowledge.ChunkID(slug, index).
func ChunkUUID(slug string, index int) uuid.UUID {
	return uuid.NewSHA1(chunkNamespace, []byte(knowledge.ChunkID(slug, index)))
}

// Seed makes the database hold exactly docs, the complete knowledge base,
// save for the stored docs opts keeps, in one transaction: a failed,
// refused or cancelled seed leaves the previous state. Only what changed is
// written; an unchanged knowledge base writes nothing.
func (s *Store) Seed(ctx context.Context, docs []knowledge.Doc, opts store.SeedOptions) (store.SeedReport, error) {
	start := time.Now()
	if err := store.ValidateSnapshot(docs); err != nil {
		return store.SeedReport{}, fmt.Errorf("seed: %w", err)
	}
	plan, vocabularyChanged, err := s.seed(ctx, docs, opts)
	if err != nil {
		return store.SeedReport{}, s.fail(ctx, "seed", err)
	}
	r := plan.Report(time.Since(start))
	r.Vocabulary = vocabularyChanged
	return r, nil
}

func (s *Store) seed(ctx context.Context, docs []knowledge.Doc, opts store.SeedOptions) (_ store.SeedPlan, vocabularyChanged bool, _ error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return store.SeedPlan{}, false, fmt.Errorf("begin: %w", err)
	}
	defer func() {
		rbCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rollbackTimeout)
		defer cancel()
		_ = tx.Rollback(rbCtx) // a no-op after Commit
	}()

	// Concurrent seeders run one after the other, and the second finds the
	// first one's work; one stuck for longer than the wait is reported.
	if err := takeXactLock(ctx, tx, seedLockKey, s.lockWait, "seed"); err != nil {
		return store.SeedPlan{}, false, err
	}
	// Under READ COMMITTED each statement sees what was committed before it
	// started, so this read sees the work of any seeder we waited for.
	stored, err := readStored(ctx, tx)
	if err != nil {
		return store.SeedPlan{}, false, err
	}
	plan, err := store.Plan(stored, docs, opts)
	if err != nil {
		return store.SeedPlan{}, false, err
	}
	storedVocabulary, err := readVocabulary(ctx, tx)
	if err != nil {
		return store.SeedPlan{}, false, err
	}
	vocabularyChanged = opts.VocabularyChanged(storedVocabulary)
	if vocabularyChanged {
		if err := writeVocabulary(ctx, tx, *opts.Vocabulary); err != nil {
			return store.SeedPlan{}, false, err
		}
	}
	if plan.HasWrites() {
		hashes := make(map[string]map[int]string, len(stored))
		for slug, d := range stored {
			hashes[slug] = d.ChunkHashes
		}
		if err := apply(ctx, tx, plan, hashes); err != nil {
			return store.SeedPlan{}, false, err
		}
	}
	if plan.HasWrites() || vocabularyChanged {
		// In the same transaction: a reader that sees the new generation
		// sees the new content, and a failed seed bumps nothing.
		var gen int64
		if err := tx.QueryRow(ctx, bumpGenerationSQL).Scan(&gen); err != nil {
			return store.SeedPlan{}, false, fmt.Errorf("bump knowledge generation: %w", err)
		}
		// Running docents rebuild their index once this commits (Watch).
		if err := notify(ctx, tx, store.Change{Kind: store.ChangeGeneration, Generation: gen}); err != nil {
			return store.SeedPlan{}, false, err
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return store.SeedPlan{}, false, fmt.Errorf("commit: %w", err)
	}
	return plan, vocabularyChanged, nil
}

// writeVocabulary replaces the stored vocabulary. The migration inserts
// the row; the upsert only matters if someone deleted it.
func writeVocabulary(ctx context.Context, tx pgx.Tx, v knowledge.Vocabulary) error {
	type synonym struct {
		From string `json:"from"`
		To   string `json:"to"`
	}
	synonyms := make([]synonym, len(v.Synonyms))
	for i, s := range v.Synonyms {
		synonyms[i] = synonym{From: s.From, To: s.To}
	}
	_, err := tx.Exec(ctx, `INSERT INTO docs_vocabulary AS v (id, glossary, synonyms, concepts) VALUES (true, $1, $2, $3)
		ON CONFLICT (id) DO UPDATE SET glossary = $1, synonyms = $2, concepts = $3, updated_at = now()`,
		v.Glossary, synonyms, textArray(v.Concepts))
	if err != nil {
		return fmt.Errorf("write vocabulary: %w", err)
	}
	return nil
}

// readStored reads what planning needs — keys, hashes and metadata, never
// contents — and fingerprints it the way store.Plan does.
func readStored(ctx context.Context, tx pgx.Tx) (map[string]store.StoredDoc, error) {
	stored := map[string]store.StoredDoc{}
	// A query error surfaces from ForEachRow, which reads rows.Err().
	rows, _ := tx.Query(ctx, `SELECT slug, category, title, content_hash, version, keywords, source_path, description FROM docs_knowledge`)
	var d knowledge.Doc
	_, err := pgx.ForEachRow(rows, []any{&d.Slug, &d.Category, &d.Title, &d.ContentHash, &d.Version, &d.Keywords, &d.SourcePath, &d.Description},
		func() error {
			stored[d.Slug] = store.StoredDoc{
				Slug: d.Slug, ContentHash: d.ContentHash, Version: d.Version,
				Fingerprint: store.DocFingerprint(d),
			}
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("read stored docs: %w", err)
	}

	rows, _ = tx.Query(ctx, `SELECT doc_slug, chunk_index, category, title, header_path, chunk_hash, is_heading_only, body_char_count, keywords, md5(text),
			embedding_model, embedding_dim
		FROM docs_knowledge_chunks`)
	var (
		c              knowledge.Chunk
		textDigest     string
		embeddingModel *string
		embeddingDim   *int
	)
	_, err = pgx.ForEachRow(rows, []any{&c.DocSlug, &c.Index, &c.Category, &c.Title, &c.HeaderPath, &c.Hash, &c.HeadingOnly, &c.BodyChars, &c.Keywords, &textDigest,
		&embeddingModel, &embeddingDim},
		func() error {
			doc, ok := stored[c.DocSlug]
			if !ok { // only a writer bypassing the seed lock could cause this
				return fmt.Errorf("chunk %s has no doc", knowledge.ChunkID(c.DocSlug, c.Index))
			}
			key := ""
			if embeddingModel != nil && embeddingDim != nil {
				key = store.EmbeddingKeyOf(*embeddingModel, *embeddingDim)
			}
			doc.AddChunk(c, store.StoredChunkFingerprint(c, textDigest), key)
			stored[c.DocSlug] = doc // AddChunk may have made the maps
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("read stored chunks: %w", err)
	}
	return stored, nil
}

const (
	// The migration inserts the row; the upsert only matters if someone
	// deleted it, and then the knowledge base still registers as changed.
	bumpGenerationSQL = `INSERT INTO docs_knowledge_generation AS g (id, generation) VALUES (true, 1)
		ON CONFLICT (id) DO UPDATE SET generation = g.generation + 1, updated_at = now()
		RETURNING generation`
	updateDocSQL = `UPDATE docs_knowledge
		SET category = $2, title = $3, content = $4, content_hash = $5, version = $6, keywords = $7, source_path = $8,
			description = $9, updated_at = now()
		WHERE slug = $1`
	updateChunkSQL = `UPDATE docs_knowledge_chunks
		SET category = $3, title = $4, header_path = $5, content = $6, keywords = $7, chunk_hash = $8,
			is_heading_only = $9, body_char_count = $10, text = $11,
			embedding = $12, embedding_model = $13, embedding_dim = $14, updated_at = now()
		WHERE doc_slug = $1 AND chunk_index = $2`
	// updateChunkKeepEmbeddingSQL rewrites a chunk whose content is
	// unchanged and that brings no embedding: the stored one stays
	// (store.KeepsEmbedding).
	updateChunkKeepEmbeddingSQL = `UPDATE docs_knowledge_chunks
		SET category = $3, title = $4, header_path = $5, content = $6, keywords = $7, chunk_hash = $8,
			is_heading_only = $9, body_char_count = $10, text = $11, updated_at = now()
		WHERE doc_slug = $1 AND chunk_index = $2`
	deleteStaleChunksSQL = `DELETE FROM docs_knowledge_chunks c
		USING unnest($1::text[], $2::int[]) AS stale(doc_slug, chunk_index)
		WHERE c.doc_slug = stale.doc_slug AND c.chunk_index = stale.chunk_index`
)

var (
	docColumns   = []string{"slug", "category", "title", "content", "content_hash", "version", "keywords", "source_path", "description"}
	chunkColumns = []string{"id", "doc_slug", "category", "title", "header_path", "chunk_index", "content", "keywords",
		"chunk_hash", "is_heading_only", "body_char_count", "text", "embedding", "embedding_model", "embedding_dim"}
)

// apply writes a plan with a handful of round trips whatever its size:
// set-based deletes, one pipelined batch of updates and COPY for inserts.
func apply(ctx context.Context, tx pgx.Tx, plan store.SeedPlan, storedHashes map[string]map[int]string) error {
	if len(plan.Delete) > 0 {
		if _, err := tx.Exec(ctx, `DELETE FROM docs_knowledge WHERE slug = ANY($1)`, plan.Delete); err != nil {
			return fmt.Errorf("delete %d removed docs: %w", len(plan.Delete), err)
		}
	}

	var (
		staleSlugs   []string
		staleIndices []int32
		updates      pgx.Batch
		updateWhat   []string // names each queued update for errors
		newChunks    []knowledge.Chunk
	)
	for _, u := range plan.Update {
		d := u.Doc
		for _, idx := range u.DeleteChunks {
			staleSlugs = append(staleSlugs, d.Slug)
			staleIndices = append(staleIndices, int32(idx))
		}
		if u.RowChanged {
			updates.Queue(updateDocSQL, d.Slug, d.Category, d.Title, d.Content, d.ContentHash, d.Version,
				textArray(d.Keywords), d.SourcePath, d.Description)
			updateWhat = append(updateWhat, "doc "+d.Slug)
		}
		for _, c := range u.UpdateChunks {
			args := []any{d.Slug, c.Index, c.Category, c.Title, c.HeaderPath, c.Content,
				textArray(c.Keywords), c.Hash, c.HeadingOnly, c.BodyChars, c.Text}
			if store.KeepsEmbedding(c, storedHashes[d.Slug][c.Index]) {
				updates.Queue(updateChunkKeepEmbeddingSQL, args...)
			} else {
				updates.Queue(updateChunkSQL, append(args, embeddingArgs(c.Embedding)...)...)
			}
			updateWhat = append(updateWhat, "chunk "+knowledge.ChunkID(d.Slug, c.Index))
		}
		newChunks = append(newChunks, u.InsertChunks...)
	}

	if len(staleSlugs) > 0 {
		if _, err := tx.Exec(ctx, deleteStaleChunksSQL, staleSlugs, staleIndices); err != nil {
			return fmt.Errorf("delete %d stale chunks: %w", len(staleSlugs), err)
		}
	}
	if updates.Len() > 0 {
		if err := sendUpdates(ctx, tx, &updates, updateWhat); err != nil {
			return err
		}
	}

	if len(plan.Insert) > 0 {
		_, err := tx.CopyFrom(ctx, pgx.Identifier{"docs_knowledge"}, docColumns,
			pgx.CopyFromSlice(len(plan.Insert), func(i int) ([]any, error) {
				d := plan.Insert[i]
				return []any{d.Slug, d.Category, d.Title, d.Content, d.ContentHash, d.Version,
					textArray(d.Keywords), d.SourcePath, d.Description}, nil
			}))
		if err != nil {
			return fmt.Errorf("insert %d new docs: %w", len(plan.Insert), err)
		}
		for _, d := range plan.Insert {
			newChunks = append(newChunks, d.Chunks...)
		}
	}
	if len(newChunks) > 0 {
		_, err := tx.CopyFrom(ctx, pgx.Identifier{"docs_knowledge_chunks"}, chunkColumns,
			pgx.CopyFromSlice(len(newChunks), func(i int) ([]any, error) {
				c := newChunks[i]
				// A [16]byte encodes straight to binary; uuid.UUID would go through
				// its text form after a failed attempt, on every row.
				row := []any{[16]byte(ChunkUUID(c.DocSlug, c.Index)), c.DocSlug, c.Category, c.Title, c.HeaderPath, c.Index,
					c.Content, textArray(c.Keywords), c.Hash, c.HeadingOnly, c.BodyChars, c.Text}
				return append(row, embeddingArgs(c.Embedding)...), nil
			}))
		if err != nil {
			return fmt.Errorf("insert %d new chunks: %w", len(newChunks), err)
		}
	}
	return nil
}

// sendUpdates runs the queued updates in one round trip. Each must touch
// exactly one row: the plan was made from rows read under the seed lock,
// so anything else means the schema or another writer broke the rules.
func sendUpdates(ctx context.Context, tx pgx.Tx, b *pgx.Batch, what []string) error {
	results := tx.SendBatch(ctx, b)
	for _, w := range what {
		tag, err := results.Exec()
		if err != nil {
			_ = results.Close()
			return fmt.Errorf("update %s: %w", w, err)
		}
		if tag.RowsAffected() != 1 {
			_ = results.Close()
			return fmt.Errorf("update %s: %d rows matched, want 1", w, tag.RowsAffected())
		}
	}
	if err := results.Close(); err != nil {
		return fmt.Errorf("update %d rows: %w", len(what), err)
	}
	return nil
}

// embeddingArgs are the embedding, embedding_model and embedding_dim
// columns of e: all NULL for none.
func embeddingArgs(e *knowledge.Embedding) []any {
	if e == nil {
		return []any{nil, nil, nil}
	}
	return []any{e.Vector, e.Model, int32(len(e.Vector))}
}

// textArray stores a missing list as '{}': the columns are NOT NULL.
func textArray(items []string) []string {
	if items == nil {
		return []string{}
	}
	return items
}
