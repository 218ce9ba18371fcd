// Package llm writes docent's answers: it streams them from a language model
// through langchaingo (OpenAI and OpenAI-compatible servers, Ollama,
// Anthropic) or from the built-in offline extractive responder, and falls
// back to the extractive answer, with one clear line saying why, whenever a
// model cannot answer.
package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/docent-sh/docent/llm/extractive"
)

// Provider names, as given to --provider.
const (
	ProviderAuto       = "auto"
	ProviderExtractive = "extractive"
	ProviderOpenAI     = "openai"
	ProviderOllama     = "ollama"
	ProviderAnthropic  = "anthropic"
)

// Environment variables Resolve reads.
const (
	EnvOpenAIKey        = "OPENAI_API_KEY"
	EnvOpenAIBaseURL    = "OPENAI_BASE_URL"
	EnvAnthropicKey     = "ANTHROPIC_API_KEY"
	EnvAnthropicBaseURL = "ANTHROPIC_BASE_URL"
	EnvOllamaHost       = "OLLAMA_HOST"
)

// Defaults applied by Resolve to zero Config fields.
const (
	DefaultConnectTimeout    = 10 * time.Second
	DefaultFirstTokenTimeout = 60 * time.Second
	DefaultIdleTimeout       = 30 * time.Second
	DefaultRetryAfterMax     = 30 * time.Second
	DefaultMaxRetries        = 3
	// DefaultAnswerTokens is the room kept for the answer in a context
	// window docent sizes (Ollama's num_ctx): answers are a few sentences
	// or a short list of steps, far below it.
	DefaultAnswerTokens = 1024
)

// Default models: small, cheap and fast, because answers are 1–3 sentences
// written from evidence that is already in the prompt.
const (
	DefaultOpenAIModel    = "gpt-4o-mini"
	DefaultAnthropicModel = "claude-3-5-haiku-latest"
	DefaultOllamaModel    = "llama3.2"
)

const (
	defaultOpenAIBaseURL    = "https://api.openai.com/v1"
	defaultAnthropicBaseURL = "https://api.anthropic.com/v1"
	defaultOllamaPort       = "11434"
)

// ErrMissingKey is wrapped by Resolve's error when an explicitly chosen
// provider needs an API key that is not set.
var ErrMissingKey = errors.New("API key not set")

// Config is what the flags and environment say about the answer writer.
// Zero fields take the defaults: provider auto, the provider's default
// model and URL, connect timeout 10 s, first-token timeout 60 s, idle
// timeout 30 s, 3 retries, Retry-After honoured up to 30 s.
type Config struct {
	Provider          string // auto|extractive|openai|ollama|anthropic
	Model             string
	BaseURL           string // OpenAI-compatible server, Ollama or Anthropic endpoint
	ConnectTimeout    time.Duration
	FirstTokenTimeout time.Duration
	IdleTimeout       time.Duration // longest wait between two streamed tokens
	MaxRetries        int           // 429/5xx retries before the first token; negative turns retrying off
	RetryAfterMax     time.Duration // the longest Retry-After waited for; a longer one ends the retries
	AnswerTokens      int           // room for the answer in the context window docent asks Ollama for
}

// Selection is a resolved Config: which provider and model answer, where,
// and with which key. The key is unexported and every way of printing a
// Selection (String, GoString, LogValue) leaves it out.
type Selection struct {
	Provider          string // never auto
	Model             string
	BaseURL           string // empty for extractive
	Reason            string // why this provider, e.g. "OPENAI_API_KEY is set"
	ConnectTimeout    time.Duration
	FirstTokenTimeout time.Duration
	IdleTimeout       time.Duration
	MaxRetries        int // retries of 429/5xx before the first token; 0 = none
	RetryAfterMax     time.Duration
	AnswerTokens      int

	apiKey    string
	keyEnvVar string // the variable the key comes from, for hints in notices
}

// HasKey reports whether an API key was found for the provider.
func (s Selection) HasKey() bool { return s.apiKey != "" }

// String describes the selection for status bars and logs, without the key.
func (s Selection) String() string {
	var b strings.Builder
	b.WriteString(s.Provider)
	if s.Model != "" && s.Model != s.Provider {
		b.WriteString(" ")
		b.WriteString(s.Model)
	}
	if s.BaseURL != "" {
		b.WriteString(" at ")
		b.WriteString(redactURL(s.BaseURL))
	}
	if s.apiKey != "" {
		b.WriteString(" (key: " + redactedMark + ")")
	}
	return b.String()
}

// GoString keeps %#v from printing the unexported key.
func (s Selection) GoString() string {
	return fmt.Sprintf("llm.Selection{Provider:%q, Model:%q, BaseURL:%q, key:%s}",
		s.Provider, s.Model, redactURL(s.BaseURL), s.keyState())
}

