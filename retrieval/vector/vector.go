package vector

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
)

// Errors, wrapped with the detail of what was wrong.
var (
	// ErrDimension: a vector or query of another length than the index's.
	ErrDimension = errors.New("vector: dimension mismatch")
	// ErrNotFinite: a component is NaN or infinite.
	ErrNotFinite = errors.New("vector: not finite")
	// ErrZero: the zero vector, which has no direction to compare.
	ErrZero = errors.New("vector: zero vector")
	// ErrDuplicateID: an id added twice.
	ErrDuplicateID = errors.New("vector: duplicate id")
	// ErrBuilt: Add after Build; an index is immutable once built.
	ErrBuilt = errors.New("vector: index already built")
)

// DefaultThreshold is the number of vectors from which Build makes an
// HNSW graph. Below it an exact scan is fast enough (20,000 × 1536: p50
// 3.5–4.7 ms and p95 4.7–9.2 ms over two runs of BenchmarkSearchExact)
// and a graph would only cost build time (about 60 s at that size) and
// memory for recall below 1.
const DefaultThreshold = 20_000

// DefaultCompactFrom is the number of vectors from which Build keeps the
// int8 copy that exact search scans first (compact.go).
// The copy is faster at every size measured, but below this a float32
// scan is already about a millisecond (5,000 × 1536: p50 0.7–1.4 ms
// against 0.3–0.4 with the copy) and 25 % more memory buys little; at
// 20,000 × 1536 the copy takes p50 from 2.1–7.5 ms to 0.9–1.7, at
// 100,000 × 1536 from over 20 ms to 4–9 (package doc, Measured).
const DefaultCompactFrom = 10_000

// Config sets when and how the HNSW graph is built and searched; the
// defaults were picked by measurement (see the package doc, Measured).
type Config struct {
	// Threshold: Build makes a graph when the index holds at least this
	// many vectors. Set it above any index size to always search exactly.
	Threshold int
	// M is the graph's maximum number of neighbours per node and layer.
	M int
	// EfConstruction is the candidate list size while inserting: larger
	// gives a better graph and a slower build.
	EfConstruction int
	// EfSearch is the number of candidates a search collects (at least
	// k) before the exact re-scoring keeps the k best.
	EfSearch int
	// Seed makes the graph's level assignment, and so the graph,
	// reproducible.
	Seed int64
	// Workers caps the goroutines of an exact scan; 0 means GOMAXPROCS.
	Workers int
	// CompactFrom: Build also keeps an int8 copy of the vectors (dim + 8
	// bytes each, a quarter of the float32 rows) when the index holds at
	// least this many and the CPU has AVX2 and FMA, and exact search then
	// scans the copy and scores only the rows that may be in the top k
	// again from the float32 rows: the same results from a quarter of
	// the memory traffic (compact.go). Set it above any index size to
	// never build the copy.
	CompactFrom int
}

// DefaultConfig is the configuration New uses.
func DefaultConfig() Config {
	return Config{
		Threshold:      DefaultThreshold,
		M:              16,
		EfConstruction: 100,
		EfSearch:       100,
		Seed:           1,
		CompactFrom:    DefaultCompactFrom,
	}
}

// minScanPerWorker is the least number of float32s (4 MiB) worth a
// goroutine of its own in an exact scan: below it, starting and joining
// goroutines costs more than it saves. A variable so that tests can split
// small scans.
var minScanPerWorker = 1 << 20

// Index holds the vectors of one embedding model.
type Index struct {
	dim  int
	cfg  Config
	ids  []int32   // ids[r] is the id of row r
	data []float32 // row r is data[r*dim : (r+1)*dim], unit length
	seen map[int32]struct{}

	built   bool
	graph   *graph   // nil below Threshold
	compact *compact // nil below CompactFrom or without the kernel

	queries sync.Pool // *[]float32 of len dim, a normalized query
}

// New returns an empty index for vectors of dim components, with
// DefaultConfig.
func New(dim int) (*Index, error) {
	return NewWithConfig(dim, DefaultConfig())
}

