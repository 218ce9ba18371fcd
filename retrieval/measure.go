package retrieval

import "math"

// weights are a question's informative weights over one index: each stem
// key's idf (the first maxQueryKeys keys).
type weights struct {
	idf   []float64
	total float64
}

// weigh measures the question's keys. A key no unit contains gets the
// largest idf: it is the most informative word of the question, and
// nothing covers it. The keys in intent (bit i: keys[i]) weigh nothing.
func (ix *index) weigh(keys []string, intent uint64) weights {
	n := min(len(keys), maxQueryKeys)
	ws := weights{idf: make([]float64, n)}
	for i, k := range keys[:n] {
		if intent&(1<<i) != 0 {
			continue
		}
		idf, ok := ix.idf[k]
		if !ok {
			idf = ix.maxIDF()
		}
		ws.idf[i] = idf
		ws.total += idf
	}
	return ws
}

// share is the part of the question's informative weight that the keys
// in bits carry, in [0, 1].
func (ws weights) share(bits uint64) float64 {
	if ws.total <= 0 {
		return 0
	}
	var sum float64
	for i, w := range ws.idf {
		if bits&(1<<i) != 0 {
			sum += w
		}
	}
	return min(sum/ws.total, 1)
}

// allKeys is the bit set of a question's first n keys.
func allKeys(n int) uint64 {
	if n >= maxQueryKeys {
		return math.MaxUint64
	}
	return 1<<n - 1
}
