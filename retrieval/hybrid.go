package retrieval

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/docent-sh/docent/retrieval/index"
	"github.com/docent-sh/docent/retrieval/vector"
)

// Hybrid ranking: a turn whose Query carries a vector of the model the
// chunks were embedded with ranks by two signals, fused per chunk:
//
//	fused = Alpha·vector + (1 − Alpha)·lexical
//
// Both are normalized to [0, 1] by one method, fuse's:
//
//   - lexical is the chunk's rank score divided by the best rank score of
//     the turn. A BM25-family score has no scale of its own (it grows with
//     the question's length and its words' rarity), so only its ratio to
//     the turn's best means anything; the policy reads it so already (its
//     margins are rank ratios).
//   - vector is the cosine similarity clamped at 0. A cosine already is an
//     absolute similarity, the same on every turn, and dividing it by the
//     turn's best would give the nearest chunk of an unrelated question
//     full marks. Below 0 a chunk is no more like the question than an
//     unrelated one, and clamping keeps "unrelated" and "not among the
//     vector side's hits" at the same 0 (mapping [-1, 1] onto [0, 1] would
//     give an orthogonal, unrelated chunk 0.5, more than one the search did
//     not return, which is likely closer).
//
// A chunk missing from one side scores 0 there: the vector side returns
// the TopK×3 nearest chunks; the lexical side is every chunk that holds a
// word of the question (scored exactly, also when it ranks too low for
// the lexical search's own depth).
//
// The decision policy keeps reading lexical measures (coverage, naming):
// fusion changes the order of the evidence and of the candidate docs, and
// a candidate's rank, for the policy's margins, is its fused score. So the
// vector side can change a decision through the order: lifting a doc that
// covers part of the question over one that covers all of it makes the
// top doc's coverage, and so the decision, the lifted doc's (with the
// hashed test embedder, "workspace and widgets" goes from weak to no
// match). At Alpha 1 a doc holding the question's words but not among the
// vector side's hits ranks 0. A doc
// the vector side alone found (no word of the question in it) takes no
// part in the decision: nothing says it covers the question, only that it
// is near it in the model's space, which any doc is to some degree. Such
// a doc may be offered as an option of a no-match reply, after the docs
// whose titles share a word with the question, when it ranks above every
// doc holding the question's words (so, at Alpha ≤ 0.5, only when no doc
// holds any: the best lexical doc has a fused score of at least
// 1 − Alpha); it never makes a "found" (or any answer) alone. An
// unrelated question with no word in the docs still gets its nearest
// docs offered: a cosine has no floor meaning "related" for every model,
// and a per-model floor is left to an evaluation with real models.

// VectorInfo describes the vector side of an engine: which chunks'
// embeddings it searches and which it left out.
type VectorInfo struct {
	Model   string // the model of the searched embeddings; "" when none
	Dim     int    // their dimension; 0 when none
	Indexed int    // answerable chunks whose embeddings are searched
	// OtherModel counts answerable chunks embedded by another model
	// (the model most chunks have wins), Missing those without an
	// embedding, Invalid those of the model whose vector the index refused
	// (another dimension, zero, NaN or infinite): all left out of the
	// vector side, searched by their words alone.
	OtherModel, Missing, Invalid int
}

// vectors is the engine's vector side over the chunk index: vector ids
// are the unit ids of Engine.chunks.
type vectors struct {
	info VectorInfo
	ix   *vector.Index // nil when no chunk has a usable embedding
}

// VectorInfo reports the engine's vector side, for the caller to log what
// it left out.
func (e *Engine) VectorInfo() VectorInfo { return e.vec.info }

