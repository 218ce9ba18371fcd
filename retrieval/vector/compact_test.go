package vector

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDotI8MatchesFloat64 checks the Go loop and, where the CPU has them,
// the AVX2 and AVX-512 kernels of the int8 dot product at every length
// through a few of each loop's strides (64 or 128, 8, 1), on slices off any alignment, with
// codes at both ends of the int8 range.
func TestDotI8MatchesFloat64(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	kernels := map[string]func(q []float32, c []int8) float32{"go": dotI8Go, "dotI8": dotI8}
	if useAVX2 {
		kernels["avx2"] = func(q []float32, c []int8) float32 {
			if len(q) == 0 {
				return 0
			}
			return dotI8AVX2(&q[0], &c[0], len(q))
		}
	} else {
		t.Log("no AVX2 kernel on this machine or build: the Go loop alone is tested")
	}
	if useAVX512 {
		kernels["avx512"] = func(q []float32, c []int8) float32 {
			if len(q) == 0 {
				return 0
			}
			return dotI8AVX512(&q[0], &c[0], len(q))
		}
	}
	for n := range 300 {
		q := gaussians(r, 1, n+1)[0][1:]
		c := make([]int8, n+5)[5:]
		for i := range c {
			c[i] = int8(r.IntN(256) - 128) // -128 too, though quantize never writes it
		}
		var want, abs float64
		for i := range q {
			want += float64(q[i]) * float64(c[i])
			abs += math.Abs(float64(q[i]) * float64(c[i]))
		}
		for name, f := range kernels {
			// The float32 error bound of the bound's derivation.
			if got := f(q, c); math.Abs(float64(got)-want) > gamma(n)*abs {
				t.Errorf("%s: int8 dot of length %d = %v, float64 reference %v", name, n, got, want)
			}
		}
	}
}

// boundCase is a vector family for the bound's property test.
type boundCase struct {
	name string
	gen  func(r *rand.Rand, dim int) []float32
}

func boundCases() []boundCase {
	unit := func(v []float32) []float32 {
		u, err := Normalize(v)
		if err != nil {
			panic(err)
		}
		return u
	}
	return []boundCase{
		{"gaussian unit", func(r *rand.Rand, dim int) []float32 { return unit(gaussians(r, 1, dim)[0]) }},
		{"gaussian raw", func(r *rand.Rand, dim int) []float32 { return gaussians(r, 1, dim)[0] }},
		// Components from 1e-38 to 1 in one unit vector: products fall
		// below float32's normal range, codes of most are 0.
		{"mixed magnitudes unit", func(r *rand.Rand, dim int) []float32 {
			v := make([]float32, dim)
			for i := range v {
				v[i] = float32(r.NormFloat64() * math.Pow(10, -38*r.Float64()))
			}
			v[r.IntN(dim)] = 1
			return unit(v)
		}},
		// One component dominates: the scale is set by it, the rest is
		// quantized coarsely or to zero.
		{"one spike unit", func(r *rand.Rand, dim int) []float32 {
			v := gaussians(r, 1, dim)[0]
			v[r.IntN(dim)] = 1000
			return unit(v)
		}},
		// Not normalized, whole vectors from 1e-15 to 1e15 (products and
		// sums stay within float32): the bound does not assume unit length.
		{"scaled raw", func(r *rand.Rand, dim int) []float32 {
			v := gaussians(r, 1, dim)[0]
			s := float32(math.Pow(10, 30*r.Float64()-15))
			for i := range v {
				v[i] *= s
			}
			return v
		}},
		// Exactly on the int8 grid (scale 2⁻⁷): no quantization residual,
		// so the float32 rounding terms alone must cover the difference
		// between kernels that add in different orders (dotGo's eight
		// accumulators against dotI8Go's four).
		{"on grid", func(r *rand.Rand, dim int) []float32 {
			v := make([]float32, dim)
			for i := range v {
				v[i] = float32(r.IntN(255)-127) / 128
			}
			v[0] = 127.0 / 128
			return v
		}},
		// Codes that land on ±127 and half-way points.
		{"grid unit", func(r *rand.Rand, dim int) []float32 {
			v := make([]float32, dim)
			for i := range v {
				v[i] = float32(r.IntN(509)-254) / 2
			}
			v[0] = 127
			return unit(v)
		}},
	}
}

