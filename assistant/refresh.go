package assistant

import (
	"context"
	"time"

	"github.com/docent-sh/docent/knowledge"
)

// Knowledge is the store a session answers from, as far as keeping its
// engine current goes: a generation that every seed writing anything
// raises, and the corpus and vocabulary to rebuild from.
type Knowledge interface {
	Generation(ctx context.Context) (int64, error)
	Corpus(ctx context.Context) ([]knowledge.Doc, error)
	Vocabulary(ctx context.Context) (knowledge.Vocabulary, error)
}

// BuildEngine builds an engine from a knowledge base. The command injects
// it, so the session knows nothing of retrieval settings.
type BuildEngine func(b knowledge.Bundle) (Engine, error)

// Refresh keeps a session's engine in step with a shared store: a colleague
// seeding the same database must not leave a running session answering
// from the old docs. The zero value never refreshes.
type Refresh struct {
	Knowledge Knowledge
	Build     BuildEngine
	// Generation is the one the session's first engine was built from. Read
	// it before the corpus: a seed landing in between then only costs one
	// needless rebuild, never a missed one.
	Generation int64
}

func (r Refresh) enabled() bool { return r.Knowledge != nil && r.Build != nil }

// generationCheckTimeout bounds the per-turn lookup, so a stalled database
// delays a turn by at most this before the current engine answers anyway.
const generationCheckTimeout = 2 * time.Second

// noGeneration marks that no rebuild has failed: generations start at 0.
const noGeneration = -1

// loadedEngine is an engine and the knowledge generation it was built
// from; it is replaced whole, never modified.
type loadedEngine struct {
	engine     Engine
	generation int64
}

// currentEngine returns the engine for this turn, rebuilding it first when
// the store's generation moved. Nothing here fails a turn: a failed check
// or rebuild is logged and the engine already loaded answers.
func (s *Session) currentEngine(ctx context.Context) Engine {
	r := s.opts.Refresh
	if !r.enabled() {
		return s.loaded.Load().engine
	}
	// Most turns find the generation unchanged, and need no lock to see
	// it: docent serve checks on every request, and a lock taken by each
	// made concurrent requests queue behind one another
	// (BenchmarkRetrieveParallel's p99). The lock is for a rebuild, and for
	// a read the change feed may learn from (see checkGeneration).
	if engine, done := s.unchanged(ctx); done {
		return engine
	}
	// One check and rebuild at a time: concurrent turns that all saw the
	// new generation must not each read the corpus.
	s.refreshMu.Lock()
	defer s.refreshMu.Unlock()
	cur := s.loaded.Load()

	// While the change feed listens it tells every seed: no need to ask.
	gen, known := s.generationState.known()
	var err error
	if !known {
		epoch := s.generationState.epoch()
		checkCtx, cancel := context.WithTimeout(ctx, generationCheckTimeout)
		gen, err = r.Knowledge.Generation(checkCtx)
		cancel()
		if err == nil {
			s.generationState.learn(epoch, gen)
		}
	}
	switch {
	case err != nil:
		s.log.WarnContext(ctx, "check knowledge generation; answering from the loaded index", "err", err)
		return cur.engine
	// Any difference counts, not just a higher number: a database that was
	// dropped and re-seeded starts counting again.
	case gen == cur.generation, gen == s.failedGeneration.Load():
		return cur.engine
	}

	began := time.Now()
	corpus, err := r.Knowledge.Corpus(ctx)
	var vocabulary knowledge.Vocabulary
	if err == nil {
		vocabulary, err = r.Knowledge.Vocabulary(ctx)
	}
	if err != nil {
		// Possibly transient: the next turn tries again.
		s.log.WarnContext(ctx, "reload knowledge base; answering from the loaded index",
			"generation", gen, "loaded_generation", cur.generation, "err", err)
		return cur.engine
	}
	engine, err := r.Build(vocabulary.Bundle(corpus))
	if err != nil {
		// The same corpus would fail the same way: wait for the next seed.
		s.failedGeneration.Store(gen)
		s.log.WarnContext(ctx, "rebuild retrieval index; answering from the loaded index",
			"generation", gen, "loaded_generation", cur.generation, "err", err)
		return cur.engine
	}
	s.loaded.Store(&loadedEngine{engine: engine, generation: gen})
	chunks := 0
	for _, d := range corpus {
		chunks += len(d.Chunks)
	}
	s.log.InfoContext(ctx, "retrieval index rebuilt", "generation", gen, "previous_generation", cur.generation,
		"docs", len(corpus), "chunks", chunks, "took", time.Since(began))
	return engine
}

// unchanged reports, without refreshMu, that the loaded engine answers
// this turn (done): the generation the change feed keeps current, or
// without a listening feed the store's, has not moved (or its rebuild
// failed already), or the store's could not be read. It leaves to the
// locked path a listening feed's generation not yet current: that read
// is learnt (generationState.learn), and reads learnt out of order could
// leave an older generation trusted.
func (s *Session) unchanged(ctx context.Context) (Engine, bool) {
	cur := s.loaded.Load()
	gen, known, listening := s.generationState.snapshot()
	switch {
	case known:
	case listening:
		return nil, false
	default:
		checkCtx, cancel := context.WithTimeout(ctx, generationCheckTimeout)
		g, err := s.opts.Refresh.Knowledge.Generation(checkCtx)
		cancel()
		if err != nil {
			s.log.WarnContext(ctx, "check knowledge generation; answering from the loaded index", "err", err)
			return cur.engine, true
		}
		gen = g
	}
	if gen == cur.generation || gen == s.failedGeneration.Load() {
		return cur.engine, true
	}
	return nil, false
}
