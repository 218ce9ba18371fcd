package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/llm/extractive"
	"github.com/docent-sh/docent/prompt"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/tokens"
)

// app is a running docent: the store and the chat session on top, whose
// engine is built from what the store holds. Both the TUI and `docent ask`
// start one.
type app struct {
	store   store.Store
	session *assistant.Session
	// notes keeps the asker's notes for the chat's /note and /notes; nil
	// without a workspace.
	notes      *noteKeeper
	closeNotes func()
	selection  llm.Selection
	docs       int // at start-up; the session rebuilds its engine when a seed changes the store
	chunks     int
	titles     []string // of the docs at start-up, in slug order
	started    time.Duration
	// categories are the knowledge base's at start-up and scope the
	// ones --scope restricts retrieval to (nil: all), checked against them.
	categories []string
	scope      []string
	// unfollow stops following the store's change feed (follow); nil
	// when not following.
	unfollow func()
}

// startApp opens the store, builds the engine from what it holds and
// resolves the answer writer. It only reads a shared store: docs reach
// PostgreSQL through `docent seed`, and the session rebuilds its engine
// when a seed changes them. Notices about the knowledge base go to stderr.
//
// Interactive use paces the offline responder so its answer reads as it
// streams; `docent ask` gets it at once.
func (e *env) startApp(ctx context.Context, interactive bool, stderr io.Writer) (*app, error) {
	began := time.Now()
	rcfg, err := e.retrievalConfig()
	if err != nil {
		return nil, err
	}
	sel, err := llm.Resolve(e.cfg.llmConfig(), e.getenv)
	switch {
	case errors.Is(err, llm.ErrMissingKey):
		// The responder says so in one line on every answer and falls back
		// to the extractive one: the chat stays usable.
		e.log.Warn("answer writer", "err", err)
	case err != nil:
		return nil, usageErrorf("%v", err)
	}

	st, bundle, err := e.openReadStore(ctx, stderr)
	if err != nil {
		return nil, err
	}
	started := false
	defer func() {
		if !started {
			st.Close()
		}
	}()
	// The generation before the corpus: a seed committing in between then
	// costs one needless rebuild on the first turn, never a missed one.
	generation, err := st.Generation(ctx)
	if err != nil {
		return nil, fmt.Errorf("read knowledge generation from %s: %w", st.Describe(), err)
	}
	corpus, err := st.Corpus(ctx)
	if err != nil {
		return nil, fmt.Errorf("read corpus from %s: %w", st.Describe(), err)
	}
	if len(corpus) == 0 {
		return nil, e.errNoDocsSeeded(st)
	}
	e.log.Info("knowledge base loaded", "store", st.Describe(), "docs", len(corpus), "generation", generation)
	// The store's corpus with the vocabulary that came with it.
	buildEngine := func(b knowledge.Bundle) (assistant.Engine, error) {
		engine, err := newEngine(b, rcfg)
		if err != nil {
			return nil, err // not a typed nil in the interface
		}
		return engine, nil
	}
	bundle.Docs = corpus
	engine, err := buildEngine(bundle)
	if err != nil {
		return nil, err
	}
	// --scope is checked here, where the knowledge base is known: a
	// category it does not have is a usage error naming the ones it has.
	var categories []string
	if c, ok := engine.(interface{ Categories() []string }); ok {
		categories = c.Categories()
	}
	scope := retrieval.ParseCategories(e.cfg.categories)
	if err := retrieval.CheckCategories(categories, scope); err != nil {
		return nil, usageErrorf("--scope: %v", err)
	}
	opts := []llm.Option{llm.WithLogger(e.log)}
	if interactive {
		opts = append(opts, llm.WithExtractive(extractive.WithPace(extractivePace)))
	}
	writer, err := llm.NewResponder(sel, opts...)
	if err != nil {
		return nil, fmt.Errorf("answer writer %s: %w", sel, err)
	}
	e.log.Info("answer writer", "selection", sel)
	// The prompt names the corpus; a database's host stays out of it.
	corpusName := "shared knowledge base (PostgreSQL)"
	if e.cfg.dbURL == "" {
		corpusName = "embedded demo knowledge base"
		if e.cfg.docsDir != "" {
			corpusName = e.cfg.docsDir
		}
	}
	// The question is embedded with the model the docs were, for hybrid
	// ranking; none configured, or vectors of another model, and the
	// engine ranks by keywords alone, saying so.
	emb, err := e.embedder()
	if err != nil {
		return nil, err
	}
	var queryEmbedder assistant.Embedder
	if emb != nil {
		queryEmbedder = emb
		if v, ok := engine.(interface{ VectorInfo() retrieval.VectorInfo }); ok && v.VectorInfo().Model != emb.Model() {
			info := v.VectorInfo()
			e.log.Warn("hybrid ranking off: the docs' vectors are of another model", "docs_model", info.Model, "indexed", info.Indexed, "query_model", emb.Model())
		}
	}
	reranker, checker := e.judges(writer)
	notesOpts, keeper, closeNotes := e.sessionNotes(ctx, st, buildEngine, rcfg)
	defer func() {
		if !started {
			closeNotes()
		}
	}()
	session := assistant.New(engine, writer, assistant.Options{
		Glossary: bundle.Glossary,
		Corpus:   corpusName,
		Builder:  prompt.Builder{Budgets: e.cfg.promptBudgets(), Counter: tokens.ForModel(sel.Model), Cache: prompt.NewCountCache(countCacheSize)},
		Log:      e.log,
		Events:   st,
		Refresh:  assistant.Refresh{Knowledge: st, Build: buildEngine, Generation: generation},
		Roles:    e.settings.roles,
		Prices:   e.settings.prices,
		Notes:    notesOpts,
		Embedder: queryEmbedder,

		Reranker:      reranker,
		RerankTimeout: e.cfg.rerankTimeout,
		Answerability: checker,
		Enhancer:      enhancerOf(writer),
		Switch:        switchOf(st),
	})
	if err := session.SetRole(e.cfg.role); err != nil {
		return nil, usageErrorf("%v", err)
	}
	docs, chunks := session.Size()
	titles := make([]string, len(corpus))
	for i, d := range corpus {
		titles[i] = d.Title
	}
	started = true
	return &app{
		store: st, session: session, selection: sel, notes: keeper, closeNotes: closeNotes,
		docs: docs, chunks: chunks, titles: titles, started: time.Since(began),
		categories: categories, scope: scope,
	}, nil
}

