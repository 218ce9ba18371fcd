package extractive

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/docent-sh/docent/prompt"
	"github.com/docent-sh/docent/retrieval/analysis"
	"github.com/docent-sh/docent/textsafe"
)

// An answer is 1–3 sentences, or a procedure of up to maxProcedureItems
// steps, each run from one block followed by the block's id. A block's id
// and title come from the prompt as written, so they are clipped before
// they are quoted.
const (
	maxAnswerSentences = 3
	maxProcedureItems  = 8
	maxCitedIDRunes    = 200
	maxTitleRunes      = 80
)

// NoCoverageAnswer is the extractive answer when the prompt holds no
// documentation at all.
const NoCoverageAnswer = "The documentation does not cover this question, so I cannot answer it from the docs."

// Answer writes the grounded answer to a prompt built by package prompt:
// its Docs are the evidence, in the engine's rank order (best first), its
// Question what is asked, and the replies in its History the answers
// already given, which a follow-up ("tell me more") goes on from. It reads
// the prompt's fields, never its rendered text, so what it quotes is what
// the builder chose, with no parsing in between.
func Answer(p prompt.Prompt) string {
	return answerTo(p.Docs, p.Question, replies(p))
}

// answerTo is Answer for the blocks, the question and the earlier answers,
// oldest first.
func answerTo(blocks []prompt.DocBlock, question string, earlier []string) string {
	var cited []prompt.DocBlock
	for _, b := range blocks {
		// The builder's blocks are clean already; any other caller's are
		// cleaned the same way, so no id, title or path brings a control
		// sequence into the answer, and an id of nothing else is none.
		b = prompt.DocBlock{ID: textsafe.Line(b.ID), Title: textsafe.Line(b.Title), Path: textsafe.Line(b.Path), Content: textsafe.String(b.Content)}
		// An id with a bracket would not read back as one citation.
		if strings.TrimSpace(b.ID) != "" && !strings.ContainsAny(b.ID, "[]") {
			cited = append(cited, b)
		}
	}
	if len(cited) == 0 {
		return NoCoverageAnswer
	}
	if analysis.IsFollowUp(question) && len(earlier) > 0 {
		return continueAnswer(cited, earlier)
	}
	return composeAnswer(parseIntent(question), cited)
}

// replies are the assistant's messages of the prompt's conversation,
// oldest first: the answers already given.
func replies(p prompt.Prompt) []string {
	var out []string
	for _, m := range p.Conversation() {
		if m.Role == "assistant" {
			out = append(out, m.Text)
		}
	}
	return out
}

// reply is the sentences an answer quotes, in the order it quotes them.
type reply struct {
	chosen []sentence
	left   int // the items of a procedure it stopped before
}

func composeAnswer(in intent, blocks []prompt.DocBlock) string {
	candidates := gather(blocks)
	if len(candidates) == 0 {
		b := blocks[0]
		return fmt.Sprintf("The closest documentation is %q [%s], but it has no explanatory text to quote.",
			textsafe.Clip(cmp.Or(b.Title, b.Path, b.ID), maxTitleRunes), textsafe.Clip(b.ID, maxCitedIDRunes))
	}
	var r reply
	if in.kind == askExplanation {
		// A plain definition says what X is best; without one, a section
		// headed X ("Rate limits > Limits") holds what X are, where a
		// sentence that merely mentions X ("rate limit information is in
		// the headers") does not.
		if !definedOutright(in, candidates) {
			r = namedSection(in, candidates)
		}
		if len(r.chosen) == 0 {
			r.chosen = explain(in, candidates)
		}
	}
	// "What is the shortcut to create a note" defines nothing in the docs
	// but names an action: its steps answer it.
	if len(r.chosen) == 0 && (in.kind == askHowTo || in.action != "") {
		r = howTo(in, candidates)
	}
	if len(r.chosen) == 0 {
		r = bestMatching(in, candidates)
	}
	return render(r, blocks)
}

// render writes the chosen sentences as prose, or as a numbered list when
// they are steps of one, with the id of their block after the last
// sentence of each run from that block: a citation per sentence would
// bury the answer.
func render(r reply, blocks []prompt.DocBlock) string {
	items := 0
	for i, s := range r.chosen {
		if s.item && (i == 0 || r.chosen[i-1].para != s.para || r.chosen[i-1].block != s.block) {
			items++
		}
	}
	asList := items >= 2
	var out strings.Builder
	for i, s := range r.chosen {
		step := asList && s.item
		newItem := step && (i == 0 || r.chosen[i-1].para != s.para || r.chosen[i-1].block != s.block)
		afterStep := i > 0 && asList && r.chosen[i-1].item
		switch {
		case newItem && i > 0 && !afterStep:
			out.WriteString("\n\n")
		case newItem && i > 0:
			out.WriteString("\n")
		case afterStep && !step:
			out.WriteString("\n\n")
		case i > 0:
			out.WriteString(" ")
		}
		switch {
		case newItem && s.number > 0:
			fmt.Fprintf(&out, "%d. ", s.number)
		case newItem:
			out.WriteString("- ")
		}
		if s.label != "" {
			out.WriteString(strings.TrimRight(s.label, ":") + ": ")
		}
		if s.trailing() && asList && i+1 < len(r.chosen) && r.chosen[i+1].item {
			out.WriteString(strings.TrimSpace(s.text)) // the list it opens follows
		} else {
			out.WriteString(finishSentence(s.text))
		}
		if i == len(r.chosen)-1 || r.chosen[i+1].block != s.block {
			out.WriteString(" [")
			out.WriteString(textsafe.Clip(blocks[s.block].ID, maxCitedIDRunes))
			out.WriteString("]")
		}
	}
	switch {
	case r.left == 1:
		out.WriteString("\n\n1 more step follows: ask \"tell me more\".")
	case r.left > 1:
		fmt.Fprintf(&out, "\n\n%d more steps follow: ask \"tell me more\".", r.left)
	}
	return out.String()
}

