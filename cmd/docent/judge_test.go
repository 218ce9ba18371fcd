package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/llm/llmtest"
)

// --answerability asks the writer's model before answering: told twice
// that the chunks do not answer, `docent ask` says what it found and asks,
// and the writer is never called. Off, the same question is answered.
func TestAskAnswerabilityAsksInstead(t *testing.T) {
	no := `{"answerable":false,"reason":"not about this"}`
	srv := llmtest.NewOpenAI(t, llmtest.Script{Replies: []string{no, no, "Written answer."}})
	c := newCLI(t, "DOCENT_PROVIDER", "openai", "OPENAI_BASE_URL", srv.BaseURL(), "DOCENT_ANSWERABILITY", "true")
	o := c.askJSON("explain workspace")
	if o.Rule != assistant.RuleUnanswerable || o.LLM.Called || !strings.HasPrefix(o.Reply, "I found ") {
		t.Fatalf("rule %q, called %v, reply %q: want the unanswerable clarification", o.Rule, o.LLM.Called, o.Reply)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d model calls, want the two checks", n)
	}

	off := llmtest.NewOpenAI(t, llmtest.Script{Chunks: []string{"Written answer."}})
	c = newCLI(t, "DOCENT_PROVIDER", "openai", "OPENAI_BASE_URL", off.BaseURL())
	o = c.askJSON("explain workspace")
	if o.Status != "found" || o.Reply != "Written answer." || len(off.Requests()) != 1 ||
		slices.ContainsFunc(o.Notes, func(n string) bool { return strings.Contains(n, "answerability") || strings.Contains(n, "rerank") }) {
		t.Fatalf("off: status %s, reply %q, %d calls, notes %q", o.Status, o.Reply, len(off.Requests()), o.Notes)
	}
}

// With the extractive writer there is no model to ask: --rerank is off,
// and the turn is as without it.
func TestAskRerankNeedsAModel(t *testing.T) {
	on := newCLI(t, "DOCENT_PROVIDER", "extractive", "DOCENT_RERANK", "1").askJSON("explain workspace")
	off := newCLI(t, "DOCENT_PROVIDER", "extractive").askJSON("explain workspace")
	if on.Status != off.Status || on.Reply != off.Reply || !slices.Equal(on.Notes, off.Notes) {
		t.Fatalf("on: %s %q %q; off: %s %q %q", on.Status, on.Reply, on.Notes, off.Status, off.Reply, off.Notes)
	}
}
