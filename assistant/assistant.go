// Package assistant runs one chat session: it retrieves evidence for a
// turn, records the turn, builds the prompt under its token budgets and has
// the answer written and streamed. The TUI and `docent ask` share it, so a
// question gets the same answer on either.
package assistant

import (
	"cmp"
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docent-sh/docent/cite"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/prompt"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/retrieval/analysis"
	"github.com/docent-sh/docent/textsafe"
)

// Engine is the retrieval the session needs.
type Engine interface {
	Ask(q retrieval.Query) retrieval.Result
	Pick(slug, question string) retrieval.Result
	Continue(chunkID string, shown []string) retrieval.Result
	Size() (docs, chunks int)
}

// EventSink records one retrieval event per turn.
type EventSink interface {
	RecordRetrieval(ctx context.Context, ev knowledge.RetrievalEvent) error
}

// Writer writes and streams an answer from a prompt.
type Writer interface {
	Stream(ctx context.Context, p prompt.Prompt, emit func(chunk string)) (llm.Answer, error)
}

// Request is one turn: a question, a picked option (DocSlug, with the
// question that offered it in Query, if any) or an explicit continuation
// of a chunk (AfterChunkID).
type Request struct {
	Query        string
	DocSlug      string // a doc's slug, or a note's (knowledge.NoteSlug)
	AfterChunkID string
	// Corpus asks one corpus alone; "" or auto lets the question say
	// (analysis.CorpusIntent), else both are asked.
	Corpus knowledge.Corpus
	// NoteID picks a note by id, as DocSlug picks a doc.
	NoteID string
	// Exclude are chunk ids the turn must not return as evidence (what a
	// caller already has); TopK, when above 0, returns that many pieces
	// of evidence at most, more than the engine's own top-k included.
	Exclude []string
	TopK    int
	// Categories scopes the docs to those categories (docs folders,
	// retrieval.Query.Categories); the notes have none and are not
	// scoped. Alpha, when not nil, is the docs' hybrid weight for this
	// turn instead of the engine's.
	Categories []string
	Alpha      *float64
	// Terms widen the question's search (the chosen terms of an
	// Enhancement): the docs and notes are searched for the question with
	// them, and the question stays Query, as the writer answers it and
	// the result reports it.
	Terms []string
	// ConversationID and TurnIndex name the conversation turn the request
	// is recorded as (knowledge.Turn), for its retrieval event, so the
	// asker's rating joins the event; empty when the turn is not recorded.
	ConversationID string
	TurnIndex      *int
}

// Answer is a written answer and the prompt report behind it.
type Answer struct {
	llm.Answer
	Context prompt.Report
	// ModelCalled is false for weak, ambiguous and no_match turns: they
	// get the clarification reply and no model call.
	ModelCalled bool
	// CostUSD is what the reported usage cost at the model's price; nil
	// without reported usage or without a price for the model.
	CostUSD *float64
	// Sources are the chunks the prompt gave the writer, which its
	// citations may name; nil when no writer was called.
	Sources []cite.Source
}

// Options configures a Session.
type Options struct {
	Glossary string           // the core concepts, always in the prompt
	Corpus   string           // names the knowledge base in the prompt's session context
	App      *prompt.AppState // the customer's app state, when staff attached one
	Builder  prompt.Builder   // budgets and encoding
	Log      *slog.Logger     // nil: slog.Default()
	Events   EventSink        // nil: events are only logged
	Now      func() time.Time // nil: time.Now
	Refresh  Refresh          // zero: the engine never changes
	Roles    []prompt.Role    // what SetRole picks from; a later role replaces an earlier one of its name
	Prices   map[string]Price // by model name, for the cost of each answer
	Notes    NotesOptions     // zero: the docs alone
	// Embedder, when set, embeds each question so that the docs rank by
	// its meaning as well as its words (retrieval's hybrid ranking); a
	// failure, or no answer within EmbedTimeout (0: DefaultEmbedTimeout),
	// leaves the turn to its words and says why in Result.Notes.
	Embedder     Embedder
	EmbedTimeout time.Duration
	// Reranker, when set, reorders the evidence of a found, ambiguous or
	// weak question by a chat model's scores of the top top-k ×
	// RerankPoolFactor chunks, within RerankTimeout (0:
	// DefaultRerankTimeout); see rerank. Nil: the fused order.
	Reranker      Reranker
	RerankTimeout time.Duration
	// Answerability, when set, checks before a found answer is written
	// that its evidence answers the question, widens the turn once if not
	// and asks the asker if still not (see checkAnswerable). Nil: no check.
	Answerability AnswerabilityChecker
	// Enhancer, when set, lets the asker widen a question with terms a
	// chat model proposes (Session.Enhance), within EnhanceTimeout (0:
	// DefaultEnhanceTimeout). Nil: Enhance says it needs a model.
	Enhancer       Enhancer
	EnhanceTimeout time.Duration
	// Switch, when set, is the team's kill switch, asked at most every
	// SwitchPoll (0: DefaultSwitchPoll); while it is off every question
	// gets the generic reply. Nil: retrieval is always on.
	Switch     Switch
	SwitchPoll time.Duration
}

