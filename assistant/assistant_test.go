package assistant_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/cite"
	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/prompt"
	"github.com/docent-sh/docent/retrieval"
)

// recordingWriter stands in for a model: it keeps the prompts it was given
// and answers with a fixed text in two pieces.
type recordingWriter struct {
	mu      sync.Mutex
	prompts []prompt.Prompt
}

func (w *recordingWriter) Stream(_ context.Context, p prompt.Prompt, emit func(string)) (llm.Answer, error) {
	w.mu.Lock()
	w.prompts = append(w.prompts, p)
	w.mu.Unlock()
	emit("Written ")
	emit("answer.")
	return llm.Answer{Text: "Written answer.", Provider: "test"}, nil
}

type eventSink struct {
	mu     sync.Mutex
	events []knowledge.RetrievalEvent
}

func (s *eventSink) RecordRetrieval(ctx context.Context, ev knowledge.RetrievalEvent) error {
	if err := ctx.Err(); err != nil {
		return err // as a database would
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events = append(s.events, ev)
	return nil
}

func demoEngine(t testing.TB) *retrieval.Engine {
	t.Helper()
	b, _, err := ingest.LoadBundle(context.Background(), kb.Docs(), "kb")
	if err != nil {
		t.Fatal(err)
	}
	e, err := retrieval.New(b, retrieval.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func newSession(t *testing.T, w assistant.Writer) (*assistant.Session, *eventSink) {
	t.Helper()
	sink := &eventSink{}
	return assistant.New(demoEngine(t), w, assistant.Options{Glossary: kb.Glossary(), Corpus: "demo", Events: sink}), sink
}

func TestClarificationsNeverCallTheModel(t *testing.T) {
	w := &recordingWriter{}
	s, _ := newSession(t, w)
	ctx := context.Background()
	for _, q := range []string{"workspace", "explain calendar", "home"} {
		res := s.Retrieve(ctx, assistant.Request{Query: q})
		if assistant.NeedsModel(res) {
			t.Fatalf("%q: status %s, want a clarification", q, res.Status)
		}
		var got strings.Builder
		ans, err := s.Answer(ctx, res, func(c string) { got.WriteString(c) })
		if err != nil {
			t.Fatal(err)
		}
		if ans.ModelCalled || got.String() != assistant.Reply(res) || ans.Text != assistant.Reply(res) {
			t.Errorf("%q: model called %v, streamed %q, want docent's reply %q", q, ans.ModelCalled, got.String(), assistant.Reply(res))
		}
	}
	if len(w.prompts) != 0 {
		t.Fatalf("the model was called %d times for clarifications", len(w.prompts))
	}
}

func TestFoundAnswersGoThroughTheContextBuilder(t *testing.T) {
	w := &recordingWriter{}
	s, sink := newSession(t, w)
	ctx := context.Background()

	res := s.Retrieve(ctx, assistant.Request{Query: "explain workspace"})
	if res.Status != retrieval.StatusFound {
		t.Fatalf("status %s, want found", res.Status)
	}
	var streamed strings.Builder
	ans, err := s.Answer(ctx, res, func(c string) { streamed.WriteString(c) })
	if err != nil {
		t.Fatal(err)
	}
	if !ans.ModelCalled || streamed.String() != "Written answer." {
		t.Fatalf("model called %v, streamed %q", ans.ModelCalled, streamed.String())
	}
	p := w.prompts[0]
	if !strings.Contains(p.System, "Workspace") || ans.Context.Tokens.Core == 0 {
		t.Error("the glossary is not in the system prompt")
	}
	if !strings.Contains(p.User, `id="`+res.Results[0].ChunkID+`"`) {
		t.Errorf("the user message lacks the top chunk %s", res.Results[0].ChunkID)
	}

	// The next turn carries the conversation so far.
	res2 := s.Retrieve(ctx, assistant.Request{Query: "what is quick links"})
	if _, err := s.Answer(ctx, res2, func(string) {}); err != nil {
		t.Fatal(err)
	}
	hist := w.prompts[1].History
	if len(hist) != 2 || hist[0].Text != "explain workspace" || hist[1].Text != "Written answer." {
		t.Errorf("history of the second turn = %+v", hist)
	}

	if len(sink.events) != 2 || sink.events[0].Action != "found" || len(sink.events[0].TopResults) == 0 {
		t.Fatalf("events = %+v, want one per turn with its top results", sink.events)
	}
	if sink.events[0].TopResults[0].Slug != "concepts/workspace" {
		t.Errorf("first event's top result %q", sink.events[0].TopResults[0].Slug)
	}
}

// "tell me more" continues the resource the last answer came from, and a
// second "more" moves on again instead of repeating.
func TestTellMeMoreContinuesTheLastResource(t *testing.T) {
	s, _ := newSession(t, &recordingWriter{})
	ctx := context.Background()
	first := s.Retrieve(ctx, assistant.Request{DocSlug: "concepts/workspace"})
	if first.Status != retrieval.StatusFound {
		t.Fatalf("lookup: status %s", first.Status)
	}
	seen := map[string]bool{first.Results[0].ChunkID: true}
	last := first.Results[0].ChunkIndex
	for _, q := range []string{"tell me more", "more"} {
		res := s.Retrieve(ctx, assistant.Request{Query: q})
		if res.Status != retrieval.StatusFound || len(res.Results) == 0 {
			t.Fatalf("%q: status %s", q, res.Status)
		}
		got := res.Results[0]
		if got.DocSlug != "concepts/workspace" || seen[got.ChunkID] || got.ChunkIndex <= last {
			t.Fatalf("%q gave %s, want a later unseen chunk of concepts/workspace", q, got.ChunkID)
		}
		seen[got.ChunkID] = true
		last = got.ChunkIndex
	}
}

// extractiveResponder is the real offline responder, as docent selects it
// with no provider configured.
func extractiveResponder(t *testing.T) *llm.Responder {
	t.Helper()
	sel, err := llm.Resolve(llm.Config{Provider: llm.ProviderExtractive}, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	r, err := llm.NewResponder(sel)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The real offline responder answers a found turn with citations through
// the same path a model would take.
func TestExtractiveResponderEndToEnd(t *testing.T) {
	s, _ := newSession(t, extractiveResponder(t))
	ctx := context.Background()
	res := s.Retrieve(ctx, assistant.Request{Query: "what is quick links"})
	var pieces int
	ans, err := s.Answer(ctx, res, func(string) { pieces++ })
	if err != nil {
		t.Fatal(err)
	}
	if ans.Provider != llm.ProviderExtractive || !strings.Contains(ans.Text, "[widgets/quick-links#chunk-") {
		t.Fatalf("answer by %s: %q, want a cited quick-links answer", ans.Provider, ans.Text)
	}
	if pieces < 2 {
		t.Errorf("streamed in %d piece(s), want several", pieces)
	}
}

// A question that asks two things gets an answer to each part from its
// own doc, under the doc's title, then the engine's question; the writer
// is asked each part with that doc's evidence only.
func TestMultiIntentAnswersEachPartThenAsks(t *testing.T) {
	w := &recordingWriter{}
	s, _ := newSession(t, w)
	ctx := context.Background()
	res := s.Retrieve(ctx, assistant.Request{Query: "workspace and widgets"})
	if res.Status != retrieval.StatusMulti || len(res.Options) != 2 {
		t.Fatalf("status %s with options %+v, want multi with two", res.Status, res.Options)
	}
	var streamed strings.Builder
	ans, err := s.Answer(ctx, res, func(c string) { streamed.WriteString(c) })
	if err != nil {
		t.Fatal(err)
	}
	want := res.Options[0].Label + ": Written answer.\n\n" + res.Options[1].Label + ": Written answer.\n\n" + assistant.ReplyMultiEnd
	if ans.Text != want || streamed.String() != want {
		t.Errorf("answer %q, streamed %q, want %q", ans.Text, streamed.String(), want)
	}
	if !ans.ModelCalled || ans.Provider != "test" || len(w.prompts) != 2 {
		t.Fatalf("model called %v by %q with %d prompts, want one per part", ans.ModelCalled, ans.Provider, len(w.prompts))
	}
	for i, p := range w.prompts {
		o := res.Options[i]
		if got := prompt.ParseQuestion(p.User); got != o.Asked || o.Asked == "" {
			t.Errorf("prompt %d asks %q, want the part %q", i, got, o.Asked)
		}
		if len(p.Docs) == 0 {
			t.Errorf("prompt %d has no evidence", i)
		}
		for _, d := range p.Docs {
			if !strings.HasPrefix(d.ID, o.DocSlug+"#") {
				t.Errorf("prompt %d, for %s, quotes %s", i, o.DocSlug, d.ID)
			}
		}
	}
	if ans.Context.Tokens.Total <= 0 {
		t.Errorf("context report %+v, want both prompts counted", ans.Context.Tokens)
	}
}

// "tell me more" after an offline answer goes on within the chunk it
// stopped in before moving to the next, so every sentence of a doc is
// reached once, in order; the sources name the chunks the prompt held.
func TestTellMeMoreGoesOnWhereTheAnswerStopped(t *testing.T) {
	s, _ := newSession(t, extractiveResponder(t))
	ctx := context.Background()
	var told []string
	var cited []string
	for i, q := range []string{"", "tell me more", "tell me more", "tell me more"} {
		req := assistant.Request{Query: q}
		if i == 0 {
			req = assistant.Request{DocSlug: "concepts/workspace"}
		}
		res := s.Retrieve(ctx, req)
		if res.Status != retrieval.StatusFound {
			t.Fatalf("turn %d: status %s", i, res.Status)
		}
		ans, err := s.Answer(ctx, res, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(ans.Sources) == 0 {
			t.Fatalf("turn %d: no sources", i)
		}
		ids := cite.IDs(ans.Text)
		for _, id := range ids {
			if !slices.ContainsFunc(ans.Sources, func(src cite.Source) bool { return src.ID == id }) {
				t.Errorf("turn %d cites %s, not among its sources", i, id)
			}
		}
		for _, sentence := range strings.Split(cite.Strip(ans.Text), ". ") {
			if slices.Contains(told, sentence) {
				t.Errorf("turn %d repeats %q", i, sentence)
			}
			told = append(told, sentence)
		}
		cited = append(cited, ids...)
		t.Logf("turn %d: %s", i, ans.Text)
	}
	// Chunk by chunk in the doc's order, none skipped.
	for i := 1; i < len(cited); i++ {
		a, b := chunkIndex(t, cited[i-1]), chunkIndex(t, cited[i])
		if b < a || b > a+1 {
			t.Errorf("answers cite %v: a chunk skipped or revisited", cited)
		}
	}
	if len(cited) < 2 {
		t.Errorf("four answers cite %v", cited)
	}
}

func chunkIndex(t *testing.T, id string) int {
	t.Helper()
	_, n, ok := strings.Cut(id, "#chunk-")
	v, err := strconv.Atoi(n)
	if !ok || err != nil {
		t.Fatalf("citation %q", id)
	}
	return v
}

// A picked pill keeps the question that offered it: the prompt asks it,
// over the picked doc's chunks that match it, best first.
func TestPickKeepsTheQuestion(t *testing.T) {
	w := &recordingWriter{}
	s, sink := newSession(t, w)
	ctx := context.Background()
	const question, slug = "how do I create a workspace", "actions/workspaces"
	res := s.Retrieve(ctx, assistant.Request{Query: question, DocSlug: slug})
	if res.Status != retrieval.StatusFound || res.Query != question {
		t.Fatalf("pick: %s, query %q", res.Status, res.Query)
	}
	if _, err := s.Answer(ctx, res, func(string) {}); err != nil {
		t.Fatal(err)
	}
	if len(w.prompts) != 1 {
		t.Fatalf("%d prompts, want 1", len(w.prompts))
	}
	p := w.prompts[0]
	if got := prompt.ParseQuestion(p.User); got != question {
		t.Errorf("prompt question %q, want %q", got, question)
	}
	if len(p.Docs) < 2 {
		t.Fatalf("prompt has %d doc blocks, want the doc's matching chunks", len(p.Docs))
	}
	for _, b := range p.Docs {
		if !strings.HasPrefix(b.ID, slug+"#") {
			t.Errorf("block %s is not from the picked doc", b.ID)
		}
	}
	if !strings.Contains(p.Docs[0].Content, "### Create a workspace") {
		t.Errorf("first block %s (%s) is not the one with the Create steps", p.Docs[0].ID, p.Docs[0].Path)
	}
	if n := len(sink.events); n != 1 || sink.events[0].Query != question {
		t.Errorf("events %+v, want one with the question", sink.events)
	}

	// A bare pick answers from the doc's overview, as before.
	bare := s.Retrieve(ctx, assistant.Request{DocSlug: slug})
	if bare.Rule != retrieval.RuleLookup || len(bare.Results) != 1 {
		t.Errorf("bare pick: %s %+v", bare.Rule, bare.Results)
	}
}

// Every turn the session retrieves counts in its stats, whichever way it
// came (a question, a pick, a continuation).
func TestStatsCountEveryTurn(t *testing.T) {
	s, _ := newSession(t, &recordingWriter{})
	ctx := context.Background()
	found := s.Retrieve(ctx, assistant.Request{Query: "explain workspace"})
	s.Retrieve(ctx, assistant.Request{Query: "workspace"})
	s.Retrieve(ctx, assistant.Request{DocSlug: "concepts/workspace"})
	s.Retrieve(ctx, assistant.Request{AfterChunkID: found.Results[0].ChunkID})
	st := s.Stats()
	if st.Turns != 4 || st.MatchRate != 0.75 || st.P50MS <= 0 || st.P95MS < st.P50MS {
		t.Errorf("stats after a found, an ambiguous, a pick and a continuation: %+v", st)
	}
}

// "According to the docs" says where to look: asked of the docs, whether
// by the question alone or by the corpus chosen too, it is no word of the
// question, and the turn keeps the question as asked.
func TestTheWordsNamingTheDocsAreNotSearched(t *testing.T) {
	const q = "explain workspace according to the docs"
	for _, corpus := range []knowledge.Corpus{"", knowledge.CorpusAuto, knowledge.CorpusDocs} {
		s, _ := newSession(t, &recordingWriter{})
		res := s.Retrieve(t.Context(), assistant.Request{Query: q, Corpus: corpus})
		if !slices.Equal(res.NormalizedTokens, []string{"workspace"}) || res.Query != q {
			t.Errorf("corpus %q: searched %q for %q, want [workspace] for the question as asked", corpus, res.NormalizedTokens, res.Query)
		}
	}
}
