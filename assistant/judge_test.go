package assistant_test

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/llm/llmtest"
	"github.com/docent-sh/docent/retrieval"
)

const judgedQuestion = "explain workspace"

// judgeServer is langchaingo's OpenAI client, in an llm.Responder, against
// a scripted OpenAI server.
func judgeServer(t *testing.T, script llmtest.Script) (*llmtest.Server, *llm.Responder) {
	t.Helper()
	srv := llmtest.NewOpenAI(t, script)
	sel, err := llm.Resolve(llm.Config{Provider: llm.ProviderOpenAI, BaseURL: srv.BaseURL(), Model: "judge"},
		func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	r, err := llm.NewResponder(sel)
	if err != nil {
		t.Fatal(err)
	}
	return srv, r
}

func judgedSession(t *testing.T, opts assistant.Options) (*assistant.Session, *recordingWriter) {
	t.Helper()
	opts.Glossary, opts.Corpus = kb.Glossary(), "demo"
	opts.Log = slog.New(slog.DiscardHandler)
	w := &recordingWriter{}
	return assistant.New(demoEngine(t), w, opts), w
}

// baseline is what a session without reranking or answerability gives.
func baseline(t *testing.T, q string) retrieval.Result {
	t.Helper()
	s, _ := judgedSession(t, assistant.Options{})
	return steady(s.Retrieve(context.Background(), assistant.Request{Query: q}))
}

// steady is res without its timing, which differs run to run.
func steady(res retrieval.Result) retrieval.Result {
	res.Metrics.RetrievalMS = 0
	return res
}

// widePool is the evidence of the same question at top-k × 3: what the
// reranker is given.
func widePool(t *testing.T, q string, factor int) []retrieval.Evidence {
	t.Helper()
	e := demoEngine(t)
	wide, err := e.WithSettings(e.Config().TopK*factor, e.Config().Alpha)
	if err != nil {
		t.Fatal(err)
	}
	return wide.Ask(retrieval.Query{Text: q}).Results
}

func scoresJSON(ids []string, score func(i int) float64) string {
	var parts []string
	for i, id := range ids {
		parts = append(parts, fmt.Sprintf(`{"id":%q,"score":%g}`, id, score(i)))
	}
	return `{"scores":[` + strings.Join(parts, ",") + `]}`
}

func TestRerankReordersEvidence(t *testing.T) {
	base := baseline(t, judgedQuestion)
	if base.Status != retrieval.StatusFound || len(base.Results) < 2 {
		t.Fatalf("baseline %s with %d results: the test needs a found turn", base.Status, len(base.Results))
	}
	pool := widePool(t, judgedQuestion, assistant.RerankPoolFactor)
	if len(pool) <= len(base.Results) {
		t.Fatalf("pool of %d, base of %d: the test needs a wider pool", len(pool), len(base.Results))
	}
	ids := chunkIDs(retrieval.Result{Results: pool})
	// The model scores the pool in reverse: the last chunk first.
	score := func(i int) float64 { return float64(i+1) / float64(len(ids)+1) }
	srv, r := judgeServer(t, llmtest.Script{Replies: []string{scoresJSON(ids, score)}})
	s, _ := judgedSession(t, assistant.Options{Reranker: r})
	res := steady(s.Retrieve(context.Background(), assistant.Request{Query: judgedQuestion}))

	want := slices.Clone(pool)
	slices.Reverse(want)
	want = want[:len(base.Results)]
	if got := chunkIDs(res); !slices.Equal(got, chunkIDs(retrieval.Result{Results: want})) {
		t.Fatalf("order %v, want %v", got, chunkIDs(retrieval.Result{Results: want}))
	}
	for _, ev := range res.Results {
		j := slices.Index(ids, ev.ChunkID)
		if ev.RerankScore != score(j) || ev.RankScore != pool[j].RankScore || ev.FusedScore != pool[j].FusedScore {
			t.Errorf("%s: rerank %v rank %v, want %v and %v", ev.ChunkID, ev.RerankScore, ev.RankScore, score(j), pool[j].RankScore)
		}
	}
	// The decision stays the engine's.
	if res.Status != base.Status || res.Rule != base.Rule || res.Confidence != base.Confidence ||
		!reflect.DeepEqual(res.Options, base.Options) || !reflect.DeepEqual(res.Candidates, base.Candidates) {
		t.Errorf("decision changed: %s %s %v, was %s %s %v", res.Status, res.Rule, res.Options, base.Status, base.Rule, base.Options)
	}
	if !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.HasPrefix(n, fmt.Sprintf("reranked %d chunks", len(pool))) }) {
		t.Errorf("notes %q", res.Notes)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model calls, want 1", len(reqs))
	}
	msgs, err := srv.Messages(reqs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if !strings.Contains(msgs[len(msgs)-1].Text, "[id: "+id+"]") {
			t.Errorf("passage %s not sent", id)
		}
	}
	if strings.Contains(string(reqs[0].Body), `"stream":true`) {
		t.Error("the reranking call streamed")
	}
}

