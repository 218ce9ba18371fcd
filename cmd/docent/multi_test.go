package main

import (
	"strings"
	"testing"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/llm/llmtest"
	"github.com/docent-sh/docent/prompt"
	"github.com/docent-sh/docent/retrieval"
)

// checkMultiReply checks a multi-intent reply: a short answer under each
// option's title, in order, then the question, and the options as pills.
func checkMultiReply(t *testing.T, reply string, options []retrieval.Option) {
	t.Helper()
	if len(options) != 2 || options[0].DocSlug == options[1].DocSlug {
		t.Fatalf("options %+v, want two docs", options)
	}
	if !strings.HasSuffix(reply, "\n\n"+assistant.ReplyMultiEnd) {
		t.Errorf("reply %q does not end with the question", reply)
	}
	parts := strings.Split(strings.TrimSuffix(reply, "\n\n"+assistant.ReplyMultiEnd), "\n\n")
	if len(parts) != 2 {
		t.Fatalf("reply %q: want two summaries", reply)
	}
	for i, o := range options {
		body, ok := strings.CutPrefix(parts[i], o.Label+": ")
		if !ok || strings.TrimSpace(body) == "" {
			t.Errorf("summary %d %q: want %q and a summary", i+1, parts[i], o.Label+": ")
		}
	}
}

func TestAskMultiIntentOffline(t *testing.T) {
	c := newCLI(t)
	o := c.askJSON("workspace and widgets")
	if o.Status != retrieval.StatusMulti || !o.LLM.Called {
		t.Fatalf("status %s, model called %v: want multi, written", o.Status, o.LLM.Called)
	}
	checkMultiReply(t, o.Reply, o.Options)
	for i, opt := range o.Options {
		if !strings.Contains(o.Reply, "["+opt.DocSlug+"#chunk-") {
			t.Errorf("summary %d does not cite %s: %q", i+1, opt.DocSlug, o.Reply)
		}
	}

	out, errOut, code := c.run("ask", "workspace and widgets")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{o.Options[0].Label + ": ", o.Options[1].Label + ": ", assistant.ReplyMultiEnd,
		"1) " + o.Options[0].Label, "2) " + o.Options[1].Label, "docent ask --doc " + o.Options[1].DocSlug} {
		if !strings.Contains(out, want) {
			t.Errorf("docent ask lacks %q:\n%s", want, out)
		}
	}
}

// With a model writing, each part is its own request, asking that part with
// that doc's evidence; the reply keeps both and the question.
func TestAskMultiIntentWithAProvider(t *testing.T) {
	srv := llmtest.NewOpenAI(t, llmtest.Script{Chunks: []string{"In ", "short."}, Usage: llmtest.Usage{PromptTokens: 100, CompletionTokens: 7}})
	c := newCLI(t, "DOCENT_PROVIDER", "openai", "OPENAI_API_KEY", "test-key", "DOCENT_BASE_URL", srv.BaseURL())
	o := c.askJSON("workspace and widgets")
	if o.Status != retrieval.StatusMulti || o.LLM.Provider != "openai" || o.LLM.Fallback {
		t.Fatalf("status %s by %q (fallback %v): want multi written by openai", o.Status, o.LLM.Provider, o.LLM.Fallback)
	}
	checkMultiReply(t, o.Reply, o.Options)
	if !strings.Contains(o.Reply, o.Options[0].Label+": In short.") || !strings.Contains(o.Reply, o.Options[1].Label+": In short.") {
		t.Errorf("reply %q: want the model's answer under each title", o.Reply)
	}
	if u := o.LLM.Usage; !u.Reported || u.PromptTokens != 200 || u.CompletionTokens != 14 {
		t.Errorf("usage %+v, want both parts' usage added up", u)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want one per part", len(reqs))
	}
	for i, r := range reqs {
		msgs, err := srv.Messages(r)
		if err != nil || len(msgs) == 0 {
			t.Fatalf("request %d: %v", i, err)
		}
		user := msgs[len(msgs)-1].Text
		if q := prompt.ParseQuestion(user); q != o.Options[i].Asked {
			t.Errorf("request %d asks %q, want %q", i, q, o.Options[i].Asked)
		}
		other := o.Options[1-i].DocSlug
		if strings.Contains(user, `id="`+other+"#") {
			t.Errorf("request %d quotes %s, the other part's doc", i, other)
		}
	}
}
