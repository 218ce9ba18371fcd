package vector

import (
	"math"
	"sync"
	"sync/atomic"
)

// The compact copy: exact search that reads a quarter of the bytes.
//
// An exact scan of 100,000 × 1536 float32s reads 614 MB a query and is
// bound by memory bandwidth, not arithmetic. So Build keeps beside the
// float32 matrix an int8 copy of each row r, v̂_r = scale_r · c_r with c_r
// in [-127, 127]^dim (scale_r = max_j |v_rj| / 127), and one number e_r
// such that, for any query q, the float32 score SearchExact computes,
// s_r = dot(q, v_r), and the compact estimate ŝ_r = scale_r ·
// dotI8(q, c_r) (the product taken in float64) satisfy
//
//	|s_r − ŝ_r| ≤ ‖q‖ · e_r.
//
// A search scans the copy (dim + 8 bytes a row), keeps the k largest
// lower bounds ŝ_r − ‖q‖e_r and, for every row whose upper bound ŝ_r +
// ‖q‖e_r is not below the k-th largest of them (L), its row number. A row
// whose upper bound is below L scores, in float32 as SearchExact computes
// it, strictly below k other rows, so it is not in the top k whatever the
// tie-break. The rows left (the survivors: about k plus a few dozen on the
// benchmarks' data) are scored again with dot against the float32 rows
// and ranked with topK, which gives the same hits, scores and order as
// the float32 scan, since it sees the same scores of a set that holds
// every row of the top k.
//
// # The bound
//
// Three parts, each an upper bound in real arithmetic, summed in float64
// and rounded up to float32 at Build:
//
//   - Quantization: s_r's real value q·v_r differs from q·v̂_r by q·(v_r −
//     v̂_r), at most ‖q‖·ρ_r by Cauchy–Schwarz, with ρ_r = ‖v_r − v̂_r‖
//     computed from the stored scale and codes in float64 (each difference
//     v_rj − scale_r·c_rj is of a float32 and an exact 32-bit product, the
//     sum of squares is off by under (dim+2)·2⁻⁵³ relative) and raised by
//     2⁻³⁰ relative to cover that.
//   - Float32 rounding of s_r: a dot product of n terms summed in float32
//     in any order (the AVX2 kernel's lanes and reduction, dotGo's eight
//     accumulators) is within γ_n · Σ|q_j||v_rj| of the real value, γ_n =
//     n·u/(1−n·u), u = 2⁻²⁴ (Higham, Accuracy and Stability of Numerical
//     Algorithms, §3.1; a fused multiply-add only removes a rounding), and
//     Σ|q_j||v_rj| ≤ ‖q‖·‖v_r‖ by Cauchy–Schwarz. γ_{dim+2} is used.
//   - Float32 rounding of dotI8(q, c_r): the same, with ‖c_r‖ in place of
//     ‖v_r‖ (the int8 to float32 conversion is exact), times scale_r;
//     the product scale_r·t of two float32s is exact in float64.
//
// On top, an absolute 2⁻⁴⁰ covers underflow (a product that falls below
// float32's normal range loses at most 2⁻¹⁵⁰, dim of them) and the few
// float64 roundings of the bounds at query time (about 2⁻⁵² each on
// values below 2); ‖q‖ itself is summed in float64 and raised by 2⁻³⁰
// relative. The bound holds for rows and queries of any finite values
// whose products and sums do not overflow float32; the index's rows and
// queries are unit length. On unit vectors of 1536 gaussian components
// e_r is about 0.008 (almost all quantization: the rounding terms are
// 9·10⁻⁵ each), against a spread of scores of 0.026.
//
// # Cost
//
// The copy is dim + 8 bytes a vector (1,544 at 1536, on top of 6,148:
// 25 % more memory), built in Build when the index holds at least
// Config.CompactFrom vectors and the CPU runs the AVX2 kernel (AVX2 and
// FMA; the AVX-512 one where there is AVX512F); without a kernel a scan
// of int8 in Go is no faster than of float32, so no copy is built and
// SearchExact scans the float32 rows. SearchExact and SearchExactFunc
// also scan the float32 rows when k > n/8 (compactMaxKShare).

// compactSlackRel raises the float64-computed norms, relative: far above
// their rounding ((dim+4)·2⁻⁵³ ≈ 2⁻⁴² at 1536), far below anything that
// would change which rows survive.
const compactSlackRel = 1.0 / (1 << 30)

