package retrieval

import (
	"slices"
	"strings"

	"github.com/docent-sh/docent/retrieval/analysis"
)

// hole stands in a wordPattern for one of the asker's values.
const hole = ""

// maxHoleWords is how many words one value may take where a doc writes its
// own in the place of the asker's: a host ("10.2.3.44" is four words), a
// table ("public.orders" two), a quoted name. Part of the definition, not
// a knob: values longer than that are sentences, no values.
const maxHoleWords = 6

// wordPattern is a quoted text's words, as analysis.Tokens splits them,
// with holes (hole) where a pasted message carries the asker's values.
type wordPattern []string

// quotePattern is a quote's words: a quote is written as it is.
func quotePattern(quote string) wordPattern { return analysis.Tokens(quote) }

// messagePattern is a pasted message's words with a hole for each value
// in it: a quoted span and a number. The doc that explains the message
// prints it with values of its own: "database "prod" must be vacuumed
// within 9831207 transactions" is written there as "database "mydb" must
// be vacuumed within 39985967 transactions". Holes at its start are
// dropped: the pattern starts at its first word.
func messagePattern(msg string) wordPattern {
	var p wordPattern
	add := func(s string) {
		for _, w := range analysis.Tokens(s) {
			if isNumber(w) {
				w = hole
			}
			p = append(p, w)
		}
	}
	from := 0
	for _, at := range analysis.QuoteSpans(msg) {
		add(msg[from:at[0]])
		p = append(p, hole)
		from = at[1]
	}
	add(msg[from:])
	for len(p) > 0 && p[0] == hole {
		p = p[1:]
	}
	return p
}

func isNumber(w string) bool {
	return w != "" && strings.Trim(w, "0123456789") == ""
}

// words counts the pattern's words, its holes left out.
func (p wordPattern) words() int {
	n := 0
	for _, w := range p {
		if w != hole {
			n++
		}
	}
	return n
}

// upTo is the pattern up to its nth word, with the holes before it.
func (p wordPattern) upTo(n int) wordPattern {
	for i, w := range p {
		if w == hole {
			continue
		}
		if n--; n == 0 {
			return p[:i+1]
		}
	}
	return p
}

// writtenIn reports whether content writes the pattern's words in a row,
// whatever its punctuation and case, each hole taking one to
// maxHoleWords words.
func (p wordPattern) writtenIn(content string) bool {
	if len(p) == 0 {
		return false
	}
	have := analysis.Tokens(content)
	for i := range have {
		if p.matchAt(have[i:]) {
			return true
		}
	}
	return false
}

func (p wordPattern) matchAt(have []string) bool {
	if len(p) == 0 {
		return true
	}
	if p[0] != hole {
		return len(have) > 0 && have[0] == p[0] && p[1:].matchAt(have[1:])
	}
	for n := 1; n <= maxHoleWords && n <= len(have); n++ {
		if p[1:].matchAt(have[n:]) {
			return true
		}
	}
	return false
}

// maxWriterUnits is how many units holding a message's two rarest words
// messageWriter reads at most: a message is printed by few pages, and a
// pair of words that many units hold is too common to find it by.
const maxWriterUnits = 64

// messageWriter returns the doc of a unit the turn allows (allow nil:
// any) that writes the pattern, -1 when none does. The page that prints a
// pasted message may rank far down for the message's words, below every
// page about the things it names and those the asker's values match
// ("no pg_hba.conf entry for host …": the page on pg_hba.conf, on
// encryption, on the hba view, then Client Authentication Problems,
// ninth). It is found by the words it writes: the units holding the
// message's two rarest words, read in doc order.
func (e *Engine) messageWriter(p wordPattern, allow []bool) int {
	ix := e.vocabularyIndex()
	if ix == nil {
		return -1
	}
	var terms []string
	for _, w := range p {
		if w == hole {
			continue
		}
		t := e.norm.an.Term(w)
		if t == "" || slices.Contains(terms, t) {
			continue
		}
		if ix.DF(t) == 0 {
			return -1 // no unit writes this word: none writes the message
		}
		terms = append(terms, t)
	}
	if len(terms) == 0 {
		return -1
	}
	slices.SortStableFunc(terms, func(a, b string) int { return ix.DF(a) - ix.DF(b) })
	second := ""
	if len(terms) > 1 {
		second = terms[1]
	}
	// The first writer outside a release log: release notes quote the
	// messages a release fixed, the page that explains one is elsewhere.
	found, logged, read := -1, -1, 0
	ix.UnitsWithBoth(terms[0], second, func(unit int32) bool {
		u := ix.Units[unit]
		if allow != nil && !allow[u.Doc] {
			return true
		}
		d := e.docs[u.Doc].doc
		content := d.Content
		if u.Chunk >= 0 {
			content = d.Chunks[u.Chunk].Content
		}
		if p.writtenIn(content) {
			if ix.damp == nil || ix.damp[unit] == 1 {
				found = int(u.Doc)
				return false
			}
			if logged < 0 {
				logged = int(u.Doc)
			}
		}
		read++
		return read < maxWriterUnits
	})
	if found < 0 {
		found = logged
	}
	return found
}