// buildVectors indexes the embeddings of the chunk units, of the model
// most of them have (ties: the model name first in byte order, so the
// choice never depends on map order).
func (e *Engine) buildVectors() error {
	ix := e.chunks
	if ix == nil {
		return nil
	}
	counts := map[string]int{}
	for _, u := range ix.Units {
		if emb := e.docs[u.Doc].doc.Chunks[u.Chunk].Embedding; emb != nil && len(emb.Vector) > 0 {
			counts[emb.Model]++
		}
	}
	model, n := "", 0
	for m, c := range counts {
		if c > n || c == n && m < model {
			model, n = m, c
		}
	}
	info := VectorInfo{Model: model}
	if n == 0 {
		info.Model = ""
		info.Missing = len(ix.Units)
		e.vec = vectors{info: info}
		return nil
	}
	dim := 0
	for _, u := range ix.Units {
		if emb := e.docs[u.Doc].doc.Chunks[u.Chunk].Embedding; emb != nil && emb.Model == model && len(emb.Vector) > 0 {
			dim = len(emb.Vector)
			break
		}
	}
	vx, err := vector.New(dim)
	if err != nil {
		return fmt.Errorf("retrieval: vector index of model %q: %w", model, err)
	}
	vx.Grow(n)
	for id, u := range ix.Units {
		emb := e.docs[u.Doc].doc.Chunks[u.Chunk].Embedding
		switch {
		case emb == nil || len(emb.Vector) == 0:
			info.Missing++
		case emb.Model != model:
			info.OtherModel++
		case vx.Add(int32(id), emb.Vector) != nil:
			info.Invalid++ // counted, not fatal: the chunk is still found by its words
		default:
			info.Indexed++
		}
	}
	if err := vx.Build(); err != nil {
		return fmt.Errorf("retrieval: vector index of model %q: %w", model, err)
	}
	info.Dim = dim
	if info.Indexed > 0 {
		e.vec.ix = vx
	}
	e.vec.info = info
	return nil
}

// vectorHits is the vector side of one turn: each hit's cosine by unit.
type vectorHits map[int32]float64

// vectorSearch runs the vector side of a turn over the chunk index, the k
// nearest chunks (of the docs allow allows, when not nil: ranked among
// them, not filtered afterwards), or says in a note why the turn is
// lexical: nil hits and "" when the query has no vector.
func (e *Engine) vectorSearch(q Query, alpha float64, allow []bool, k int) (vectorHits, string) {
	switch {
	case len(q.Vector) == 0:
		return nil, ""
	case !(alpha > 0):
		return nil, "hybrid off (alpha 0): ranked by keywords alone"
	case e.cfg.Phase == 1:
		return nil, "hybrid off in phase 1 (whole docs have no embeddings): ranked by keywords alone"
	case e.vec.ix == nil:
		return nil, "no chunk embeddings: ranked by keywords alone"
	case q.VectorModel != e.vec.info.Model:
		return nil, fmt.Sprintf("query embedded with %q, chunks with %q: ranked by keywords alone", q.VectorModel, e.vec.info.Model)
	}
	var hits []vector.Hit
	var err error
	if allow == nil {
		hits, err = e.vec.ix.Search(q.Vector, k)
	} else {
		units := e.chunks.Units
		hits, err = e.vec.ix.SearchExactFunc(q.Vector, k, func(id int32) bool {
			return int(id) < len(units) && allow[units[id].Doc]
		})
	}
	if err != nil {
		return nil, fmt.Sprintf("vector search failed (%v): ranked by keywords alone", err)
	}
	out := make(vectorHits, len(hits))
	for _, h := range hits {
		// A chunk no more like the question than an unrelated one is not
		// found by the vector side (its score would be 0 anyway).
		if h.Score > 0 {
			out[h.ID] = float64(h.Score)
		}
	}
	return out, ""
}

// alphaOf is the hybrid weight of a turn: its own, else the config's.
func (e *Engine) alphaOf(q Query) float64 {
	if q.Alpha != nil {
		return *q.Alpha
	}
	return e.cfg.Alpha
}

// fuse is the fused score of one chunk and its two normalized signals
// (see the comment at the top of this file): rank and best are the
// chunk's rank score and the turn's best, 0 when the chunk holds no word
// of the question; cosine is its similarity to the question, read only
// when inVector says the vector side returned it.
func fuse(alpha, rank, best, cosine float64, inVector bool) (fused, lexical, vec float64) {
	// Comparisons, not the builtin min, which would pass a NaN on (an
	// infinite rank over an infinite best): whatever is not a number
	// above 0 scores 0.
	if l := rank / best; rank > 0 && best > 0 {
		switch {
		case l >= 1:
			lexical = 1
		case l > 0:
			lexical = l
		}
	}
	if inVector {
		switch {
		case cosine >= 1:
			vec = 1
		case cosine > 0:
			vec = cosine
		}
	}
	return alpha*vec + (1-alpha)*lexical, lexical, vec
}