// termWeights weighs each question term by how rare it is among the
// candidate sentences: the word that picks out one sentence says more
// about which one answers than the word every sentence shares.
func termWeights(in intent, candidates []sentence) map[string]float64 {
	df := make(map[string]int, len(in.terms))
	for _, s := range candidates {
		for t := range in.terms {
			if s.has(t) {
				df[t]++
			}
		}
	}
	w := make(map[string]float64, len(in.terms))
	n := float64(len(candidates))
	for t := range in.terms {
		w[t] = math.Log(1 + n/float64(1+df[t]))
	}
	return w
}

// bestMatching answers any other question with the sentences that cover
// the most of its informative words, weighted by rarity, from at most two
// blocks; when the best is a step of a numbered procedure, with the whole
// procedure.
func bestMatching(in intent, candidates []sentence) reply {
	type scored struct {
		sentence
		matched float64 // weight of the distinct question terms in the sentence
		context float64 // weight of those only in its heading, title or path
	}
	score := func(s scored) float64 {
		v := 2*s.matched + s.context
		if s.trailing() {
			v -= 0.5
		}
		return v
	}
	weights := termWeights(in, candidates)
	terms := slices.Sorted(maps.Keys(in.terms))
	all := make([]scored, len(candidates))
	headings := map[sectionKey]map[string]bool{}
	for i, s := range candidates {
		sc := scored{sentence: s}
		key := sectionKey{s.block, s.heading}
		head, ok := headings[key]
		if !ok {
			head = map[string]bool{}
			for _, w := range normWords(s.context) {
				head[w] = true
			}
			headings[key] = head
		}
		// In a fixed order: float sums in map order would differ in the
		// last bit and break ties at random.
		for _, t := range terms {
			switch {
			case s.has(t):
				sc.matched += weights[t]
			case head[t]:
				sc.context += weights[t]
			}
		}
		all[i] = sc
	}
	ranked := slices.Clone(all)
	slices.SortStableFunc(ranked, func(a, b scored) int {
		return cmp.Or(cmp.Compare(score(b), score(a)), cmp.Compare(a.block, b.block), cmp.Compare(a.pos, b.pos))
	})
	best := ranked[0]
	var chosen []sentence
	if best.matched == 0 {
		// No sentence shares a word with the question (it was asked in other
		// words): retrieval still ranked the first block highest, and a
		// doc's opening sentences say what it is about.
		for _, s := range candidates {
			if s.block == 0 && len(chosen) < 2 {
				chosen = append(chosen, s)
			}
		}
		return reply{chosen: chosen}
	}
	if list := wholeList(candidates, best.sentence); best.number > 0 && answeredByList(in, list, best.sentence) {
		return takeSection(list, maxAnswerSentences)
	}
	if list := introducedList(candidates, best.sentence); len(list) > 0 {
		// "Things that need to be backed up:" is answered by its list.
		r := takeSection(list, maxAnswerSentences)
		r.chosen = append([]sentence{best.sentence}, r.chosen...)
		return r
	}
	chosen = append(chosen, best.sentence)
	blocksUsed := map[int]bool{best.block: true}
	for _, s := range ranked[1:] {
		if len(chosen) == maxAnswerSentences {
			break
		}
		// Keep the answer on one subject: more from the best block when
		// at least half as relevant, and at most one other block, only
		// when it is as relevant as the best.
		if s.matched == 0 || 2*score(s) < score(best) || nearDuplicate(s.sentence, chosen) {
			continue
		}
		// Another block must add a question word the answer lacks: the
		// same words in another doc are usually about something else ("the
		// character limit" of a post, and of a profile field's name).
		if !blocksUsed[s.block] && (len(blocksUsed) == 2 || score(s) < score(best) || !addsTerm(in, s.sentence, chosen)) {
			continue
		}
		blocksUsed[s.block] = true
		chosen = append(chosen, s.sentence)
	}
	// Read in document order, which is the order the sentences make sense in.
	slices.SortFunc(chosen, func(a, b sentence) int {
		return cmp.Or(cmp.Compare(a.block, b.block), cmp.Compare(a.pos, b.pos))
	})
	return reply{chosen: chosen}
}

// addsTerm reports whether s holds a question term none of chosen does.
func addsTerm(in intent, s sentence, chosen []sentence) bool {
	for t := range in.terms {
		if s.has(t) && !slices.ContainsFunc(chosen, func(c sentence) bool { return c.has(t) }) {
			return true
		}
	}
	return false
}

// finishSentence gives a sentence its final punctuation: list items and
// table-free fragments often have none.
func finishSentence(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, ":") {
		s = strings.TrimSuffix(s, ":")
	}
	last, _ := utf8.DecodeLastRuneInString(s)
	switch last {
	case '.', '!', '?', '…':
		return s
	}
	return s + "."
}
