package vector

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestDotMatchesFloat64 checks the Go loop and, where the CPU has it, the
// AVX2 kernel, at every length through a few of each loop's strides (the
// kernel steps by 32, then 8, then 1), on slices that start off any
// 32-byte alignment.
func TestDotMatchesFloat64(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	kernels := map[string]func(a, b []float32) float32{"go": dotGo, "dot": dot}
	if useAVX2 {
		kernels["avx2"] = func(a, b []float32) float32 {
			if len(a) == 0 {
				return 0
			}
			return dotAVX2(&a[0], &b[0], len(a))
		}
	} else {
		t.Log("no AVX2 kernel on this machine or build: the Go loop alone is tested")
	}
	for n := range 100 {
		a, b := gaussians(r, 1, n+1)[0][1:], gaussians(r, 1, n+3)[0][3:]
		var want float64
		for i := range a {
			want += float64(a[i]) * float64(b[i])
		}
		for name, f := range kernels {
			if got := f(a, b); math.Abs(float64(got)-want) > 1e-4*(1+math.Abs(want)) {
				t.Errorf("%s: dot of length %d = %v, float64 reference %v", name, n, got, want)
			}
		}
	}
}

func TestTopKKeepsBestInOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, k := range []int{1, 2, 7, 50} {
		all := make([]Hit, 200)
		for i := range all {
			// Few distinct scores, so ties are common and the id order
			// among them is exercised.
			all[i] = Hit{ID: int32(r.IntN(1000)), Score: float32(r.IntN(20))}
		}
		tk := newTopK(k)
		for _, h := range all {
			tk.push(h)
		}
		want := slices.Clone(all)
		slices.SortFunc(want, compareHits)
		if got := tk.sorted(); !slices.Equal(got, want[:k]) {
			t.Errorf("k=%d: top-k %v, want %v", k, got, want[:k])
		}
	}
}

