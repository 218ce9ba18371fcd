package retrieval

// Decision rule names, as Result.Rule reports them.
const (
	RuleNoTerms      = "no query terms"
	RuleTopZero      = "top=0"
	RuleMatched      = "matched_terms<MIN_MATCHED_TERMS"
	RuleNoFieldHit   = "no title/keyword hit"
	RuleCrossDoc     = "cross-doc"
	RuleMinScore     = "top<MIN_SCORE"
	RuleGap          = "gap<MIN_GAP"
	RuleConfidence   = "confidence<MIN_CONF"
	RuleFound        = "found"
	RuleMulti        = "multi-intent"
	RuleLookup       = "lookup"
	RuleFollowUp     = "follow-up"
	RuleEndOfDoc     = "no further chunk"
	RuleUnknown      = "unknown resource"
	RuleDisabled     = "retrieval disabled"
	RuleGlossary     = "glossary"
	RuleGeneric      = "generic"
	RuleNoFollowUpOf = "nothing to continue"
)

// candidate is what the decision policy knows about one ranked result.
type candidate struct {
	doc      string  // identity of the result's doc
	score    float64 // match score
	matched  int     // matched-terms count (an exact title phrase counts as 2)
	fieldHit bool    // a query term is in the title or keywords
	phrase   bool    // the whole query is a phrase of the title
}

// decision is the policy's verdict. rival indexes the ranked slice: the
// doc offered as the second option, -1 when no other doc scored.
type decision struct {
	status     Status
	rule       string
	confidence float64
	rival      int
}

// thresholds are the policy's configurable limits.
type thresholds struct {
	minScore, minConf, minGap float64
	minMatched                int
}

// scoreEpsilon absorbs floating-point noise in threshold comparisons: a
// bias of exactly MIN_GAP must count as MIN_GAP, not 1.9999999999999998.
const scoreEpsilon = 1e-9

// decide applies the policy to results in rank order.
//
// Each doc is represented by its highest-ranked result, and "second" is
// the highest-ranked result from a doc other than the top's: two chunks of
// one doc are not alternatives to choose between, and comparing the top
// doc's ranked chunk with another doc's ranked chunk keeps the comparison
// like for like.
//
// Rules, in order: top = 0 → no_match; too few matched terms → weak; no
// title or keyword hit and no exact phrase → weak; top two chunks from one
// doc with another doc within MIN_GAP → ambiguous between the two docs
// (the cross-doc override, checked before MIN_SCORE: a close call between
// two docs is a question to ask, not a weak match); top < MIN_SCORE →
// weak; gap < MIN_GAP → ambiguous; confidence < MIN_CONF → ambiguous;
// else found.
func decide(ranked []candidate, th thresholds) decision {
	d := decision{rival: -1}
	if len(ranked) == 0 || !(ranked[0].score > 0) {
		d.status, d.rule = StatusNoMatch, RuleTopZero
		return d
	}
	top := ranked[0]
	for i := 1; i < len(ranked); i++ {
		if ranked[i].doc != top.doc {
			d.rival = i
			break
		}
	}
	second := 0.0
	if d.rival >= 0 {
		second = ranked[d.rival].score
	}
	gap := top.score - second
	d.confidence = min(max(gap/top.score, 0), 1)
	closeCall := gap < th.minGap-scoreEpsilon

	switch {
	case top.matched < th.minMatched:
		d.status, d.rule = StatusWeak, RuleMatched
	case !top.fieldHit && !top.phrase:
		d.status, d.rule = StatusWeak, RuleNoFieldHit
	case len(ranked) > 1 && ranked[1].doc == top.doc && d.rival >= 0 && closeCall:
		d.status, d.rule = StatusAmbiguous, RuleCrossDoc
	case top.score < th.minScore-scoreEpsilon:
		d.status, d.rule = StatusWeak, RuleMinScore
	case closeCall && d.rival >= 0:
		d.status, d.rule = StatusAmbiguous, RuleGap
	case closeCall:
		// Nothing else scored, yet the top alone is below the gap: there is
		// no second option to offer, so ask about the one candidate.
		d.status, d.rule = StatusWeak, RuleGap
	case d.confidence < th.minConf-scoreEpsilon:
		d.status, d.rule = StatusAmbiguous, RuleConfidence
	default:
		d.status, d.rule = StatusFound, RuleFound
	}
	return d
}

// strong reports whether a doc's best hit is good enough to stand as one
// part of a multi-intent question: the same guards as a confident answer,
// without the gap (a part may well name two related docs).
func (c candidate) strong(th thresholds) bool {
	return c.score >= th.minScore && c.matched >= th.minMatched && (c.fieldHit || c.phrase)
}
