package main

import (
	"strings"
	"testing"

	"github.com/docent-sh/docent/llm/llmtest"
)

// A model that stalls after its first token cannot hang a script calling
// `docent ask`: the idle timeout ends the answer with the offline one.
func TestAskIdleTimeoutEndsAStalledStream(t *testing.T) {
	srv := llmtest.NewOpenAI(t, llmtest.Script{Chunks: []string{"A workspace ", "never comes"}, StallAfter: 1})
	c := newCLI(t, "DOCENT_PROVIDER", "openai", "DOCENT_BASE_URL", srv.BaseURL(), "DOCENT_IDLE_TIMEOUT", "200ms")
	o := c.askJSON("explain workspace")
	if !o.LLM.Called || !o.LLM.Fallback || !strings.Contains(o.LLM.Notice, "idle timeout: no new token within 200ms") {
		t.Fatalf("llm = %+v, want the idle-timeout fallback", o.LLM)
	}
	if !strings.HasPrefix(o.Reply, "A workspace ") || !strings.Contains(o.Reply, "[concepts/workspace#chunk-") {
		t.Errorf("reply %q, want the partial answer then the cited offline answer", o.Reply)
	}
}
