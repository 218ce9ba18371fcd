package retrieval

import (
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/docent-sh/docent/retrieval/analysis"
)

// normalizedQuery is a question reduced to index terms, with a record of
// every rewrite so the evidence can explain itself.
type normalizedQuery struct {
	terms        []string // unique, in query order
	keys         []string // the terms' stem keys, unique, in query order
	intent       uint64   // keys (bit i: keys[i]) of intent words, which weigh nothing (see intentWords)
	rare         uint64   // keys of strings no common word is, not written as names (see normalizer.rare)
	synonyms     []Rewrite
	typos        []Rewrite
	stemmed      []Rewrite
	definitional bool     // "what is X" and friends, without an action word
	firstPerson  bool     // the asker speaks for themself: "I", "my" (see analysis.IsFirstPerson)
	identifiers  []string // compound identifiers the question writes (see analysis.AppendIdentifiers)
	calls        []string // the methods it calls, ".name(" (see analysis.AppendCalls)
	classes      []string // the qualified class names it writes (see analysis.AppendClasses)
	// owned holds each compound the question writes after a possessive,
	// as the stem keys of its two words: "my gmail password" is
	// {"~gmail", "~password"} (see Engine.othersThing).
	owned [][2]string
	// names holds the keys (bit i: keys[i]) of the words it writes in
	// camel case ("InsecureRequestWarning"): a program's, a product's or
	// an error's own name, which a page names by writing it, in a heading
	// or not (see analysis.WritesName).
	names uint64
	dated bool // the question writes a version or a date, or asks about a release: a release log may answer it (see releaseLog)
	// What the turn asked beyond its words, set by the engine after
	// normalizing: allow holds by doc number the docs in the turn's
	// scope (nil: every doc), alpha the hybrid ranking's weight.
	allow []bool
	alpha float64
}

// informative is how many of the question's keys are informative: all
// but its intent words.
func (q normalizedQuery) informative() int {
	return len(q.keys) - bits.OnesCount64(q.intent)
}

// normalizer holds what normalization needs from the index: the known
// terms (which synonyms, stemming and typo fixes must respect), the
// vocabulary and the compiled synonyms.
type normalizer struct {
	an           *analysis.Analyzer
	knownPhrases map[string]bool // whole known terms, tokens joined by one space
	inVocabulary func(term string) bool
	// writesPhrase reports whether the docs write word a then word b.
	writesPhrase func(a, b string) bool
	synonyms     analysis.Synonyms
	typos        *analysis.TypoFixer
	// slips corrects a spelling slip to any word the docs write, once
	// neither a known term nor a function word claims it (see fixTerm).
	slips *analysis.TypoFixer
	// stemSlips corrects a slip in a word the docs write in another
	// form ("disconected" for "disconnections"): a slip of a stem key of
	// theirs, read as stemWords' word for that key.
	stemSlips *analysis.TypoFixer
	stemWords map[string]string
	// common reports whether a word is a common one, whatever the docs
	// write (see tokens.Counter.Whole): meant as typed, never dropped as
	// a slip of a function word ("world" is no "would"). nil: any word
	// may be such a slip.
	common func(word string) bool
}

