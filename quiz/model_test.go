package quiz_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/docent-sh/docent/internal/demo"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/llm/llmtest"
	"github.com/docent-sh/docent/quiz"
)

// modelSetup is the real langchaingo OpenAI client, through llm.Responder,
// against a fake OpenAI server answering replies in turn.
func modelSetup(t *testing.T, replies ...string) (*quiz.Generator, *llmtest.Server) {
	t.Helper()
	srv := llmtest.NewOpenAI(t, llmtest.Script{Replies: replies})
	sel, err := llm.Resolve(llm.Config{Provider: "openai", BaseURL: srv.BaseURL(), Model: "test-model"},
		func(k string) string {
			if k == llm.EnvOpenAIKey {
				return "sk-test"
			}
			return ""
		})
	if err != nil {
		t.Fatal(err)
	}
	r, err := llm.NewResponder(sel)
	if err != nil {
		t.Fatal(err)
	}
	return &quiz.Generator{Model: r, Log: slog.New(slog.DiscardHandler)}, srv
}

func workspaceChunks(t *testing.T) ([]knowledge.Doc, []knowledge.Chunk) {
	t.Helper()
	docs := demo.Docs(t)
	chunks, err := quiz.Select(docs, "concepts/workspace", nil)
	if err != nil {
		t.Fatal(err)
	}
	return docs, chunks
}

func mcItem(question, citation string) map[string]any {
	return map[string]any{
		"kind": "multiple_choice", "question": question,
		"options": []string{"Inbox", "Archive", "Trash"}, "answer": 0,
		"explanation": "Every entry gets an Inbox workspace.",
		"why_wrong": []map[string]any{
			{"option": 1, "reason": "Archiving is something you do later."},
			{"option": 2, "reason": "Trash holds deleted notes."},
		},
		"citations": []string{citation},
	}
}

func saItem(question, citation string) map[string]any {
	return map[string]any{
		"kind": "short_answer", "question": question,
		"suggested_answer": "Create a separate entry.", "keywords": []string{"entry"},
		"explanation": "Workspaces inherit members from their entry.",
		"citations":   []string{citation},
	}
}

func itemsJSON(t *testing.T, items ...map[string]any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"items": items})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func levelsJSON(levels ...string) string {
	b, _ := json.Marshal(map[string]any{"levels": levels})
	return string(b)
}

const (
	good1 = "concepts/workspace#chunk-1"
	good2 = "concepts/workspace#chunk-2"
)

func TestModelQuizValid(t *testing.T) {
	docs, chunks := workspaceChunks(t)
	g, srv := modelSetup(t,
		itemsJSON(t, mcItem("A customer asks where Quick Capture puts notes. Which workspace?", good1),
			saItem("A team needs different members for one area. What do you advise?", good2)),
		levelsJSON("apply", "analyze"))
	q, err := g.Generate(context.Background(), docs, chunks, quiz.Options{Count: 2, Levels: []quiz.Level{quiz.Apply, quiz.Analyze}})
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Items) != 2 || q.Items[0].Level != quiz.Apply || q.Items[1].Level != quiz.Analyze || len(q.Notes) != 0 {
		t.Fatalf("quiz = %+v", q)
	}
	if it := q.Items[0]; it.Kind != quiz.MultipleChoice || it.Answer != 0 || it.WhyWrong[0] != "" || it.WhyWrong[2] != "Trash holds deleted notes." {
		t.Errorf("item 1 = %+v", it)
	}
	if it := q.Items[1]; it.Kind != quiz.ShortAnswer || it.SuggestedAnswer == "" || len(it.Sources) != 1 || it.Sources[0].ChunkID != good2 || it.Sources[0].Title != "Workspace" {
		t.Errorf("item 2 = %+v", it)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model calls, want generate and classify", len(reqs))
	}
	msgs, err := srv.Messages(reqs[0])
	if err != nil {
		t.Fatal(err)
	}
	user := msgs[len(msgs)-1].Text
	for _, want := range []string{"1. apply", "2. analyze", "[id: " + good1 + "]", "[id: " + good2 + "]"} {
		if !strings.Contains(user, want) {
			t.Errorf("generation prompt lacks %q:\n%s", want, user)
		}
	}
	msgs, _ = srv.Messages(reqs[1])
	if !strings.Contains(msgs[0].Text, `{"levels":[`) || !strings.Contains(msgs[len(msgs)-1].Text, "Which workspace?") {
		t.Errorf("classification call = %+v", msgs)
	}
}

func TestModelQuizInvalidJSON(t *testing.T) {
	docs, chunks := workspaceChunks(t)
	opts := quiz.Options{Count: 1, Levels: []quiz.Level{quiz.Apply}}

	// Asked again once: a second good reply makes the quiz.
	g, srv := modelSetup(t, "Sure! Here is your quiz:", itemsJSON(t, mcItem("Which workspace?", good1)), levelsJSON("apply"))
	q, err := g.Generate(context.Background(), docs, chunks, opts)
	if err != nil || len(q.Items) != 1 || len(srv.Requests()) != 3 {
		t.Fatalf("quiz %+v, err %v, %d calls", q, err, len(srv.Requests()))
	}

	// Twice off the format: no quiz, and an error that says why.
	g, srv = modelSetup(t, "Sure!", `{"items":[{"kind":"essay"}]}`)
	_, err = g.Generate(context.Background(), docs, chunks, opts)
	if err == nil || !strings.Contains(err.Error(), "twice") || !strings.Contains(err.Error(), "item 1") {
		t.Fatalf("err = %v", err)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Fatalf("%d calls, want 2", n)
	}
}

