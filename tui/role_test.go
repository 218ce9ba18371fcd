package tui_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/llm/llmtest"
	"github.com/docent-sh/docent/prompt"
	"github.com/docent-sh/docent/tui"
)

// pricedSession is the real session answering through the real OpenAI
// client on srv, with the built-in roles and a price for testModel.
func pricedSession(t *testing.T, srv *llmtest.Server) (*tui.SessionBackend, tui.Status) {
	t.Helper()
	sel, err := llm.Resolve(llm.Config{Provider: llm.ProviderOpenAI, BaseURL: srv.BaseURL(), Model: testModel}, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	writer, err := llm.NewResponder(sel, llm.WithLogger(quiet))
	if err != nil {
		t.Fatal(err)
	}
	s := assistant.New(newEngine(t), writer, assistant.Options{
		Glossary: kb.Glossary(),
		Log:      quiet,
		Roles:    prompt.BuiltinRoles(),
		Prices:   map[string]assistant.Price{testModel: {InputPerMTok: 1, OutputPerMTok: 10}},
	})
	return tui.NewSessionBackend(s), demoStatus(t, sel)
}

// /role picks the role of the following answers: the system prompt the
// provider gets carries it after the rules; /role shows it, /role off
// clears it, and an unknown name lists the roles.
func TestRoleCommand(t *testing.T) {
	srv := llmtest.NewOpenAI(t, llmtest.Script{Chunks: []string{"Answer."}})
	b, st := pricedSession(t, srv)
	s := start(t, b, st, 100, 30)
	say := func(line string, want ...string) {
		t.Helper()
		s.typeText(line)
		s.enter()
		s.waitFor(strings.Join(want, ", "), func(f string) bool { return containsAll(flat(f), want...) })
	}
	say("/role shout", `Role not changed: unknown role "shout": the roles are internal-note, reply-to-customer, translate`)
	say("/role", "No role: answers follow docent's rules alone.")
	say("/role reply-to-customer", "Role reply-to-customer: the following answers are written in it")
	if b.Role() != prompt.RoleReplyToCustomer {
		t.Fatalf("backend role %q after /role reply-to-customer", b.Role())
	}
	say("explain workspace", "Answer.")
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	msgs, err := srv.Messages(reqs[0])
	if err != nil {
		t.Fatal(err)
	}
	sys := msgs[0].Text
	if !strings.Contains(sys, "Role for this answer: reply-to-customer.") || !strings.Contains(sys, "Answer only from the documentation") {
		t.Errorf("system prompt lacks the role or the rules:\n%s", sys)
	}
	say("/role off", "Role reply-to-customer cleared")
	if b.Role() != "" {
		t.Errorf("backend role %q after /role off", b.Role())
	}
}

// The debug pane shows the usage the provider reported beside docent's
// own count, the answer's cost and the session's.
func TestDebugPaneShowsUsageAndCost(t *testing.T) {
	srv := llmtest.NewOpenAI(t, llmtest.Script{Chunks: []string{"Answer."}, Usage: llmtest.Usage{PromptTokens: 2000, CompletionTokens: 100}})
	b, st := pricedSession(t, srv)
	s := start(t, b, st, 100, 60)
	for i := range 2 {
		s.typeText("explain workspace")
		s.enter()
		s.waitFor("answer", func(f string) bool { return strings.Count(f, "Answer.") == i+1 && !strings.Contains(f, "Answering…") })
	}
	s.press(tea.KeyF3, 0)
	s.press(tea.KeyTab, 0)
	for range 40 {
		s.press(tea.KeyDown, 0)
	}
	// 2000 × $1 + 100 × $10 per million tokens = $0.003 an answer.
	want := []string{
		"usage: 2000 prompt + 100 completion tokens reported by openai · docent counted",
		"cost: $0.003000 this answer",
		"session: 2 answers · 4000 prompt + 200 completion tokens · $0.006000",
	}
	s.waitFor("usage in the debug pane", func(f string) bool { return containsAll(flat(sidePane(f)), want...) })
}

// sidePane is the text right of the first vertical rule on each line: the
// pane beside the transcript, whose wrapped lines flat then joins.
func sidePane(frame string) string {
	var out []string
	for _, line := range strings.Split(frame, "\n") {
		if _, right, ok := strings.Cut(line, "│"); ok {
			out = append(out, right)
		}
	}
	return strings.Join(out, "\n")
}
