package prompt

import (
	"sync"

	"github.com/docent-sh/docent/tokens"
)

// CountCache remembers token counts across builds. Counting is most of a
// build's cost, and in a session most of the text repeats from turn to
// turn: the glossary always, the history from one turn to the next, and the
// chunks of a small knowledge base. It is safe for concurrent use.
type CountCache struct {
	mu     sync.Mutex
	limit  int
	counts map[countKey]int
}

type countKey struct{ encoding, text string }

// NewCountCache returns a cache holding at most limit counts (at least 1).
// Each entry keeps its text alive, so size it for a session's worth of
// chunks and messages, not a whole corpus.
func NewCountCache(limit int) *CountCache {
	return &CountCache{limit: max(1, limit), counts: make(map[countKey]int)}
}

// Count returns the tokens of text for counter's encoding, counting only
// on a miss. A nil cache counts every time.
func (c *CountCache) Count(counter *tokens.Counter, text string) int {
	if c == nil {
		return counter.Count(text)
	}
	key := countKey{counter.Name(), text}
	c.mu.Lock()
	n, ok := c.counts[key]
	c.mu.Unlock()
	if ok {
		return n
	}
	n = counter.Count(text)
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.counts) >= c.limit {
		// Evict an arbitrary entry: map order is random, which is as good
		// as LRU for text that mostly either repeats every turn or never.
		for k := range c.counts {
			delete(c.counts, k)
			break
		}
	}
	c.counts[key] = n
	return n
}

// Len is the number of counts held.
func (c *CountCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.counts)
}
