package main

import (
	"strings"
	"testing"

	"github.com/docent-sh/docent/llm/llmtest"
	"github.com/docent-sh/docent/prompt"
)

// The grounding rules every system prompt keeps, whatever the role.
var groundingRules = []string{
	"Answer only from the documentation given in the <doc> blocks",
	"Cite every chunk you use by its id in square brackets",
}

// --role adds the role to the system prompt the provider receives, after
// the grounding rules, which stay; a role from the config file replaces
// the built-in one of its name.
func TestAskRoleChangesTheSystemPromptNotTheRules(t *testing.T) {
	srv := llmtest.NewOpenAI(t, llmtest.Script{Chunks: []string{"Dear customer, a workspace is an area."}})
	c := newCLI(t, "DOCENT_PROVIDER", "openai", "OPENAI_BASE_URL", srv.BaseURL())
	c.withConfig("roles:\n  translate: Answer in Dutch, whatever the question's language.\n  escalation: Write it for the engineering team.\n")
	systemPrompt := func(args ...string) string {
		t.Helper()
		before := len(srv.Requests())
		if _, errOut, code := c.run(append([]string{"ask"}, append(args, "explain workspace")...)...); code != 0 {
			t.Fatalf("ask %v: exit %d: %s", args, code, errOut)
		}
		reqs := srv.Requests()
		if len(reqs) != before+1 {
			t.Fatalf("ask %v: %d requests, want 1", args, len(reqs)-before)
		}
		msgs, err := srv.Messages(reqs[len(reqs)-1])
		if err != nil || len(msgs) == 0 || msgs[0].Role != "system" {
			t.Fatalf("ask %v: messages %+v, %v; want a system prompt first", args, msgs, err)
		}
		return msgs[0].Text
	}
	plain := systemPrompt()
	roles := map[string]string{
		prompt.RoleReplyToCustomer: "reply the support agent will send to the customer",
		prompt.RoleInternalNote:    "internal note for colleagues",
		prompt.RoleTranslate:       "Answer in Dutch, whatever the question's language.",
		"escalation":               "Write it for the engineering team.",
	}
	for name, text := range roles {
		sys := systemPrompt("--role", name)
		at := strings.Index(sys, text)
		if at < 0 || !strings.HasPrefix(sys, plain[:strings.Index(plain, "<core_concepts>\n")]) {
			t.Errorf("--role %s: system prompt lacks the role's text after the unchanged rules:\n%s", name, sys)
		}
		for _, rule := range groundingRules {
			if i := strings.Index(sys, rule); i < 0 || i > at {
				t.Errorf("--role %s: rule %q missing or after the role", name, rule)
			}
		}
	}
	if strings.Contains(systemPrompt("--role", prompt.RoleTranslate), "customer's language") {
		t.Error("the config file's translate role did not replace the built-in one")
	}
	if strings.Contains(plain, "Role for this answer") {
		t.Errorf("a role without --role:\n%s", plain)
	}
}

func TestAskUnknownRole(t *testing.T) {
	_, errOut, code := newCLI(t).run("ask", "--role", "shout", "explain workspace")
	if code != 2 || !strings.Contains(errOut, `unknown role "shout": the roles are internal-note, reply-to-customer, translate`) {
		t.Errorf("exit %d, stderr %q; want 2 listing the roles", code, errOut)
	}
}
