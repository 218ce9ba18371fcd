// Package vector is docent's in-process vector search: the embeddings of
// one model, of one dimension, held as unit-length float32 vectors so
// that cosine similarity is a dot product, searched for the k nearest to
// a query.
//
// Use:
//
//	x, err := vector.New(1536)          // vector.DefaultConfig()
//	x.Grow(len(chunks))                 // optional: reserve the matrix once
//	err = x.Add(chunkID, embedding)     // copied and normalized; once per id
//	err = x.Build()                     // freezes; HNSW graph from Threshold vectors
//	hits, err := x.Search(query, 30)    // best first: []Hit{ID, Score}
//
// Below Config.Threshold vectors (DefaultThreshold, 20,000) every search
// is exact: one pass over a flat, contiguous matrix with an AVX2 dot
// product (an unrolled Go loop off amd64), split across goroutines when
// it is large. From Config.CompactFrom vectors (DefaultCompactFrom,
// 10,000), on CPUs with AVX2 and FMA, Build also keeps an int8 copy of
// the matrix, and exact search (SearchExact, SearchExactFunc, Search
// below the threshold) scans the copy, a quarter of the bytes, with a
// per-vector bound on its error, and scores again in float32 only the
// vectors the bound cannot rule out of the top k: the same hits and
// scores as the float32 scan (compact.go has the design and the bound's
// derivation). From the threshold on, Build also makes an HNSW graph
// (graph.go) and Search walks it for EfSearch candidates, scored exactly
// against the matrix on the way, and keeps the k best, so the scores of
// approximate and exact search are the same cosines and can be fused
// alike. SearchExact always scans.
//
// Results are ordered by score, highest first, ties by lower id, and are
// deterministic: the same vectors added in the same order with the same
// Config give the same graph and the same answers.
//
// Add and Build must finish before searches start; after that any number
// of goroutines may search at once (the index is never written again).
// To change the vectors, build a new Index and swap it in.
//
// Encode and Decode are the storage form of one vector (4 bytes a
// component, little-endian), for a store's data file.
//
// # Measured
//
// On the project's 2-core machine (AMD EPYC, AVX-512 capable, shared with
// other work, so p95s are noisy), go test -bench with -benchtime 200x,
// k = 10, 200 held-out queries; DOCENT_BENCH_BIG=1 for the graph of
// 100,000 × 1536. Exact rows with "int8" scan the compact copy (the
// default from 10,000 vectors), the others the float32 matrix alone; the
// ranges are of three runs (-count 3), quiet and busy:
//
//	                              p50 ms   p95 ms   recall@10   build s   bytes/vector
//	exact 20,000 × 1536             4.7      9.2       1            0.05       6,148
//	exact 20,000 × 1536 int8        1.2–1.7  4.4–7.0   1            0.5–2.0    7,692
//	exact 100,000 × 384             5.2      6.6       1            0.14       1,540
//	exact 100,000 × 384 int8        1.8–4.0  6.0–18.5  1            0.6–0.9    1,932
//	exact 100,000 × 1536           21.5     28.6       1            0.3–3.8    6,148
//	exact 100,000 × 1536 int8       3.6–4.0  4.0–5.2   1            0.8–1.5    7,692
//	graph 100,000 × 384 clustered   0.35     0.64      1.000       65          1,685
//	graph 100,000 × 384 gaussian    0.66     0.88      0.114      125          1,685
//	graph 20,000 × 1536 clustered   1.7      4.2       0.999       59          6,295
//	graph 20,000 × 1536 gaussian    2.4     10.0       0.229       44          6,295
//	graph 100,000 × 1536 clustered  1.1      3.5       1.000      229          6,293
//	graph 100,000 × 1536 gaussian   2.8      3.7       0.070      351          6,293
//
// (Exact rows are with the scan split over both cores; on one, 100,000 ×
// 1536 is 22.2 ms p50, 38.0 p95. An exact build is the copy and
// normalization of the vectors: 3.8 s on a fresh heap, most of it the
// kernel mapping 614 MB, 0.3 s when the heap already holds the pages.)
//
// Exact search of 100,000 × 1536 reads 614 MB a query in float32, about
// 20 ms on this machine whatever the arithmetic, and a second goroutine
// barely helps (22.2 → 21.5 ms p50): the 20 ms p95 is not met
// with float32 vectors. The int8 copy reads 154 MB and about 106 rows
// again in float32 (gaussian data, k = 10; 42 on clustered): 3.6–4.0 ms
// p50 and 4.0–5.2 p95 on a quiet machine, against 13–17 and 18–33 for
// the float32 scan in the same hour. On a busy one (load 5–8 on the 2
// cores) both slow down, the copy to 8.6–9.4 p50 and 19–25 p95 against
// 27–29 and 46–74, and (clustered data, at the busiest) to 13–18 p50 and
// 59–83 p95, with the float32 scan at 54–65 and 139–219: the target
// holds only while the search has most of the machine. The dot kernel itself is 72 ns at 1536
// dimensions against 716 ns for the unrolled Go loop, the int8 kernel
// 36–39 ns with AVX-512 and 67 with AVX2 (BenchmarkDot).
//
// Memory per vector, measured with runtime.MemStats around Add and Build:
// 4·dim + 4 bytes exact (the row and its id: 6,148 at 1536), dim + 8 more
// with the int8 copy (its codes, scale and error bound: 7,692 at 1536,
// 25 % more; the graph rows above were measured before the copy, which
// DefaultConfig now builds beside the graph too, for SearchExact and
// SearchExactFunc), plus about
// 147 bytes of graph at M = 16 (the layer-0 list of 2M+1 int32s and the
// few upper-layer lists). A search of the graph also holds a visited
// mark of 4 bytes per vector, pooled, one per concurrent search.
//
// The graph's parameters (M 16, EfConstruction 100, EfSearch 100) were
// picked on 20,000 × 384: on clustered data recall@10 is 1.000 from
// EfSearch 20 at M 16 (0.909 at M 8), so EfSearch 100 leaves margin for
// real embeddings, which are less cleanly clustered, at about 1 ms. On
// gaussian vectors (uniform on the sphere, no neighbourhoods at all, the
// worst case) no setting comes close: 0.36 at M 16 and EfSearch 100,
// 0.88 at M 24 and EfSearch 400. Building is the cost: one insert after
// another, 229–351 s for 100,000 × 1536 and about 60 s for 20,000 × 1536
// on one busy core, most of it in dot products.
package vector