// NewWithConfig returns an empty index for vectors of dim components.
func NewWithConfig(dim int, cfg Config) (*Index, error) {
	switch {
	case dim < 1:
		return nil, fmt.Errorf("vector: new index: dimension %d, want at least 1", dim)
	case cfg.M < 2:
		return nil, fmt.Errorf("vector: new index: M %d, want at least 2", cfg.M)
	case cfg.EfConstruction < 1 || cfg.EfSearch < 1:
		return nil, fmt.Errorf("vector: new index: EfConstruction %d and EfSearch %d, want at least 1", cfg.EfConstruction, cfg.EfSearch)
	case cfg.Workers < 0:
		return nil, fmt.Errorf("vector: new index: Workers %d, want 0 (GOMAXPROCS) or more", cfg.Workers)
	}
	x := &Index{dim: dim, cfg: cfg, seen: map[int32]struct{}{}}
	x.queries.New = func() any { q := make([]float32, dim); return &q }
	return x, nil
}

// Dim is the number of components of the index's vectors.
func (x *Index) Dim() int { return x.dim }

// Len is the number of vectors held.
func (x *Index) Len() int { return len(x.ids) }

// Approximate reports whether Search walks an HNSW graph (the index was
// built with at least Config.Threshold vectors) rather than scanning.
func (x *Index) Approximate() bool { return x.graph != nil }

// Grow makes room for n more vectors, so that adding them does not
// reallocate the matrix: for a large index, worth calling once with the
// count. Measured adding 100,000 × 1536 vectors (0.6 GB) on a fresh heap:
// 16.7 s without it, mostly copying and first-touching each larger matrix
// as append outgrew the last, 4.7 s with it.
func (x *Index) Grow(n int) {
	if x.built || n <= 0 {
		return
	}
	x.data = slices.Grow(x.data, n*x.dim)
	x.ids = slices.Grow(x.ids, n)
}

// Add copies v, normalized to unit length, into the index under id. It
// fails when v's length is not the index's dimension, when v has a NaN or
// infinite component or is zero, when id was added before, and after
// Build.
func (x *Index) Add(id int32, v []float32) error {
	if x.built {
		return fmt.Errorf("add id %d: %w", id, ErrBuilt)
	}
	if len(v) != x.dim {
		return fmt.Errorf("add id %d: %w: vector has %d dimensions, index holds %d", id, ErrDimension, len(v), x.dim)
	}
	if _, dup := x.seen[id]; dup {
		return fmt.Errorf("add id %d: %w", id, ErrDuplicateID)
	}
	row := len(x.data)
	x.data = append(x.data, v...) // grows the matrix; overwritten just below
	if err := normalizeInto(x.data[row:], v); err != nil {
		x.data = x.data[:row]
		return fmt.Errorf("add id %d: %w", id, err)
	}
	x.ids = append(x.ids, id)
	x.seen[id] = struct{}{}
	return nil
}

// Build freezes the index, after which Add fails and searches may run
// concurrently, and makes the HNSW graph when the index holds at least
// Config.Threshold vectors. Building again does nothing.
func (x *Index) Build() error {
	if x.built {
		return nil
	}
	x.built = true
	x.seen = nil // only Add needs it
	// Trim the matrix to its length: the graph's nodes point into it, and
	// the spare capacity append left would otherwise be held for good.
	x.data = x.data[:len(x.data):len(x.data)]
	if len(x.ids) > 0 && len(x.ids) >= x.cfg.CompactFrom && compactKernel {
		x.compact = buildCompact(x.data, x.dim, x.workers())
	}
	if len(x.ids) > 0 && len(x.ids) >= x.cfg.Threshold {
		x.graph = buildGraph(x.data, x.dim, x.cfg)
	}
	return nil
}

// query validates q and returns it normalized in a pooled buffer, to be
// handed back with x.queries.Put.
func (x *Index) query(q []float32) (*[]float32, error) {
	if len(q) != x.dim {
		return nil, fmt.Errorf("search: %w: query has %d dimensions, index holds %d", ErrDimension, len(q), x.dim)
	}
	buf := x.queries.Get().(*[]float32)
	if err := normalizeInto(*buf, q); err != nil {
		x.queries.Put(buf)
		return nil, fmt.Errorf("search: query: %w", err)
	}
	return buf, nil
}