// Session is one conversation. Its methods are safe for concurrent use, but
// turns are meant to come one at a time, as a person asks them.
type Session struct {
	// loaded is swapped whole when the knowledge base changes: a turn
	// answers from one engine throughout.
	loaded atomic.Pointer[loadedEngine]
	writer Writer
	opts   Options
	log    *slog.Logger
	roles  map[string]prompt.Role // fixed at New

	refreshMu        sync.Mutex   // one rebuild at a time
	failedGeneration atomic.Int64 // the generation whose rebuild failed, else noGeneration
	// generationState is the store's generation as the change feed told
	// it (Follow); only the session that refreshes reads it.
	generationState generationState

	stats statsKeeper // the last turns' latency and outcomes

	mu          sync.Mutex
	lastChunkID string // the chunk the last answer came from ("tell me more" continues it)
	// lastEvidence is lastChunkID's evidence: a follow-up gives it to the
	// writer again, so the rest of a chunk an answer stopped in is told
	// before the next chunk.
	lastEvidence *retrieval.Evidence
	shown        []string // chunk ids already shown, so continuations move on
	lastPill     string
	history      []prompt.Message
	app          *prompt.AppState
	role         prompt.Role
	spend        Spend
	// crossOffered are the Docs and Notes pills the last turn offered, so
	// a pick of one is recorded as the asker's choice.
	crossOffered []retrieval.Option
	// notesCache is shared by the forks of a session in the same scope,
	// and switchState by all its forks (see Fork), so a server builds a
	// scope's notes index once and polls the kill switch as one session.
	notesCache  *notesCache
	switchState *switchState
	forks       forks
	// pending is the event of a turn whose answer is still to be written:
	// it is recorded with the answer's usage, or as it is when the next
	// turn starts first.
	pending *knowledge.RetrievalEvent
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
	s := &Session{writer: writer, opts: opts, log: log, app: opts.App, roles: roleSet(opts.Roles),
		notesCache: &notesCache{}, switchState: &switchState{}}
	s.failedGeneration.Store(noGeneration)
	s.loaded.Store(&loadedEngine{engine: engine, generation: opts.Refresh.Generation})
	return s
}

// SetApp attaches (or, with nil, detaches) the customer's app state.
func (s *Session) SetApp(app *prompt.AppState) {
	s.mu.Lock()
	s.app = app
	s.mu.Unlock()
}

// Stats returns the current engine's rolling figures. They start afresh
// when the engine is rebuilt for a changed knowledge base.
func (s *Session) Stats() Stats { return s.stats.snapshot() }

// Size is the docs and chunks of the knowledge base the session answers
// from now, which changes when a seed elsewhere rebuilds the engine.
func (s *Session) Size() (docs, chunks int) { return s.loaded.Load().engine.Size() }

