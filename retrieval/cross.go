package retrieval

import "github.com/docent-sh/docent/knowledge"

// RuleCrossCorpus is the rule of a question the docs and the team's notes
// both answer about equally well: which to answer from is the asker's
// call, so both are offered and neither is chosen.
const RuleCrossCorpus = "docs or notes"

// Between is the decision between the docs' and the notes' results for
// one question.
type Between struct {
	// Corpus is the one to answer from; "" when both are offered.
	Corpus knowledge.Corpus
	// Gap is how far apart the two tops are: the larger relative gap of
	// their coverage and their naming, in [0, 1]; 1 when only one
	// answers.
	Gap float64
}

// Offer reports whether both corpora are offered.
func (b Between) Offer() bool { return b.Corpus == "" }

// Between decides which corpus answers a question both were asked: the
// one with a viable result (anything but no match), and when both have
// one and their top docs are close, neither: both are offered. Close is
// the docs policy's second meaning across corpora: each top covers the
// question, and names it in its title or headings, within MinMargin of
// the other. Rank scores are not compared: each corpus ranks on its own
// statistics, while coverage and naming are shares of the question on
// either.
func (c Config) Between(docs, notes Result) Between {
	dv, nv := viable(docs), viable(notes)
	switch {
	case !nv:
		return Between{Corpus: knowledge.CorpusDocs, Gap: 1}
	case !dv:
		return Between{Corpus: knowledge.CorpusNotes, Gap: 1}
	}
	d, n := docs.Candidates[0], notes.Candidates[0]
	gap := max(relativeGap(d.Coverage, n.Coverage), relativeGap(d.Naming, n.Naming))
	switch {
	case gap <= c.MinMargin+scoreEpsilon:
		return Between{Gap: gap}
	case n.Coverage > d.Coverage+scoreEpsilon,
		within(n.Coverage, d.Coverage, scoreEpsilon) && n.Naming > d.Naming+scoreEpsilon:
		return Between{Corpus: knowledge.CorpusNotes, Gap: gap}
	}
	return Between{Corpus: knowledge.CorpusDocs, Gap: gap}
}

// viable reports whether a result answers or asks about something found.
func viable(r Result) bool {
	return r.Status != StatusNoMatch && r.Status != "" && len(r.Candidates) > 0
}

// relativeGap is how far the smaller of a and b falls below the larger,
// relatively: 0 when equal (both 0 included).
func relativeGap(a, b float64) float64 {
	return margin(max(a, b), min(a, b))
}
