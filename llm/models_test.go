package llm_test

import (
	"context"
	"errors"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/llm/extractive"
	"github.com/docent-sh/docent/llm/llmtest"
)

func resolveFor(t *testing.T, cfg llm.Config, env map[string]string) llm.Selection {
	t.Helper()
	sel, err := llm.Resolve(cfg, func(k string) string { return env[k] })
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	return sel
}

func TestListModels(t *testing.T) {
	models := []string{"zeta", "alpha", "mu", "beta", "omega"}
	want := []string{"alpha", "beta", "mu", "omega", "zeta"}
	t.Run("openai", func(t *testing.T) {
		srv := llmtest.NewOpenAI(t, llmtest.Script{Models: models, APIKey: testKey})
		sel := resolveFor(t, llm.Config{Provider: "openai", BaseURL: srv.BaseURL()}, map[string]string{llm.EnvOpenAIKey: testKey})
		got, err := llm.ListModels(context.Background(), sel)
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("ListModels = %q, %v; want %q", got, err, want)
		}
		if r := srv.Requests()[0]; r.Method != "GET" || r.Path != "/v1/models" {
			t.Errorf("request %s %s, want GET /v1/models", r.Method, r.Path)
		}
	})
	t.Run("anthropic pages", func(t *testing.T) {
		srv := llmtest.NewAnthropic(t, llmtest.Script{Models: models, PageSize: 2, APIKey: testKey})
		sel := resolveFor(t, llm.Config{Provider: "anthropic"}, map[string]string{llm.EnvAnthropicKey: testKey, llm.EnvAnthropicBaseURL: srv.URL})
		got, err := llm.ListModels(context.Background(), sel)
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("ListModels = %q, %v; want %q", got, err, want)
		}
		reqs := srv.Requests()
		if len(reqs) != 3 {
			t.Fatalf("%d requests, want 3 pages of at most 2", len(reqs))
		}
		if v := reqs[0].Header.Get("Anthropic-Version"); v == "" {
			t.Error("no anthropic-version header")
		}
		if after := reqs[2].Query.Get("after_id"); after != "beta" {
			t.Errorf("third page asked after %q, want after the second page's last id", after)
		}
	})
	t.Run("ollama", func(t *testing.T) {
		srv := llmtest.NewOllama(t, llmtest.Script{Models: []string{"qwen2.5:7b", "llama3.2:latest", "evil\x1b]0;title\x07"}})
		sel := resolveFor(t, llm.Config{Provider: "ollama"}, map[string]string{llm.EnvOllamaHost: srv.URL})
		got, err := llm.ListModels(context.Background(), sel)
		if want := []string{"evil", "llama3.2:latest", "qwen2.5:7b"}; err != nil || !slices.Equal(got, want) {
			t.Fatalf("ListModels = %q, %v; want %q (control sequences removed)", got, err, want)
		}
		if r := srv.Requests()[0]; r.Path != "/api/tags" {
			t.Errorf("request path %s, want /api/tags", r.Path)
		}
	})
	t.Run("extractive", func(t *testing.T) {
		got, err := llm.ListModels(context.Background(), resolveFor(t, llm.Config{Provider: "extractive"}, nil))
		if err != nil || !slices.Equal(got, []string{extractive.ModelName}) {
			t.Fatalf("ListModels = %q, %v", got, err)
		}
	})
}

func TestListModelsErrors(t *testing.T) {
	addr := freeAddr(t)

	wrongKey := llmtest.NewOpenAI(t, llmtest.Script{APIKey: "the-right-key-0000"})
	echo := llmtest.NewAnthropic(t, llmtest.Script{Statuses: []int{400}, EchoKey: true})
	noListing := llmtest.NewOpenAI(t, llmtest.Script{})
	keys := map[string]string{llm.EnvOpenAIKey: testKey, llm.EnvAnthropicKey: testKey}
	tests := []struct {
		name string
		cfg  llm.Config
		want string
	}{
		{"wrong key", llm.Config{Provider: "openai", BaseURL: wrongKey.BaseURL()}, "openai: list models: authentication failed (401): check OPENAI_API_KEY"},
		{"echoed key", llm.Config{Provider: "anthropic", BaseURL: echo.URL}, "anthropic: list models: the server answered 400: request had X-Api-Key: [redacted]"},
		{"no listing", llm.Config{Provider: "ollama", BaseURL: noListing.URL}, "ollama: list models: the server offers no model listing (404): check --base-url"},
		{"refused", llm.Config{Provider: "ollama", BaseURL: "http://" + addr}, "ollama: list models: cannot connect to " + addr + " (connection refused)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := llm.ListModels(context.Background(), resolveFor(t, tt.cfg, keys))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to start with %q", err, tt.want)
			}
			if strings.Contains(err.Error(), testKey) || strings.Contains(err.Error(), "SECRET") {
				t.Errorf("error %q leaks the key", err)
			}
		})
	}

	// A server that accepts the connection and never answers.
	mute, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	held := make(chan net.Conn, 4)
	defer func() {
		mute.Close()
		for len(held) > 0 {
			(<-held).Close()
		}
	}()
	go func() {
		for {
			conn, err := mute.Accept()
			if err != nil {
				return
			}
			held <- conn
		}
	}()
	sel := resolveFor(t, llm.Config{Provider: "ollama", BaseURL: "http://" + mute.Addr().String(), FirstTokenTimeout: 100 * time.Millisecond}, nil)
	if _, err := llm.ListModels(context.Background(), sel); err == nil || err.Error() != "ollama: list models: no answer within 100ms (first-token timeout)" {
		t.Errorf("mute server: %v, want the first-token timeout", err)
	}

	sel, _ = llm.Resolve(llm.Config{Provider: "anthropic"}, func(string) string { return "" })
	if _, err := llm.ListModels(context.Background(), sel); !errors.Is(err, llm.ErrMissingKey) || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Errorf("without a key: %v, want ErrMissingKey naming ANTHROPIC_API_KEY", err)
	}
}
