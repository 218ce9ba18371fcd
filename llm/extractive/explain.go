package extractive

import (
	"cmp"
	"slices"
)

// Definition strength of a sentence for the term asked about.
const (
	notDefining     = 0
	describes       = 1 // "Workspaces divide an entry …", "X is not …"
	definesOutright = 2 // "A workspace is …", "The Quick Links widget holds …"
)

// maxAsClauseWords is the longest "as …" clause read between a subject
// and its copula.
const maxAsClauseWords = 6

// copulas say what the subject is.
var copulas = map[string]bool{
	"is": true, "are": true, "means": true, "mean": true, "refers": true, "refer": true, "stands": true,
}

// descriptiveVerbs, after a sentence's subject, describe what the subject
// is or does. The list is closed rather than guessed from word endings:
// "Workspace settings" must not read as "Workspace" doing "settings".
var descriptiveVerbs = wordSet(`holds hold lists list shows show lets let keeps keep tracks track gives give
	contains contain divides divide groups group collects collect displays display stores store organizes
	organize mirrors mirror provides provide gathers gather belongs belong helps help saves save offers offer
	represents represent reopens reopen opens open appears appear sits sit lives live becomes become works
	work follows follow takes take brings bring puts put turns turn has have includes include consists consist
	covers cover points point records record surfaces surface inherit inherits files file describes describe
	sorts sort combines combine connects connect`)

// kindNouns name the kind of thing a UI term is: "The Recent widget lists …".
var kindNouns = map[string]bool{
	"widget": true, "panel": true, "page": true, "tab": true, "feature": true, "view": true, "menu": true,
	"dialog": true, "button": true, "bar": true, "tray": true, "section": true, "tool": true, "box": true,
}

// hedges may sit between a subject and its verb without changing what the
// sentence does: "Home simply is …", "Continue always shows …".
var hedges = map[string]bool{
	"simply": true, "also": true, "just": true, "basically": true, "essentially": true, "really": true, "always": true,
}

// modals open a description of what the subject can do.
var modals = map[string]bool{"can": true, "may": true, "will": true, "lets": true}

// definitionStrength reports whether s opens with subject (after an
// article) and how plainly it then says what subject is. The subject is
// compared normalized, so "Workspaces" is "workspace"; the verb is read as
// written, so "lists" is not taken for the noun "list".
func definitionStrength(s sentence, subject []string) int {
	if len(subject) == 0 || s.trailing() {
		return notDefining
	}
	raw := s.raw
	i := 0
	if len(raw) > 0 && articles[raw[0]] {
		i = 1
	}
	if i+len(subject) >= len(raw) || !slices.Equal(s.words[i:i+len(subject)], subject) {
		return notDefining
	}
	j := i + len(subject)
	kindForm := false
	if kindNouns[s.words[j]] && !kindNouns[subject[len(subject)-1]] && j+1 < len(raw) {
		kindForm = true
		j++
	}
	if hedges[raw[j]] && j+1 < len(raw) {
		j++
	}
	// "WebFinger as described in RFC 7033 is a spec …": a short "as"
	// clause may stand between the subject and what it is.
	if raw[j] == "as" {
		for k := j + 1; k < len(raw)-1 && k <= j+maxAsClauseWords; k++ {
			if copulas[raw[k]] && articles[raw[k+1]] {
				return definesOutright
			}
		}
	}
	verb := raw[j]
	negated := j+1 < len(raw) && (raw[j+1] == "not" || raw[j+1] == "never")
	switch {
	case copulas[verb] && !negated:
		return definesOutright
	case kindForm && (copulas[verb] || descriptiveVerbs[verb] || modals[verb]):
		return definesOutright
	case copulas[verb], descriptiveVerbs[verb], modals[verb]:
		return describes
	}
	return notDefining
}

// explain answers "what is X": the sentence that defines X, preferring a
// plain definition, then the top-ranked doc, then the doc's lead, followed
// by one or two sentences about X from the same doc.
func explain(in intent, candidates []sentence) []sentence {
	names := subjectNames(in.subject)
	strength := make([]int, len(candidates))
	best := -1
	for i, s := range candidates {
		for _, name := range names {
			strength[i] = max(strength[i], definitionStrength(s, name))
		}
		if strength[i] == notDefining {
			continue
		}
		if best < 0 || betterDefinition(s, strength[i], candidates[best], strength[best]) {
			best = i
		}
	}
	if best < 0 {
		// Nothing has X as its subject: the top doc's lead still says what
		// the doc is about, when it names X.
		for i, s := range candidates {
			if s.doc == 0 && s.lead && mentionsAny(s, in.subject) && !s.trailing() {
				best = i
				break
			}
		}
	}
	if best < 0 {
		return nil
	}
	def := candidates[best]
	type support struct {
		i     int
		score int
	}
	var supports []support
	for i, s := range candidates {
		if i == best || s.doc != def.doc || s.trailing() || s.text == def.text {
			continue
		}
		v := 0
		switch {
		case slices.ContainsFunc(names, func(name []string) bool { return containsRun(s.words, name) }):
			v += 3
		case mentionsAny(s, in.subject):
			v++
		}
		if strength[i] != notDefining {
			v += 2
		}
		if s.block == def.block && s.pos == def.pos+1 {
			v += 2
		}
		if s.inLead {
			v++
		}
		if s.command {
			v -= 2
		}
		if v >= 3 {
			supports = append(supports, support{i, v})
		}
	}
	slices.SortStableFunc(supports, func(a, b support) int {
		sa, sb := candidates[a.i], candidates[b.i]
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(sa.chunk, sb.chunk), cmp.Compare(sa.pos, sb.pos))
	})
	var rest []sentence
	for _, sp := range supports {
		if len(rest) == maxAnswerSentences-1 {
			break
		}
		if s := candidates[sp.i]; !nearDuplicate(s, append([]sentence{def}, rest...)) {
			rest = append(rest, s)
		}
	}
	// The definition opens the answer whatever its place in the doc; what
	// supports it reads in the doc's order.
	inReadingOrder(rest)
	return append([]sentence{def}, rest...)
}

func betterDefinition(a sentence, sa int, b sentence, sb int) bool {
	return cmp.Or(cmp.Compare(sb, sa), cmp.Compare(a.doc, b.doc), boolOrder(a.lead, b.lead),
		cmp.Compare(a.chunk, b.chunk), cmp.Compare(a.block, b.block), cmp.Compare(a.pos, b.pos)) < 0
}

// boolOrder sorts true before false.
func boolOrder(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

func mentionsAny(s sentence, words []string) bool {
	for _, w := range words {
		if s.has(w) {
			return true
		}
	}
	return false
}

// containsRun reports whether run occurs in words as consecutive words.
func containsRun(words, run []string) bool {
	if len(run) == 0 {
		return false
	}
	for i := 0; i+len(run) <= len(words); i++ {
		if slices.Equal(words[i:i+len(run)], run) {
			return true
		}
	}
	return false
}
