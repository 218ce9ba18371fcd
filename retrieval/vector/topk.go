package vector

import "slices"

// Hit is one search result: the id a vector was added under and its
// cosine similarity to the query, in [-1, 1].
type Hit struct {
	ID    int32
	Score float32
}

// better is the result order: higher score first, and among equal scores
// the lower id, so that results never depend on scan or goroutine order.
func better(a, b Hit) bool {
	return a.Score > b.Score || (a.Score == b.Score && a.ID < b.ID)
}

// compareHits sorts best first, for slices.SortFunc.
func compareHits(a, b Hit) int {
	switch {
	case better(a, b):
		return -1
	case better(b, a):
		return 1
	}
	return 0
}

// topK keeps the k best hits seen in a min-heap whose root is the worst
// kept, typed so that pushing a hit neither boxes it into an interface
// (as container/heap would) nor allocates.
type topK struct {
	k int
	h []Hit
}

func newTopK(k int) topK { return topK{k: k, h: make([]Hit, 0, k)} }

// full reports whether k hits are held, so a score below worst().Score
// can be skipped without calling push.
func (t *topK) full() bool { return len(t.h) == t.k }

func (t *topK) worst() Hit { return t.h[0] }

// push offers a hit: kept while fewer than k are held, else kept in place
// of the worst when better than it.
func (t *topK) push(x Hit) {
	if len(t.h) < t.k {
		t.h = append(t.h, x)
		t.up(len(t.h) - 1)
		return
	}
	if !better(x, t.h[0]) {
		return
	}
	t.h[0] = x
	t.down(0)
}

func (t *topK) up(i int) {
	h := t.h
	for i > 0 {
		p := (i - 1) / 2
		if !better(h[p], h[i]) { // parent no better than child: heap holds
			break
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func (t *topK) down(i int) {
	h := t.h
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		w := l // the worse child
		if r := l + 1; r < n && better(h[l], h[r]) {
			w = r
		}
		if !better(h[i], h[w]) {
			return
		}
		h[i], h[w] = h[w], h[i]
		i = w
	}
}

// sorted returns the hits held, best first; the heap is spent.
func (t *topK) sorted() []Hit {
	slices.SortFunc(t.h, compareHits)
	return t.h
}