// TestSearchExactMatchesBruteForce compares the scan, on one goroutine and
// split over several, with a sort of every vector by the reference
// cosine, on ids that are neither contiguous nor in insertion order.
func TestSearchExactMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const n, dim = 1500, 37 // odd dim: the dot's tail loop runs
	vecs := gaussians(r, n, dim)
	ids := make([]int32, n)
	for i, p := range r.Perm(n) {
		ids[i] = int32(p*7 - 3000)
	}
	old := minScanPerWorker
	minScanPerWorker = 1000 // lets the small scan split
	defer func() { minScanPerWorker = old }()
	for _, workers := range []int{1, 2, 3, 16} {
		cfg := DefaultConfig()
		cfg.Workers = workers
		x := build(t, cfg, ids, vecs)
		if x.Approximate() {
			t.Fatal("an index below the threshold built a graph")
		}
		for qi, q := range gaussians(r, 20, dim) {
			type ref struct {
				id    int32
				score float64
			}
			all := make([]ref, n)
			for i, v := range vecs {
				all[i] = ref{ids[i], cosine64(q, v)}
			}
			slices.SortFunc(all, func(a, b ref) int { return -cmpFloat(a.score, b.score) })
			for _, k := range []int{1, 10, n + 5} {
				got, err := x.Search(q, k)
				if err != nil {
					t.Fatal(err)
				}
				if want := min(k, n); len(got) != want {
					t.Fatalf("workers %d, query %d, k=%d: %d hits, want %d", workers, qi, k, len(got), want)
				}
				for i, h := range got {
					if math.Abs(float64(h.Score)-all[i].score) > 1e-5 {
						t.Fatalf("workers %d, query %d, k=%d: hit %d scores %v, reference rank %d scores %v", workers, qi, k, i, h.Score, i, all[i].score)
					}
					// The same id unless float32 rounding reordered two
					// scores closer than it can tell apart.
					if h.ID != all[i].id && math.Abs(all[i].score-cosine64(q, vecs[slices.Index(ids, h.ID)])) > 1e-5 {
						t.Fatalf("workers %d, query %d, k=%d: hit %d is id %d, reference %d", workers, qi, k, i, h.ID, all[i].id)
					}
					if i > 0 && !better(got[i-1], h) {
						t.Fatalf("workers %d: hits %v and %v out of order", workers, got[i-1], h)
					}
				}
			}
		}
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestTiesOrderedByID: identical vectors score alike, and their order is
// the ids', whatever the order they were added and however the scan split.
func TestTiesOrderedByID(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	const dim = 16
	v := gaussians(r, 1, dim)[0]
	ids := []int32{40, 3, 17, -2, 25, 8}
	vecs := make([][]float32, len(ids))
	for i := range vecs {
		vecs[i] = v
	}
	old := minScanPerWorker
	minScanPerWorker = 1
	defer func() { minScanPerWorker = old }()
	for _, workers := range []int{1, 4} {
		cfg := DefaultConfig()
		cfg.Workers = workers
		x := build(t, cfg, ids, vecs)
		got, err := x.Search(v, 4)
		if err != nil {
			t.Fatal(err)
		}
		var gotIDs []int32
		for _, h := range got {
			gotIDs = append(gotIDs, h.ID)
		}
		if want := []int32{-2, 3, 8, 17}; !slices.Equal(gotIDs, want) {
			t.Errorf("workers %d: ids %v, want %v", workers, gotIDs, want)
		}
	}
}

func TestNormalization(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	const dim = 24
	vecs := gaussians(r, 50, dim)
	for i, v := range vecs {
		scale := float32(math.Pow(10, float64(i%13-6))) // 1e-6 … 1e6
		for j := range v {
			v[j] *= scale
		}
	}
	x := build(t, DefaultConfig(), seqIDs(len(vecs)), vecs)
	for r := range x.Len() {
		row := x.data[r*dim : (r+1)*dim]
		if n := math.Sqrt(float64(dot(row, row))); math.Abs(n-1) > 1e-6 {
			t.Errorf("row %d has norm %v, want 1", r, n)
		}
	}
	// A vector scaled by any factor is the same direction: its own best
	// match, at cosine 1.
	for i, v := range vecs {
		q := slices.Clone(v)
		for j := range q {
			q[j] *= 3.5
		}
		hits, err := x.Search(q, 1)
		if err != nil {
			t.Fatal(err)
		}
		if hits[0].ID != int32(i) || math.Abs(float64(hits[0].Score)-1) > 1e-6 {
			t.Errorf("vector %d scaled: best hit %+v, want id %d at 1", i, hits[0], i)
		}
	}
	n, err := Normalize([]float32{3, 4})
	if err != nil || n[0] != 0.6 || n[1] != 0.8 {
		t.Errorf("Normalize(3, 4) = %v, %v; want [0.6 0.8]", n, err)
	}
}

func TestInvalidVectors(t *testing.T) {
	x, err := New(4)
	if err != nil {
		t.Fatal(err)
	}
	inf := float32(math.Inf(1))
	nan := float32(math.NaN())
	for _, c := range []struct {
		name string
		v    []float32
		want error
		says []string
	}{
		{"short", []float32{1, 2, 3}, ErrDimension, []string{"3 dimensions", "holds 4"}},
		{"long", make([]float32, 1536), ErrDimension, []string{"1536 dimensions", "holds 4"}},
		{"nan", []float32{1, nan, 0, 0}, ErrNotFinite, []string{"component 1", "NaN"}},
		{"+inf", []float32{1, 0, 0, inf}, ErrNotFinite, []string{"component 3", "+Inf"}},
		{"-inf", []float32{-inf, 0, 0, 1}, ErrNotFinite, []string{"component 0", "-Inf"}},
		{"zero", []float32{0, 0, 0, 0}, ErrZero, []string{"zero vector"}},
	} {
		err := x.Add(7, c.v)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: Add error %v, want %v", c.name, err, c.want)
			continue
		}
		for _, s := range append(c.says, "id 7") {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: Add error %q does not say %q", c.name, err, s)
			}
		}
		if _, err := x.Search(c.v, 3); !errors.Is(err, c.want) {
			t.Errorf("%s: Search error %v, want %v", c.name, err, c.want)
		}
	}
	if x.Len() != 0 || len(x.data) != 0 {
		t.Fatalf("rejected vectors left %d ids and %d floats behind", x.Len(), len(x.data))
	}
	if err := x.Add(7, []float32{1, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if err := x.Add(7, []float32{0, 1, 0, 0}); !errors.Is(err, ErrDuplicateID) {
		t.Errorf("second add of id 7: %v, want %v", err, ErrDuplicateID)
	}
	if err := x.Build(); err != nil {
		t.Fatal(err)
	}
	if err := x.Add(8, []float32{0, 1, 0, 0}); !errors.Is(err, ErrBuilt) {
		t.Errorf("add after Build: %v, want %v", err, ErrBuilt)
	}
	if _, err := New(0); err == nil {
		t.Error("New(0) succeeded")
	}
	bad := DefaultConfig()
	bad.M = 1
	if _, err := NewWithConfig(8, bad); err == nil {
		t.Error("NewWithConfig with M 1 succeeded")
	}
}

func TestSmallAndEmpty(t *testing.T) {
	x, err := New(3)
	if err != nil {
		t.Fatal(err)
	}
	if hits, err := x.Search([]float32{1, 0, 0}, 5); err != nil || len(hits) != 0 {
		t.Errorf("empty index: %v, %v; want no hits", hits, err)
	}
	for i, v := range [][]float32{{1, 0, 0}, {0, 1, 0}, {1, 1, 0}} {
		if err := x.Add(int32(i), v); err != nil {
			t.Fatal(err)
		}
	}
	if hits, err := x.Search([]float32{1, 0, 0}, 0); err != nil || len(hits) != 0 {
		t.Errorf("k=0: %v, %v; want no hits", hits, err)
	}
	hits, err := x.Search([]float32{1, 0.1, 0}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 3 || hits[0].ID != 0 || hits[1].ID != 2 || hits[2].ID != 1 {
		t.Errorf("hits %v, want ids 0, 2, 1", hits)
	}
}

// graphConfig builds a graph whatever the size.
func graphConfig() Config {
	cfg := DefaultConfig()
	cfg.Threshold = 1
	return cfg
}

// TestRecallOfGraph: the graph finds at least 95% of the exact top 10, on
// spread-out random vectors (the hard case) and clustered ones.
func TestRecallOfGraph(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two graphs of thousands of vectors")
	}
	r := rand.New(rand.NewPCG(11, 12))
	const dim = 64
	// The clustered set is smaller: it is the easy case, and the test runs
	// under -race in make test, where each graph build costs seconds.
	for _, c := range []struct {
		name string
		n    int
		vecs [][]float32
	}{
		{"gaussian", 3000, gaussians(r, 3000+100, dim)},
		{"clustered", 2000, clustered(r, 2000+100, dim, 20, 0.5)},
	} {
		n := c.n
		x := build(t, graphConfig(), seqIDs(n), c.vecs[:n])
		if !x.Approximate() {
			t.Fatal("no graph built at threshold 1")
		}
		// Queries are held-out vectors of the same distribution.
		if rec := meanRecall(t, x, c.vecs[n:], 10); rec < 0.95 {
			t.Errorf("%s: recall@10 %.3f, want ≥ 0.95", c.name, rec)
		} else {
			t.Logf("%s: recall@10 %.3f", c.name, rec)
		}
		// Scores from the graph are the exact cosines.
		q := c.vecs[n]
		hits, _ := x.Search(q, 10)
		for _, h := range hits {
			if want := cosine64(q, c.vecs[h.ID]); math.Abs(float64(h.Score)-want) > 1e-5 {
				t.Errorf("%s: id %d scores %v, cosine %v", c.name, h.ID, h.Score, want)
			}
		}
	}
}

// TestConcurrentSearches runs searches from many goroutines at once, on a
// graph index, a split exact one and one with the int8 copy, under -race in make test, and checks
// each against the same search run alone.
func TestConcurrentSearches(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	const n, dim = 1500, 32
	vecs := gaussians(r, n, dim)
	queries := gaussians(r, 16, dim)
	old := minScanPerWorker
	minScanPerWorker = 1000
	defer func() { minScanPerWorker = old }()
	exactCfg := DefaultConfig()
	exactCfg.Workers = 3
	compactCfg := exactCfg
	compactCfg.CompactFrom = 1 // the int8 copy, where the CPU runs its kernel
	for name, x := range map[string]*Index{
		"exact":   build(t, exactCfg, seqIDs(n), vecs),
		"compact": build(t, compactCfg, seqIDs(n), vecs),
		"graph":   build(t, graphConfig(), seqIDs(n), vecs),
	} {
		alone := make([][]Hit, len(queries))
		for i, q := range queries {
			alone[i], _ = x.SearchExact(q, 10)
		}
		var wg sync.WaitGroup
		errs := make(chan string, 8*len(queries))
		for g := range 8 {
			wg.Go(func() {
				for i := range queries {
					i := (i + g) % len(queries)
					got, err := x.SearchExact(queries[i], 10)
					if err != nil || !slices.Equal(got, alone[i]) {
						errs <- "exact search changed under concurrency"
					}
					if got, err := x.Search(queries[i], 10); err != nil || len(got) != 10 {
						errs <- "search failed under concurrency"
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Errorf("%s: %s", name, e)
		}
	}
}

// TestGraphDeterministic: the same vectors, added in the same order with
// the same seed, give the same graph answers, ties and all.
func TestGraphDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	const n, dim = 1000, 16
	vecs := clustered(r, n, dim, 10, 0.3)
	a := build(t, graphConfig(), seqIDs(n), vecs)
	b := build(t, graphConfig(), seqIDs(n), vecs)
	for _, q := range gaussians(r, 20, dim) {
		ha, _ := a.Search(q, 10)
		hb, _ := b.Search(q, 10)
		if !slices.Equal(ha, hb) {
			t.Fatalf("two builds answer %v and %v", ha, hb)
		}
	}
}

// TestSearchExactFuncRanksAmongKept checks the filtered scan against
// SearchExact of an index holding the kept vectors alone: same hits, same
// order, and never an id keep refused, at a k above the kept count too.
func TestSearchExactFuncRanksAmongKept(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	const dim, n = 24, 300
	vs := gaussians(r, n, dim)
	all, _ := New(dim)
	kept, _ := New(dim)
	keep := func(id int32) bool { return id%3 == 1 }
	for i, v := range vs {
		if err := all.Add(int32(i), v); err != nil {
			t.Fatal(err)
		}
		if keep(int32(i)) {
			if err := kept.Add(int32(i), v); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := all.Build(); err != nil {
		t.Fatal(err)
	}
	if err := kept.Build(); err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{1, 10, 200} {
		q := gaussians(r, 1, dim)[0]
		got, err := all.SearchExactFunc(q, k, keep)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := kept.SearchExact(q, k)
		if len(got) != len(want) {
			t.Fatalf("k=%d: %d hits, want %d", k, len(got), len(want))
		}
		for i := range got {
			if !keep(got[i].ID) {
				t.Fatalf("k=%d: hit %d has id %d, which keep refuses", k, i, got[i].ID)
			}
			if got[i].ID != want[i].ID {
				t.Errorf("k=%d: hit %d is %d, want %d", k, i, got[i].ID, want[i].ID)
			}
		}
	}
	if _, err := all.SearchExactFunc(make([]float32, dim), 3, keep); err == nil {
		t.Error("a zero query: no error")
	}
}
