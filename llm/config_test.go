package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/docent-sh/docent/llm/extractive"
)

const (
	testOpenAIKey    = "sk-test-openai-0123456789abcdef"
	testAnthropicKey = "sk-ant-test-0123456789abcdef"
)

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestResolveAuto(t *testing.T) {
	tests := []struct {
		name      string
		env       map[string]string
		provider  string
		model     string
		baseURL   string
		hasKey    bool
		reasonHas string
	}{
		{name: "nothing set", env: nil, provider: ProviderExtractive, model: extractive.ModelName, reasonHas: "no OPENAI_API_KEY"},
		{name: "openai key", env: map[string]string{EnvOpenAIKey: testOpenAIKey},
			provider: ProviderOpenAI, model: DefaultOpenAIModel, baseURL: defaultOpenAIBaseURL, hasKey: true, reasonHas: EnvOpenAIKey},
		{name: "anthropic key", env: map[string]string{EnvAnthropicKey: testAnthropicKey},
			provider: ProviderAnthropic, model: DefaultAnthropicModel, baseURL: defaultAnthropicBaseURL, hasKey: true, reasonHas: EnvAnthropicKey},
		{name: "ollama host", env: map[string]string{EnvOllamaHost: "gpu-box:11500"},
			provider: ProviderOllama, model: DefaultOllamaModel, baseURL: "http://gpu-box:11500", reasonHas: EnvOllamaHost},
		{name: "openai wins over anthropic and ollama",
			env:      map[string]string{EnvOpenAIKey: testOpenAIKey, EnvAnthropicKey: testAnthropicKey, EnvOllamaHost: "x"},
			provider: ProviderOpenAI, model: DefaultOpenAIModel, baseURL: defaultOpenAIBaseURL, hasKey: true},
		{name: "anthropic wins over ollama",
			env:      map[string]string{EnvAnthropicKey: testAnthropicKey, EnvOllamaHost: "x"},
			provider: ProviderAnthropic, model: DefaultAnthropicModel, baseURL: defaultAnthropicBaseURL, hasKey: true},
		{name: "blank key counts as unset", env: map[string]string{EnvOpenAIKey: "  "},
			provider: ProviderExtractive, model: extractive.ModelName},
		{name: "openai base url from the environment",
			env:      map[string]string{EnvOpenAIKey: testOpenAIKey, EnvOpenAIBaseURL: "http://127.0.0.1:8080/v1"},
			provider: ProviderOpenAI, model: DefaultOpenAIModel, baseURL: "http://127.0.0.1:8080/v1", hasKey: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, provider := range []string{"", "auto", " AUTO "} {
				sel, err := Resolve(Config{Provider: provider}, envOf(tt.env))
				if err != nil {
					t.Fatalf("Resolve(%q): %v", provider, err)
				}
				if sel.Provider != tt.provider || sel.Model != tt.model || sel.BaseURL != tt.baseURL || sel.HasKey() != tt.hasKey {
					t.Errorf("Resolve(%q) = %s (model %q, url %q, key %v); want %s (model %q, url %q, key %v)",
						provider, sel.Provider, sel.Model, sel.BaseURL, sel.HasKey(), tt.provider, tt.model, tt.baseURL, tt.hasKey)
				}
				if !strings.Contains(sel.Reason, tt.reasonHas) {
					t.Errorf("reason %q does not mention %q", sel.Reason, tt.reasonHas)
				}
			}
		})
	}
}

