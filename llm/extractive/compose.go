package extractive

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	promptctx "github.com/docent-sh/docent/context"
	"github.com/docent-sh/docent/textsafe"
)

// An answer is 1–3 sentences, each followed by the id of its block. A
// block's id and title come from the prompt as written, so they are
// clipped before they are quoted.
const (
	maxAnswerSentences = 3
	maxCitedIDRunes    = 200
	maxTitleRunes      = 80
)

// NoCoverageAnswer is the extractive answer when the prompt holds no
// documentation at all.
const NoCoverageAnswer = "The documentation does not cover this question, so I cannot answer it from the docs."

// Answer writes the grounded answer to a user message built by
// promptctx: the <doc> blocks are the evidence, in the engine's rank order
// (best first), and promptctx.ParseQuestion gives the question.
func Answer(userText string) string {
	var cited []promptctx.DocBlock
	for _, b := range promptctx.ParseDocBlocks(userText) {
		// An id with a bracket would not read back as one citation.
		if strings.TrimSpace(b.ID) != "" && !strings.ContainsAny(b.ID, "[]") {
			cited = append(cited, b)
		}
	}
	if len(cited) == 0 {
		return NoCoverageAnswer
	}
	return composeAnswer(parseIntent(promptctx.ParseQuestion(userText)), cited)
}

func composeAnswer(in intent, blocks []promptctx.DocBlock) string {
	candidates := gather(blocks)
	if len(candidates) == 0 {
		b := blocks[0]
		return fmt.Sprintf("The closest documentation is %q [%s], but it has no explanatory text to quote.",
			textsafe.Clip(cmp.Or(b.Title, b.Path, b.ID), maxTitleRunes), textsafe.Clip(b.ID, maxCitedIDRunes))
	}
	var chosen []sentence
	if in.kind == askExplanation {
		chosen = explain(in, candidates)
	}
	// "What is the shortcut to create a note" defines nothing in the docs
	// but names an action: its steps answer it.
	if len(chosen) == 0 && (in.kind == askHowTo || in.action != "") {
		chosen = howTo(in, candidates)
	}
	if len(chosen) == 0 {
		chosen = bestMatching(in, candidates)
	}
	return render(chosen, blocks)
}

func render(chosen []sentence, blocks []promptctx.DocBlock) string {
	var out strings.Builder
	for i, s := range chosen {
		if i > 0 {
			out.WriteString(" ")
		}
		out.WriteString(finishSentence(s.text))
		out.WriteString(" [")
		out.WriteString(textsafe.Clip(blocks[s.block].ID, maxCitedIDRunes))
		out.WriteString("]")
	}
	return out.String()
}

// bestMatching answers any other question with the sentences that share
// the most words with it, from at most two blocks.
func bestMatching(in intent, candidates []sentence) []sentence {
	type scored struct {
		sentence
		matched int // distinct question terms in the sentence
		context int // distinct question terms only in its heading, title or path
	}
	score := func(s scored) int {
		v := 2*s.matched + s.context
		if s.trailing() {
			v--
		}
		return v
	}
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
		sc.matched = s.countDistinct(in.terms)
		for t := range head {
			if in.terms[t] && !s.has(t) {
				sc.context++
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
		return chosen
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
		if s.matched == 0 || 2*score(s) < score(best) {
			continue
		}
		if !blocksUsed[s.block] && (len(blocksUsed) == 2 || score(s) < score(best)) {
			continue
		}
		blocksUsed[s.block] = true
		chosen = append(chosen, s.sentence)
	}
	// Read in document order, which is the order the sentences make sense in.
	slices.SortFunc(chosen, func(a, b sentence) int {
		return cmp.Or(cmp.Compare(a.block, b.block), cmp.Compare(a.pos, b.pos))
	})
	return chosen
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
