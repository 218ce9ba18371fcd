package assistant_test

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/internal/demo"
	"github.com/docent-sh/docent/internal/syncbuf"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
)

// fakeKnowledge stands in for a shared store: the test moves its
// generation and swaps its corpus the way another process's seed would.
type fakeKnowledge struct {
	mu          sync.Mutex
	generation  int64
	corpus      []knowledge.Doc
	vocabulary  knowledge.Vocabulary
	genErr      error
	corpusErr   error
	corpusReads int
	genReads    int
}

func (k *fakeKnowledge) Generation(context.Context) (int64, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.genReads++
	return k.generation, k.genErr
}

func (k *fakeKnowledge) Corpus(context.Context) ([]knowledge.Doc, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.corpusReads++
	if k.corpusErr != nil {
		return nil, k.corpusErr
	}
	return slices.Clone(k.corpus), nil
}

func (k *fakeKnowledge) Vocabulary(context.Context) (knowledge.Vocabulary, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.vocabulary, nil
}

// seedVocabulary replaces the vocabulary alone and bumps the generation,
// as a seed that changed only the glossary or synonyms does.
func (k *fakeKnowledge) seedVocabulary(v knowledge.Vocabulary) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.vocabulary = v
	k.generation++
}

// seed replaces the corpus and, like a seed that wrote, bumps the generation.
func (k *fakeKnowledge) seed(corpus []knowledge.Doc) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.corpus = corpus
	k.generation++
}

func (k *fakeKnowledge) reads() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.corpusReads
}

func demoDocs(t testing.TB) []knowledge.Doc {
	t.Helper()
	res, err := ingest.Load(context.Background(), kb.Docs(), "kb")
	if err != nil {
		t.Fatal(err)
	}
	return res.Docs
}

func withCalendar(t testing.TB, docs []knowledge.Doc) []knowledge.Doc {
	t.Helper()
	cal, err := ingest.ParseDoc("widgets/calendar.md", []byte(demo.CalendarDoc))
	if err != nil {
		t.Fatalf("parse the calendar doc: %v", err)
	}
	return append(slices.Clone(docs), cal)
}

func without(docs []knowledge.Doc, slug string) []knowledge.Doc {
	return slices.DeleteFunc(slices.Clone(docs), func(d knowledge.Doc) bool { return d.Slug == slug })
}

// engineBuilder stands in for what the command injects: the real engine with the
// demo glossary and default settings. It counts its calls.
type engineBuilder struct {
	mu     sync.Mutex
	builds int
	fail   error
}

func (b *engineBuilder) build(kb knowledge.Bundle) (assistant.Engine, error) {
	b.mu.Lock()
	b.builds++
	fail := b.fail
	b.mu.Unlock()
	if fail != nil {
		return nil, fail
	}
	e, err := retrieval.New(kb, retrieval.DefaultConfig())
	if err != nil {
		return nil, err
	}
	return e, nil
}

func (b *engineBuilder) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.builds
}

// refreshingSession is a session on the demo KB at generation 1, watching k.
func refreshingSession(t *testing.T) (*assistant.Session, *fakeKnowledge, *engineBuilder, *syncbuf.Buffer) {
	t.Helper()
	docs := demoDocs(t)
	k := &fakeKnowledge{generation: 1, corpus: docs, vocabulary: knowledge.Vocabulary{Glossary: kb.Glossary()}}
	b := &engineBuilder{}
	first, err := b.build(k.vocabulary.Bundle(docs))
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncbuf.Buffer{}
	s := assistant.New(first, &recordingWriter{}, assistant.Options{
		Glossary: kb.Glossary(), Corpus: "demo",
		Log:     slog.New(slog.NewTextHandler(logs, nil)),
		Refresh: assistant.Refresh{Knowledge: k, Build: b.build, Generation: 1},
	})
	return s, k, b, logs
}

func ask(s *assistant.Session, q string) retrieval.Result {
	return s.Retrieve(context.Background(), assistant.Request{Query: q})
}

func topSlug(res retrieval.Result) string {
	if len(res.Results) == 0 {
		return ""
	}
	return res.Results[0].DocSlug
}

