package retrieval

import (
	"fmt"
	"strings"
	"time"

	"github.com/docent-sh/docent/retrieval/index"
	"github.com/docent-sh/docent/textsafe"
)

// RulePick is the rule of a picked doc answered for the question that
// offered it: the doc's sections that match it, best first.
const RulePick = "pick"

// Pick answers from a doc chosen by slug (what picking a pill does). With
// the question that offered the doc, retrieval runs again for it within
// that doc alone, so the answer comes from the doc's sections that match
// the question, best first, not from the doc's opening. Without one, or
// when nothing in the doc matches it, the doc's overview is the answer, as
// Lookup gives it.
func (e *Engine) Pick(slug, question string) Result {
	start := time.Now()
	question, notes := truncateQuery(question)
	question = strings.TrimSpace(question)
	var res Result
	if question == "" {
		res = e.lookup(slug)
		res.Query = textsafe.Line(slug)
	} else {
		res = e.pick(slug, question)
		res.Query = textsafe.Line(question)
	}
	res.Notes = append(notes, res.Notes...)
	return e.finish(res, start)
}

// pick ranks the chunks of the doc slug for question.
func (e *Engine) pick(slug, question string) Result {
	doc, ok := e.bySlug[strings.TrimSpace(slug)]
	if !ok || !e.cfg.Enabled || e.chunks == nil {
		return e.lookup(slug)
	}
	q := e.norm.normalize(question)
	ix := e.chunks
	var hits []index.Hit
	if len(q.terms) > 0 {
		hits = ix.SearchDoc(q.terms, q.keys, int32(doc), e.scoringFor(ix, q))
	}
	if len(hits) == 0 {
		res := e.lookup(slug)
		res.Notes = append(res.Notes, fmt.Sprintf("nothing in %q matches the question: the doc's overview instead", e.docs[doc].slug))
		return res
	}
	ws := ix.Weigh(q.keys, q.intent, q.rare)
	res := Result{
		NormalizedTokens: q.terms,
		Status:           StatusFound,
		Rule:             RulePick,
		Confidence:       1,
		Metrics:          Metrics{Phase: e.cfg.Phase},
	}
	for _, h := range hits[:min(len(hits), e.cfg.TopK)] {
		res.Results = append(res.Results, e.evidence(ix, h, q, ws, nil))
	}
	return res
}
