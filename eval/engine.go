package eval

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

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
	// emb, when set, makes this docent-hybrid: chunks and queries are
	// embedded and ranked by fused score (retrieval's hybrid ranking).
	emb     Embedder
	vectors map[string][]float32 // query text → its embedding, from Prepare
}

// Embedder is what the hybrid engine needs of an embedding provider
// (llm/embed's Embedder has it).
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Model() string
}

// EmbedBatch is how many texts the hybrid engine hands the embedder at
// once: a progress line a batch on a large corpus, and requests of a size
// every provider takes.
const EmbedBatch = 256

// NewDocentHybrid returns docent's engine ranking by keywords and
// embeddings of emb: each chunk's content is embedded at Index, as seeding
// does, and the queries at Prepare.
func NewDocentHybrid(cfg retrieval.Config, synonyms []knowledge.Synonym, emb Embedder) *Docent {
	return &Docent{cfg: cfg, synonyms: synonyms, emb: emb}
}

// NewDocent returns docent's engine with the given retrieval settings and
// query rewrites (nil for none: a dataset brings no vocabulary).
func NewDocent(cfg retrieval.Config, synonyms []knowledge.Synonym) *Docent {
	return &Docent{cfg: cfg, synonyms: synonyms}
}

func (d *Docent) Name() string {
	if d.emb != nil {
		return "docent-hybrid"
	}
	return "docent"
}

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
	if d.emb != nil {
		if err := d.embedChunks(ctx, docs); err != nil {
			return err
		}
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
		q := retrieval.Query{Text: text}
		if d.emb != nil {
			v, err := d.queryVector(ctx, text)
			if err != nil {
				return nil, err
			}
			q.Vector, q.VectorModel = v, d.emb.Model()
		}
		hits := d.engine.SearchQuery(q, depth)
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
	d.engine, d.ids, d.vectors = nil, nil, nil
	return nil
}

// embedChunks gives every chunk with text an embedding of its content,
// EmbedBatch chunks a request.
func (d *Docent) embedChunks(ctx context.Context, docs []knowledge.Doc) error {
	var refs []*knowledge.Chunk
	var texts []string
	for i := range docs {
		for j := range docs[i].Chunks {
			c := &docs[i].Chunks[j]
			if strings.TrimSpace(c.Content) != "" { // an empty text is no input for a model
				refs, texts = append(refs, c), append(texts, c.Content)
			}
		}
	}
	vecs, err := d.embed(ctx, texts)
	if err != nil {
		return fmt.Errorf("docent-hybrid: embed %d chunks: %w", len(texts), err)
	}
	for i, c := range refs {
		c.Embedding = &knowledge.Embedding{Model: d.emb.Model(), Vector: vecs[i]}
	}
	return nil
}

// Prepare embeds the queries, EmbedBatch a request, before they are
// timed: the latency measured is the ranking's, not a provider's round
// trip.
func (d *Docent) Prepare(ctx context.Context, queries []string) error {
	if d.emb == nil {
		return nil
	}
	var texts []string
	for _, q := range queries {
		if strings.TrimSpace(q) != "" {
			texts = append(texts, q)
		}
	}
	vecs, err := d.embed(ctx, texts)
	if err != nil {
		return fmt.Errorf("docent-hybrid: embed %d queries: %w", len(texts), err)
	}
	d.vectors = make(map[string][]float32, len(texts))
	for i, t := range texts {
		d.vectors[t] = vecs[i]
	}
	return nil
}

// queryVector is text's embedding from Prepare, else embedded now; nil
// for a blank query, which is ranked by its (no) words.
func (d *Docent) queryVector(ctx context.Context, text string) ([]float32, error) {
	if v, ok := d.vectors[text]; ok || strings.TrimSpace(text) == "" {
		return v, nil
	}
	vecs, err := d.emb.Embed(ctx, []string{text})
	if err != nil {
		return nil, fmt.Errorf("docent-hybrid: embed query: %w", err)
	}
	return vecs[0], nil
}

// embed embeds texts EmbedBatch at a time, in order.
func (d *Docent) embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for lo := 0; lo < len(texts); lo += EmbedBatch {
		batch := texts[lo:min(lo+EmbedBatch, len(texts))]
		vecs, err := d.emb.Embed(ctx, batch)
		if err != nil {
			return nil, err
		}
		if len(vecs) != len(batch) {
			return nil, fmt.Errorf("%d vectors for %d texts", len(vecs), len(batch))
		}
		out = append(out, vecs...)
	}
	return out, nil
}
