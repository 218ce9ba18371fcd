package extractive

import (
	"regexp"
	"slices"
	"strings"

	sentences "github.com/docent-sh/docent/internal/sentence"
	"github.com/docent-sh/docent/prompt"
)

// definedOutright reports whether some sentence says plainly what the
// subject asked about is ("A workspace is …").
func definedOutright(in intent, candidates []sentence) bool {
	names := subjectNames(in.subject)
	for _, s := range candidates {
		for _, name := range names {
			if definitionStrength(s, name) == definesOutright {
				return true
			}
		}
	}
	return false
}

// subjectNames are the ways a doc names the subject: "the Recent widget"
// is also just "Recent".
func subjectNames(subject []string) [][]string {
	names := [][]string{subject}
	if n := len(subject); n > 1 && kindNouns[subject[n-1]] {
		names = append(names, subject[:n-1])
	}
	return names
}

// namedSection answers "what are X" from the section of the top doc whose
// own heading (below the doc's title) names X's head word while the
// headings and title around it name the rest: under "Rate limits >
// Limits" the doc lists the limits, under "Rate limits > Headers" it
// describes headers. The section is quoted from its start.
func namedSection(in intent, candidates []sentence) reply {
	if len(in.subject) == 0 {
		return reply{}
	}
	head := in.subject[len(in.subject)-1]
	block := -1
	var section []sentence
	for _, s := range candidates {
		if s.doc != 0 || s.trailing() || (block >= 0 && s.block != block) {
			continue
		}
		if !slices.Contains(normWords(s.section), head) {
			continue
		}
		around := normWords(s.section + " " + s.context)
		if !containsAll(around, in.subject) {
			continue
		}
		// Under a sub-heading of the section ("Limits > Per IP") the
		// sentence needs it: the same limit may be told per account and
		// per IP.
		if !slices.Contains(normWords(s.heading), head) && (len(section) == 0 || section[len(section)-1].heading != s.heading) {
			s.label = s.heading
		}
		block = s.block
		section = append(section, s)
	}
	if len(section) == 0 {
		return reply{}
	}
	return takeSection(section, maxSectionSentences)
}

// maxSectionSentences is how much prose of a named section an answer
// quotes: a section lists more than a sentence answers.
const maxSectionSentences = 5

func containsAll(words, want []string) bool {
	for _, w := range want {
		if !slices.Contains(words, w) {
			return false
		}
	}
	return true
}

// takeSection quotes sentences in order: the steps of a procedure whole,
// up to maxProcedureItems items, and up to maxProse sentences of prose. It
// stops at the first sentence over its limit and counts the items left.
func takeSection(section []sentence, maxProse int) reply {
	var r reply
	items, prose := 0, 0
	cut := false
	for i, s := range section {
		newItem := s.item && (i == 0 || !section[i-1].item || section[i-1].para != s.para || section[i-1].block != s.block)
		if cut {
			if newItem {
				r.left++
			}
			continue
		}
		switch {
		case newItem && items == maxProcedureItems:
			cut = true
			r.left++
			continue
		case newItem:
			items++
		case !s.item:
			if nearDuplicate(s, r.chosen) {
				continue
			}
			if prose == maxProse {
				return r
			}
			prose++
		}
		r.chosen = append(r.chosen, s)
	}
	return r
}

// wholeList is the numbered list that s is a step of: the items around it
// in its block, one paragraph after another.
func wholeList(candidates []sentence, s sentence) []sentence {
	at := slices.IndexFunc(candidates, func(c sentence) bool { return c.block == s.block && c.pos == s.pos })
	if at < 0 {
		return []sentence{s}
	}
	inList := func(i, j int) bool {
		a, b := candidates[i], candidates[j]
		return a.block == b.block && a.number > 0 && b.number > 0 && a.heading == b.heading && b.para-a.para <= 1
	}
	from, to := at, at
	for from > 0 && inList(from-1, from) {
		from--
	}
	for to+1 < len(candidates) && inList(to, to+1) {
		to++
	}
	return slices.Clone(candidates[from : to+1])
}