// normalize runs the pipeline: lower-case and split, phrase synonyms,
// stopwords, word synonyms, plural stemming, typo fixes, de-duplication.
func (n *normalizer) normalize(text string) normalizedQuery {
	var q normalizedQuery
	words := analysis.Tokens(text)
	q.definitional = analysis.IsDefinitional(words)
	intent := intentWords
	if slices.ContainsFunc(splitAtWhat(words), analysis.AsksMeaning) {
		intent = meaningIntentWords
	}
	q.firstPerson = analysis.IsFirstPerson(words)
	q.identifiers = analysis.AppendIdentifiers(nil, text)
	q.calls = analysis.AppendCalls(nil, text)
	q.classes = analysis.AppendClasses(nil, text)
	q.dated = versionOrDate.MatchString(text) || asksRelease(words)
	words = n.askValue(words, &q)
	words = n.rewritePhrases(words, &q)
	words = n.rewriteToggles(words, &q)
	seen := map[string]bool{}
	// add adds a term once and reports whether it is one.
	add := func(t string) bool {
		// A fix or a stem may land on a function word ("anys" is "any"):
		// it weighs nothing, unless the docs make it a term of theirs.
		if t == "" || analysis.IsStopword(t) && !n.an.Known[t] {
			return false
		}
		if !seen[t] {
			seen[t] = true
			q.terms = append(q.terms, t)
		}
		return true
	}
	// wordTerm holds the term each word became, "" for none: what a
	// possessive's compound is made of, after typo fixes.
	wordTerm := make([]string, len(words))
	for i, w := range words {
		if analysis.IsStopword(w) || i > 0 && analysis.Pointer(words[i-1], w) {
			continue
		}
		// A prefix standing alone is the first half of a hyphenated word
		// ("co-maintainer", "re-run"): unless the docs write it as a word,
		// it names nothing, and as a word they never write it would
		// weigh the most.
		if slices.Contains(analysis.Prefixes, w) && !n.inVocabulary(w) {
			continue
		}
		for _, t := range n.rewriteWord(w, &q) {
			for _, part := range n.splitCompound(n.splitQuantity(t, &q), &q) {
				fixed := n.fixTerm(part, &q)
				if add(fixed) && wordTerm[i] == "" {
					wordTerm[i] = fixed
				}
			}
		}
	}
	for i := 1; i+1 < len(words); i++ {
		if analysis.IsPossessive(words[i-1]) && wordTerm[i] != "" && wordTerm[i+1] != "" {
			q.owned = append(q.owned, [2]string{analysis.StemKey(wordTerm[i]), analysis.StemKey(wordTerm[i+1])})
		}
	}
	// The question's capitalized words tell names from slips (see rare):
	// read only when it has a word the docs do not write.
	var capitalized []string
	if n.common != nil && slices.ContainsFunc(q.terms, func(t string) bool { return !n.inVocabulary(t) }) {
		capitalized = analysis.AppendCapitalized(nil, text)
	}
	for _, t := range q.terms {
		if k := analysis.StemKey(t); !slices.Contains(q.keys, k) {
			q.keys = append(q.keys, k)
			if intent[t] {
				q.intent |= 1 << (len(q.keys) - 1)
			}
			if n.rare(t, capitalized) {
				q.rare |= 1 << (len(q.keys) - 1)
			}
		}
	}
	for _, f := range strings.Fields(text) {
		if !analysis.WritesName(f) {
			continue
		}
		for _, w := range analysis.Tokens(f) {
			if i := slices.Index(q.keys, analysis.StemKey(analysis.Singular(w))); i >= 0 && i < 64 {
				q.names |= 1 << i
			}
		}
	}
	return q
}

// asksRelease reports whether words ask which release did something
// ("which release fixed the scheduler enqueuing jobs twice", "what
// release added dark mode", "when was the API released"), or ask the
// changelog: the release log's to answer, as a question writing a version
// or a date is. A release the question only mentions is a version of
// something it asks about ("warn readers browsing an outdated release of
// the docs"), not a question for the log.
func asksRelease(words []string) bool {
	for i, w := range words {
		switch {
		case w == "changelog" || w == "released":
			return true
		case (w == "release" || w == "releases") && i > 0 && (words[i-1] == "which" || words[i-1] == "what"):
			return true
		}
	}
	return false
}

// intentWords ask for a definition ("the meaning of X", "definition of
// X") without being what the question is about. Unlike explain or define
// they are nouns a passage may use to define something, so they rank like
// any word, but the question's coverage and naming leave them out.
var intentWords = analysis.WordSet("meaning definition")

// meaningIntentWords are the intent words of a question asking what
// something means ("what does X mean", "what does X stand for"): there
// the verb asks for a definition, while "mean" elsewhere may well be the
// topic ("mean response time").
var meaningIntentWords = analysis.WordSet("meaning definition mean stand")

// splitAtWhat returns the tails of words that start at each "what".
func splitAtWhat(words []string) [][]string {
	var out [][]string
	for i, w := range words {
		if w == "what" {
			out = append(out, words[i:])
		}
	}
	return out
}

// rewritePhrases applies multi-word rules on the raw word sequence, longest
// rule first, never rewriting a phrase that is itself a known term.
func (n *normalizer) rewritePhrases(words []string, q *normalizedQuery) []string {
	for _, r := range n.synonyms.Phrases {
		if n.knownPhrases[strings.Join(r.From, " ")] {
			continue
		}
		for i := 0; i+len(r.From) <= len(words); i++ {
			if !slices.Equal(words[i:i+len(r.From)], r.From) {
				continue
			}
			out := make([]string, 0, len(words)-len(r.From)+len(r.To))
			out = append(out, words[:i]...)
			out = append(out, r.To...)
			out = append(out, words[i+len(r.From):]...)
			q.synonyms = append(q.synonyms, Rewrite{From: strings.Join(r.From, " "), To: strings.Join(r.To, " ")})
			words = out
			i += len(r.To) - 1
		}
	}
	return words
}