func TestRerankFallsBack(t *testing.T) {
	base := baseline(t, judgedQuestion)
	ids := chunkIDs(retrieval.Result{Results: widePool(t, judgedQuestion, assistant.RerankPoolFactor)})
	good := scoresJSON(ids, func(int) float64 { return 0.5 })
	for _, tc := range []struct {
		name    string
		script  llmtest.Script
		timeout time.Duration
		note    string
	}{
		{"timeout", llmtest.Script{Replies: []string{good}, ReplyDelay: time.Second}, 50 * time.Millisecond, "rerank: no answer within 50ms"},
		{"server error", llmtest.Script{Statuses: []int{500}}, 0, "rerank: openai: server error (500)"},
		{"bad JSON", llmtest.Script{Replies: []string{"Here you go: " + good}}, 0, "rerank: openai: rerank: the reply is not a JSON object"},
		{"missing id", llmtest.Script{Replies: []string{scoresJSON(ids[1:], func(int) float64 { return 1 })}}, 0, "ids scored"},
		{"unknown id", llmtest.Script{Replies: []string{scoresJSON(append(slices.Clone(ids), "x/y#0"), func(int) float64 { return 1 })}}, 0, "an id not given"},
		{"out of range", llmtest.Script{Replies: []string{scoresJSON(ids, func(int) float64 { return 2 })}}, 0, "is not from 0 to 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, r := judgeServer(t, tc.script)
			s, _ := judgedSession(t, assistant.Options{Reranker: r, RerankTimeout: tc.timeout})
			res := steady(s.Retrieve(context.Background(), assistant.Request{Query: judgedQuestion}))
			if len(res.Notes) != len(base.Notes)+1 {
				t.Fatalf("notes %q, want one more than %q", res.Notes, base.Notes)
			}
			note := res.Notes[len(res.Notes)-1]
			if !strings.Contains(note, tc.note) || !strings.HasSuffix(note, "the fused order stands") {
				t.Errorf("note %q, want %q", note, tc.note)
			}
			res.Notes = base.Notes
			if !reflect.DeepEqual(res, base) {
				t.Errorf("result changed:\n%+v\nwant\n%+v", res.Results, base.Results)
			}
		})
	}
}