// LogValue keeps slog from printing the key.
func (s Selection) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("provider", s.Provider),
		slog.String("model", s.Model),
		slog.String("base_url", redactURL(s.BaseURL)),
		slog.String("key", s.keyState()),
	)
}

// MarshalJSON gives `docent ask --json` the selection without the key and
// with any password in the base URL hidden.
func (s Selection) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Provider string `json:"provider"`
		Model    string `json:"model"`
		BaseURL  string `json:"base_url,omitempty"`
		Reason   string `json:"reason,omitempty"`
	}{s.Provider, s.Model, redactURL(s.BaseURL), s.Reason})
}

func (s Selection) keyState() string {
	if s.apiKey == "" {
		return "unset"
	}
	return redactedMark
}

// Resolve turns cfg and the environment (getenv, so tests and callers need
// not touch the process environment) into a Selection. `auto` picks openai
// when OPENAI_API_KEY is set, then anthropic with ANTHROPIC_API_KEY, then
// ollama with OLLAMA_HOST, else extractive.
//
// When the only problem is that an explicitly chosen provider has no key,
// the error wraps ErrMissingKey and names the variable, and the returned
// Selection is still filled in: a caller that prefers to keep running can
// hand it to NewResponder, and every answer then carries the missing-key
// notice and the extractive answer.
func Resolve(cfg Config, getenv func(string) string) (Selection, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	env := func(name string) string { return strings.TrimSpace(getenv(name)) }

	sel := Selection{
		ConnectTimeout:    cfg.ConnectTimeout,
		FirstTokenTimeout: cfg.FirstTokenTimeout,
		IdleTimeout:       cfg.IdleTimeout,
		MaxRetries:        cfg.MaxRetries,
		RetryAfterMax:     cfg.RetryAfterMax,
		AnswerTokens:      cfg.AnswerTokens,
	}
	if err := sel.applyTimeoutDefaults(); err != nil {
		return Selection{}, err
	}
	switch {
	case sel.MaxRetries == 0:
		sel.MaxRetries = DefaultMaxRetries
	case sel.MaxRetries < 0:
		sel.MaxRetries = 0
	}

	provider := strings.ToLower(strings.TrimSpace(cfg.Provider))
	switch provider {
	case "", ProviderAuto:
		switch {
		case env(EnvOpenAIKey) != "":
			provider, sel.Reason = ProviderOpenAI, "auto: "+EnvOpenAIKey+" is set"
		case env(EnvAnthropicKey) != "":
			provider, sel.Reason = ProviderAnthropic, "auto: "+EnvAnthropicKey+" is set"
		case env(EnvOllamaHost) != "":
			provider, sel.Reason = ProviderOllama, "auto: "+EnvOllamaHost+" is set"
		default:
			provider, sel.Reason = ProviderExtractive, "auto: no OPENAI_API_KEY, ANTHROPIC_API_KEY or OLLAMA_HOST"
		}
	case ProviderExtractive, ProviderOpenAI, ProviderOllama, ProviderAnthropic:
		sel.Reason = "chosen with --provider"
	default:
		return Selection{}, fmt.Errorf("unknown provider %q: want auto, extractive, openai, ollama or anthropic", cfg.Provider)
	}
	sel.Provider = provider

	model := strings.TrimSpace(cfg.Model)
	baseURL := strings.TrimSpace(cfg.BaseURL)
	switch provider {
	case ProviderExtractive:
		// The offline responder has one model and no endpoint; a --model or
		// --base-url meant for another provider is ignored, not an error,
		// so `auto` without keys still starts.
		sel.Model = extractive.ModelName
		return sel, nil
	case ProviderOpenAI:
		sel.Model = orDefault(model, DefaultOpenAIModel)
		sel.keyEnvVar = EnvOpenAIKey
		sel.apiKey = env(EnvOpenAIKey)
		if baseURL == "" {
			baseURL = env(EnvOpenAIBaseURL)
		}
		custom := baseURL != ""
		sel.BaseURL = orDefault(baseURL, defaultOpenAIBaseURL)
		if err := checkBaseURL(sel.BaseURL); err != nil {
			return Selection{}, err
		}
		// OpenAI-compatible servers (vLLM, llama.cpp, LM Studio) usually
		// run without a key; api.openai.com never does.
		if sel.apiKey == "" && !custom {
			return sel, fmt.Errorf("provider openai: %w: set %s (or --base-url for an OpenAI-compatible server)", ErrMissingKey, EnvOpenAIKey)
		}
	case ProviderAnthropic:
		sel.Model = orDefault(model, DefaultAnthropicModel)
		sel.keyEnvVar = EnvAnthropicKey
		sel.apiKey = env(EnvAnthropicKey)
		if baseURL == "" {
			baseURL = env(EnvAnthropicBaseURL)
		}
		if err := checkBaseURL(orDefault(baseURL, defaultAnthropicBaseURL)); err != nil {
			return Selection{}, err
		}
		sel.BaseURL = anthropicAPIRoot(orDefault(baseURL, defaultAnthropicBaseURL))
		if sel.apiKey == "" {
			return sel, fmt.Errorf("provider anthropic: %w: set %s", ErrMissingKey, EnvAnthropicKey)
		}
	case ProviderOllama:
		sel.Model = orDefault(model, DefaultOllamaModel)
		if baseURL == "" {
			baseURL = ollamaURLFromHost(env(EnvOllamaHost))
		}
		sel.BaseURL = baseURL
		if err := checkBaseURL(sel.BaseURL); err != nil {
			return Selection{}, err
		}
	}
	return sel, nil
}

