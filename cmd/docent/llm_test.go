package main

import (
	"encoding/json"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/docent-sh/docent/llm"
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

// ANTHROPIC_BASE_URL sends `docent ask` to the server it names.
func TestAskAnthropicBaseURL(t *testing.T) {
	srv := llmtest.NewAnthropic(t, llmtest.Script{Chunks: []string{"A workspace is an area. ", "[concepts/workspace#chunk-0]"}, APIKey: "sk-ant-test-key"})
	c := newCLI(t, "DOCENT_PROVIDER", "anthropic", "ANTHROPIC_API_KEY", "sk-ant-test-key", "ANTHROPIC_BASE_URL", srv.URL)
	o := c.askJSON("explain workspace")
	if o.LLM.Provider != "anthropic" || o.LLM.Fallback || o.Reply != "A workspace is an area. [concepts/workspace#chunk-0]" {
		t.Fatalf("llm %+v, reply %q; want the answer from the server ANTHROPIC_BASE_URL names", o.LLM, o.Reply)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("server got %d requests, want 1", n)
	}
}

// OPENAI_BASE_URL does the same for OpenAI and compatible servers.
func TestAskOpenAIBaseURL(t *testing.T) {
	srv := llmtest.NewOpenAI(t, llmtest.Script{Chunks: []string{"Local answer."}})
	c := newCLI(t, "DOCENT_PROVIDER", "openai", "OPENAI_BASE_URL", srv.BaseURL())
	o := c.askJSON("explain workspace")
	if o.LLM.Provider != "openai" || o.LLM.Fallback || o.Reply != "Local answer." {
		t.Fatalf("llm %+v, reply %q; want the answer from the server OPENAI_BASE_URL names", o.LLM, o.Reply)
	}
}

// `docent ask --json` carries the usage the provider reported.
func TestAskJSONReportsUsage(t *testing.T) {
	srv := llmtest.NewOllama(t, llmtest.Script{Chunks: []string{"A workspace is an area."}, Usage: llmtest.Usage{PromptTokens: 1234, CompletionTokens: 56}})
	c := newCLI(t, "DOCENT_PROVIDER", "ollama", "OLLAMA_HOST", srv.URL)
	o := c.askJSON("explain workspace")
	if want := (llm.Usage{PromptTokens: 1234, CompletionTokens: 56, Reported: true}); o.LLM.Usage != want {
		t.Errorf("llm.usage = %+v, want %+v", o.LLM.Usage, want)
	}
	// The field names, as a script reads them.
	out, _, _ := c.run("ask", "--json", "explain workspace")
	var raw struct {
		LLM struct {
			Usage map[string]any `json:"usage"`
		} `json:"llm"`
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	if want := map[string]any{"prompt_tokens": 1234.0, "completion_tokens": 56.0, "reported": true}; !maps.Equal(raw.LLM.Usage, want) {
		t.Errorf("llm.usage = %v, want %v", raw.LLM.Usage, want)
	}
	// The offline responder has no usage to report.
	if o := newCLI(t).askJSON("explain workspace"); o.LLM.Usage.Reported {
		t.Errorf("extractive answer reports usage %+v", o.LLM.Usage)
	}
}

func TestModelsCommand(t *testing.T) {
	t.Run("openai", func(t *testing.T) {
		srv := llmtest.NewOpenAI(t, llmtest.Script{Models: []string{"gpt-b", "gpt-a"}, APIKey: "sk-test-models-0123456789"})
		c := newCLI(t, "OPENAI_API_KEY", "sk-test-models-0123456789", "OPENAI_BASE_URL", srv.BaseURL())
		out, errOut, code := c.run("models")
		if code != 0 || out != "gpt-a\ngpt-b\n" {
			t.Fatalf("docent models: exit %d, stdout %q, stderr %q; want the two models, sorted", code, out, errOut)
		}
	})
	t.Run("ollama json", func(t *testing.T) {
		srv := llmtest.NewOllama(t, llmtest.Script{Models: []string{"llama3.2:latest"}})
		out, errOut, code := newCLI(t, "OLLAMA_HOST", srv.URL).run("models", "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var o modelsOutput
		if err := json.Unmarshal([]byte(out), &o); err != nil {
			t.Fatalf("output is not one JSON object: %v\n%s", err, out)
		}
		if o.LLM.Provider != "ollama" || len(o.Models) != 1 || o.Models[0] != "llama3.2:latest" {
			t.Errorf("got %s", out)
		}
	})
	t.Run("offline", func(t *testing.T) {
		out, _, code := newCLI(t).run("models")
		if code != 0 || out != "extractive\n" {
			t.Errorf("exit %d, stdout %q; want the extractive responder's one model", code, out)
		}
	})
	t.Run("missing key", func(t *testing.T) {
		out, errOut, code := newCLI(t, "DOCENT_PROVIDER", "anthropic").run("models")
		if code != 1 || out != "" || !strings.Contains(errOut, "ANTHROPIC_API_KEY") {
			t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 naming ANTHROPIC_API_KEY", code, out, errOut)
		}
	})
	t.Run("bad provider", func(t *testing.T) {
		if _, _, code := newCLI(t, "DOCENT_PROVIDER", "gemini").run("models"); code != 2 {
			t.Errorf("exit %d, want 2 for an unknown provider", code)
		}
	})
}

// A model's answer citing an id it was not given is flagged in the text
// output's sources and in --json, and logged; the ids it was given print
// as numbered footnotes with their title, section and file.
func TestAskFlagsACitationTheModelWasNotGiven(t *testing.T) {
	srv := llmtest.NewOpenAI(t, llmtest.Script{Chunks: []string{
		"A workspace is an area [concepts/", "workspace#chunk-0]. It is made up [made/up#chunk-9].",
	}})
	logDir := t.TempDir()
	c := newCLI(t, "DOCENT_PROVIDER", "openai", "OPENAI_BASE_URL", srv.BaseURL())
	out, errOut, code := c.run("--log", logDir+"/docent.log", "ask", "explain workspace")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "A workspace is an area [1]. It is made up [2].\n\nsources:\n" +
		"  [1] Workspace — concepts/workspace.md\n" +
		"  [2] made/up#chunk-9 — cited a source it was not given\n"
	if out != want {
		t.Errorf("stdout =\n%s\nwant\n%s", out, want)
	}
	log, err := os.ReadFile(logDir + "/docent.log")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "cited a source it was not given") || !strings.Contains(string(log), "made/up#chunk-9") {
		t.Errorf("the log does not record the unknown citation:\n%s", log)
	}
	o := c.askJSON("explain workspace")
	if !strings.Contains(o.Reply, "[concepts/workspace#chunk-0]") {
		t.Errorf("--json reply %q, want the chunk ids kept", o.Reply)
	}
	wantCited := []askCitation{{N: 1, ID: "concepts/workspace#chunk-0", Known: true}, {N: 2, ID: "made/up#chunk-9"}}
	if !slices.Equal(o.Citations, wantCited) {
		t.Errorf("--json citations = %+v, want %+v", o.Citations, wantCited)
	}
}
