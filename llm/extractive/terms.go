package extractive

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docent-sh/docent/retrieval/analysis"
)

// stopwords carry no topic: matching on them would pick sentences for
// sharing "the" or "how" with the question.
var stopwords = wordSet(`a an and are as at be been but by can could do does did for from
	had has have how i if in into is it its me my of on or our should so than that the their them
	then there these they this to was we what when where which who why will with would you your
	about after all also any because before between both each few more most much must no nor not
	only other own same some such too very just over under again further here once up down out off
	am were being having doing until while during through above below s t don use using used get`)

// articles may open a term or a sentence's subject without changing it.
var articles = wordSet(`a an the`)

// wordSet returns the set of the words of list.
func wordSet(list string) map[string]bool {
	set := make(map[string]bool)
	for _, w := range strings.Fields(list) {
		set[w] = true
	}
	return set
}

// wordsOf splits s into its lower-case words of letters and digits, as
// retrieval does, so the answer weighs the words retrieval matched.
func wordsOf(s string) []string { return analysis.Tokens(s) }

// normWords is wordsOf with every word normalized, one for one.
func normWords(s string) []string { return normalize(wordsOf(s)) }

// normalize replaces each of words by its normal form, in place.
func normalize(words []string) []string {
	for i, w := range words {
		words[i] = normWord(w)
	}
	return words
}

// normWord maps the forms of a word to one: an action's base form
// ("archived", "archiving" → "archive") or else the singular
// ("workspaces" → "workspace"), so a question matches the docs however
// either is phrased.
func normWord(w string) string {
	if base, ok := analysis.ActionBase(w); ok {
		return base
	}
	return analysis.Singular(w)
}

// termSet returns the distinct normalized informative words of s: the
// words retrieval weighs (its stopwords left out), less the few more that
// open a request without naming its topic ("use", "get").
//
// A question asking for a value ("how long are invitations valid for")
// has the value's word (see analysis.AskedValue) in place of the words
// that ask for it, as retrieval reads it: the sentence giving a duration
// answers it, and "long" is seldom that sentence's word.
func termSet(s string) map[string]bool {
	terms := make(map[string]bool)
	words := wordsOf(s)
	value, frame, _ := analysis.AskedValue(words)
	if value != "" {
		terms[value] = true
	}
	for i, w := range words {
		if analysis.IsStopword(w) || stopwords[w] || (utf8.RuneCountInString(w) < 2 && !unicode.IsDigit([]rune(w)[0])) || slices.Contains(frame, i) {
			continue
		}
		terms[normWord(w)] = true
	}
	return terms
}