// Retrieve runs retrieval for one turn, remembers what it showed and
// records the event. With Options.Refresh set it first rebuilds the engine
// if the knowledge base changed since the last turn. With Options.Notes
// set it searches the team's notes too (see route). Recording and
// refreshing are best effort: a failure is logged, never shown as a failed
// turn; so is reading the notes, which a turn answers around.
func (s *Session) Retrieve(ctx context.Context, req Request) retrieval.Result {
	question := req.Query
	if len(req.Terms) > 0 && req.Query != "" {
		req.Query = strings.Join(append([]string{req.Query}, req.Terms...), " ")
	}
	if !s.retrievalEnabled(ctx) {
		return s.off(ctx, question)
	}
	engine := s.currentEngine(ctx)
	// A request for more evidence than the engine gives gets an engine of
	// that top-k over the same indexes; fewer is a trim (limitEvidence).
	if te, ok := engine.(tunableEngine); ok && req.TopK > te.Config().TopK {
		if wide, err := te.WithSettings(min(req.TopK, maxRequestTopK), te.Config().Alpha); err == nil {
			engine = wide
		}
	}
	s.mu.Lock()
	// The follow-up state survives a rebuild as chunk ids: if the last
	// chunk's doc is gone, "tell me more" gets whatever the engine says.
	turn := turnState{lastChunkID: s.lastChunkID, shown: slices.Clone(s.shown), offered: s.crossOffered,
		categories: req.Categories, alpha: req.Alpha}
	s.mu.Unlock()
	var embedNote string
	turn.vector, embedNote = s.questionVector(ctx, req, turn)
	if turn.vector != nil {
		turn.vectorModel = s.opts.Embedder.Model()
	}

	out := s.route(ctx, engine, req, turn)
	out.res = s.refine(ctx, engine, req, turn, out.res)
	res := limitEvidence(out.res, req)
	if embedNote != "" {
		res.Notes = append(slices.Clip(res.Notes), embedNote)
	}
	if question != req.Query {
		res.Query = question
		res.Notes = append(slices.Clip(res.Notes), "searched with the added terms: "+strings.Join(req.Terms, ", "))
	}

	s.mu.Lock()
	if req.DocSlug != "" {
		s.lastPill = req.DocSlug
	}
	if res.Rule == retrieval.RuleFollowUp && req.DocSlug == "" && req.AfterChunkID == "" {
		res.Results = s.withLastChunk(res.Results)
	}
	s.crossOffered = nil
	if res.Rule == retrieval.RuleCrossCorpus {
		s.crossOffered = res.Options
	}
	s.stats.record(res)
	if id := answeredChunk(res); id != "" {
		s.lastChunkID = id
		s.lastEvidence = nil
		if i := slices.IndexFunc(res.Results, func(ev retrieval.Evidence) bool { return ev.ChunkID == id }); i >= 0 {
			s.lastEvidence = &res.Results[i]
		}
		s.shown = append(s.shown, id)
	}
	ev := s.event(ctx, res, out)
	ev.ConversationID, ev.TurnIndex = req.ConversationID, req.TurnIndex
	// A turn the model answers is recorded once its usage is known.
	unanswered := s.pending
	s.pending = nil
	if NeedsModel(res) {
		s.pending = &ev
	}
	s.mu.Unlock()

	s.auditReads(ctx, res, out.notes, out.reason)
	if unanswered != nil {
		s.record(ctx, *unanswered)
	}
	if !NeedsModel(res) {
		s.record(ctx, ev)
	}
	return res
}

// maxRequestTopK is the most evidence a request may ask for, the engine's
// own limit (retrieval.Config.Validate).
const maxRequestTopK = 100

// limitEvidence applies a request's Exclude and TopK to a result's
// evidence.
func limitEvidence(res retrieval.Result, req Request) retrieval.Result {
	if len(req.Exclude) == 0 && req.TopK <= 0 {
		return res
	}
	res.Results = slices.DeleteFunc(slices.Clone(res.Results), func(ev retrieval.Evidence) bool {
		return slices.Contains(req.Exclude, ev.ChunkID)
	})
	if req.TopK > 0 && len(res.Results) > req.TopK {
		res.Results = res.Results[:req.TopK]
	}
	return res
}

// turnState is what routing a turn reads of the conversation so far.
type turnState struct {
	lastChunkID string
	shown       []string
	offered     []retrieval.Option // the Docs and Notes pills of the last turn, if it offered them
	// vector is the question's embedding, of vectorModel, for the docs
	// (notes are not embedded); nil when the turn is lexical.
	vector      []float32
	vectorModel string
	// categories and alpha are the request's, for the docs alone: the
	// notes have no categories and no vectors.
	categories []string
	alpha      *float64
}

// lexical is t for the notes: without the question's vector, and without
// the docs' scope and alpha.
func (t turnState) lexical() turnState {
	t.vector, t.vectorModel = nil, ""
	t.categories, t.alpha = nil, nil
	return t
}