func TestNewGenerationRebuildsTheEngine(t *testing.T) {
	s, k, b, logs := refreshingSession(t)
	if res := ask(s, "explain calendar"); res.Status != retrieval.StatusNoMatch {
		t.Fatalf("before the seed: explain calendar = %s (%s), want no_match", res.Status, topSlug(res))
	}

	// Content that changed without a new generation is not looked at: the
	// generation is the only thing read per turn.
	k.mu.Lock()
	k.corpus = withCalendar(t, k.corpus)
	k.mu.Unlock()
	if res := ask(s, "explain calendar"); res.Status != retrieval.StatusNoMatch {
		t.Fatalf("without a new generation: explain calendar = %s (%s), want no_match", res.Status, topSlug(res))
	}
	if k.reads() != 0 || b.count() != 1 {
		t.Fatalf("without a new generation: %d corpus reads and %d builds, want 0 and the first one", k.reads(), b.count())
	}

	k.seed(withCalendar(t, demoDocs(t)))
	res := ask(s, "explain calendar")
	if res.Status != retrieval.StatusFound || topSlug(res) != "widgets/calendar" {
		t.Fatalf("after the seed: explain calendar = %s (%s), want found widgets/calendar", res.Status, topSlug(res))
	}
	if k.reads() != 1 || b.count() != 2 {
		t.Errorf("after the seed: %d corpus reads and %d builds, want 1 and 2", k.reads(), b.count())
	}
	log := logs.String()
	if !strings.Contains(log, "retrieval index rebuilt") || !strings.Contains(log, "docs=20") ||
		!strings.Contains(log, "generation=2") || !strings.Contains(log, "took=") {
		t.Errorf("no rebuild record with generation, docs and took in the log:\n%s", log)
	}

	// Later turns at the same generation reuse the new engine.
	for _, q := range []string{"what is quick links", "explain calendar"} {
		ask(s, q)
	}
	if k.reads() != 1 || b.count() != 2 {
		t.Errorf("turns at an unchanged generation: %d corpus reads and %d builds, want still 1 and 2", k.reads(), b.count())
	}
	if n := strings.Count(logs.String(), "retrieval index rebuilt"); n != 1 {
		t.Errorf("%d rebuild records, want 1", n)
	}
}

// A seed that changed only the vocabulary reaches running sessions too:
// its synonyms rewrite the next question.
func TestNewVocabularyRebuildsTheEngine(t *testing.T) {
	s, k, b, _ := refreshingSession(t)
	if res := ask(s, "explain planner"); len(rewrites(res)) != 0 {
		t.Fatalf("before the seed: rewrites %v, want none", rewrites(res))
	}
	k.seedVocabulary(knowledge.Vocabulary{Glossary: kb.Glossary(), Synonyms: []knowledge.Synonym{{From: "planner", To: "workspace"}}})
	res := ask(s, "explain planner")
	if got := rewrites(res); len(got) != 1 || got[0] != (retrieval.Rewrite{From: "planner", To: "workspace"}) {
		t.Errorf("after a vocabulary-only seed: rewrites %v, want planner => workspace", got)
	}
	if b.count() != 2 {
		t.Errorf("%d builds, want 2", b.count())
	}
}

func rewrites(res retrieval.Result) []retrieval.Rewrite {
	for _, ev := range res.Results {
		return ev.MatchExplain.Synonyms
	}
	return nil
}

// "tell me more" keeps continuing the last resource across a rebuild, and
// once that doc is gone it gets the engine's answer, not a failure.
func TestFollowUpSurvivesARebuild(t *testing.T) {
	s, k, _, _ := refreshingSession(t)
	first := s.Retrieve(context.Background(), assistant.Request{DocSlug: "concepts/workspace"})
	if first.Status != retrieval.StatusFound {
		t.Fatalf("lookup: %s", first.Status)
	}

	k.seed(withCalendar(t, demoDocs(t)))
	more := ask(s, "tell me more")
	if more.Status != retrieval.StatusFound || topSlug(more) != "concepts/workspace" ||
		more.Results[0].ChunkIndex <= first.Results[0].ChunkIndex {
		t.Fatalf("tell me more after a rebuild = %s %v, want a later chunk of concepts/workspace", more.Status, more.Results)
	}

	k.seed(without(withCalendar(t, demoDocs(t)), "concepts/workspace"))
	gone := ask(s, "tell me more")
	if gone.Status == retrieval.StatusFound {
		t.Fatalf("tell me more about a deleted doc = found %s, want the engine's clarification", topSlug(gone))
	}
	if assistant.Reply(gone) == "" {
		t.Error("tell me more about a deleted doc: empty reply")
	}
	if res := ask(s, "explain calendar"); topSlug(res) != "widgets/calendar" {
		t.Errorf("after the second rebuild: explain calendar = %s (%s)", res.Status, topSlug(res))
	}
}

