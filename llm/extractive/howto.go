package extractive

import "github.com/docent-sh/docent/retrieval/analysis"

// howTo answers a request for steps. The unit of a procedure is a section
// of a chunk: when a heading names the action (and the object asked about,
// or nothing else), the answer is that section from its first step, since
// steps only make sense in order. Otherwise it is the sentence that best
// carries the action and its object, with the rest of its paragraph or
// list item.
func howTo(in intent, candidates []sentence) reply {
	objects := make(map[string]bool, len(in.terms))
	for t := range in.terms {
		if t != in.action {
			objects[t] = true
		}
	}
	headings := map[sectionKey]headingMatch{}
	headingOf := func(s sentence) headingMatch {
		key := sectionKey{s.block, s.heading}
		h, ok := headings[key]
		if !ok {
			h = matchHeading(s.heading, in.action, objects)
			headings[key] = h
		}
		return h
	}
	score := func(s sentence) int {
		v := 0
		if in.action != "" && s.has(in.action) {
			v += 3
		}
		v += 2 * s.countDistinct(objects)
		h := headingOf(s)
		// Objects the heading names count once, for the sentences under
		// it that leave them out ("Select it and press F2").
		headOnly := 0
		for _, t := range h.objects {
			if !s.has(t) {
				headOnly++
			}
		}
		switch {
		case h.procedure:
			v += 4 + 2*headOnly
		case h.action:
			// "Restore a note" when a workspace was asked about.
			v++
		default:
			v += headOnly
			// Under another action's heading, a sentence that does not
			// itself do what was asked is that other procedure.
			if h.otherAction && (in.action == "" || !s.has(in.action)) {
				v -= 3
			}
		}
		if s.item || s.command {
			// A step outweighs a description that names the same words.
			v += 3
		}
		if listsActions(s.words) {
			// "How to open, create, rename, move … notes" lists the page's
			// procedures; it is none of them.
			v -= 4
		}
		if s.trailing() {
			v--
		}
		return v
	}
	best, bestScore := -1, 0
	for i, s := range candidates {
		if v := score(s); v > bestScore {
			best, bestScore = i, v
		}
	}
	if best < 0 {
		return reply{}
	}
	top := candidates[best]
	if in.action != "" && !top.has(in.action) && !headingOf(top).procedure {
		// Nothing mentions doing what was asked: better the question's
		// best matching sentences than unrelated steps.
		return reply{}
	}
	if headingOf(top).procedure {
		var section []sentence
		for _, s := range candidates {
			if s.block == top.block && s.heading == top.heading && !s.trailing() {
				section = append(section, s)
			}
		}
		return takeSection(section, maxAnswerSentences)
	}
	if list := wholeList(candidates, top); top.number > 0 && answeredByList(in, list, top) {
		// A step of the numbered procedure that answers: the procedure,
		// whole and in order.
		return takeSection(list, maxAnswerSentences)
	}
	var chosen []sentence
	chosen = append(chosen, top)
	for _, s := range candidates[best+1:] {
		if len(chosen) == maxAnswerSentences || s.block != top.block || s.para != top.para {
			break
		}
		chosen = append(chosen, s)
	}
	if len(chosen) > 1 {
		return reply{chosen: chosen}
	}
	// A lone sentence gets the next one that also does what was asked,
	// when it is at least half as good: the same procedure told elsewhere
	// often adds where or when.
	next, nextScore := -1, 0
	for i, s := range candidates {
		if i == best || s.text == top.text || s.trailing() || !s.has(in.action) || nearDuplicate(s, chosen) {
			continue
		}
		if v := score(s); v > nextScore && 2*v >= bestScore {
			next, nextScore = i, v
		}
	}
	if next >= 0 {
		chosen = append(chosen, candidates[next])
	}
	return reply{chosen: chosen}
}

// headingMatch is what a section heading says about a how-to question.
type headingMatch struct {
	action      bool     // it names the action asked about
	procedure   bool     // it names the action and the object asked about, or nothing else
	otherAction bool     // it names only another action: the procedure for that
	objects     []string // the objects asked about that it names
}

func matchHeading(heading, action string, objects map[string]bool) headingMatch {
	var h headingMatch
	other := false
	seen := map[string]bool{}
	for _, w := range normWords(heading) {
		switch {
		case action != "" && w == action:
			h.action = true
		case objects[w]:
			if !seen[w] {
				seen[w] = true
				h.objects = append(h.objects, w)
			}
		case analysis.IsActionWord(w):
			h.otherAction = true
		case !stopwords[w]:
			other = true
		}
	}
	h.procedure = h.action && (len(h.objects) > 0 || !other || len(objects) == 0)
	h.otherAction = h.otherAction && !h.action
	return h
}

// listsActions reports a sentence that enumerates three or more actions
// ("open, create, rename, move, delete and restore notes"): a summary of
// procedures or of a rule, not a step of one.
func listsActions(words []string) bool {
	run := 0
	for i, w := range words {
		switch {
		case analysis.IsActionWord(w):
			run++
			if run >= 3 {
				return true
			}
		case (w == "and" || w == "or") && run > 0 && i+1 < len(words) && analysis.IsActionWord(words[i+1]):
		default:
			run = 0
		}
	}
	return false
}