// docsQuery is the docs engine's query for a question of a turn.
func (t turnState) docsQuery(text string) retrieval.Query {
	return retrieval.Query{Text: text, LastChunkID: t.lastChunkID, Shown: t.shown, Vector: t.vector, VectorModel: t.vectorModel,
		Categories: t.categories, Alpha: t.alpha}
}

// routed is a turn's result with how the notes took part in it.
type routed struct {
	res     retrieval.Result
	notes   *notesIndex   // the notes index the turn read, nil when none
	failure *notesFailure // why the notes were not searched; nil when they were or were not asked
	reason  knowledge.ReadReason
	gap     *float64         // Between's gap when both corpora answered
	choice  knowledge.Corpus // the corpus picked from Docs and Notes pills
}

// searchText is the corpus a request asks and the words its engine is
// asked: the question without the words that said where to look
// (analysis.CorpusIntent) when they name that corpus, which they choose
// when the request leaves it to the question. Without notes the docs
// answer every question, and only words naming the docs are left out.
func (s *Session) searchText(req Request) (knowledge.Corpus, string) {
	named, rest := analysis.CorpusIntent(req.Query)
	corpus := req.Corpus
	switch {
	case !s.opts.Notes.enabled():
		corpus = knowledge.CorpusDocs
	case corpus == "" || corpus == knowledge.CorpusAuto:
		corpus = named
	}
	if named != corpus {
		return corpus, req.Query
	}
	return corpus, rest
}

// asAsked gives a result the question as asked when the engine read it
// without some of its words (see searchText): the turn is the question.
func asAsked(res retrieval.Result, question, searched string) retrieval.Result {
	if searched != question {
		res.Query = textsafe.Clip(textsafe.Line(question), retrieval.MaxQueryChars)
	}
	return res
}

