package vector

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
)

// graph is an HNSW graph (Malkov and Yashunin, "Efficient and robust
// approximate nearest neighbor search using Hierarchical Navigable Small
// World graphs", 2016) over the rows of an Index's matrix. Nodes are row
// numbers; a node's vector is its row, never copied.
//
// It is written here rather than taken from github.com/coder/hnsw, the
// library first chosen: its only version the module proxy serves, v0.6.1,
// evicts arbitrary entries from its search heaps (Max and PopLast read
// the last slot of a min-heap) and stops a search as soon as a step fails
// to beat its best result, which measured recall@10 of 0.70–0.75 on 5,000
// clustered 64-d vectors at any ef and 0.09 on uniform ones. The fixes
// (its pull requests 20 and 22) are merged upstream but in no tagged
// release. This graph also keeps neighbour lists in flat int32 arrays
// instead of a map per node and layer, which is most of its memory.
type graph struct {
	m, m0 int // most neighbours a node keeps on layers above 0, on layer 0
	dim   int
	data  []float32

	entry int32 // the search starts here, at level top
	top   int

	// links0 holds each node's layer-0 neighbours in a block of m0+1:
	// the count, then the rows.
	links0 []int32
	// upper holds the neighbours of the few nodes above layer 0:
	// upper[r][l-1] are r's neighbours on layer l.
	upper map[int32][][]int32

	visits sync.Pool // *visitSet
}

// visitSet marks the nodes a search has reached: a node is visited when
// its mark equals the current epoch, so clearing is one increment.
type visitSet struct {
	epoch uint32
	mark  []uint32
}

func (g *graph) row(r int32) []float32 {
	d := g.dim
	return g.data[int(r)*d : (int(r)+1)*d : (int(r)+1)*d]
}

func (g *graph) neighbours(r int32, level int) []int32 {
	if level == 0 {
		b := g.links0[int(r)*(g.m0+1):]
		return b[1 : 1+b[0]]
	}
	return g.upper[r][level-1]
}

func (g *graph) setNeighbours(r int32, level int, ns []int32) {
	if level == 0 {
		b := g.links0[int(r)*(g.m0+1) : (int(r)+1)*(g.m0+1)]
		b[0] = int32(copy(b[1:], ns))
		return
	}
	g.upper[r][level-1] = append(g.upper[r][level-1][:0], ns...)
}

// buildGraph inserts every row of data, one after the other (inserts
// read the graph the earlier ones made, so they do not run in parallel
// here). Levels come from a generator seeded with cfg.Seed, so the same
// vectors in the same order make the same graph.
func buildGraph(data []float32, dim int, cfg Config) *graph {
	n := len(data) / dim
	g := &graph{
		m: cfg.M, m0: 2 * cfg.M, dim: dim, data: data,
		entry:  -1,
		links0: make([]int32, n*(2*cfg.M+1)),
		upper:  map[int32][][]int32{},
	}
	g.visits.New = func() any { return &visitSet{mark: make([]uint32, n)} }
	rng := rand.New(rand.NewPCG(uint64(cfg.Seed), 0x9e3779b97f4a7c15))
	ml := 1 / math.Log(float64(cfg.M)) // the paper's level multiplier
	vs := g.visits.Get().(*visitSet)
	defer g.visits.Put(vs)
	for r := range n {
		level := int(-math.Log(1-rng.Float64()) * ml)
		g.insert(int32(r), level, cfg.EfConstruction, vs)
	}
	return g
}

// insert links row r into layers 0..level.
func (g *graph) insert(r int32, level int, ef int, vs *visitSet) {
	if level > 0 {
		g.upper[r] = make([][]int32, level)
	}
	if g.entry < 0 {
		g.entry, g.top = r, level
		return
	}
	q := g.row(r)
	ep := []Hit{{ID: g.entry, Score: dot(q, g.row(g.entry))}}
	for l := g.top; l > level; l-- {
		ep = g.searchLayer(q, ep, 1, l, vs)
	}
	for l := min(level, g.top); l >= 0; l-- {
		found := g.searchLayer(q, ep, ef, l, vs)
		slices.SortFunc(found, compareHits)
		ns := g.selectNeighbours(found, g.m)
		g.setNeighbours(r, l, ns)
		for _, nb := range ns {
			g.link(nb, r, l)
		}
		ep = found
	}
	if level > g.top {
		g.entry, g.top = r, level
	}
}

