package cite

import (
	"strconv"
	"strings"
)

// Renumberer rewrites an answer's citations as footnotes while it
// streams: a citation cut between two pieces is held back until its
// bracket closes, and numbers are given in the order ids first appear, so
// what it writes piece by piece is what Footnotes writes for the whole.
type Renumberer struct {
	given   map[string]Source
	numbers map[string]int
	notes   []Note
	pending string
}

// NewRenumberer starts a renumbering against the sources the answer was
// given.
func NewRenumberer(given []Source) *Renumberer {
	r := &Renumberer{given: make(map[string]Source, len(given)), numbers: map[string]int{}}
	for _, s := range given {
		r.given[s.ID] = s
	}
	return r
}

// Write takes the next piece of the answer and returns what can be shown
// of it now.
func (r *Renumberer) Write(piece string) string {
	text := r.pending + piece
	r.pending = ""
	// Hold back an open bracket that may still become a citation.
	if i := strings.LastIndexByte(text, '['); i >= 0 && !strings.Contains(text[i:], "]") && len(text)-i <= 4*maxIDBytes {
		text, r.pending = text[:i], text[i:]
	}
	return r.rewrite(text)
}

// Flush returns what Write held back, at the end of the answer.
func (r *Renumberer) Flush() string {
	text := r.pending
	r.pending = ""
	return r.rewrite(text)
}

// Notes are the footnotes so far, by number.
func (r *Renumberer) Notes() []Note { return append([]Note(nil), r.notes...) }

func (r *Renumberer) rewrite(text string) string {
	var b strings.Builder
	for _, sp := range scan(text) {
		if sp.ids == nil {
			b.WriteString(sp.text)
			continue
		}
		b.WriteByte('[')
		for i, id := range sp.ids {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Itoa(r.number(id)))
		}
		b.WriteByte(']')
	}
	return b.String()
}

func (r *Renumberer) number(id string) int {
	if n, ok := r.numbers[id]; ok {
		return n
	}
	n := len(r.notes) + 1
	r.numbers[id] = n
	src, known := r.given[id]
	if !known {
		src = Source{ID: id}
	}
	r.notes = append(r.notes, Note{N: n, ID: id, Source: src, Known: known})
	return n
}
