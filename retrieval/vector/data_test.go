package vector

import (
	"math"
	"math/rand/v2"
	"testing"
)

// gaussians returns n vectors of dim independent standard normal
// components: normalized, points spread evenly over the sphere, the
// hardest case for a graph index (no neighbourhoods to find).
func gaussians(r *rand.Rand, n, dim int) [][]float32 {
	out := make([][]float32, n)
	flat := make([]float32, n*dim)
	for i := range out {
		v := flat[i*dim : (i+1)*dim : (i+1)*dim]
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		out[i] = v
	}
	return out
}

// clustered returns n vectors around `centers` random centroids (each
// vector a centroid plus Gaussian noise of standard deviation spread per
// component, centroids of unit variance): closer to real embeddings,
// which gather by topic.
func clustered(r *rand.Rand, n, dim, centers int, spread float64) [][]float32 {
	cs := gaussians(r, centers, dim)
	out := gaussians(r, n, dim)
	for i, v := range out {
		c := cs[r.IntN(centers)]
		for j := range v {
			v[j] = c[j] + float32(spread)*v[j]
		}
		out[i] = v
	}
	return out
}

// cosine64 is the reference cosine similarity, in float64.
func cosine64(a, b []float32) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	return ab / math.Sqrt(aa*bb)
}

// build adds vecs under ids and builds the index.
func build(tb testing.TB, cfg Config, ids []int32, vecs [][]float32) *Index {
	tb.Helper()
	x, err := NewWithConfig(len(vecs[0]), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	x.Grow(len(vecs))
	for i, v := range vecs {
		if err := x.Add(ids[i], v); err != nil {
			tb.Fatal(err)
		}
	}
	if err := x.Build(); err != nil {
		tb.Fatal(err)
	}
	return x
}

// seqIDs is 0..n-1.
func seqIDs(n int) []int32 {
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = int32(i)
	}
	return ids
}

// recallAt is the share of exact's ids found in got.
func recallAt(got, exact []Hit) float64 {
	want := make(map[int32]bool, len(exact))
	for _, h := range exact {
		want[h.ID] = true
	}
	found := 0
	for _, h := range got {
		if want[h.ID] {
			found++
		}
	}
	return float64(found) / float64(len(exact))
}

// meanRecall runs each query through Search and SearchExact and averages
// recall@k.
func meanRecall(tb testing.TB, x *Index, queries [][]float32, k int) float64 {
	tb.Helper()
	var sum float64
	for _, q := range queries {
		got, err := x.Search(q, k)
		if err != nil {
			tb.Fatal(err)
		}
		exact, err := x.SearchExact(q, k)
		if err != nil {
			tb.Fatal(err)
		}
		sum += recallAt(got, exact)
	}
	return sum / float64(len(queries))
}