func TestAnswerability(t *testing.T) {
	ctx := context.Background()
	base := baseline(t, judgedQuestion)
	yes, no := `{"answerable":true,"reason":"it explains it"}`, `{"answerable":false,"reason":"only a heading"}`

	t.Run("answerable", func(t *testing.T) {
		srv, r := judgeServer(t, llmtest.Script{Replies: []string{yes}})
		s, w := judgedSession(t, assistant.Options{Answerability: r})
		res := steady(s.Retrieve(ctx, assistant.Request{Query: judgedQuestion}))
		if got := res.Notes[len(res.Notes)-1]; got != "answerability: the evidence answers the question" {
			t.Errorf("note %q", got)
		}
		res.Notes = base.Notes
		if !reflect.DeepEqual(res, base) {
			t.Errorf("result changed")
		}
		ans, err := s.Answer(ctx, res, func(string) {})
		if err != nil || !ans.ModelCalled || len(w.prompts) != 1 || len(srv.Requests()) != 1 {
			t.Fatalf("answer %+v, %v; %d prompts, %d checks", ans, err, len(w.prompts), len(srv.Requests()))
		}
	})

	t.Run("widened once", func(t *testing.T) {
		srv, r := judgeServer(t, llmtest.Script{Replies: []string{no, yes}})
		s, w := judgedSession(t, assistant.Options{Answerability: r})
		res := steady(s.Retrieve(ctx, assistant.Request{Query: judgedQuestion}))
		if res.Status != retrieval.StatusFound {
			t.Fatalf("status %s rule %s", res.Status, res.Rule)
		}
		wide := widePool(t, judgedQuestion, assistant.WidenFactor)
		if !slices.Equal(chunkIDs(res), chunkIDs(retrieval.Result{Results: wide})) {
			t.Errorf("evidence %v, want the widened turn's %v", chunkIDs(res), chunkIDs(retrieval.Result{Results: wide}))
		}
		if !slices.Contains(res.Notes, "answerability: widened once to top-k 10, alpha 0.5") {
			t.Errorf("notes %q", res.Notes)
		}
		reqs := srv.Requests()
		if len(reqs) != 2 {
			t.Fatalf("%d checks, want 2", len(reqs))
		}
		second, err := srv.Messages(reqs[1])
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(second[len(second)-1].Text, "[id: "); n != len(wide) {
			t.Errorf("the second check saw %d passages, want %d", n, len(wide))
		}
		if _, err := s.Answer(ctx, res, func(string) {}); err != nil || len(w.prompts) != 1 {
			t.Fatalf("%v, %d prompts", err, len(w.prompts))
		}
	})

	t.Run("still unanswerable", func(t *testing.T) {
		srv, r := judgeServer(t, llmtest.Script{Replies: []string{no, no, yes}})
		s, w := judgedSession(t, assistant.Options{Answerability: r})
		res := steady(s.Retrieve(ctx, assistant.Request{Query: judgedQuestion}))
		if res.Status != retrieval.StatusWeak || res.Rule != assistant.RuleUnanswerable || assistant.NeedsModel(res) {
			t.Fatalf("status %s rule %s", res.Status, res.Rule)
		}
		if len(srv.Requests()) != 2 {
			t.Fatalf("%d checks, want 2: widened once only", len(srv.Requests()))
		}
		var got strings.Builder
		ans, err := s.Answer(ctx, res, func(c string) { got.WriteString(c) })
		if err != nil || ans.ModelCalled || len(w.prompts) != 0 {
			t.Fatalf("answer %+v, %v, %d prompts: want a clarification", ans, err, len(w.prompts))
		}
		want := "I found " + res.Options[0].Label
		if !strings.HasPrefix(got.String(), want) || got.String() != assistant.Reply(res) || !strings.HasSuffix(got.String(), "?") {
			t.Errorf("reply %q, want it to start %q and ask", got.String(), want)
		}
		if !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.HasSuffix(n, "either: only a heading") }) {
			t.Errorf("notes %q", res.Notes)
		}
	})

	t.Run("timeout answers as today", func(t *testing.T) {
		_, r := judgeServer(t, llmtest.Script{Replies: []string{no}, ReplyDelay: assistant.DefaultAnswerabilityTimeout + time.Second})
		s, _ := judgedSession(t, assistant.Options{Answerability: r})
		res := steady(s.Retrieve(ctx, assistant.Request{Query: judgedQuestion}))
		if got := res.Notes[len(res.Notes)-1]; !strings.HasPrefix(got, "answerability: no answer within") {
			t.Errorf("note %q", got)
		}
		res.Notes = base.Notes
		if !reflect.DeepEqual(res, base) {
			t.Errorf("result changed")
		}
	})
}

// TestJudgingOnlyRefinesQuestions: with both on, turns that are no
// question of the docs (small talk, no match, a pick, a continuation,
// a clarification the engine asked) are exactly what they are without,
// and no model is called for them.
func TestJudgingOnlyRefinesQuestions(t *testing.T) {
	srv, r := judgeServer(t, llmtest.Script{Replies: []string{`{"answerable":false}`}})
	ctx := context.Background()
	off, _ := judgedSession(t, assistant.Options{})
	on, _ := judgedSession(t, assistant.Options{Reranker: r, Answerability: r})
	for _, req := range []assistant.Request{
		{Query: "hello"}, {Query: "how do I do it"}, {Query: "zebra migration"},
		{DocSlug: "workspace/overview"}, {AfterChunkID: "workspace/overview#chunk-0"},
	} {
		want := steady(off.Retrieve(ctx, req))
		got := steady(on.Retrieve(ctx, req))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%+v: changed:\n%+v\nwant\n%+v", req, got, want)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d model calls", n)
	}
}