// route answers one turn from the docs, the notes or both:
//   - a picked option or a continuation goes to the corpus of its doc or
//     note, and so does "tell me more" after an answer from a note;
//   - a question with explicit intent ("search my notes for …", "in the
//     docs …"), or a request for one corpus, asks that corpus alone;
//   - any other question asks both at once, and Between decides: one
//     answers, or both are offered as Docs and Notes pills.
//
// Without notes (none configured, no workspace, a failure or a timeout)
// the docs answer; a question that asked for the notes is told they could
// not be read.
func (s *Session) route(ctx context.Context, docs Engine, req Request, turn turnState) routed {
	if !s.opts.Notes.enabled() {
		question := req.Query
		_, req.Query = s.searchText(req)
		return routed{res: stamp(asAsked(s.askDocs(docs, req, turn), question, req.Query), knowledge.CorpusDocs)}
	}
	if req.NoteID != "" {
		req.DocSlug = knowledge.NoteSlug(strings.TrimSpace(req.NoteID))
	}
	// Picks and continuations name their resource.
	resource := req.DocSlug
	if resource == "" && req.AfterChunkID != "" {
		resource, _, _ = knowledge.ParseChunkID(req.AfterChunkID)
	}
	if resource == "" && req.Query != "" && analysis.IsFollowUp(req.Query) && turn.lastChunkID != "" {
		resource, _, _ = knowledge.ParseChunkID(turn.lastChunkID)
	}
	if resource != "" {
		if _, isNote := knowledge.NoteIDFromSlug(resource); !isNote {
			return routed{res: stamp(s.askDocs(docs, req, turn), knowledge.CorpusDocs), choice: pickedFrom(turn.offered, req.DocSlug, knowledge.CorpusDocs)}
		}
		ix, failure := s.notes(ctx)
		if failure != nil || !ix.has(resource) {
			// A doc whose slug merely looks like a note's, or a note gone
			// (deleted, or out of scope): the docs say what they know of it.
			out := routed{res: stamp(s.askDocs(docs, req, turn), knowledge.CorpusDocs), failure: failure, notes: ix}
			return out
		}
		reason := knowledge.ReadFollowUp
		if req.DocSlug != "" {
			reason = knowledge.ReadLookup
		}
		return routed{res: stamp(s.askDocs(ix.engine, req, turn.lexical()), knowledge.CorpusNotes), notes: ix, reason: reason,
			choice: pickedFrom(turn.offered, req.DocSlug, knowledge.CorpusNotes)}
	}

	corpus, text := s.searchText(req)
	asked := func(res retrieval.Result) retrieval.Result { return asAsked(res, req.Query, text) }
	ask := func(e Engine) retrieval.Result { // the notes: never embedded
		return asked(e.Ask(retrieval.Query{Text: text, LastChunkID: turn.lastChunkID, Shown: turn.shown}))
	}
	askDocs := func() retrieval.Result { return asked(docs.Ask(turn.docsQuery(text))) }
	switch corpus {
	case knowledge.CorpusDocs:
		return routed{res: stamp(askDocs(), knowledge.CorpusDocs)}
	case knowledge.CorpusNotes:
		ix, failure := s.notes(ctx)
		switch {
		case failure != nil && failure.reason == knowledge.NotesFallbackWorkspaceMissing:
			// No workspace, no notes to ask for: the docs, as asked.
			return routed{res: stamp(s.askDocs(docs, req, turn), knowledge.CorpusDocs), failure: failure}
		case failure != nil:
			return routed{res: notesUnavailable(req.Query), failure: failure}
		}
		var res retrieval.Result
		if ix.engine != nil {
			res = ask(ix.engine)
		}
		// A question about the notes that names nothing in particular
		// ("tell me about my notes") gets the latest notes to pick from.
		if ix.engine == nil || len(res.NormalizedTokens) == 0 || res.Rule == retrieval.RuleSmallTalk {
			return routed{res: notesList(req.Query, ix), notes: ix}
		}
		return routed{res: stamp(res, knowledge.CorpusNotes), notes: ix, reason: knowledge.ReadAsk}
	}

	// Both: the notes are fetched (store I/O, within their timeout) while
	// the docs are searched; the notes are searched after. Searching is CPU
	// alone, and two searches at once on a small machine's cores take
	// longer than one after the other (measured: BenchmarkRetrieveWithNotes).
	// A fetch that took less than a goroutine's start-up and wake-up cost
	// last time (a local store with its index cached) is done inline:
	// overlapping it would only add that cost.
	type notesTurn struct {
		ix      *notesIndex
		failure *notesFailure
	}
	fetch := func() notesTurn {
		began := time.Now()
		ix, failure := s.notes(ctx)
		s.notesCache.fetchCost.Store(int64(time.Since(began)))
		return notesTurn{ix: ix, failure: failure}
	}
	var docsRes retrieval.Result
	var nt notesTurn
	if time.Duration(s.notesCache.fetchCost.Load()) < inlineNotesFetch {
		nt = fetch()
		docsRes = stamp(askDocs(), knowledge.CorpusDocs)
	} else {
		done := make(chan notesTurn, 1)
		go func() { done <- fetch() }()
		docsRes = stamp(askDocs(), knowledge.CorpusDocs)
		nt = <-done
	}
	var notesRes retrieval.Result
	if nt.failure == nil && nt.ix.engine != nil {
		notesRes = stamp(ask(nt.ix.engine), knowledge.CorpusNotes)
	}
	out := routed{res: docsRes, notes: nt.ix, failure: nt.failure, reason: knowledge.ReadAsk}
	switch {
	case nt.failure != nil:
		if nt.failure.reason != knowledge.NotesFallbackWorkspaceMissing {
			out.res.Hint = HintNotesUnavailable
		}
		return out
	case nt.ix.engine == nil:
		return out
	}
	b := s.between(docsRes, notesRes)
	out.gap = &b.Gap
	switch {
	case b.Offer():
		out.res = crossResult(docsRes, notesRes, b.Gap)
	case b.Corpus == knowledge.CorpusNotes:
		out.res = notesRes
	}
	return out
}

// inlineNotesFetch is the notes fetch a turn does inline rather than
// beside the docs search: starting and waking a goroutine costs tens of
// microseconds, more than a cached local index's generation check.
const inlineNotesFetch = 50 * time.Microsecond

// HintNotesUnavailable is shown beside an answer from the docs when the
// team's notes could not be searched.
const HintNotesUnavailable = "Notes unavailable."

// pickedFrom is corpus when slug is one of the Docs and Notes pills the
// last turn offered, else "".
func pickedFrom(offered []retrieval.Option, slug string, corpus knowledge.Corpus) knowledge.Corpus {
	if slug != "" && slices.ContainsFunc(offered, func(o retrieval.Option) bool { return o.DocSlug == slug }) {
		return corpus
	}
	return ""
}

