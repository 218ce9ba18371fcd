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

// --enhance: the model proposes terms, the docs' words are kept and
// searched with, the invented one is refused, and the writer answers the
// question as asked. "change the name of a workspace" alone asks back.
func TestAskEnhance(t *testing.T) {
	terms := `{"terms":["rename","frobnicate"]}`
	srv := llmtest.NewOpenAI(t, llmtest.Script{Replies: []string{terms, "Written answer."}})
	c := newCLI(t, "DOCENT_PROVIDER", "openai", "OPENAI_BASE_URL", srv.BaseURL())
	stdout, stderr, code := c.run("ask", "--enhance", "change the name of a workspace")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "enhanced: change the name of a workspace +rename") ||
		!strings.Contains(stderr, "refused (the docs never write them): frobnicate") {
		t.Errorf("stderr does not show the rewrite:\n%s", stderr)
	}
	if !strings.Contains(stdout, "Written answer.") {
		t.Errorf("stdout lacks the answer:\n%s", stdout)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model calls, want enhance and answer", len(reqs))
	}
	msgs, err := srv.Messages(reqs[1])
	if err != nil {
		t.Fatal(err)
	}
	if user := msgs[len(msgs)-1].Text; !strings.Contains(user, "change the name of a workspace") || strings.Contains(user, "frobnicate") {
		t.Errorf("the writer's question is not the one asked:\n%s", user)
	}

	srv = llmtest.NewOpenAI(t, llmtest.Script{Replies: []string{terms, "Written answer."}})
	c = newCLI(t, "DOCENT_PROVIDER", "openai", "OPENAI_BASE_URL", srv.BaseURL())
	o := c.askJSON("--enhance", "change the name of a workspace")
	if o.Enhanced == nil || !slices.Equal(o.Enhanced.Added, []string{"rename"}) || !slices.Equal(o.Enhanced.Refused, []string{"frobnicate"}) ||
		o.Query != "change the name of a workspace" || o.Status != "found" {
		t.Fatalf("json: enhanced %+v, query %q, status %s", o.Enhanced, o.Query, o.Status)
	}
}

// Without a model --enhance says so and the question is searched as
// written: the same turn as without the flag.
func TestAskEnhanceWithoutAModel(t *testing.T) {
	c := newCLI(t, "DOCENT_PROVIDER", "extractive")
	stdout, stderr, code := c.run("ask", "--enhance", "explain workspace")
	plain, _, _ := c.run("ask", "explain workspace")
	if code != 0 || stdout != plain || !strings.Contains(stderr, "query enhancement needs a model") {
		t.Fatalf("exit %d, stdout same as without: %v, stderr:\n%s", code, stdout == plain, stderr)
	}
}