func (s *Selection) applyTimeoutDefaults() error {
	switch {
	case s.ConnectTimeout < 0:
		return fmt.Errorf("connect timeout %s: must not be negative", s.ConnectTimeout)
	case s.FirstTokenTimeout < 0:
		return fmt.Errorf("first-token timeout %s: must not be negative", s.FirstTokenTimeout)
	case s.IdleTimeout < 0:
		return fmt.Errorf("idle timeout %s: must not be negative", s.IdleTimeout)
	case s.RetryAfterMax < 0:
		return fmt.Errorf("Retry-After cap %s: must not be negative", s.RetryAfterMax)
	case s.AnswerTokens < 0:
		return fmt.Errorf("answer tokens %d: must not be negative", s.AnswerTokens)
	}
	if s.ConnectTimeout == 0 {
		s.ConnectTimeout = DefaultConnectTimeout
	}
	if s.FirstTokenTimeout == 0 {
		s.FirstTokenTimeout = DefaultFirstTokenTimeout
	}
	if s.IdleTimeout == 0 {
		s.IdleTimeout = DefaultIdleTimeout
	}
	if s.RetryAfterMax == 0 {
		s.RetryAfterMax = DefaultRetryAfterMax
	}
	if s.AnswerTokens == 0 {
		s.AnswerTokens = DefaultAnswerTokens
	}
	return nil
}

// anthropicAPIRoot takes a base URL as Anthropic's SDKs do, the host
// without /v1 (ANTHROPIC_BASE_URL=https://api.anthropic.com), or with it,
// and returns the root langchaingo's client appends "/messages" to.
func anthropicAPIRoot(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	path := strings.TrimRight(u.Path, "/")
	if !strings.HasSuffix(path, "/v1") {
		path += "/v1"
	}
	u.Path, u.RawPath = path, ""
	return u.String()
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// checkBaseURL rejects what the clients would misread: langchaingo's
// Ollama option even exits the process on an unparsable URL.
func checkBaseURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("base URL %q: cannot parse it: want http(s)://host[:port][/path]", redactURL(raw))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("base URL %q: scheme must be http or https", redactURL(raw))
	}
	if u.Host == "" {
		return fmt.Errorf("base URL %q: no host", redactURL(raw))
	}
	return nil
}

// ollamaURLFromHost reads OLLAMA_HOST the way the ollama CLI does: "host",
// "host:port", ":port" or a full URL; the port defaults to 11434.
func ollamaURLFromHost(host string) string {
	if host == "" {
		return "http://127.0.0.1:" + defaultOllamaPort
	}
	scheme, hostport, ok := strings.Cut(host, "://")
	if !ok {
		scheme, hostport = "http", host
	}
	hostport, path, _ := strings.Cut(hostport, "/")
	h, port, err := net.SplitHostPort(hostport)
	if err != nil {
		h, port = strings.Trim(hostport, "[]"), defaultOllamaPort
	}
	if h == "" {
		h = "127.0.0.1"
	}
	u := scheme + "://" + net.JoinHostPort(h, port)
	if path != "" {
		u += "/" + path
	}
	return u
}

// OllamaBaseURL reads an OLLAMA_HOST value the way Resolve does ("host",
// "host:port", ":port" or a full URL; empty means 127.0.0.1:11434), for the
// other clients of Ollama (llm/embed).
func OllamaBaseURL(host string) string { return ollamaURLFromHost(strings.TrimSpace(host)) }

// CheckBaseURL is checkBaseURL for the other clients of a provider
// (llm/embed): an http(s) URL with a host, or an error saying what is
// wrong, with any password in it hidden.
func CheckBaseURL(raw string) error { return checkBaseURL(raw) }