// askValue writes the value word of the kind of value a question asks
// for (see analysis.AskedValue) in place of the words that ask for it,
// or after its words when they all stay ("max attachment size": "max"
// and "size" are the docs' words too), if the docs give values of that
// kind. When they give none, the question keeps its words: a value word
// no unit carries would weigh as a word the docs never write, the most
// of any.
func (n *normalizer) askValue(words []string, q *normalizedQuery) []string {
	v, frame, phrase := analysis.AskedValue(words)
	if v == "" || !n.inVocabulary(v) {
		return words
	}
	label, _ := analysis.ValueLabel(v)
	q.synonyms = append(q.synonyms, Rewrite{From: phrase, To: label})
	if len(frame) == 0 {
		return append(slices.Clip(words), v)
	}
	out := slices.Clone(words)
	out[frame[0]] = v
	return slices.Delete(out, frame[0]+1, frame[len(frame)-1]+1)
}

// toggleVerbs are the forms of the verbs that switch a setting with "on"
// or "off" after them.
var toggleVerbs = analysis.WordSet("turn turns turned turning switch switches switched switching")

// toggles are what docs write for a setting switched "on" or "off".
var toggles = map[string]string{"on": "enable", "off": "disable"}

// rewriteToggles reads "turn on" and "switch off" as the words docs write,
// "enable" and "disable", when the docs write those and never the phrase
// as the question does: people turn settings on, docs enable them ("how do I turn on two-factor authentication":
// "enable two-factor authentication"). "On" is a function word, so
// "turn" alone would weigh as a word the page does not write.
func (n *normalizer) rewriteToggles(words []string, q *normalizedQuery) []string {
	for i := 0; i+1 < len(words); i++ {
		to, ok := toggles[words[i+1]]
		if !ok || !toggleVerbs[words[i]] || !n.inVocabulary(to) || n.writesPhrase != nil && n.writesPhrase(words[i], words[i+1]) {
			continue
		}
		q.synonyms = append(q.synonyms, Rewrite{From: words[i] + " " + words[i+1], To: to})
		words = slices.Delete(slices.Clone(words), i, i+1)
		words[i] = to
	}
	return words
}

// rewriteWord applies a single-word rule unless the word is a known term:
// with a "Dashboard" doc, "dashboard" must keep meaning that doc.
func (n *normalizer) rewriteWord(w string, q *normalizedQuery) []string {
	if n.an.Known[w] {
		return []string{w}
	}
	r, ok := n.synonyms.Words[w]
	if !ok {
		return []string{w}
	}
	q.synonyms = append(q.synonyms, Rewrite{From: w, To: strings.Join(r.To, " ")})
	out := make([]string, 0, len(r.To))
	for _, t := range r.To {
		if !analysis.IsStopword(t) {
			out = append(out, t)
		}
	}
	return out
}

// splitQuantity reads a number written against its unit as the two words
// the docs write ("5 GHz", "10 GB"), when the docs know the unit and not
// the joined word: people type them together, docs set them apart. The
// number itself weighs nothing unless the docs write it (see Weigh).
// A unit is two letters or more: "5g" is more often a name than 5 grams.
func (n *normalizer) splitQuantity(w string, q *normalizedQuery) []string {
	num, unit := analysis.SplitNumberUnit(w)
	if num == "" || len(unit) < 2 || n.inVocabulary(analysis.Singular(w)) || !n.inVocabulary(analysis.Singular(unit)) {
		return []string{w}
	}
	q.synonyms = append(q.synonyms, Rewrite{From: w, To: num + " " + unit})
	return []string{num, unit}
}

// rare reports whether term is a string no common word is (see
// index.Weigh): the docs do not write it, the common words do not hold
// it, and the question does not write it capitalized in a sentence, as
// names are ("Jira", "HIPAA").
func (n *normalizer) rare(term string, capitalized []string) bool {
	return n.common != nil && !n.inVocabulary(term) && !n.common(term) && !slices.Contains(capitalized, term)
}