// compactSlackAbs is added to every e_r for underflow and the float64
// roundings of the bounds at query time.
const compactSlackAbs = 1.0 / (1 << 40)

// compactMaxKShare: SearchExact uses the copy while k ≤ n/compactMaxKShare.
// Beyond, at least k float32 rows are read again at random after the scan
// of the copy, and the float32 scan, which reads each once in order, is
// no slower.
const compactMaxKShare = 8

// compactKernel is whether Build makes the copy: where dotI8 runs the
// AVX2 kernel. A variable so that tests can force either path.
var compactKernel = useAVX2

type compact struct {
	dim   int
	codes []int8    // row r is codes[r*dim : (r+1)*dim]
	scale []float32 // v̂_r = scale[r] · codes of r
	err   []float32 // e_r, the bound above, rounded up
}

// gamma is γ_n = n·u/(1−n·u) for float32's unit roundoff u = 2⁻²⁴.
func gamma(n int) float64 {
	nu := float64(n) / (1 << 24)
	return nu / (1 - nu)
}

// roundUp32 is the least float32 not below e.
func roundUp32(e float64) float32 {
	f := float32(e)
	if float64(f) < e {
		f = math.Nextafter32(f, float32(math.Inf(1)))
	}
	return f
}

// normUp is an upper bound of ‖q‖, summed in float64 and raised by
// compactSlackRel.
func normUp(q []float32) float64 {
	var s float64
	for _, x := range q {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s) * (1 + compactSlackRel)
}

// buildCompact quantizes the n rows of data, split over workers
// goroutines.
func buildCompact(data []float32, dim, workers int) *compact {
	n := len(data) / dim
	c := &compact{
		dim:   dim,
		codes: make([]int8, n*dim),
		scale: make([]float32, n),
		err:   make([]float32, n),
	}
	workers = max(1, min(workers, n/1024))
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*n/workers, (w+1)*n/workers
		wg.Go(func() {
			for r := lo; r < hi; r++ {
				c.scale[r], c.err[r] = quantize(c.codes[r*dim:(r+1)*dim], data[r*dim:(r+1)*dim])
			}
		})
	}
	wg.Wait()
	return c
}

// quantize writes v's int8 codes into code and returns their scale and
// the bound e (see the comment at the top of the file). v must be finite.
func quantize(code []int8, v []float32) (scale, e float32) {
	var m float32
	for _, x := range v {
		m = max(m, float32(math.Abs(float64(x))))
	}
	if m == 0 {
		clear(code)
		return 0, compactSlackAbs
	}
	scale = m / 127
	if scale == 0 { // m below 127 times the least float32
		scale = math.SmallestNonzeroFloat32
	}
	a := float64(scale)
	var res, vv, cc float64
	for j, x := range v {
		q := math.RoundToEven(float64(x) / a)
		q = max(-127, min(127, q))
		code[j] = int8(q)
		d := float64(x) - a*q
		res += d * d
		vv += float64(x) * float64(x)
		cc += q * q
	}
	g := gamma(len(v) + 2)
	bound := (math.Sqrt(res) + g*(math.Sqrt(vv)+a*math.Sqrt(cc))) * (1 + compactSlackRel)
	return scale, roundUp32(bound + compactSlackAbs)
}

// compactPart is one goroutine's share of a compact scan.
type compactPart struct {
	lows  lowHeap // the k largest lower bounds of its rows
	cands []candidate
	limit int // len(cands) at which they are filtered again
}

func newCompactPart(k int) compactPart {
	return compactPart{lows: newLowHeap(k), limit: max(256, 4*k)}
}

// compactChunkBytes is the share of the copy a goroutine of a split
// compact scan takes at a time. Goroutines take chunks until none is
// left rather than a fixed half each: on a machine shared with other
// work one of them is often descheduled for a few milliseconds, and with
// fixed halves the search waited for it (p95 15–22 ms against 8 on one
// goroutine, 100,000 × 1536 under load); now the other takes over its
// chunks. A variable so that tests can cut small scans into many.
var compactChunkBytes = 1 << 20

// candidate is a row whose upper bound was not below the part's k-th
// largest lower bound when it was scanned.
type candidate struct {
	row int32
	up  float64
}

