package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/knowledge"
)

// Slugs sort with COLLATE "C" (byte order) whatever the database's locale,
// so both stores list docs in the same order.

// ListDocs summarizes every doc, ordered by slug.
func (s *Store) ListDocs(ctx context.Context) ([]knowledge.DocSummary, error) {
	// A query error surfaces from ForEachRow, which reads rows.Err().
	rows, _ := s.pool.Query(ctx, `SELECT d.slug, d.category, d.title, count(c.id), d.content_hash, d.version
		FROM docs_knowledge d LEFT JOIN docs_knowledge_chunks c ON c.doc_slug = d.slug
		GROUP BY d.slug
		ORDER BY d.slug COLLATE "C"`)
	var (
		out []knowledge.DocSummary
		d   knowledge.DocSummary
	)
	_, err := pgx.ForEachRow(rows, []any{&d.Slug, &d.Category, &d.Title, &d.ChunkCount, &d.ContentHash, &d.Version},
		func() error {
			out = append(out, d)
			return nil
		})
	if err != nil {
		return nil, s.fail(ctx, "list docs", err)
	}
	return out, nil
}

// Generation returns the knowledge generation: a number every seed that
// writes anything raises, in the transaction that writes. It is one
// primary-key lookup, cheap enough to ask before every question.
func (s *Store) Generation(ctx context.Context) (int64, error) {
	var gen int64
	err := s.pool.QueryRow(ctx, `SELECT generation FROM docs_knowledge_generation WHERE id = true`).Scan(&gen)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil // the next writing seed recreates the row
	}
	if err != nil {
		return 0, s.fail(ctx, "read knowledge generation", err)
	}
	return gen, nil
}

// Corpus returns every doc with its chunks, ordered by slug and chunk
// index, as of one consistent snapshot even while a seed commits.
func (s *Store) Corpus(ctx context.Context) ([]knowledge.Doc, error) {
	var docs []knowledge.Doc
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly},
		func(tx pgx.Tx) error {
			var err error
			docs, err = readCorpus(ctx, tx)
			return err
		})
	if err != nil {
		return nil, s.fail(ctx, "read corpus", err)
	}
	return docs, nil
}

func readCorpus(ctx context.Context, tx pgx.Tx) ([]knowledge.Doc, error) {
	// A query error surfaces from ForEachRow, which reads rows.Err().
	rows, _ := tx.Query(ctx, `SELECT slug, category, title, content, content_hash, version, keywords, source_path, description
		FROM docs_knowledge ORDER BY slug COLLATE "C"`)
	var (
		docs  []knowledge.Doc
		d     knowledge.Doc
		index = map[string]int{}
	)
	_, err := pgx.ForEachRow(rows, []any{&d.Slug, &d.Category, &d.Title, &d.Content, &d.ContentHash, &d.Version, &d.Keywords, &d.SourcePath, &d.Description},
		func() error {
			d.Keywords = nilIfEmpty(d.Keywords)
			index[d.Slug] = len(docs)
			docs = append(docs, d)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("read docs: %w", err)
	}

	rows, _ = tx.Query(ctx, `SELECT doc_slug, category, title, header_path, chunk_index, content, keywords, chunk_hash, is_heading_only, body_char_count, text,
			embedding, embedding_model
		FROM docs_knowledge_chunks ORDER BY doc_slug COLLATE "C", chunk_index`)
	var (
		c              knowledge.Chunk
		vector         []float32
		embeddingModel *string
	)
	_, err = pgx.ForEachRow(rows, []any{&c.DocSlug, &c.Category, &c.Title, &c.HeaderPath, &c.Index, &c.Content, &c.Keywords, &c.Hash, &c.HeadingOnly, &c.BodyChars, &c.Text,
		&vector, &embeddingModel},
		func() error {
			c.Keywords = nilIfEmpty(c.Keywords)
			c.Embedding = nil
			if vector != nil && embeddingModel != nil {
				// A fresh slice each row: pgx may reuse the scanned one.
				c.Embedding = &knowledge.Embedding{Model: *embeddingModel, Vector: slices.Clone(vector)}
			}
			i := index[c.DocSlug] // the foreign key guarantees the doc
			docs[i].Chunks = append(docs[i].Chunks, c)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("read chunks: %w", err)
	}
	return docs, nil
}

// Vocabulary returns the glossary, synonyms and concept docs the last seed
// that carried them stored.
func (s *Store) Vocabulary(ctx context.Context) (knowledge.Vocabulary, error) {
	var v knowledge.Vocabulary
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var err error
		v, err = readVocabulary(ctx, tx)
		return err
	})
	if err != nil {
		return knowledge.Vocabulary{}, s.fail(ctx, "read vocabulary", err)
	}
	return v, nil
}

func readVocabulary(ctx context.Context, tx pgx.Tx) (knowledge.Vocabulary, error) {
	var (
		v        knowledge.Vocabulary
		synonyms []struct {
			From string `json:"from"`
			To   string `json:"to"`
		}
	)
	err := tx.QueryRow(ctx, `SELECT glossary, synonyms, concepts FROM docs_vocabulary WHERE id = true`).Scan(&v.Glossary, &synonyms, &v.Concepts)
	if errors.Is(err, pgx.ErrNoRows) {
		return knowledge.Vocabulary{}, nil // the next seed that carries one recreates the row
	}
	if err != nil {
		return knowledge.Vocabulary{}, fmt.Errorf("read vocabulary: %w", err)
	}
	for _, s := range synonyms {
		v.Synonyms = append(v.Synonyms, knowledge.Synonym{From: s.From, To: s.To})
	}
	v.Concepts = nilIfEmpty(v.Concepts)
	return v, nil
}

// nilIfEmpty gives both stores one spelling of "no keywords".
func nilIfEmpty(items []string) []string {
	if len(items) == 0 {
		return nil
	}
	return items
}
