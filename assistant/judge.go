package assistant

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/retrieval"
)

// Reranker scores how well each passage answers a question, 0 to 1, by
// passage id; every passage given is scored (llm.Responder.Rerank).
type Reranker interface {
	Rerank(ctx context.Context, question string, passages []llm.Passage) (map[string]float64, error)
}

// AnswerabilityChecker says whether passages answer a question
// (llm.Responder.Answerable).
type AnswerabilityChecker interface {
	Answerable(ctx context.Context, question string, passages []llm.Passage) (llm.Verdict, error)
}

// DefaultRerankTimeout bounds the reranking call when Options.RerankTimeout
// is 0, and DefaultAnswerabilityTimeout each answerability check: both are
// a refinement a turn goes on without, never a wait the asker notices
// much.
const (
	DefaultRerankTimeout        = 3 * time.Second
	DefaultAnswerabilityTimeout = 3 * time.Second
)

// RerankPoolFactor is how many times the engine's top-k the reranker is
// given: the chunks the fused order put just below the cut are the ones a
// model's reading can bring up.
const RerankPoolFactor = 3

// WidenFactor and AlphaWidenStep widen a turn whose evidence the model
// found does not answer the question, once: top-k × WidenFactor, and in a
// hybrid turn alpha moved towards the embeddings by AlphaWidenStep (at
// most 1), since a question the keywords found the wrong passages for is
// likelier reached by its meaning. A lexical turn is only widened.
const (
	WidenFactor    = 2
	AlphaWidenStep = 0.25
)

// RuleUnanswerable is the rule of a turn the engine found an answer for
// but whose evidence the model judged, even widened, not to answer the
// question: docent says what it found and asks (see Reply).
const RuleUnanswerable = "unanswerable"

// tunableEngine is an engine that can answer with other settings over the
// same indexes (retrieval.Engine.WithSettings): reranking asks it for a
// wider pool and answerability for a wider turn. Another Engine is
// reranked and checked on the evidence Ask gave, and never widened.
type tunableEngine interface {
	Config() retrieval.Config
	WithSettings(topK int, alpha float64) (*retrieval.Engine, error)
}

// refine reranks a question's evidence and checks that it answers the
// question, as Options ask; with neither set it returns res untouched.
// Only a question answered from the docs is refined: picks,
// continuations, follow-ups, notes and cross-corpus offers are the
// asker's or the engine's choice already.
func (s *Session) refine(ctx context.Context, engine Engine, req Request, turn turnState, res retrieval.Result) retrieval.Result {
	if s.opts.Reranker == nil && s.opts.Answerability == nil {
		return res
	}
	if req.DocSlug != "" || req.AfterChunkID != "" || req.NoteID != "" || res.Corpus != knowledge.CorpusDocs ||
		res.Rule == retrieval.RuleFollowUp || res.Rule == retrieval.RuleCrossCorpus || len(res.Results) == 0 {
		return res
	}
	_, text := s.searchText(req) // as route asked the engine
	if s.opts.Reranker != nil {
		switch res.Status {
		case retrieval.StatusFound, retrieval.StatusAmbiguous, retrieval.StatusWeak:
			res = s.rerank(ctx, engine, text, turn, res)
		}
	}
	if s.opts.Answerability != nil && res.Status == retrieval.StatusFound {
		res = s.checkAnswerable(ctx, engine, text, turn, res)
	}
	return res
}

// rerank reorders res's evidence by a chat model's reading of the top
// top-k × RerankPoolFactor chunks. Only the evidence changes: the status,
// rule, options, confidence and candidates stay the engine's, whose
// decision is measured and tested (eval) where a model's is not; the
// reranker decides which chunks the writer reads first, and, from the
// wider pool, which of them it reads at all. On a timeout, a failure or a
// reply not in the format asked, the fused order stands and a note says
// why.
func (s *Session) rerank(ctx context.Context, engine Engine, text string, turn turnState, res retrieval.Result) retrieval.Result {
	pool := res.Results
	if te, ok := engine.(tunableEngine); ok {
		cfg := te.Config()
		if wide, err := te.WithSettings(min(cfg.TopK*RerankPoolFactor, 100), cfg.Alpha); err == nil {
			// The wider turn decides as the engine did (the decision reads
			// the candidates, not top-k); should it not, its evidence is
			// of another answer and the turn's own is reranked.
			if w := wide.Ask(turn.docsQuery(text)); w.Status == res.Status && len(w.Results) > len(pool) {
				pool = stamp(w, res.Corpus).Results
			}
		}
	}
	timeout := cmp.Or(s.opts.RerankTimeout, DefaultRerankTimeout)
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	scores, err := s.opts.Reranker.Rerank(cctx, text, passages(pool))
	if err != nil {
		return withNote(res, "rerank: "+judgeFailure(err, timeout)+": the fused order stands")
	}
	ranked := slices.Clone(pool)
	for i := range ranked {
		ranked[i].RerankScore = scores[ranked[i].ChunkID]
	}
	// Ties keep the fused order.
	slices.SortStableFunc(ranked, func(a, b retrieval.Evidence) int { return cmp.Compare(b.RerankScore, a.RerankScore) })
	res.Results = ranked[:len(res.Results)]
	return withNote(res, fmt.Sprintf("reranked %d chunks by the model; the decision is the engine's", len(pool)))
}