// scanCompact is the exact search of normalized q (k ≥ 1) by way of the
// compact copy, over the rows whose id keep accepts (all when keep is
// nil); it also returns the number of rows scored again in float32. It
// splits the scan over up to Workers goroutines when keep is nil, and
// runs on the caller's alone otherwise, since keep need not be safe to
// call from several at once.
func (x *Index) scanCompact(q []float32, k int, keep func(id int32) bool) ([]Hit, int) {
	n := len(x.ids)
	qn := normUp(q)
	// Each goroutine reads a quarter of the bytes of a float32 scan, so
	// it needs four times the rows to be worth its start.
	workers := max(1, min(x.workers(), n*x.dim/(4*minScanPerWorker)))
	if keep != nil {
		workers = 1
	}
	parts := make([]compactPart, workers)
	for w := range parts {
		parts[w] = newCompactPart(k)
	}
	if workers == 1 {
		x.scanCompactRows(q, qn, 0, n, keep, &parts[0])
	} else {
		chunk := max(1, compactChunkBytes/x.dim)
		chunks := (n + chunk - 1) / chunk
		var next atomic.Int64
		work := func(p *compactPart) {
			for {
				c := int(next.Add(1) - 1)
				if c >= chunks {
					return
				}
				x.scanCompactRows(q, qn, c*chunk, min(n, (c+1)*chunk), nil, p)
			}
		}
		var wg sync.WaitGroup
		for w := 1; w < workers; w++ {
			wg.Go(func() { work(&parts[w]) })
		}
		work(&parts[0])
		wg.Wait()
	}
	// L over all rows: the k largest lower bounds of all rows are among
	// the parts' k largest each.
	lows := parts[0].lows
	for _, p := range parts[1:] {
		for _, l := range p.lows.h {
			lows.push(l)
		}
	}
	bar := lows.bar()
	t := newTopK(k)
	survivors := 0
	d := x.dim
	for _, p := range parts {
		for _, cd := range p.cands {
			if cd.up < bar {
				continue
			}
			survivors++
			r := int(cd.row)
			t.push(Hit{ID: x.ids[r], Score: dot(q, x.data[r*d:(r+1)*d])})
		}
	}
	return t.sorted(), survivors
}

// scanCompactRows scans rows [lo, hi) of the copy, those keep accepts
// when it is not nil, into p.
func (x *Index) scanCompactRows(q []float32, qn float64, lo, hi int, keep func(id int32) bool, p *compactPart) {
	c, d := x.compact, x.dim
	bar := p.lows.bar()
	codes, scale, errs := c.codes[lo*d:hi*d], c.scale[lo:hi], c.err[lo:hi]
	ids := x.ids[lo:hi]
	for i := range scale {
		if keep != nil && !keep(ids[i]) {
			continue
		}
		s := float64(scale[i]) * float64(dotI8(q, codes[i*d:(i+1)*d]))
		b := qn * float64(errs[i])
		up := s + b
		if up < bar {
			continue // the common case
		}
		if p.lows.push(s - b) {
			bar = p.lows.bar()
			if up < bar {
				continue
			}
		}
		p.cands = append(p.cands, candidate{row: int32(lo + i), up: up})
		if len(p.cands) >= p.limit {
			kept := p.cands[:0]
			for _, cd := range p.cands {
				if cd.up >= bar {
					kept = append(kept, cd)
				}
			}
			p.cands = kept
			if len(kept) >= p.limit/2 { // many near-equal bounds: filter less often
				p.limit *= 2
			}
		}
	}
}

// lowHeap keeps the k largest lower bounds offered, in a min-heap.
type lowHeap struct {
	k int
	h []float64
}

func newLowHeap(k int) lowHeap { return lowHeap{k: k, h: make([]float64, 0, k)} }

// bar is the k-th largest bound held, −∞ while fewer than k are.
func (l *lowHeap) bar() float64 {
	if len(l.h) < l.k {
		return math.Inf(-1)
	}
	return l.h[0]
}

// push offers x and reports whether bar may have changed.
func (l *lowHeap) push(x float64) bool {
	h := l.h
	if len(h) < l.k {
		h = append(h, x)
		for i := len(h) - 1; i > 0; {
			p := (i - 1) / 2
			if h[p] <= h[i] {
				break
			}
			h[p], h[i] = h[i], h[p]
			i = p
		}
		l.h = h
		return len(h) == l.k
	}
	if x <= h[0] {
		return false
	}
	h[0] = x
	for i, n := 0, len(h); ; {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && h[r] < h[c] {
			c = r
		}
		if h[i] <= h[c] {
			break
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
	return true
}
