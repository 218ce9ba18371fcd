package eval

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
)

// Engine is a search engine under measurement. The runner calls Index
// once, then Search for every query, then Close.
type Engine interface {
	Name() string
	Index(ctx context.Context, corpus []Document) error
	// Search returns up to k document ids, best first, each at most once.
	Search(ctx context.Context, text string, k int) ([]string, error)
	Close(ctx context.Context) error
}

// Docent is docent's own engine and ranking. Each corpus document is
// ingested as a doc and chunked as the knowledge base is; a document ranks
// where its best chunk does.
type Docent struct {
	cfg      retrieval.Config
	synonyms []knowledge.Synonym
	engine   *retrieval.Engine
	ids      map[string]string // doc slug → corpus id
}

// NewDocent returns docent's engine with the given retrieval settings and
// query rewrites (nil for none: a dataset brings no vocabulary).
func NewDocent(cfg retrieval.Config, synonyms []knowledge.Synonym) *Docent {
	return &Docent{cfg: cfg, synonyms: synonyms}
}

func (d *Docent) Name() string { return "docent" }

// Index ingests the corpus. Slugs are positions ("corpus/17"), not corpus
// ids, so no two ids can collide once made slug-safe; titles stay the
// dataset's, so the slug never adds terms to the ranking.
func (d *Docent) Index(ctx context.Context, corpus []Document) error {
	docs := make([]knowledge.Doc, len(corpus))
	d.ids = make(map[string]string, len(corpus))
	for i, c := range corpus {
		if i%256 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		slug := fmt.Sprintf("corpus/%d", i)
		d.ids[slug] = c.ID
		sum := sha256.Sum256([]byte(c.Title + "\n" + c.Text))
		docs[i] = knowledge.Doc{
			Slug:        slug,
			Category:    "corpus",
			Title:       c.Title,
			Content:     c.Text,
			ContentHash: hex.EncodeToString(sum[:]),
			Version:     1,
			SourcePath:  "corpus.jsonl#" + c.ID,
		}
		ingest.Chunk(&docs[i])
	}
	engine, err := retrieval.New(knowledge.Bundle{Docs: docs, Synonyms: d.synonyms}, d.cfg)
	if err != nil {
		return fmt.Errorf("docent engine: %w", err)
	}
	d.engine = engine
	return nil
}

// Search ranks chunks and keeps each document's best. A document with
// several strong chunks takes several places in the chunk ranking, so the
// chunk depth grows until k documents are found or the ranking runs out.
func (d *Docent) Search(ctx context.Context, text string, k int) ([]string, error) {
	if d.engine == nil {
		return nil, fmt.Errorf("docent engine: Search before Index")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if k <= 0 {
		return nil, nil
	}
	for depth := k; ; depth *= 2 {
		hits := d.engine.Search(text, depth)
		out := make([]string, 0, k)
		seen := make(map[string]bool, k)
		for _, h := range hits {
			if seen[h.DocSlug] {
				continue
			}
			seen[h.DocSlug] = true
			out = append(out, d.ids[h.DocSlug])
			if len(out) == k {
				return out, nil
			}
		}
		if len(hits) < depth {
			return out, nil
		}
	}
}

func (d *Docent) Close(context.Context) error {
	d.engine, d.ids = nil, nil
	return nil
}