// derived reports whether w is a word the docs write with an English
// prefix before it ("coworker", "prebuild", "unarchive"): a word of its
// own, not a slip of the word the prefix is dropped from, though it is
// two or three letters from it ("coworker" is no "worker" in a job
// queue's docs). Such a word is left as typed.
func (n *normalizer) derived(w string) bool {
	for _, p := range analysis.Prefixes {
		if rest, ok := strings.CutPrefix(w, p); ok && utf8.RuneCountInString(rest) >= minDerivedBase && n.inVocabulary(rest) {
			return true
		}
	}
	return false
}

// minDerivedBase is the shortest word derived finds a prefix on: shorter
// rests ("re" + "set", "de" + "lay") are too often the word's own letters.
const minDerivedBase = 4

// minSlipLen is the shortest word corrected as a slip of a word only the
// docs' text writes: shorter words are a swap or a doubled letter from
// too many others ("form" and "from").
const minSlipLen = 6

// fixTerm stems w and, when neither the result nor a variant of it is in
// the vocabulary, tries a typo fix against the known terms, then against
// the function words: "" for a slip of one.
func (n *normalizer) fixTerm(w string, q *normalizedQuery) string {
	stem := analysis.Singular(w)
	if n.inVocabulary(stem) {
		if stem != w {
			q.stemmed = append(q.stemmed, Rewrite{From: w, To: stem})
		}
		return stem
	}
	if n.typos != nil && !n.derived(stem) {
		for _, cand := range []string{w, stem} {
			if fixed, ok := n.typos.Fix(cand); ok {
				fixed = analysis.Singular(fixed)
				q.typos = append(q.typos, Rewrite{From: w, To: fixed})
				return fixed
			}
		}
	}
	// A slip of a function word ("wher", "shoud") is that word, and
	// weighs nothing: "" drops it. Only once no known term claims it: a
	// product's word is the likelier meant; and never a common word
	// ("world", "night"), which is meant as typed.
	if fixed, ok := analysis.StopwordTypo(w); ok && (n.common == nil || !n.common(w)) {
		q.typos = append(q.typos, Rewrite{From: w, To: fixed})
		return ""
	}
	if n.slips != nil && utf8.RuneCountInString(w) >= minSlipLen {
		if fixed, ok := n.slips.FixSlip(w); ok {
			fixed = analysis.Singular(fixed)
			q.typos = append(q.typos, Rewrite{From: w, To: fixed})
			return fixed
		}
		if key, ok := n.stemSlips.FixSlip(analysis.StemKey(w)); ok {
			fixed := n.stemWords[key]
			q.typos = append(q.typos, Rewrite{From: w, To: fixed})
			return fixed
		}
	}
	if stem != w {
		q.stemmed = append(q.stemmed, Rewrite{From: w, To: stem})
	}
	return stem
}

// splitCompound reads a word the docs never write as the two words they
// write side by side, when it is the two closed up ("stackoverflow" for
// "Stack Overflow", "timezone" for "time zone"): people close up
// compounds that docs leave open. The docs must write the two words as
// a phrase: a word they never write is often a word of its own whose
// halves mean something else ("weekend" is no "week end"). Each part has
// three letters or more and is no function word; of several splits, the
// one with the longest shorter part ("user|name", not "use|rname").
func (n *normalizer) splitCompound(words []string, q *normalizedQuery) []string {
	if len(words) != 1 || n.writesPhrase == nil {
		return words
	}
	w := words[0]
	if len(w) < 2*minCompoundPart || !isLowerLetters(w) || n.inVocabulary(w) || n.inVocabulary(analysis.Singular(w)) {
		return words
	}
	best, bestLen := -1, 0
	for i := minCompoundPart; i <= len(w)-minCompoundPart; i++ {
		a, b := w[:i], w[i:]
		if l := min(len(a), len(b)); l <= bestLen || analysis.IsStopword(a) || analysis.IsStopword(b) || !n.writesPhrase(a, b) {
			continue
		}
		best, bestLen = i, min(len(a), len(b))
	}
	if best < 0 {
		return words
	}
	q.synonyms = append(q.synonyms, Rewrite{From: w, To: w[:best] + " " + w[best:]})
	return []string{w[:best], w[best:]}
}

// minCompoundPart is the shortest part splitCompound reads: shorter
// parts ("a", "in", "up") make a split of almost any long word.
const minCompoundPart = 3

// isLowerLetters reports whether w is ASCII lower-case letters only.
func isLowerLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}