func TestResolveExplicit(t *testing.T) {
	tests := []struct {
		name     string
		cfg      Config
		env      map[string]string
		provider string
		model    string
		baseURL  string
	}{
		{name: "openai with model", cfg: Config{Provider: "openai", Model: "gpt-4.1"}, env: map[string]string{EnvOpenAIKey: testOpenAIKey},
			provider: ProviderOpenAI, model: "gpt-4.1", baseURL: defaultOpenAIBaseURL},
		{name: "openai-compatible server needs no key", cfg: Config{Provider: "openai", BaseURL: "http://localhost:8000/v1", Model: "qwen"},
			provider: ProviderOpenAI, model: "qwen", baseURL: "http://localhost:8000/v1"},
		{name: "flag base url beats environment", cfg: Config{Provider: "openai", BaseURL: "http://a:1/v1"},
			env:      map[string]string{EnvOpenAIKey: testOpenAIKey, EnvOpenAIBaseURL: "http://b:2/v1"},
			provider: ProviderOpenAI, model: DefaultOpenAIModel, baseURL: "http://a:1/v1"},
		{name: "ollama default host", cfg: Config{Provider: "ollama"}, provider: ProviderOllama, model: DefaultOllamaModel, baseURL: "http://127.0.0.1:11434"},
		{name: "ollama host with scheme", cfg: Config{Provider: "ollama"}, env: map[string]string{EnvOllamaHost: "https://ollama.example.com"},
			provider: ProviderOllama, model: DefaultOllamaModel, baseURL: "https://ollama.example.com:11434"},
		{name: "ollama port only", cfg: Config{Provider: "ollama"}, env: map[string]string{EnvOllamaHost: ":9999"},
			provider: ProviderOllama, model: DefaultOllamaModel, baseURL: "http://127.0.0.1:9999"},
		{name: "ollama base url beats host", cfg: Config{Provider: "ollama", BaseURL: "http://box:1234", Model: "qwen2.5"},
			env: map[string]string{EnvOllamaHost: "other"}, provider: ProviderOllama, model: "qwen2.5", baseURL: "http://box:1234"},
		{name: "anthropic", cfg: Config{Provider: "Anthropic"}, env: map[string]string{EnvAnthropicKey: testAnthropicKey},
			provider: ProviderAnthropic, model: DefaultAnthropicModel, baseURL: defaultAnthropicBaseURL},
		{name: "anthropic base url from the environment, as the SDKs take it", cfg: Config{Provider: "anthropic"},
			env:      map[string]string{EnvAnthropicKey: testAnthropicKey, EnvAnthropicBaseURL: "https://gateway.example.com/anthropic/"},
			provider: ProviderAnthropic, model: DefaultAnthropicModel, baseURL: "https://gateway.example.com/anthropic/v1"},
		{name: "anthropic base url with /v1 kept", cfg: Config{Provider: "anthropic"},
			env:      map[string]string{EnvAnthropicKey: testAnthropicKey, EnvAnthropicBaseURL: "http://127.0.0.1:9000/v1"},
			provider: ProviderAnthropic, model: DefaultAnthropicModel, baseURL: "http://127.0.0.1:9000/v1"},
		{name: "anthropic flag base url beats environment", cfg: Config{Provider: "anthropic", BaseURL: "http://a:1"},
			env:      map[string]string{EnvAnthropicKey: testAnthropicKey, EnvAnthropicBaseURL: "http://b:2"},
			provider: ProviderAnthropic, model: DefaultAnthropicModel, baseURL: "http://a:1/v1"},
		{name: "extractive ignores model and url", cfg: Config{Provider: "extractive", Model: "gpt-4o", BaseURL: "::bad"},
			env: map[string]string{EnvOpenAIKey: testOpenAIKey}, provider: ProviderExtractive, model: extractive.ModelName},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := Resolve(tt.cfg, envOf(tt.env))
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			if sel.Provider != tt.provider || sel.Model != tt.model || sel.BaseURL != tt.baseURL {
				t.Errorf("got %s / %q / %q, want %s / %q / %q", sel.Provider, sel.Model, sel.BaseURL, tt.provider, tt.model, tt.baseURL)
			}
		})
	}
}

