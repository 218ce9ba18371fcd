package store

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/docent-sh/docent/knowledge"
)

// Embedder is what seeding needs of an embedding model; llm/embed's
// Embedder has it.
type Embedder interface {
	// Embed returns one vector per text, in order, or fails as a whole.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Model() string
}

// DefaultEmbedBatch is how many chunks go to one Embed call: the unit
// of progress, and the embedder batches its requests itself.
const DefaultEmbedBatch = 64

// EmbedOptions tunes EmbedDocs.
type EmbedOptions struct {
	// Known are vectors of the embedder's model already made, by chunk
	// Hash (the md5 of its content): a stored chunk's, or a cache's. A
	// chunk whose content has one is not embedded again.
	Known map[string][]float32
	// Batch is how many chunks one Embed call takes; 0 is DefaultEmbedBatch.
	Batch int
	// Progress, when set, hears how many of the chunks to embed are done,
	// after each batch (and once with 0 before the first).
	Progress func(done, total int)
}

// EmbedReport says what EmbedDocs did.
type EmbedReport struct {
	Model    string
	Embedded int // chunks sent to the model
	Reused   int // chunks given a known vector
	Skipped  int // chunks with no text to embed (blank content), left without
}

// EmbedDocs returns a copy of docs in which every chunk carries an
// embedding of e's model, made from its Content alone (no title or path
// mixed in): a known one when its content has one, else a new one, with
// the chunks sharing a content embedded once. It never returns half the
// work: on any failure it returns nil docs and an error naming the model.
// A chunk whose content is blank gets no embedding (a model refuses it).
func EmbedDocs(ctx context.Context, e Embedder, docs []knowledge.Doc, opts EmbedOptions) ([]knowledge.Doc, EmbedReport, error) {
	model := e.Model()
	rep := EmbedReport{Model: model}
	batch := opts.Batch
	if batch <= 0 {
		batch = DefaultEmbedBatch
	}
	out := make([]knowledge.Doc, len(docs))
	for i, d := range docs {
		out[i] = d.Clone()
	}

	// The known vectors must share one length, or the model behind the
	// name changed: then none is reused.
	known := opts.Known
	dim := -1
	for _, v := range known {
		if dim >= 0 && len(v) != dim {
			known = nil
			break
		}
		dim = len(v)
	}

	var (
		texts  []string // distinct contents to embed, in first-seen order
		hashes []string // their hashes
		queued = map[string]bool{}
	)
	for i := range out {
		for j := range out[i].Chunks {
			c := &out[i].Chunks[j]
			if strings.TrimSpace(c.Content) == "" {
				c.Embedding = nil
				rep.Skipped++
				continue
			}
			if _, ok := known[c.Hash]; ok {
				rep.Reused++
				continue
			}
			rep.Embedded++
			if !queued[c.Hash] {
				queued[c.Hash] = true
				texts = append(texts, c.Content)
				hashes = append(hashes, c.Hash)
			}
		}
	}

	made := make(map[string][]float32, len(texts))
	if opts.Progress != nil && len(texts) > 0 {
		opts.Progress(0, len(texts))
	}
	for start := 0; start < len(texts); start += batch {
		end := min(start+batch, len(texts))
		vecs, err := e.Embed(ctx, texts[start:end])
		if err != nil {
			return nil, EmbedReport{}, fmt.Errorf("chunks %d–%d of %d: %w", start+1, end, len(texts), err)
		}
		if len(vecs) != end-start {
			return nil, EmbedReport{}, fmt.Errorf("embed chunks %d–%d of %d with %s: %d vectors for %d texts", start+1, end, len(texts), model, len(vecs), end-start)
		}
		for k, v := range vecs {
			if dim >= 0 && len(v) != dim && known != nil {
				// The model now answers with another length than the
				// known vectors: they cannot be compared, so embed
				// everything afresh.
				return EmbedDocs(ctx, e, docs, EmbedOptions{Batch: opts.Batch, Progress: opts.Progress})
			}
			made[hashes[start+k]] = v
		}
		if opts.Progress != nil {
			opts.Progress(end, len(texts))
		}
	}

	for i := range out {
		for j := range out[i].Chunks {
			c := &out[i].Chunks[j]
			if strings.TrimSpace(c.Content) == "" {
				continue
			}
			v, ok := made[c.Hash]
			if !ok {
				v = known[c.Hash]
			}
			// Each chunk its own copy: a caller may edit one doc.
			c.Embedding = &knowledge.Embedding{Model: model, Vector: slices.Clone(v)}
		}
	}
	return out, rep, nil
}

// KnownEmbeddings collects the vectors of model among docs' chunks (as a
// store's Corpus returns them), by chunk Hash, and counts the chunks
// embedded with another model, by model: those are re-embedded, which
// the caller should say.
func KnownEmbeddings(docs []knowledge.Doc, model string) (known map[string][]float32, otherModels map[string]int) {
	known = map[string][]float32{}
	otherModels = map[string]int{}
	for _, d := range docs {
		for _, c := range d.Chunks {
			switch {
			case c.Embedding == nil:
			case c.Embedding.Model == model:
				known[c.Hash] = c.Embedding.Vector
			default:
				otherModels[c.Embedding.Model]++
			}
		}
	}
	return known, otherModels
}