// fusedScore is one unit's place in a hybrid ranking.
type fusedScore struct {
	fused, lexical, vector float64
	keyword                bool // it holds a word of the question
	embedding              bool // the vector side returned it
}

func (f fusedScore) source() Source {
	switch {
	case f.keyword && f.embedding:
		return SourceHybrid
	case f.embedding:
		return SourceEmbedding
	}
	return SourceKeyword
}

// fuseRanking merges the lexical hits sr and the vector hits vh into one
// order by fused score (ties: the higher rank score, then the lower unit
// id), recording each unit's scores in r.fused. A vector hit the lexical
// search did not return is scored lexically on its own doc, so that a
// chunk holding the question's words below the search's depth keeps its
// lexical measures; its doc's best-named section is added to r.sections, and what the doc
// covers to r.covered.
func (e *Engine) fuseRanking(ix *unitIndex, q normalizedQuery, sc index.Scoring, sr index.Result, vh vectorHits, r *ranking) []index.Hit {
	hits := make([]index.Hit, len(sr.Ranked), len(sr.Ranked)+len(vh))
	copy(hits, sr.Ranked)
	seen := make(map[int32]bool, len(hits)+len(vh))
	for _, h := range hits {
		seen[h.Unit] = true
	}
	// Vector hits in id order, so that the result never depends on map order.
	ids := make([]int32, 0, len(vh))
	for id := range vh {
		if !seen[id] {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	byDoc := map[int32][]index.Hit{}
	for _, id := range ids {
		doc := ix.Units[id].Doc
		dh, ok := byDoc[doc]
		if !ok && len(q.terms) > 0 {
			dh = ix.SearchDoc(q.terms, q.keys, doc, sc)
			byDoc[doc] = dh
			if _, known := r.sections[doc]; !known {
				if r.sections == nil {
					r.sections = map[int32]uint64{}
				}
				r.sections[doc] = bestHead(dh, sc.Weights)
			}
			if _, known := r.covered[doc]; !known {
				if r.covered == nil {
					r.covered = map[int32]uint64{}
				}
				for _, h := range dh {
					r.covered[doc] |= h.Cov
				}
			}
		}
		h := index.Hit{Unit: id}
		if i := slices.IndexFunc(dh, func(x index.Hit) bool { return x.Unit == id }); i >= 0 {
			h = dh[i]
		}
		hits = append(hits, h)
	}
	best := 0.0
	if len(sr.Ranked) > 0 {
		best = sr.Ranked[0].Rank
	}
	r.fused = make(map[int32]fusedScore, len(hits))
	for _, h := range hits {
		cos, inVector := vh[h.Unit]
		f, l, v := fuse(q.alpha, h.Rank, best, cos, inVector)
		r.fused[h.Unit] = fusedScore{fused: f, lexical: l, vector: v, keyword: h.Rank > 0, embedding: inVector}
	}
	slices.SortStableFunc(hits, func(a, b index.Hit) int {
		fa, fb := r.fused[a.Unit].fused, r.fused[b.Unit].fused
		if c := cmp.Compare(fb, fa); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Rank, a.Rank); c != 0 {
			return c
		}
		return cmp.Compare(a.Unit, b.Unit)
	})
	return hits
}

// bestHead is what bestSections finds for one doc from its scored units:
// the heading keys of the unit whose title, keywords and headings carry
// the largest share of the question.
func bestHead(hits []index.Hit, ws index.Weights) uint64 {
	best, bestUnit, bestShare := uint64(0), int32(0), -1.0
	for _, h := range hits {
		if h.Head == 0 {
			continue
		}
		// Equal shares: the first unit of the doc, as bestSections walks them.
		if s := ws.Share(h.Head); s > bestShare || s == bestShare && h.Unit < bestUnit {
			best, bestUnit, bestShare = h.Head, h.Unit, s
		}
	}
	return best
}