// introducedList is the list a sentence opens ("… in order of
// importance:"): the items right after it in its block.
func introducedList(candidates []sentence, s sentence) []sentence {
	if !s.trailing() || s.item {
		return nil
	}
	at := slices.IndexFunc(candidates, func(c sentence) bool { return c.block == s.block && c.pos == s.pos })
	if at < 0 || at+1 == len(candidates) {
		return nil
	}
	first := candidates[at+1]
	if first.block != s.block || !first.item || first.para != s.para+1 {
		return nil
	}
	var list []sentence
	for _, c := range candidates[at+1:] {
		if c.block != s.block || !c.item || (len(list) > 0 && c.para-list[len(list)-1].para > 1) {
			break
		}
		list = append(list, c)
	}
	return list
}

// answeredByList reports whether the numbered list around the step s
// answers the question better than the step's own item: its steps
// together hold question words that the item alone does not ("how do I
// move my account to another server": one step makes the account on the
// other server, another moves it). A question one step answers whole
// ("export the people I follow") gets that step.
func answeredByList(in intent, list []sentence, s sentence) bool {
	for t := range in.terms {
		inList := slices.ContainsFunc(list, func(x sentence) bool { return x.has(t) })
		inItem := slices.ContainsFunc(list, func(x sentence) bool { return x.para == s.para && x.has(t) })
		if inList && !inItem {
			return true
		}
	}
	return false
}

// nearDuplicate reports whether s says what one of chosen already says:
// nearly all the informative words of the shorter are in the longer ("To
// create a note, press Ctrl+N" and "Press Ctrl+N to create a note").
func nearDuplicate(s sentence, chosen []sentence) bool {
	a := informative(s)
	for _, c := range chosen {
		if s.label != "" && c.label != "" && s.label != c.label {
			continue // the same limit per account and per IP says two things
		}
		b := informative(c)
		small, large := a, b
		if len(b) < len(a) {
			small, large = b, a
		}
		if len(small) < 2 {
			continue
		}
		shared := 0
		for w := range small {
			if large[w] {
				shared++
			}
		}
		if 5*shared >= 4*len(small) {
			return true
		}
	}
	return false
}

// informative is the set of a sentence's normalized words that carry a
// topic.
func informative(s sentence) map[string]bool {
	set := make(map[string]bool, len(s.words))
	for i, w := range s.words {
		if !stopwords[s.raw[i]] {
			set[w] = true
		}
	}
	return set
}

// NothingMoreAnswer is the answer to "tell me more" once the evidence has
// all been told.
const NothingMoreAnswer = "That is all the documentation given says about this."

// continueAnswer answers "tell me more": it goes on after the last
// sentence the conversation already quoted, within its chunk first and
// then into the next, and quotes the rest of a procedure whole, so every
// step can be reached.
func continueAnswer(blocks []prompt.DocBlock, earlier []string) string {
	said := saidSentences(earlier)
	order := gather(blocks)
	inReadingOrder(order)
	last := -1
	for i, s := range order {
		if said[sentenceKey(s.words)] {
			last = i
		}
	}
	var rest []sentence
	for _, s := range order[last+1:] {
		if !said[sentenceKey(s.words)] && !s.trailing() {
			rest = append(rest, s)
		}
	}
	if len(rest) == 0 {
		return NothingMoreAnswer
	}
	// One kind at a time: prose up to the list after it, or the list.
	for i := 1; i < len(rest); i++ {
		if rest[i].item != rest[0].item {
			rest = rest[:i]
			break
		}
	}
	r := takeSection(rest, maxAnswerSentences)
	if len(r.chosen) == 0 {
		r.chosen = rest[:1]
	}
	return render(r, blocks)
}

// quotedID matches a citation or a footnote in an earlier answer.
var quotedID = regexp.MustCompile(`\[[^\[\]\n]*\]`)

// saidSentences are the sentences of earlier answers, by sentenceKey.
func saidSentences(earlier []string) map[string]bool {
	said := map[string]bool{}
	for _, a := range earlier {
		for _, line := range strings.Split(quotedID.ReplaceAllString(a, " "), "\n") {
			line = listMarker.ReplaceAllString(strings.TrimSpace(line), "")
			for _, s := range sentences.Split(line) {
				if words := normWords(s); len(words) > 0 {
					said[sentenceKey(words)] = true
				}
				// A sentence may have been quoted under its heading.
				if _, rest, ok := strings.Cut(s, ": "); ok {
					said[sentenceKey(normWords(rest))] = true
				}
			}
		}
	}
	return said
}

func sentenceKey(words []string) string { return strings.Join(words, " ") }