// askDocs answers a turn from one engine: a pick, a continuation or a
// question.
func (s *Session) askDocs(engine Engine, req Request, turn turnState) retrieval.Result {
	switch {
	case req.DocSlug != "":
		return engine.Pick(req.DocSlug, req.Query)
	case req.AfterChunkID != "":
		return engine.Continue(req.AfterChunkID, turn.shown)
	}
	return engine.Ask(turn.docsQuery(req.Query))
}

// withLastChunk gives a follow-up the chunk the last answer stopped in
// too, after the engine's next chunk, when it is of the same doc: the
// writer reads in the conversation what it already told of it and goes on
// from there, then into the next chunk. The next chunk stays first, so
// the follow-up state moves on as the engine decided.
func (s *Session) withLastChunk(results []retrieval.Evidence) []retrieval.Evidence {
	last := s.lastEvidence
	if last == nil || len(results) == 0 || results[0].DocSlug != last.DocSlug ||
		slices.ContainsFunc(results, func(ev retrieval.Evidence) bool { return ev.ChunkID == last.ChunkID }) {
		return results
	}
	return append(slices.Clone(results), *last)
}

// stoppedAt moves the follow-up state back to the chunk of the same doc
// an answer cited last, when the answer stopped before the chunk the
// engine gave it next ("tell me more" told the rest of the earlier
// chunk): that chunk was not shown yet, so the next follow-up reaches it.
func (s *Session) stoppedAt(res retrieval.Result, text string) {
	answered := answeredChunk(res)
	ids := cite.IDs(text)
	s.mu.Lock()
	defer s.mu.Unlock()
	if answered == "" || answered != s.lastChunkID || s.lastEvidence == nil {
		return // another turn ran since
	}
	for i := len(ids) - 1; i >= 0; i-- {
		at := slices.IndexFunc(res.Results, func(ev retrieval.Evidence) bool { return ev.ChunkID == ids[i] })
		if at < 0 {
			continue
		}
		ev := res.Results[at]
		if ev.ChunkID == answered || ev.DocSlug != res.Results[0].DocSlug || ev.ChunkIndex > s.lastEvidence.ChunkIndex {
			return
		}
		s.shown = slices.DeleteFunc(s.shown, func(id string) bool { return id == answered })
		s.lastChunkID, s.lastEvidence = ev.ChunkID, &ev
		return
	}
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
func (s *Session) event(ctx context.Context, res retrieval.Result, out routed) knowledge.RetrievalEvent {
	ev := knowledge.RetrievalEvent{
		Time:             s.opts.Now(),
		Query:            res.Query,
		NormalizedTokens: res.NormalizedTokens,
		Action:           string(res.Status),
		Confidence:       res.Confidence,
		LatencyMS:        res.Metrics.RetrievalMS,
		Phase:            res.Metrics.Phase,

		Corpus:            string(res.Corpus),
		CrossCorpusShown:  res.Rule == retrieval.RuleCrossCorpus,
		CrossCorpusChoice: string(out.choice),
		CrossCorpusGap:    out.gap,
		NotesAvailable:    out.notes != nil,
		NotesError:        notesError(out.failure),
	}
	if out.failure != nil {
		ev.NotesFallbackReason = out.failure.reason
	}
	for _, r := range res.Results {
		ev.TopResults = append(ev.TopResults, knowledge.TopResult{
			Slug: r.DocSlug, ChunkIndex: r.ChunkIndex, Score: r.Score, MatchedTerms: r.MatchedTerms,
		})
	}
	s.log.InfoContext(ctx, "retrieval",
		"query", res.Query, "tokens", res.NormalizedTokens, "action", res.Status, "rule", res.Rule,
		"confidence", res.Confidence, "latency_ms", res.Metrics.RetrievalMS, "phase", res.Metrics.Phase,
		"fallback", res.Metrics.Fallback, "results", len(res.Results), "corpus", res.Corpus,
		"notes_fallback", ev.NotesFallbackReason)
	return ev
}

// recordTimeout bounds recording an event after its answer: the answer
// may have been stopped, which cancelled its context, and the event is
// still worth keeping.
const recordTimeout = 5 * time.Second

func (s *Session) record(ctx context.Context, ev knowledge.RetrievalEvent) {
	if s.opts.Events == nil {
		return
	}
	if err := s.opts.Events.RecordRetrieval(ctx, ev); err != nil {
		s.log.WarnContext(ctx, "record retrieval event", "err", err)
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
		promptTokens, completion := ans.Usage.PromptTokens, ans.Usage.CompletionTokens
		ev.PromptTokens, ev.CompletionTokens = &promptTokens, &completion
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
// no_match) are docent's own reply (Reply), streamed as one piece without a model
// call; found goes through the context builder to the writer, and multi
// too, one part at a time (see writeMulti).
func (s *Session) Answer(ctx context.Context, res retrieval.Result, emit func(chunk string)) (Answer, error) {
	if !NeedsModel(res) {
		reply := Reply(res)
		if emit != nil && reply != "" {
			emit(reply)
		}
		s.remember(res.Query, reply)
		return Answer{Answer: llm.Answer{Text: reply, Provider: "clarification"}}, nil
	}

	var out Answer
	var err error
	if res.Status == retrieval.StatusMulti && len(res.Options) > 1 {
		out, err = s.writeMulti(ctx, res, emit)
	} else {
		built := s.opts.Builder.Build(s.input(res.Query, res.Results))
		var ans llm.Answer
		ans, err = s.writer.Stream(ctx, built, emit)
		out = Answer{Answer: ans, Context: built.Report, ModelCalled: true, Sources: sourcesOf(built.Docs, res.Results)}
	}
	if price, ok := s.opts.Prices[out.Model]; ok && out.Usage.Reported {
		cost := price.Cost(out.Usage)
		out.CostUSD = &cost
	}
	s.mu.Lock()
	s.spend.add(out.Usage, out.CostUSD)
	s.mu.Unlock()
	s.recordAnswered(ctx, res, out)
	if err != nil {
		return out, err
	}
	if out.Notice != "" {
		s.log.WarnContext(ctx, "answer fell back", "notice", out.Notice)
	}
	if unknown := cite.Footnotes(out.Text, out.Sources).Unknown(); len(unknown) > 0 {
		s.log.WarnContext(ctx, "answer "+cite.NotGiven, "ids", unknown, "provider", out.Provider, "model", out.Model)
	}
	if res.Status == retrieval.StatusFound {
		s.stoppedAt(res, out.Text)
	}
	s.remember(res.Query, out.Text)
	return out, nil
}

// sourcesOf are the prompt's doc blocks as sources, named by their
// evidence.
func sourcesOf(blocks []prompt.DocBlock, evidence []retrieval.Evidence) []cite.Source {
	out := make([]cite.Source, 0, len(blocks))
	for _, b := range blocks {
		src := cite.Source{ID: b.ID, Title: b.Title, Path: b.Path}
		if i := slices.IndexFunc(evidence, func(ev retrieval.Evidence) bool { return ev.ChunkID == b.ID }); i >= 0 {
			src.File = evidence[i].SourcePath
		}
		out = append(out, src)
	}
	return out
}

// input is the prompt input for a question and its evidence.
func (s *Session) input(question string, evidence []retrieval.Evidence) prompt.Input {
	s.mu.Lock()
	defer s.mu.Unlock()
	return prompt.Input{
		Question: question,
		Glossary: s.opts.Glossary,
		Evidence: evidence,
		Session:  prompt.Session{Corpus: s.opts.Corpus, LastResource: s.lastChunkID, LastPill: s.lastPill},
		App:      s.app,
		Recent:   append([]prompt.Message(nil), s.history...),
		Role:     s.role,
	}
}

// writeMulti writes the answer to a question that asks two things: for
// each doc the engine picked, a short answer to its part of the question
// from that doc's evidence alone, under the doc's title; then the engine's
// question of which to go deeper on. The writer is called once per part,
// so the reply covers both docs whoever writes it, and the pills stay the
// docs.
func (s *Session) writeMulti(ctx context.Context, res retrieval.Result, emit func(string)) (Answer, error) {
	var text strings.Builder
	write := func(piece string) {
		text.WriteString(piece)
		if emit != nil {
			emit(piece)
		}
	}
	out := Answer{ModelCalled: true}
	for i, o := range res.Options {
		if i > 0 {
			write("\n\n")
		}
		write(o.Label + ": ")
		var evidence []retrieval.Evidence
		for _, ev := range res.Results {
			if ev.DocSlug == o.DocSlug {
				evidence = append(evidence, ev)
			}
		}
		built := s.opts.Builder.Build(s.input(cmp.Or(o.Asked, res.Query), evidence))
		out.Sources = append(out.Sources, sourcesOf(built.Docs, evidence)...)
		ans, err := s.writer.Stream(ctx, built, write)
		out.Context = addReport(out.Context, built.Report, i == 0)
		out.Answer = mergeAnswers(out.Answer, ans)
		if err != nil || ans.Stopped {
			out.Text = text.String()
			return out, err
		}
	}
	write("\n\n" + ReplyMultiEnd)
	out.Text = text.String()
	return out, nil
}

// mergeAnswers accumulates the answers to the parts of one question: who
// wrote them and how, with times and counts added up.
func mergeAnswers(acc, a llm.Answer) llm.Answer {
	if acc.Provider == "" {
		acc.Provider, acc.Model, acc.TTFT, acc.Usage = a.Provider, a.Model, a.TTFT, a.Usage
	} else {
		// Usage is reported only when every part's was.
		acc.Usage.PromptTokens += a.Usage.PromptTokens
		acc.Usage.CompletionTokens += a.Usage.CompletionTokens
		acc.Usage.Reported = acc.Usage.Reported && a.Usage.Reported
	}
	if a.Fallback {
		acc.Fallback, acc.Provider = true, a.Provider
	}
	if a.Notice != "" {
		acc.Notice = a.Notice
	}
	acc.Stopped = acc.Stopped || a.Stopped
	acc.Duration += a.Duration
	acc.Chunks += a.Chunks
	acc.TokensPerSec = max(acc.TokensPerSec, a.TokensPerSec)
	return acc
}

// addReport adds the tokens and drops of one more prompt to a report.
func addReport(acc, r prompt.Report, first bool) prompt.Report {
	if first {
		return r
	}
	acc.Tokens.Core += r.Tokens.Core
	acc.Tokens.Docs += r.Tokens.Docs
	acc.Tokens.UI += r.Tokens.UI
	acc.Tokens.Widgets += r.Tokens.Widgets
	acc.Tokens.Recent += r.Tokens.Recent
	acc.Tokens.Total += r.Tokens.Total
	acc.Dropped = append(acc.Dropped, r.Dropped...)
	return acc
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
		prompt.Message{Role: "user", Text: question},
		prompt.Message{Role: "assistant", Text: answer})
	// The builder never sends more than MaxRecentTurns turns; keep a little
	// more so a long session does not grow without bound.
	if keep := 4 * prompt.MaxRecentTurns; len(s.history) > keep {
		s.history = append([]prompt.Message(nil), s.history[len(s.history)-keep:]...)
	}
}

// Restore replaces the conversation the session remembers with stored
// turns, each kept as remember kept it when it was answered, so a resumed
// conversation sends the model the same recent messages as the chat it
// was recorded in. The chat has only written answers (found, multi)
// remembered: it shows clarifications without calling Answer, so they
// are left out here too. The follow-up state comes back from the turns'
// evidence as the live turns set it: the chunk each found answer was
// written from (its first evidence), the chunks shown so far and the last
// pill, so "tell me more" right after a resume goes on where the
// conversation stopped. Restore(nil) starts a fresh conversation.
func (s *Session) Restore(turns []knowledge.Turn) {
	s.mu.Lock()
	s.history = nil
	s.lastChunkID, s.lastEvidence, s.shown, s.lastPill, s.crossOffered = "", nil, nil, "", nil
	for _, t := range turns {
		if t.Picked != "" {
			s.lastPill = t.Picked
		}
		// The evidence is stored best first, as answeredChunk reads it; a
		// heading-only first chunk (rare: a lookup of a bare section) is
		// not marked in a stored turn and counts as answered.
		if retrieval.Status(t.Status) == retrieval.StatusFound && len(t.Evidence) > 0 {
			s.lastChunkID = t.Evidence[0]
			s.shown = append(s.shown, t.Evidence[0])
		}
	}
	s.mu.Unlock()
	for _, t := range turns {
		if NeedsModel(retrieval.Result{Status: retrieval.Status(t.Status)}) {
			s.remember(t.Question, t.Answer)
		}
	}
}

// Recent is the conversation the session remembers for the prompt's
// recent messages, oldest first.
func (s *Session) Recent() []prompt.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.history)
}