func TestResolveDefaultsAndLimits(t *testing.T) {
	sel, err := Resolve(Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sel.ConnectTimeout != 10*time.Second || sel.FirstTokenTimeout != 60*time.Second || sel.MaxRetries != 3 {
		t.Errorf("defaults = %s, %s, %d retries; want 10s, 1m0s, 3", sel.ConnectTimeout, sel.FirstTokenTimeout, sel.MaxRetries)
	}
	if sel.IdleTimeout != 30*time.Second || sel.RetryAfterMax != 30*time.Second {
		t.Errorf("default idle timeout %s, Retry-After cap %s; want 30s and 30s", sel.IdleTimeout, sel.RetryAfterMax)
	}
	sel, err = Resolve(Config{ConnectTimeout: time.Second, FirstTokenTimeout: 2 * time.Second, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sel.ConnectTimeout != time.Second || sel.FirstTokenTimeout != 2*time.Second || sel.MaxRetries != 0 {
		t.Errorf("configured = %s, %s, %d retries; want 1s, 2s, 0", sel.ConnectTimeout, sel.FirstTokenTimeout, sel.MaxRetries)
	}
}

func TestResolveErrors(t *testing.T) {
	tests := []struct {
		name        string
		cfg         Config
		env         map[string]string
		wantIn      []string
		missingKey  bool
		keepsChoice string
	}{
		{name: "unknown provider", cfg: Config{Provider: "gemini"}, wantIn: []string{`unknown provider "gemini"`, "openai"}},
		{name: "openai without key", cfg: Config{Provider: "openai"}, wantIn: []string{"OPENAI_API_KEY"}, missingKey: true, keepsChoice: ProviderOpenAI},
		{name: "anthropic without key", cfg: Config{Provider: "anthropic"}, env: map[string]string{EnvOpenAIKey: testOpenAIKey},
			wantIn: []string{"ANTHROPIC_API_KEY"}, missingKey: true, keepsChoice: ProviderAnthropic},
		{name: "base url without scheme", cfg: Config{Provider: "openai", BaseURL: "localhost:8000"}, env: map[string]string{EnvOpenAIKey: testOpenAIKey},
			wantIn: []string{"base URL", "localhost:8000"}},
		{name: "base url ftp", cfg: Config{Provider: "ollama", BaseURL: "ftp://box/"}, wantIn: []string{"scheme must be http or https"}},
		{name: "base url unparsable", cfg: Config{Provider: "ollama", BaseURL: "http://bad host:99"}, wantIn: []string{"base URL"}},
		{name: "base url password is hidden", cfg: Config{Provider: "ollama", BaseURL: "gopher://me:hunter22@box/"},
			wantIn: []string{"scheme must be"}},
		{name: "negative connect timeout", cfg: Config{ConnectTimeout: -time.Second}, wantIn: []string{"connect timeout -1s"}},
		{name: "negative first-token timeout", cfg: Config{FirstTokenTimeout: -time.Second}, wantIn: []string{"first-token timeout -1s"}},
		{name: "negative idle timeout", cfg: Config{IdleTimeout: -time.Second}, wantIn: []string{"idle timeout -1s"}},
		{name: "negative Retry-After cap", cfg: Config{RetryAfterMax: -time.Second}, wantIn: []string{"Retry-After cap -1s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := Resolve(tt.cfg, envOf(tt.env))
			if err == nil {
				t.Fatalf("Resolve(%+v) = %v, want an error", tt.cfg, sel)
			}
			for _, want := range tt.wantIn {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
			for _, secret := range []string{testOpenAIKey, testAnthropicKey, "hunter22"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("error %q leaks a secret", err)
				}
			}
			if got := errors.Is(err, ErrMissingKey); got != tt.missingKey {
				t.Errorf("errors.Is(err, ErrMissingKey) = %v, want %v", got, tt.missingKey)
			}
			if sel.Provider != tt.keepsChoice {
				t.Errorf("selection provider = %q, want %q", sel.Provider, tt.keepsChoice)
			}
		})
	}
}

// Every way a Selection can be printed or logged must leave the key out.
func TestSelectionNeverPrintsKey(t *testing.T) {
	sel, err := Resolve(Config{Provider: "openai", BaseURL: "https://user:hunter22@llm.example.com/v1"},
		envOf(map[string]string{EnvOpenAIKey: testOpenAIKey}))
	if err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	slog.New(slog.NewTextHandler(&logged, nil)).Info("selected", "llm", sel)
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("selected", "llm", sel)
	jsonOut, err := json.Marshal(sel)
	if err != nil {
		t.Fatal(err)
	}
	outputs := map[string]string{
		"%v": fmt.Sprintf("%v", sel), "%+v": fmt.Sprintf("%+v", sel), "%#v": fmt.Sprintf("%#v", sel),
		"%s": fmt.Sprintf("%s", sel), "pointer %+v": fmt.Sprintf("%+v", &sel), "slog": logged.String(), "json": string(jsonOut),
	}
	for name, out := range outputs {
		if strings.Contains(out, testOpenAIKey) || strings.Contains(out, "hunter22") {
			t.Errorf("%s leaks a secret: %s", name, out)
		}
		if !strings.Contains(out, "openai") {
			t.Errorf("%s does not say which provider: %s", name, out)
		}
	}
	if !strings.Contains(sel.String(), "llm.example.com") {
		t.Errorf("String() = %q, want the host", sel.String())
	}
}
