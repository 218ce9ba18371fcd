// Package assistant runs one chat session: it retrieves evidence for a
// turn, records the turn, builds the prompt under its token budgets and has
// the answer written and streamed. The TUI and `docent ask` share it, so a
// question gets the same answer on either.
package assistant

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	promptctx "github.com/docent-sh/docent/context"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store"
)

// Engine is the retrieval the session needs.
type Engine interface {
	Ask(q retrieval.Query) retrieval.Result
	Lookup(slug string) retrieval.Result
	Continue(chunkID string, shown []string) retrieval.Result
	Stats() retrieval.Stats
	Size() (docs, chunks int)
}

// EventSink records one retrieval event per turn.
type EventSink interface {
	RecordRetrieval(ctx context.Context, ev store.RetrievalEvent) error
}

// Writer writes and streams an answer from a prompt.
type Writer interface {
	Stream(ctx context.Context, p promptctx.Prompt, emit func(chunk string)) (llm.Answer, error)
}

// Request is one turn: a question, a picked option (DocSlug) or an
// explicit continuation of a chunk (AfterChunkID).
type Request struct {
	Query        string
	DocSlug      string
	AfterChunkID string
}

// Answer is a written answer and the prompt report behind it.
type Answer struct {
	llm.Answer
	Context promptctx.Report
	// ModelCalled is false for weak, ambiguous and no_match turns: they
	// get the clarification reply and no model call.
	ModelCalled bool
	// CostUSD is what the reported usage cost at the model's price; nil
	// without reported usage or without a price for the model.
	CostUSD *float64
}

// Options configures a Session.
type Options struct {
	Glossary string              // the core concepts, always in the prompt
	Corpus   string              // names the knowledge base in the prompt's session context
	App      *promptctx.AppState // the customer's app state, when staff attached one
	Builder  promptctx.Builder   // budgets and encoding
	Log      *slog.Logger        // nil: slog.Default()
	Events   EventSink           // nil: events are only logged
	Now      func() time.Time    // nil: time.Now
	Refresh  Refresh             // zero: the engine never changes
	Roles    []promptctx.Role    // what SetRole picks from; a later role replaces an earlier one of its name
	Prices   map[string]Price    // by model name, for the cost of each answer
}

// Session is one conversation. Its methods are safe for concurrent use, but
// turns are meant to come one at a time, as a person asks them.
type Session struct {
	// loaded is swapped whole when the knowledge base changes: a turn
	// answers from one engine throughout, and Stats never waits for a
	// rebuild.
	loaded atomic.Pointer[loadedEngine]
	writer Writer
	opts   Options
	log    *slog.Logger
	roles  map[string]promptctx.Role // fixed at New

	refreshMu        sync.Mutex // one generation check or rebuild at a time
	failedGeneration int64      // the generation whose rebuild failed, else noGeneration

	mu          sync.Mutex
	lastChunkID string   // the chunk the last answer came from ("tell me more" continues it)
	shown       []string // chunk ids already shown, so continuations move on
	lastPill    string
	history     []promptctx.Message
	app         *promptctx.AppState
	role        promptctx.Role
	spend       Spend
	// pending is the event of a turn whose answer is still to be written:
	// it is recorded with the answer's usage, or as it is when the next
	// turn starts first.
	pending *store.RetrievalEvent
}