// checkAnswerable asks the model whether a found turn's evidence answers
// the question. If not, the turn is widened once (see WidenFactor) and
// checked again; a turn still not answered becomes a clarification that
// says what was found (RuleUnanswerable). A check that times out or fails
// leaves the turn as retrieved, with a note.
func (s *Session) checkAnswerable(ctx context.Context, engine Engine, text string, turn turnState, res retrieval.Result) retrieval.Result {
	v, err := s.answerable(ctx, text, res.Results)
	switch {
	case err != nil:
		return withNote(res, "answerability: "+judgeFailure(err, DefaultAnswerabilityTimeout)+": answered as retrieved")
	case v.Answerable:
		return withNote(res, "answerability: the evidence answers the question")
	}
	res = withNote(res, "answerability: the evidence does not answer the question: "+cmp.Or(v.Reason, "no reason given"))
	te, ok := engine.(tunableEngine)
	if !ok {
		return unanswerable(res)
	}
	cfg := te.Config()
	alpha := cfg.Alpha
	if hybridTurn(res, turn) {
		alpha = min(1, alpha+AlphaWidenStep)
	}
	wide, err := te.WithSettings(min(cfg.TopK*WidenFactor, 100), alpha)
	if err != nil {
		return unanswerable(withNote(res, "answerability: could not widen: "+err.Error()))
	}
	w := stamp(wide.Ask(turn.docsQuery(text)), res.Corpus)
	w.Query = res.Query
	// The widened turn's own notes (its ranking) follow the first turn's.
	w.Notes = append(append(slices.Clip(res.Notes), fmt.Sprintf("answerability: widened once to top-k %d, alpha %s",
		min(cfg.TopK*WidenFactor, 100), strconv.FormatFloat(alpha, 'g', -1, 64))), w.Notes...)
	if w.Status != retrieval.StatusFound || len(w.Results) == 0 {
		return unanswerable(withNote(res, "answerability: the widened turn found no answer ("+string(w.Status)+")"))
	}
	v, err = s.answerable(ctx, text, w.Results)
	switch {
	case err != nil:
		// As a failed first check: the turn is answered as retrieved.
		return withNote(res, "answerability: "+judgeFailure(err, DefaultAnswerabilityTimeout)+" after widening: answered as retrieved")
	case v.Answerable:
		return withNote(w, "answerability: the widened evidence answers the question")
	}
	return unanswerable(withNote(w, "answerability: the widened evidence does not answer it either: "+cmp.Or(v.Reason, "no reason given")))
}

func (s *Session) answerable(ctx context.Context, text string, evidence []retrieval.Evidence) (llm.Verdict, error) {
	cctx, cancel := context.WithTimeout(ctx, DefaultAnswerabilityTimeout)
	defer cancel()
	return s.opts.Answerability.Answerable(cctx, text, passages(evidence))
}

// hybridTurn reports whether res was ranked by both signals.
func hybridTurn(res retrieval.Result, turn turnState) bool {
	return turn.vector != nil && slices.ContainsFunc(res.Results, func(ev retrieval.Evidence) bool { return ev.FusedScore > 0 })
}

// unanswerable turns a found result into the clarification that says
// what was found and asks: its evidence stays for the evidence pane, and
// its docs become the options to pick.
func unanswerable(res retrieval.Result) retrieval.Result {
	res.Status, res.Rule = retrieval.StatusWeak, RuleUnanswerable
	res.Options = nil
	for _, ev := range res.Results {
		if !slices.ContainsFunc(res.Options, func(o retrieval.Option) bool { return o.DocSlug == ev.DocSlug }) {
			res.Options = append(res.Options, retrieval.Option{Label: ev.Title, DocSlug: ev.DocSlug, Category: ev.Category})
		}
	}
	return res
}

// passages are evidence as a judging call shows it.
func passages(evidence []retrieval.Evidence) []llm.Passage {
	out := make([]llm.Passage, len(evidence))
	for i, ev := range evidence {
		out[i] = llm.Passage{ID: ev.ChunkID, Title: strings.TrimSpace(ev.Title + " — " + ev.HeaderPath), Text: cmp.Or(ev.Content, ev.Snippet)}
	}
	return out
}

// judgeFailure words why a judging call gave nothing usable.
func judgeFailure(err error, timeout time.Duration) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("no answer within %s", timeout)
	}
	return err.Error()
}

// withNote is res with one more note, never writing into the notes array
// res shares with another result.
func withNote(res retrieval.Result, note string) retrieval.Result {
	res.Notes = append(slices.Clip(res.Notes), note)
	return res
}