// judges are the reranker and the answerability checker the flags ask
// for, both the answer writer's model; nil for one not asked for, and for
// both when there is no model to ask (extractive, or a missing key: the
// writer's own notice says so), which a warning says.
func (e *env) judges(writer *llm.Responder) (assistant.Reranker, assistant.AnswerabilityChecker) {
	if !e.cfg.rerank && !e.cfg.answerability {
		return nil, nil
	}
	if !writer.CanJudge() {
		e.log.Warn("--rerank and --answerability need a model provider: off", "provider", writer.Selection().Provider)
		return nil, nil
	}
	var r assistant.Reranker
	var c assistant.AnswerabilityChecker
	if e.cfg.rerank {
		r = writer
	}
	if e.cfg.answerability {
		c = writer
	}
	return r, c
}

// enhancerOf is the answer writer's model as the query enhancer, nil
// when there is no model to ask: then asking for an enhancement says it
// needs one (assistant.ErrNoEnhancer), and nothing else changes.
func enhancerOf(writer *llm.Responder) assistant.Enhancer {
	if !writer.CanJudge() {
		return nil
	}
	return writer
}

// switchOf is the store's team-wide kill switch, nil for a store without
// one.
func switchOf(st store.Store) assistant.Switch {
	if sw, ok := st.(store.RetrievalSwitch); ok {
		return sw
	}
	return nil
}

// countCacheSize bounds the session's cache of token counts: the glossary
// and recently retrieved chunks recur turn after turn.
const countCacheSize = 512

// extractivePace is the pause between the offline responder's pieces in
// the TUI: fast enough never to keep anyone waiting, slow enough to read
// as streaming.
const extractivePace = 15 * time.Millisecond

// follow has the session follow the store's change feed, for a docent
// that runs for long (the chat, serve): PostgreSQL tells every one of them
// of a flipped kill switch and of a seed as it commits, and the session
// stops asking before each turn while it listens. A store without a feed
// (the embedded one) is polled as before. Close stops it.
func (a *app) follow() {
	changes, ok := a.store.(assistant.Changes)
	if !ok || a.unfollow != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.session.Follow(ctx, changes)
	}()
	a.unfollow = func() {
		cancel()
		<-done
	}
}

// Close records what the session still holds and closes the store.
func (a *app) Close() {
	if a.unfollow != nil {
		// First: the listener's rebuilds read the store.
		a.unfollow()
	}
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	a.session.Flush(ctx)
	a.closeNotes()
	a.store.Close()
}

// flushTimeout bounds recording the last event on the way out.
const flushTimeout = 5 * time.Second

// newEngine builds the retrieval engine every command answers with: the
// chat, `docent ask` and `docent eval decisions` decide the same way.
func newEngine(b knowledge.Bundle, rcfg retrieval.Config) (*retrieval.Engine, error) {
	engine, err := retrieval.New(b, rcfg)
	if err != nil {
		return nil, fmt.Errorf("build retrieval index: %w", err)
	}
	return engine, nil
}

func (e *env) retrievalConfig() (retrieval.Config, error) { return e.cfg.retrievalConfig() }

// synonymsFile reads the --synonyms file, nil without one. Its rules go
// after the knowledge base's own, so a rule for the same words replaces
// the folder's.
func (e *env) synonymsFile() ([]knowledge.Synonym, error) {
	if e.cfg.synonymsPath == "" {
		return nil, nil
	}
	src, err := os.ReadFile(e.cfg.synonymsPath)
	if err != nil {
		return nil, usageErrorf("synonyms file: %v", err)
	}
	syn, err := ingest.ParseSynonyms(src)
	if err != nil {
		return nil, usageErrorf("synonyms file %s: %v", e.cfg.synonymsPath, err)
	}
	return syn, nil
}
