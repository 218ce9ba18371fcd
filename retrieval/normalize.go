package retrieval

import (
	"slices"
	"strings"
)

// normalizedQuery is a question reduced to index terms, with a record of
// every rewrite so the evidence can explain itself.
type normalizedQuery struct {
	terms        []string // unique, in query order
	keys         []string // the terms' stem keys, unique, in query order
	intent       uint64   // keys (bit i: keys[i]) of intent words, which weigh nothing (see intentWords)
	synonyms     []Rewrite
	typos        []Rewrite
	stemmed      []Rewrite
	definitional bool // "what is X" and friends, without an action word
}

// normalizer holds what normalization needs from the index: the known
// terms (which synonyms, stemming and typo fixes must respect), the
// vocabulary and the compiled synonyms.
type normalizer struct {
	an           *analyzer
	knownPhrases map[string]bool // whole known terms, tokens joined by one space
	inVocabulary func(term string) bool
	synonyms     synonymTable
	typos        *typoFixer
}

// normalize runs the pipeline: lower-case and split, phrase synonyms,
// stopwords, word synonyms, plural stemming, typo fixes, de-duplication.
func (n *normalizer) normalize(text string) normalizedQuery {
	var q normalizedQuery
	words := tokenize(text)
	q.definitional = isDefinitional(words)
	words = n.rewritePhrases(words, &q)
	seen := map[string]bool{}
	add := func(t string) {
		if !seen[t] {
			seen[t] = true
			q.terms = append(q.terms, t)
		}
	}
	for i, w := range words {
		if isStopword(w) || i > 0 && pointer(words[i-1], w) {
			continue
		}
		for _, t := range n.rewriteWord(w, &q) {
			add(n.fixTerm(t, &q))
		}
	}
	for _, t := range q.terms {
		if k := stemKey(t); !slices.Contains(q.keys, k) {
			q.keys = append(q.keys, k)
			if intentWords[t] {
				q.intent |= 1 << (len(q.keys) - 1)
			}
		}
	}
	return q
}

// intentWords ask for a definition ("the meaning of X", "definition of
// X") without being what the question is about. Unlike explain or define
// they are nouns a passage may use to define something, so they rank like
// any word, but the question's coverage and naming leave them out.
var intentWords = toSet([]string{"meaning", "definition"})

// rewritePhrases applies multi-word rules on the raw word sequence, longest
// rule first, never rewriting a phrase that is itself a known term.
func (n *normalizer) rewritePhrases(words []string, q *normalizedQuery) []string {
	for _, r := range n.synonyms.phrases {
		if n.knownPhrases[strings.Join(r.from, " ")] {
			continue
		}
		for i := 0; i+len(r.from) <= len(words); i++ {
			if !slices.Equal(words[i:i+len(r.from)], r.from) {
				continue
			}
			out := make([]string, 0, len(words)-len(r.from)+len(r.to))
			out = append(out, words[:i]...)
			out = append(out, r.to...)
			out = append(out, words[i+len(r.from):]...)
			q.synonyms = append(q.synonyms, Rewrite{From: strings.Join(r.from, " "), To: strings.Join(r.to, " ")})
			words = out
			i += len(r.to) - 1
		}
	}
	return words
}

// rewriteWord applies a single-word rule unless the word is a known term:
// with a "Dashboard" doc, "dashboard" must keep meaning that doc.
func (n *normalizer) rewriteWord(w string, q *normalizedQuery) []string {
	if n.an.known[w] {
		return []string{w}
	}
	r, ok := n.synonyms.words[w]
	if !ok {
		return []string{w}
	}
	q.synonyms = append(q.synonyms, Rewrite{From: w, To: strings.Join(r.to, " ")})
	out := make([]string, 0, len(r.to))
	for _, t := range r.to {
		if !isStopword(t) {
			out = append(out, t)
		}
	}
	return out
}

// fixTerm stems w and, when neither the result nor a variant of it is in
// the vocabulary, tries a typo fix against the known terms.
func (n *normalizer) fixTerm(w string, q *normalizedQuery) string {
	stem := stemPlural(w)
	if n.inVocabulary(stem) {
		if stem != w {
			q.stemmed = append(q.stemmed, Rewrite{From: w, To: stem})
		}
		return stem
	}
	if n.typos != nil {
		for _, cand := range []string{w, stem} {
			if fixed, ok := n.typos.fix(cand); ok {
				fixed = stemPlural(fixed)
				q.typos = append(q.typos, Rewrite{From: w, To: fixed})
				return fixed
			}
		}
	}
	if stem != w {
		q.stemmed = append(q.stemmed, Rewrite{From: w, To: stem})
	}
	return stem
}

// actionWords mark a question about doing something; they cancel the
// definitional bias so "what are workspace actions" reaches the actions doc.
var actionWords = toSet(strings.Fields(`
create creates creating created
delete deletes deleting deleted
rename renames renaming renamed
list lists listing listed
open opens opening opened
move moves moving moved
add adds adding added
action actions
`))

// isDefinitional reports a request for a definition ("what is X", "what are
// X", "what's X", "explain X", "define X", "meaning of X", "definition of
// X", "tell me about X") that is not about an action.
func isDefinitional(words []string) bool {
	def := false
	for i, w := range words {
		switch w {
		case "explain", "define", "definition", "meaning", "whats":
			def = true
		case "what":
			if i+1 < len(words) && (words[i+1] == "is" || words[i+1] == "are") {
				def = true
			}
		case "tell":
			if i+2 < len(words) && words[i+1] == "me" && words[i+2] == "about" {
				def = true
			}
		}
	}
	if !def {
		return false
	}
	for _, w := range words {
		if actionWords[w] {
			return false
		}
	}
	return true
}

// followUpPhrases continue the last resource instead of starting a search.
var followUpPhrases = [][]string{{"tell", "me", "more"}, {"more"}, {"go", "on"}, {"continue"}}

// IsFollowUp reports whether text is only a request to continue the last
// answer ("tell me more"), for the writers that continue it.
func IsFollowUp(text string) bool { return isFollowUp(text) }

// isFollowUp reports whether text is only a request to continue.
func isFollowUp(text string) bool {
	words := tokenize(text)
	for _, p := range followUpPhrases {
		if slices.Equal(words, p) {
			return true
		}
	}
	return false
}

// splitIntents splits a question at "and", "+", "&" and commas. It returns
// nil when there is nothing to split.
func splitIntents(text string) []string {
	var parts []string
	var cur strings.Builder
	flush := func() {
		if s := strings.TrimSpace(cur.String()); s != "" {
			parts = append(parts, s)
		}
		cur.Reset()
	}
	for _, field := range strings.Fields(text) {
		pieces := strings.FieldsFunc(field, func(r rune) bool { return r == '+' || r == '&' || r == ',' })
		lead := len(field) > 0 && strings.ContainsRune("+&,", rune(field[0]))
		trail := len(field) > 0 && strings.ContainsRune("+&,", rune(field[len(field)-1]))
		if strings.EqualFold(field, "and") {
			// "between A and B", "both A and B" join two things in one
			// question: the difference between limiting and suspending
			// is one intent.
			if words := tokenize(cur.String()); !slices.ContainsFunc(words, func(w string) bool { return w == "between" || w == "both" }) {
				flush()
				continue
			}
		}
		if lead {
			flush()
		}
		for i, p := range pieces {
			if i > 0 {
				flush()
			}
			cur.WriteString(p)
			cur.WriteByte(' ')
		}
		if trail {
			flush()
		}
	}
	flush()
	if len(parts) < 2 {
		return nil
	}
	return parts
}