// TestCompactBoundHolds is the property the compact search rests on:
// for any row v and query q, the float32 dot SearchExact computes and the
// compact estimate differ by at most ‖q‖·e, with every kernel. Queries
// include the residual's own direction, where Cauchy–Schwarz is an
// equality, so that a bound understated by more than a few per cent
// would fail here.
func TestCompactBoundHolds(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	cases := boundCases()
	var worst float64 // largest |s − ŝ| / (‖q‖e) seen
	type kernel struct {
		name string
		dot  func(a, b []float32) float32
		dot8 func(q []float32, c []int8) float32
	}
	kernels := []kernel{{"go", dotGo, dotI8Go}, {"dispatch", dot, dotI8}}
	if useAVX2 {
		kernels = append(kernels, kernel{"avx2", dot, func(q []float32, c []int8) float32 { return dotI8AVX2(&q[0], &c[0], len(q)) }})
	}
	for _, dim := range []int{1, 7, 37, 300, 1536} {
		for _, vc := range cases {
			for range 30 {
				v := vc.gen(r, dim)
				code := make([]int8, dim)
				scale, e := quantize(code, v)
				if e <= 0 || math.IsInf(float64(e), 0) || math.IsNaN(float64(e)) {
					t.Fatalf("%s, dim %d: bound %v", vc.name, dim, e)
				}
				// The residual v − v̂, as a query: the adversarial one.
				res := make([]float32, dim)
				for j := range res {
					res[j] = v[j] - scale*float32(code[j])
				}
				queries := [][]float32{res}
				for _, qc := range cases {
					queries = append(queries, qc.gen(r, dim))
				}
				for qi, q := range queries {
					qn := normUp(q)
					if qn == 0 {
						continue
					}
					bound := qn * float64(e)
					for _, kern := range kernels {
						s := float64(kern.dot(q, v))
						est := float64(scale) * float64(kern.dot8(q, code))
						if d := math.Abs(s - est); !(d <= bound) {
							t.Fatalf("%s, dim %d, query %d, %s kernels: |s − ŝ| = |%v − %v| = %v > bound %v", vc.name, dim, qi, kern.name, s, est, d, bound)
						} else if qi == 0 && dim >= 37 && vc.name == "gaussian unit" {
							worst = max(worst, d/bound)
						}
					}
				}
			}
		}
	}
	// On the residual's direction the estimate is off by ‖q‖·ρ, nearly
	// all of e: the bound is not vacuous.
	if worst < 0.9 {
		t.Errorf("largest |s − ŝ| on the residual's direction is %.3f of the bound, want the bound nearly reached", worst)
	}
}

// searchData is a vector family for the compact search's tests.
type searchData struct {
	name    string
	vecs    [][]float32
	queries [][]float32
}

func compactDatasets(r *rand.Rand, n, dim int) []searchData {
	g := gaussians(r, n+20, dim)
	c := clustered(r, n+20, dim, 30, 0.3)
	// Exact ties: 60 vectors, each added n/60 times under different ids;
	// near-ties: copies with one component one ulp off. Queries include
	// the vectors themselves.
	base := gaussians(r, 60, dim)
	var ties [][]float32
	for len(ties) < n {
		v := base[len(ties)%len(base)]
		if len(ties)%3 == 2 {
			v = slices.Clone(v)
			j := r.IntN(dim)
			v[j] = math.Nextafter32(v[j], float32(math.Inf(r.IntN(2)*2-1)))
		}
		ties = append(ties, v)
	}
	tieQueries := append(slices.Clone(base[:10]), gaussians(r, 10, dim)...)
	// Not normalized: each vector scaled by 10^-30 to 10^30 (Add
	// normalizes; the scale must not matter).
	raw := gaussians(r, n+20, dim)
	for _, v := range raw {
		s := float32(math.Pow(10, 60*r.Float64()-30))
		for j := range v {
			v[j] *= s
		}
	}
	return []searchData{
		{"gaussian", g[:n], g[n:]},
		{"clustered", c[:n], c[n:]},
		{"ties", ties, tieQueries},
		{"scaled", raw[:n], raw[n:]},
	}
}

// TestCompactSearchEqualsScan: the compact search returns exactly the
// float32 scan's hits (ids, scores and order) on every data family, for
// k from 1 to past the index, split over several goroutines or not, and
// SearchExact and SearchExactFunc of an index with the copy equal those
// of one without.
func TestCompactSearchEqualsScan(t *testing.T) {
	// dim 1: every vector normalizes to +1 or −1, half the index ties.
	checkCompactEqualsScan(t, []int{1, 37, 256})
}

