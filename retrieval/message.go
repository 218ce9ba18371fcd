package retrieval

import (
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
	rest := msg
	for _, q := range analysis.Quotes(msg) {
		i := strings.Index(rest, q)
		if i < 0 {
			continue
		}
		add(rest[:i])
		p = append(p, hole)
		rest = rest[i+len(q):]
	}
	add(rest)
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