// link adds r to nb's neighbours on level l, pruning nb's list with the
// selection heuristic when it overflows.
func (g *graph) link(nb, r int32, l int) {
	limit := g.m
	if l == 0 {
		limit = g.m0
	}
	cur := g.neighbours(nb, l)
	if len(cur) < limit {
		if l == 0 {
			b := g.links0[int(nb)*(g.m0+1):]
			b[1+b[0]] = r
			b[0]++
		} else {
			g.upper[nb][l-1] = append(g.upper[nb][l-1], r)
		}
		return
	}
	v := g.row(nb)
	cands := make([]Hit, 0, len(cur)+1)
	for _, c := range append(cur[:len(cur):len(cur)], r) {
		cands = append(cands, Hit{ID: c, Score: dot(v, g.row(c))})
	}
	slices.SortFunc(cands, compareHits)
	g.setNeighbours(nb, l, g.selectNeighbours(cands, limit))
}

// selectNeighbours is the paper's heuristic (its algorithm 4) over
// candidates sorted best first: a candidate is kept only when it is
// nearer to the node than to every neighbour kept before it, so links
// point in different directions and bridge clusters instead of all
// landing in the nearest one. The list is then topped up with the best
// of the skipped ones, up to m, as hnswlib's keepPrunedConnections does,
// so no node is left with few links.
func (g *graph) selectNeighbours(cands []Hit, m int) []int32 {
	out := make([]int32, 0, m)
	var skipped []int32
	for _, c := range cands {
		if len(out) == m {
			break
		}
		v := g.row(c.ID)
		keep := true
		for _, s := range out {
			if dot(v, g.row(s)) > c.Score {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, c.ID)
		} else {
			skipped = append(skipped, c.ID)
		}
	}
	for _, s := range skipped {
		if len(out) == m {
			break
		}
		out = append(out, s)
	}
	return out
}

// searchLayer is the paper's algorithm 2: a best-first walk of one layer
// from the entry points ep, keeping the ef best nodes found, stopping
// when the best unexpanded candidate is worse than the worst kept. The
// result is unordered, with row numbers in Hit.ID.
func (g *graph) searchLayer(q []float32, ep []Hit, ef, level int, vs *visitSet) []Hit {
	vs.epoch++
	if vs.epoch == 0 { // wrapped: old marks could collide, so clear them
		clear(vs.mark)
		vs.epoch = 1
	}
	found := newTopK(ef)
	var cands maxHeap
	for _, e := range ep {
		vs.mark[e.ID] = vs.epoch
		found.push(e)
		cands.push(e)
	}
	for len(cands) > 0 {
		c := cands.pop()
		if found.full() && better(found.worst(), c) {
			break
		}
		for _, nb := range g.neighbours(c.ID, level) {
			if vs.mark[nb] == vs.epoch {
				continue
			}
			vs.mark[nb] = vs.epoch
			h := Hit{ID: nb, Score: dot(q, g.row(nb))}
			if !found.full() || better(h, found.worst()) {
				found.push(h)
				cands.push(h)
			}
		}
	}
	return found.h
}

// search returns the ef best rows for normalized q, unordered.
func (g *graph) search(q []float32, ef int) []Hit {
	vs := g.visits.Get().(*visitSet)
	defer g.visits.Put(vs)
	ep := []Hit{{ID: g.entry, Score: dot(q, g.row(g.entry))}}
	for l := g.top; l > 0; l-- {
		ep = g.searchLayer(q, ep, 1, l, vs)
	}
	return g.searchLayer(q, ep, ef, 0, vs)
}

// maxHeap pops the best hit first; typed for the same reason as topK.
type maxHeap []Hit

func (h *maxHeap) push(x Hit) {
	*h = append(*h, x)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !better(s[i], s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *maxHeap) pop() Hit {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	for i := 0; ; {
		l := 2*i + 1
		if l >= len(s) {
			break
		}
		b := l
		if r := l + 1; r < len(s) && better(s[r], s[l]) {
			b = r
		}
		if !better(s[b], s[i]) {
			break
		}
		s[i], s[b] = s[b], s[i]
		i = b
	}
	*h = s
	return top
}

// searchGraph collects EfSearch (at least k) candidates for normalized q
// from the graph and returns the k best, best first, with their ids. The
// scores are the exact cosines, computed on the way.
func (x *Index) searchGraph(q []float32, k int) []Hit {
	found := x.graph.search(q, max(k, x.cfg.EfSearch))
	for i, h := range found {
		found[i].ID = x.ids[h.ID] // row to id, before ties are ordered by id
	}
	slices.SortFunc(found, compareHits)
	return found[:min(k, len(found))]
}