// Nothing that goes wrong while checking or rebuilding fails a turn: the
// loaded engine answers, the problem is logged, and a failed read is tried
// again on the next turn while a failed build waits for the next seed.
func TestRefreshFailuresKeepTheLoadedEngine(t *testing.T) {
	s, k, b, logs := refreshingSession(t)
	k.seed(withCalendar(t, demoDocs(t)))

	k.mu.Lock()
	k.genErr = errors.New("connection reset")
	k.mu.Unlock()
	if res := ask(s, "explain workspace"); res.Status != retrieval.StatusFound {
		t.Fatalf("generation check failing: explain workspace = %s, want found from the loaded engine", res.Status)
	}
	if !strings.Contains(logs.String(), "connection reset") {
		t.Errorf("the failed check is not logged:\n%s", logs)
	}

	k.mu.Lock()
	k.genErr, k.corpusErr = nil, errors.New("statement timeout")
	k.mu.Unlock()
	for range 2 {
		if res := ask(s, "explain calendar"); res.Status != retrieval.StatusNoMatch {
			t.Fatalf("corpus read failing: explain calendar = %s, want the old engine's no_match", res.Status)
		}
	}
	if k.reads() != 2 || !strings.Contains(logs.String(), "statement timeout") {
		t.Errorf("corpus read failing: %d reads (want one per turn) and log:\n%s", k.reads(), logs)
	}

	k.mu.Lock()
	k.corpusErr = nil
	k.mu.Unlock()
	b.mu.Lock()
	b.fail = errors.New("index too large")
	b.mu.Unlock()
	builds := b.count()
	for range 2 {
		if res := ask(s, "explain workspace"); res.Status != retrieval.StatusFound {
			t.Fatalf("build failing: explain workspace = %s, want found from the loaded engine", res.Status)
		}
	}
	if got := b.count() - builds; got != 1 {
		t.Errorf("build failing: %d builds for one generation, want 1 (the same corpus fails the same way)", got)
	}
	if !strings.Contains(logs.String(), "index too large") {
		t.Errorf("the failed build is not logged:\n%s", logs)
	}

	// The next seed is tried again, and succeeds.
	b.mu.Lock()
	b.fail = nil
	b.mu.Unlock()
	k.seed(withCalendar(t, demoDocs(t)))
	if res := ask(s, "explain calendar"); topSlug(res) != "widgets/calendar" {
		t.Errorf("after the next seed: explain calendar = %s (%s), want widgets/calendar", res.Status, topSlug(res))
	}
}

// Turns, Stats and seeds running at once: the race detector checks the
// swap, and each generation is built at most once.
func TestConcurrentTurnsDuringRebuilds(t *testing.T) {
	s, k, b, _ := refreshingSession(t)
	demo := demoDocs(t)
	snapshots := [][]knowledge.Doc{withCalendar(t, demo), demo}
	const seeds = 4

	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 10 {
				res := ask(s, []string{"explain workspace", "what is quick links", "explain calendar"}[(w+i)%3])
				if len(res.Results) == 0 && assistant.Reply(res) == "" {
					t.Errorf("neither evidence nor reply for %q", res.Query)
				}
				_ = s.Stats()
			}
		})
	}
	wg.Go(func() {
		for i := range seeds {
			k.seed(snapshots[i%2])
			ask(s, "explain notes")
		}
	})
	wg.Wait()

	if builds := b.count() - 1; builds < 1 || builds > seeds {
		t.Errorf("%d rebuilds for %d seeds, want between 1 and %d", builds, seeds, seeds)
	}
	// The last seed was the demo KB alone.
	if res := ask(s, "explain calendar"); res.Status != retrieval.StatusNoMatch {
		t.Errorf("after the last seed: explain calendar = %s (%s), want no_match", res.Status, topSlug(res))
	}
}
