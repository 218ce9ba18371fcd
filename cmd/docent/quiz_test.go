package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/docent-sh/docent/llm/llmtest"
	"github.com/docent-sh/docent/quiz"
)

func TestQuizOffline(t *testing.T) {
	c := newCLI(t)
	out, errOut, code := c.run("quiz", "--count", "4")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"1. [remember]", "4. [understand]", "Answer:", "Source:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// --json is one object; the same seed gives the same quiz.
	a, _, _ := c.run("quiz", "--json", "--seed", "9", "--scope", "widgets")
	b, _, _ := c.run("quiz", "--json", "--seed", "9", "--scope", "widgets")
	if a != b {
		t.Fatal("the same seed gave two quizzes")
	}
	var q quiz.Quiz
	if err := json.Unmarshal([]byte(a), &q); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, a)
	}
	if len(q.Items) != quiz.DefaultCount || q.Generator != "offline" {
		t.Fatalf("quiz = %+v", q)
	}
	for _, it := range q.Items {
		if !strings.HasPrefix(it.Citations[0], "widgets/") {
			t.Errorf("--scope widgets, item cites %s", it.Citations[0])
		}
	}
}

func TestQuizUsageErrors(t *testing.T) {
	c := newCLI(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"quiz", "--levels", "apply"}, "need a model provider"},
		{[]string{"quiz", "--levels", "synthesis"}, `unknown level "synthesis"`},
		{[]string{"quiz", "--count", "0"}, "--count 0"},
		{[]string{"quiz", "--doc", "no/such"}, `no doc "no/such"`},
		{[]string{"quiz", "--doc", "concepts/entry", "--scope", "widgets"}, "not both"},
	} {
		_, errOut, code := c.run(tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// With a model provider the model writes the items and classifies them,
// through the real OpenAI client.
func TestQuizWithModel(t *testing.T) {
	items := `{"items":[{"kind":"short_answer","question":"A team needs different members for one area: what do you advise?","suggested_answer":"A separate entry.","keywords":["entry"],"explanation":"Workspaces inherit members.","citations":["concepts/workspace#chunk-1"]}]}`
	srv := llmtest.NewOpenAI(t, llmtest.Script{Replies: []string{items, `{"levels":["apply"]}`}})
	c := newCLI(t, "DOCENT_PROVIDER", "openai", "OPENAI_BASE_URL", srv.BaseURL(), "OPENAI_API_KEY", "sk-test")
	out, errOut, code := c.run("quiz", "--doc", "concepts/workspace", "--count", "1", "--levels", "apply", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var q quiz.Quiz
	if err := json.Unmarshal([]byte(out), &q); err != nil {
		t.Fatal(err)
	}
	if q.Generator != "model" || len(q.Items) != 1 || q.Items[0].Level != quiz.Apply || q.Items[0].Sources[0].Title != "Workspace" {
		t.Fatalf("quiz = %+v", q)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d model calls, want 2", n)
	}
}