func TestModelQuizCitationNotGiven(t *testing.T) {
	docs, chunks := workspaceChunks(t)
	opts := quiz.Options{Count: 2, Levels: []quiz.Level{quiz.Apply}}
	g, srv := modelSetup(t,
		itemsJSON(t, mcItem("Which workspace?", good1), saItem("What do you advise?", "made/up#chunk-9")),
		itemsJSON(t, saItem("What do you advise, then?", good2)),
		levelsJSON("apply", "apply"))
	q, err := g.Generate(context.Background(), docs, chunks, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Items) != 2 || q.Items[1].Question != "What do you advise, then?" || q.Items[1].Citations[0] != good2 {
		t.Fatalf("quiz = %+v", q)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d calls, want generate, regenerate, classify", len(reqs))
	}
	msgs, _ := srv.Messages(reqs[1])
	if user := msgs[len(msgs)-1].Text; !strings.Contains(user, "Write 1 quiz item") || !strings.Contains(user, `"made/up#chunk-9", which is not among the passages given`) {
		t.Errorf("regeneration prompt:\n%s", user)
	}

	// Wrong again: the item is dropped with a note; the rest stands.
	g, _ = modelSetup(t,
		itemsJSON(t, mcItem("Which workspace?", good1), saItem("What do you advise?", "made/up#chunk-9")),
		itemsJSON(t, saItem("What do you advise, then?", "concepts/entry#chunk-1")),
		levelsJSON("apply"))
	q, err = g.Generate(context.Background(), docs, chunks, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Items) != 1 || len(q.Notes) != 1 || !strings.Contains(q.Notes[0], "item 2 dropped") {
		t.Fatalf("quiz = %+v", q)
	}
}

func TestModelQuizBloomMismatch(t *testing.T) {
	docs, chunks := workspaceChunks(t)
	opts := quiz.Options{Count: 2, Levels: []quiz.Level{quiz.Evaluate}}
	g, srv := modelSetup(t,
		itemsJSON(t, mcItem("Which workspace is best for unsorted notes, and why?", good1), saItem("What is the Inbox?", good1)),
		levelsJSON("evaluate", "remember"),
		itemsJSON(t, saItem("Judge whether a separate entry or a workspace suits a new team, and why.", good2)),
		levelsJSON("evaluate"))
	q, err := g.Generate(context.Background(), docs, chunks, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Items) != 2 || !strings.HasPrefix(q.Items[1].Question, "Judge whether") || q.Items[1].Level != quiz.Evaluate {
		t.Fatalf("quiz = %+v", q)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d calls, want generate, classify, regenerate, classify", len(reqs))
	}
	msgs, _ := srv.Messages(reqs[2])
	if user := msgs[len(msgs)-1].Text; !strings.Contains(user, "classified as remember, not evaluate") {
		t.Errorf("regeneration prompt:\n%s", user)
	}

	// Still the wrong level after its retry: dropped, said in a note.
	g, _ = modelSetup(t,
		itemsJSON(t, mcItem("Which is best, and why?", good1), saItem("What is the Inbox?", good1)),
		levelsJSON("evaluate", "remember"),
		itemsJSON(t, saItem("What is an entry?", good2)),
		levelsJSON("remember"))
	q, err = g.Generate(context.Background(), docs, chunks, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Items) != 1 || len(q.Notes) != 1 || !strings.Contains(q.Notes[0], "classified as remember") {
		t.Fatalf("quiz = %+v", q)
	}
}

// Model text reaches the quiz without terminal control sequences.
func TestModelQuizSanitized(t *testing.T) {
	docs, chunks := workspaceChunks(t)
	g, _ := modelSetup(t, itemsJSON(t, mcItem("Which \x1b[31mworkspace\x1b]0;pwned\x07?", good1)), levelsJSON("apply"))
	q, err := g.Generate(context.Background(), docs, chunks, quiz.Options{Count: 1, Levels: []quiz.Level{quiz.Apply}})
	if err != nil {
		t.Fatal(err)
	}
	if got := q.Items[0].Question; got != "Which workspace?" {
		t.Fatalf("question = %q", got)
	}
}

// A model that does not answer in time fails the quiz with an error that
// says so, instead of holding the command.
func TestModelQuizTimeout(t *testing.T) {
	docs, chunks := workspaceChunks(t)
	srv := llmtest.NewOpenAI(t, llmtest.Script{Replies: []string{`{"items":[]}`}, ReplyDelay: 2 * time.Second})
	sel, err := llm.Resolve(llm.Config{Provider: "openai", BaseURL: srv.BaseURL(), Model: "test-model"},
		func(k string) string { return map[string]string{llm.EnvOpenAIKey: "sk-test"}[k] })
	if err != nil {
		t.Fatal(err)
	}
	r, err := llm.NewResponder(sel)
	if err != nil {
		t.Fatal(err)
	}
	g := &quiz.Generator{Model: r, CallTimeout: 50 * time.Millisecond}
	_, err = g.Generate(context.Background(), docs, chunks, quiz.Options{Count: 1, Levels: []quiz.Level{quiz.Apply}})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "no answer in time") {
		t.Fatalf("err = %v", err)
	}
}
