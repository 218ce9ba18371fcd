package index

import (
	"strings"

	"github.com/docent-sh/docent/retrieval/analysis"
)

// termTable numbers the index terms while an index is built and memoizes
// the word → term mapping: a corpus repeats a small vocabulary millions of
// times, and integers are cheaper to count than strings. Not safe for
// concurrent use; queries do not use it.
type termTable struct {
	an    *analysis.Analyzer
	words map[string]int32 // word → term id, -1 for a stopword
	ids   map[string]int32 // term → id
	names []string         // id → term
	buf   []string
}

func newTermTable(an *analysis.Analyzer) *termTable {
	return &termTable{an: an, words: map[string]int32{}, ids: map[string]int32{}}
}

// appendIDs appends the term ids of text to dst. The text's words stay
// in c.buf until the next call.
func (c *termTable) appendIDs(dst []int32, text string) []int32 {
	c.buf = analysis.AppendTokens(c.buf[:0], text)
	return c.appendWordIDs(dst, c.buf)
}

// appendWordIDs appends the term ids of words, a text's in order, to dst.
func (c *termTable) appendWordIDs(dst []int32, words []string) []int32 {
	for i, w := range words {
		if i > 0 && analysis.Pointer(words[i-1], w) {
			continue
		}
		id, ok := c.words[w]
		if !ok {
			// Clone: w points into the lower-cased text, which the
			// index must not keep alive.
			w = strings.Clone(w)
			id = -1
			if t := c.an.Term(w); t != "" {
				id, ok = c.ids[t]
				if !ok {
					t = strings.Clone(t)
					id = int32(len(c.names))
					c.ids[t] = id
					c.names = append(c.names, t)
				}
			}
			c.words[w] = id
		}
		if id >= 0 {
			dst = append(dst, id)
		}
	}
	return dst
}