func checkCompactEqualsScan(t *testing.T, dims []int) {
	old, oldKernel, oldChunk := minScanPerWorker, compactKernel, compactChunkBytes
	minScanPerWorker = 1000  // lets the small scans split
	compactKernel = true     // the Go kernel where there is no AVX2 one
	compactChunkBytes = 5000 // 135 rows at dim 37, 19 at 256
	defer func() { minScanPerWorker, compactKernel, compactChunkBytes = old, oldKernel, oldChunk }()
	r := rand.New(rand.NewPCG(25, 26))
	const n = 2400
	for _, dim := range dims {
		for _, d := range compactDatasets(r, n, dim) {
			ids := make([]int32, n)
			for i, p := range r.Perm(n) {
				ids[i] = int32(p*5 - 4000)
			}
			for _, workers := range []int{1, 2, 3} {
				name := fmt.Sprintf("dim %d, %s, workers %d", dim, d.name, workers)
				cfg := DefaultConfig()
				cfg.Workers = workers
				cfg.CompactFrom = n + 1
				plain := build(t, cfg, ids, d.vecs)
				cfg.CompactFrom = 1
				x := build(t, cfg, ids, d.vecs)
				if plain.Compact() || !x.Compact() {
					t.Fatalf("%s: compact copies %v and %v, want false and true", name, plain.Compact(), x.Compact())
				}
				var survivors, searches int
				for qi, q := range d.queries {
					nq, err := Normalize(q)
					if err != nil {
						t.Fatal(err)
					}
					for _, k := range []int{1, 2, 3, 10, 50, 299, 301, n - 1, n, n + 5} {
						want := x.scan(nq, min(k, n))
						got, surv := x.scanCompact(nq, min(k, n), nil)
						if !slices.Equal(got, want) {
							t.Fatalf("%s, query %d, k=%d: compact search\n%v\nfloat32 scan\n%v", name, qi, k, head(got), head(want))
						}
						if surv < min(k, n) || surv > n {
							t.Fatalf("%s, query %d, k=%d: %d survivors", name, qi, k, surv)
						}
						if k == 10 {
							survivors += surv
							searches++
						}
						pub, err := x.SearchExact(q, k)
						if err != nil {
							t.Fatal(err)
						}
						ref, err := plain.SearchExact(q, k)
						if err != nil {
							t.Fatal(err)
						}
						if !slices.Equal(pub, ref) {
							t.Fatalf("%s, query %d, k=%d: SearchExact with the copy\n%v\nwithout\n%v", name, qi, k, head(pub), head(ref))
						}
						// A scope: every third id, or 7 ids (fewer than
						// most k), through the copy and through the float32
						// scan of SearchExactFunc.
						for si, keep := range []func(id int32) bool{
							func(id int32) bool { return id%3 == 0 },
							func(id int32) bool { return id >= 0 && id < 35 && id%5 == 0 },
						} {
							ref, err := plain.SearchExactFunc(q, k, keep)
							if err != nil {
								t.Fatal(err)
							}
							got, _ := x.scanCompact(nq, min(k, n), keep)
							pub, err := x.SearchExactFunc(q, k, keep)
							if err != nil {
								t.Fatal(err)
							}
							if !slices.Equal(got, ref) || !slices.Equal(pub, ref) {
								t.Fatalf("%s, query %d, k=%d, scope %d: compact\n%v\nSearchExactFunc with the copy\n%v\nwithout\n%v", name, qi, k, si, head(got), head(pub), head(ref))
							}
						}
					}
				}
				// The copy must prune, or it only costs memory: on data
				// without mass ties (dim 1 is all ties) most rows are
				// never scored in float32.
				if mean := float64(survivors) / float64(searches); d.name != "ties" && dim > 1 && mean > n/10 {
					t.Errorf("%s: %.0f survivors of %d rows at k=10", name, mean, n)
				} else {
					t.Logf("%s: %.1f survivors at k=10", name, mean)
				}
			}
		}
	}
}

func head(h []Hit) []Hit { return h[:min(len(h), 12)] }

// TestCompactFallback: without the kernel (forced off) Build makes no
// copy whatever CompactFrom, and below CompactFrom it makes none either;
// SearchExact's answers are the float32 scan's.
func TestCompactFallback(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 28))
	const n, dim = 500, 24
	vecs, queries := gaussians(r, n, dim), gaussians(r, 5, dim)
	oldKernel := compactKernel
	defer func() { compactKernel = oldKernel }()
	for _, tc := range []struct {
		kernel bool
		from   int
		want   bool
	}{{false, 1, false}, {true, n + 1, false}, {true, n, true}} {
		compactKernel = tc.kernel
		cfg := DefaultConfig()
		cfg.CompactFrom = tc.from
		x := build(t, cfg, seqIDs(n), vecs)
		if x.Compact() != tc.want {
			t.Fatalf("kernel %v, CompactFrom %d, %d vectors: copy %v, want %v", tc.kernel, tc.from, n, x.Compact(), tc.want)
		}
		for _, q := range queries {
			got, err := x.SearchExact(q, 7)
			if err != nil {
				t.Fatal(err)
			}
			nq, _ := Normalize(q)
			if want := x.scan(nq, 7); !slices.Equal(got, want) {
				t.Fatalf("kernel %v, CompactFrom %d: %v, want %v", tc.kernel, tc.from, got, want)
			}
		}
	}
	if DefaultConfig().CompactFrom != DefaultCompactFrom {
		t.Errorf("DefaultConfig's CompactFrom %d, want %d", DefaultConfig().CompactFrom, DefaultCompactFrom)
	}
}

func TestLowHeapKeepsKLargest(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 30))
	for _, k := range []int{1, 2, 5, 40} {
		h := newLowHeap(k)
		var all []float64
		for i := range 300 {
			x := float64(r.IntN(30)) // ties are common
			all = append(all, x)
			h.push(x)
			slices.Sort(all)
			want := math.Inf(-1)
			if len(all) >= k {
				want = all[len(all)-k]
			}
			if got := h.bar(); got != want {
				t.Fatalf("k=%d, after %d: bar %v, want %v", k, i+1, got, want)
			}
		}
	}
}