// Search returns the k vectors most similar to q (by cosine), best first:
// exact below the threshold, from the HNSW graph above it. Fewer come back
// when the index holds fewer than k, none when k < 1. It fails on a query
// of another dimension, with a NaN or infinite component, or zero.
func (x *Index) Search(q []float32, k int) ([]Hit, error) {
	if x.graph == nil {
		return x.SearchExact(q, k)
	}
	buf, err := x.query(q)
	if err != nil {
		return nil, err
	}
	defer x.queries.Put(buf)
	if k < 1 {
		return nil, nil
	}
	return x.searchGraph(*buf, k), nil
}

// SearchExact is Search by a scan of every vector, whatever the size.
func (x *Index) SearchExact(q []float32, k int) ([]Hit, error) {
	buf, err := x.query(q)
	if err != nil {
		return nil, err
	}
	defer x.queries.Put(buf)
	if k < 1 || len(x.ids) == 0 {
		return nil, nil
	}
	k = min(k, len(x.ids))
	if x.compact != nil && k <= len(x.ids)/compactMaxKShare {
		hits, _ := x.scanCompact(*buf, k, nil)
		return hits, nil
	}
	return x.scan(*buf, k), nil
}

// Compact reports whether the index keeps the int8 copy that exact
// search scans first (Config.CompactFrom).
func (x *Index) Compact() bool { return x.compact != nil }

// workers is the goroutines an exact scan may use, before its size caps
// them.
func (x *Index) workers() int {
	if x.cfg.Workers > 0 {
		return x.cfg.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// SearchExactFunc is SearchExact over the vectors whose id keep accepts
// alone: a query restricted to part of the index (a scope) is ranked
// among that part, not filtered after a search of the whole, which would
// return fewer than k when the part's vectors are not the nearest. It is
// an exact scan whatever the size (of the int8 copy first when there is
// one, as SearchExact): a graph walk cannot skip the vectors it must pass
// through. keep is called from the caller's goroutine alone.
func (x *Index) SearchExactFunc(q []float32, k int, keep func(id int32) bool) ([]Hit, error) {
	buf, err := x.query(q)
	if err != nil {
		return nil, err
	}
	defer x.queries.Put(buf)
	if k < 1 || len(x.ids) == 0 {
		return nil, nil
	}
	k = min(k, len(x.ids))
	if x.compact != nil && k <= len(x.ids)/compactMaxKShare {
		hits, _ := x.scanCompact(*buf, k, keep)
		return hits, nil
	}
	t := newTopK(k)
	d := x.dim
	for i, id := range x.ids {
		if !keep(id) {
			continue
		}
		s := dot(*buf, x.data[i*d:(i+1)*d])
		if t.full() && s < t.worst().Score {
			continue
		}
		t.push(Hit{ID: id, Score: s})
	}
	return t.sorted(), nil
}

// scan is the exact search of normalized q, split into row ranges over
// up to Workers goroutines (each at least minScanPerWorker floats), each
// keeping its own top k, merged at the end.
func (x *Index) scan(q []float32, k int) []Hit {
	n := len(x.ids)
	workers := max(1, min(x.workers(), n*x.dim/minScanPerWorker))
	if workers == 1 {
		t := newTopK(k)
		x.scanRows(q, 0, n, &t)
		return t.sorted()
	}
	tops := make([]topK, workers)
	var wg sync.WaitGroup
	for w := range workers {
		tops[w] = newTopK(k)
		lo, hi := w*n/workers, (w+1)*n/workers
		wg.Go(func() { x.scanRows(q, lo, hi, &tops[w]) })
	}
	wg.Wait()
	t := tops[0]
	for _, o := range tops[1:] {
		for _, h := range o.h {
			t.push(h)
		}
	}
	return t.sorted()
}

// scanRows offers rows [lo, hi) to t.
func (x *Index) scanRows(q []float32, lo, hi int, t *topK) {
	d := x.dim
	rows := x.data[lo*d : hi*d]
	ids := x.ids[lo:hi]
	for i, id := range ids {
		s := dot(q, rows[i*d:(i+1)*d])
		if t.full() && s < t.worst().Score {
			continue // the common case, kept out of push
		}
		t.push(Hit{ID: id, Score: s})
	}
}