// New starts a session.
func New(engine Engine, writer Writer, opts Options) *Session {
	log := opts.Log
	if log == nil {
		log = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &Session{writer: writer, opts: opts, log: log, app: opts.App, failedGeneration: noGeneration, roles: roleSet(opts.Roles)}
	s.loaded.Store(&loadedEngine{engine: engine, generation: opts.Refresh.Generation})
	return s
}

// SetApp attaches (or, with nil, detaches) the customer's app state.
func (s *Session) SetApp(app *promptctx.AppState) {
	s.mu.Lock()
	s.app = app
	s.mu.Unlock()
}

// Stats returns the current engine's rolling figures. They start afresh
// when the engine is rebuilt for a changed knowledge base.
func (s *Session) Stats() retrieval.Stats { return s.loaded.Load().engine.Stats() }

// Size is the docs and chunks of the knowledge base the session answers
// from now, which changes when a seed elsewhere rebuilds the engine.
func (s *Session) Size() (docs, chunks int) { return s.loaded.Load().engine.Size() }

// Retrieve runs retrieval for one turn, remembers what it showed and
// records the event. With Options.Refresh set it first rebuilds the engine
// if the knowledge base changed since the last turn. Recording and
// refreshing are best effort: a failure is logged, never shown as a failed
// turn.
func (s *Session) Retrieve(ctx context.Context, req Request) retrieval.Result {
	engine := s.currentEngine(ctx)
	s.mu.Lock()
	// The follow-up state survives a rebuild as chunk ids: if the last
	// chunk's doc is gone, "tell me more" gets whatever the engine says.
	var res retrieval.Result
	switch {
	case req.DocSlug != "":
		res = engine.Lookup(req.DocSlug)
		s.lastPill = req.DocSlug
	case req.AfterChunkID != "":
		res = engine.Continue(req.AfterChunkID, append([]string(nil), s.shown...))
	default:
		res = engine.Ask(retrieval.Query{Text: req.Query, LastChunkID: s.lastChunkID, Shown: append([]string(nil), s.shown...)})
	}
	if id := answeredChunk(res); id != "" {
		s.lastChunkID = id
		s.shown = append(s.shown, id)
	}
	ev := s.event(res)
	// A turn the model answers is recorded once its usage is known.
	unanswered := s.pending
	s.pending = nil
	if NeedsModel(res) {
		s.pending = &ev
	}
	s.mu.Unlock()

	if unanswered != nil {
		s.record(ctx, *unanswered)
	}
	if !NeedsModel(res) {
		s.record(ctx, ev)
	}
	return res
}

// answeredChunk is the chunk a found reply was written from: the first
// piece of evidence that has body text.
func answeredChunk(res retrieval.Result) string {
	if res.Status != retrieval.StatusFound {
		return ""
	}
	for _, ev := range res.Results {
		if !ev.HeadingOnly {
			return ev.ChunkID
		}
	}
	return ""
}

// event is the retrieval event of a turn, without the answer's usage.
func (s *Session) event(res retrieval.Result) store.RetrievalEvent {
	ev := store.RetrievalEvent{
		Time:             s.opts.Now(),
		Query:            res.Query,
		NormalizedTokens: res.NormalizedTokens,
		Action:           string(res.Status),
		Confidence:       res.Confidence,
		LatencyMS:        res.Metrics.RetrievalMS,
		Phase:            res.Metrics.Phase,
	}
	for _, r := range res.Results {
		ev.TopResults = append(ev.TopResults, store.TopResult{
			Slug: r.DocSlug, ChunkIndex: r.ChunkIndex, Score: r.Score, MatchedTerms: r.MatchedTerms,
		})
	}
	s.log.Info("retrieval",
		"query", res.Query, "tokens", res.NormalizedTokens, "action", res.Status, "rule", res.Rule,
		"confidence", res.Confidence, "latency_ms", res.Metrics.RetrievalMS, "phase", res.Metrics.Phase,
		"fallback", res.Metrics.Fallback, "results", len(res.Results))
	return ev
}

// recordTimeout bounds recording an event after its answer: the answer
// may have been stopped, which cancelled its context, and the event is
// still worth keeping.
const recordTimeout = 5 * time.Second

func (s *Session) record(ctx context.Context, ev store.RetrievalEvent) {
	if s.opts.Events == nil {
		return
	}
	if err := s.opts.Events.RecordRetrieval(ctx, ev); err != nil {
		s.log.Warn("record retrieval event", "err", err)
	}
}

// recordAnswered records the pending event of the turn res, with the
// usage and cost of its answer.
func (s *Session) recordAnswered(ctx context.Context, res retrieval.Result, ans Answer) {
	s.mu.Lock()
	ev := s.pending
	if ev == nil || ev.Query != res.Query || ev.Action != string(res.Status) {
		s.mu.Unlock()
		return // not the turn Retrieve last ran: its event is already recorded
	}
	s.pending = nil
	s.mu.Unlock()
	if ans.Usage.Reported {
		prompt, completion := ans.Usage.PromptTokens, ans.Usage.CompletionTokens
		ev.PromptTokens, ev.CompletionTokens = &prompt, &completion
		ev.CostUSD = ans.CostUSD
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	s.record(ctx, *ev)
}

// NeedsModel reports whether a result is answered by the writer: only
// found and multi are; the others are clarifications.
func NeedsModel(res retrieval.Result) bool {
	return res.Status == retrieval.StatusFound || res.Status == retrieval.StatusMulti
}

// Answer writes the answer for a result. Clarifications (weak, ambiguous,
// no_match) are the engine's reply, streamed as one piece without a model
// call; found and multi go through the context builder to the writer.
func (s *Session) Answer(ctx context.Context, res retrieval.Result, emit func(chunk string)) (Answer, error) {
	if !NeedsModel(res) {
		if emit != nil && res.Reply != "" {
			emit(res.Reply)
		}
		s.remember(res.Query, res.Reply)
		return Answer{Answer: llm.Answer{Text: res.Reply, Provider: "clarification"}}, nil
	}

	s.mu.Lock()
	in := promptctx.Input{
		Question: res.Query,
		Glossary: s.opts.Glossary,
		Evidence: res.Results,
		Session:  promptctx.Session{Corpus: s.opts.Corpus, LastResource: s.lastChunkID, LastPill: s.lastPill},
		App:      s.app,
		Recent:   append([]promptctx.Message(nil), s.history...),
		Role:     s.role,
	}
	s.mu.Unlock()

	prompt := s.opts.Builder.Build(in)
	ans, err := s.writer.Stream(ctx, prompt, emit)
	out := Answer{Answer: ans, Context: prompt.Report, ModelCalled: true}
	if price, ok := s.opts.Prices[ans.Model]; ok && ans.Usage.Reported {
		cost := price.Cost(ans.Usage)
		out.CostUSD = &cost
	}
	s.mu.Lock()
	s.spend.add(ans.Usage, out.CostUSD)
	s.mu.Unlock()
	s.recordAnswered(ctx, res, out)
	if err != nil {
		return out, err
	}
	if ans.Notice != "" {
		s.log.Warn("answer fell back", "notice", ans.Notice)
	}
	s.remember(res.Query, ans.Text)
	return out, nil
}

// Flush records the event of a turn whose answer was never asked for (the
// chat closed in between). Call it when the session ends.
func (s *Session) Flush(ctx context.Context) {
	s.mu.Lock()
	ev := s.pending
	s.pending = nil
	s.mu.Unlock()
	if ev != nil {
		s.record(ctx, *ev)
	}
}

// Spend is what the providers reported for the session's answers so far,
// and what they cost.
func (s *Session) Spend() Spend {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.spend
}

// remember keeps the conversation for the prompt's recent-messages
// component; the builder decides how much of it fits.
func (s *Session) remember(question, answer string) {
	if question == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.history = append(s.history,
		promptctx.Message{Role: "user", Text: question},
		promptctx.Message{Role: "assistant", Text: answer})
	// The builder never sends more than MaxRecentTurns turns; keep a little
	// more so a long session does not grow without bound.
	if keep := 4 * promptctx.MaxRecentTurns; len(s.history) > keep {
		s.history = append([]promptctx.Message(nil), s.history[len(s.history)-keep:]...)
	}
}
