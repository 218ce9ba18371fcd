// Package embed turns texts into vectors for docent's hybrid retrieval:
// through langchaingo's embeddings clients for OpenAI (and OpenAI-compatible
// servers) and Ollama, in batches, with a timeout per request, bounded
// retries of 429 and 5xx, and every vector checked before it is returned.
// Embeddings are off unless a provider is chosen ("none" is the default),
// and nothing is downloaded: the models are the providers'.
//
// Hashed is a deterministic offline embedder for tests and for running the
// hybrid path without a provider. It hashes character n-grams and knows no
// meaning: it is a test double and a lexical fallback, never a semantic
// model.
package embed

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/docent-sh/docent/llm"
)

// Embedder turns texts into vectors. Implementations are safe for
// concurrent use.
type Embedder interface {
	// Embed returns one vector per text, in the order of texts, all of
	// Dimension() values, none NaN or infinite; no texts give nil and no
	// error, without a request. An empty (or white-space) text is refused
	// with ErrEmptyText. Embed fails as a whole, returning no vectors: a
	// provider's failure is an *Error naming the provider, model and
	// batch, and a cancelled ctx answers errors.Is(err, ctx.Err()). It
	// never pads, truncates or reorders what a server sent, and never
	// changes texts. Vectors are as the model gives them, not normalized.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Model is the model's name as the provider knows it; vectors of
	// different models must not be compared.
	Model() string
	// Dimension is the length of the vectors: the one the first
	// successful call returned, else the known dimension of the model
	// (KnownDimension), else 0.
	Dimension() int
}

// Provider names, as given to --embed-provider.
const (
	ProviderNone   = "none"
	ProviderOpenAI = "openai"
	ProviderOllama = "ollama"
)

// Default models, written once: OpenAI's small third-generation model and
// Ollama's most pulled embedding model.
const (
	DefaultOpenAIModel = "text-embedding-3-small"
	DefaultOllamaModel = "nomic-embed-text"
)

// Defaults applied to zero options.
const (
	// DefaultBatchSize is how many texts go in one embeddings request:
	// OpenAI accepts up to 2048 inputs a request, but a chunk is up to a
	// few hundred tokens and 64 of them stay far below its per-request
	// token limit, while a failed batch costs little to retry.
	DefaultBatchSize = 64
	// DefaultRequestTimeout bounds one batch's request. langchaingo's
	// Ollama client sends one request per text, so for Ollama it bounds
	// the batch's requests together, and a retry sends the whole batch
	// again.
	DefaultRequestTimeout = 60 * time.Second
	DefaultConnectTimeout = 10 * time.Second
	DefaultMaxRetries     = 3
	DefaultRetryAfterMax  = 30 * time.Second
)

const (
	defaultOpenAIBaseURL = "https://api.openai.com/v1"
)

// Errors Embed and New wrap.
var (
	// ErrUnknownProvider: a provider other than none, openai or ollama.
	ErrUnknownProvider = errors.New("unknown embedding provider")
	// ErrMissingKey is llm.ErrMissingKey: OpenAI's API needs a key.
	ErrMissingKey = llm.ErrMissingKey
	// ErrBadVectors: the server's vectors do not fit the request: another
	// count than the texts, lengths that differ, or a NaN or infinite
	// value.
	ErrBadVectors = errors.New("bad vectors")
)

// knownDimensions are the vector lengths of common embedding models, so
// that Dimension is known before the first call.
var knownDimensions = map[string]int{
	"text-embedding-3-small": 1536,
	"text-embedding-3-large": 3072,
	"text-embedding-ada-002": 1536,
	"nomic-embed-text":       768,
	"mxbai-embed-large":      1024,
	"all-minilm":             384,
	"snowflake-arctic-embed": 1024,
	"bge-m3":                 1024,
}

// KnownDimension returns the vector length of a well-known model (an
// Ollama tag ":latest" is ignored), or 0 when the model is not known. A
// server may still answer with another length (OpenAI's dimensions
// parameter, a compatible server serving another model under the name):
// Dimension then reports what the server sent.
func KnownDimension(model string) int {
	return knownDimensions[strings.TrimSuffix(model, ":latest")]
}

// Config chooses the embedding provider. Zero fields take the defaults.
type Config struct {
	Provider string // none|openai|ollama; empty is none
	Model    string // empty: the provider's default model
	BaseURL  string // an OpenAI-compatible server, or Ollama's address
}

// Environment variables Resolve reads: the chat's own, so that one key
// serves both.
const (
	EnvOpenAIKey     = llm.EnvOpenAIKey
	EnvOpenAIBaseURL = llm.EnvOpenAIBaseURL
	EnvOllamaHost    = llm.EnvOllamaHost
)

// Resolve is New with the key and base URL taken from the environment
// (getenv, so that callers and tests need not touch the process's): the
// OpenAI key from OPENAI_API_KEY, a missing base URL from OPENAI_BASE_URL
// or OLLAMA_HOST. Like New it returns a nil Embedder and no error for
// provider none.
func Resolve(cfg Config, getenv func(string) string, opts ...Option) (Embedder, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	env := func(name string) string { return strings.TrimSpace(getenv(name)) }
	provider := normalizeProvider(cfg.Provider)
	baseURL, key := strings.TrimSpace(cfg.BaseURL), ""
	switch provider {
	case ProviderOpenAI:
		key = env(EnvOpenAIKey)
		if baseURL == "" {
			baseURL = env(EnvOpenAIBaseURL)
		}
	case ProviderOllama:
		if baseURL == "" {
			baseURL = llm.OllamaBaseURL(env(EnvOllamaHost))
		}
	}
	return New(provider, cfg.Model, baseURL, key, opts...)
}

func normalizeProvider(p string) string {
	p = strings.ToLower(strings.TrimSpace(p))
	if p == "" {
		return ProviderNone
	}
	return p
}

// New returns the embedder of provider ("none", "openai" or "ollama") for
// model (empty: the provider's default) at baseURL (empty: api.openai.com,
// or Ollama on 127.0.0.1:11434), sending key as a bearer token (OpenAI
// only; Ollama takes none). For provider none (or empty) it returns a nil
// Embedder and no error: embeddings are off.
//
// OpenAI's own API needs a key; an OpenAI-compatible server at another
// base URL may do without. An unknown provider wraps ErrUnknownProvider,
// a missing key ErrMissingKey; no error, log or String ever holds the key.
func New(provider, model, baseURL, key string, opts ...Option) (Embedder, error) {
	cfg := options{
		batchSize:      DefaultBatchSize,
		requestTimeout: DefaultRequestTimeout,
		connectTimeout: DefaultConnectTimeout,
		maxRetries:     DefaultMaxRetries,
		retryAfterMax:  DefaultRetryAfterMax,
		backoffBase:    500 * time.Millisecond,
		backoffMax:     8 * time.Second,
	}
	for _, opt := range opts {
		opt(&cfg)
	}
	provider = normalizeProvider(provider)
	model, baseURL, key = strings.TrimSpace(model), strings.TrimSpace(baseURL), strings.TrimSpace(key)
	switch provider {
	case ProviderNone:
		return nil, nil
	case ProviderOpenAI:
		if model == "" {
			model = DefaultOpenAIModel
		}
		custom := baseURL != ""
		if !custom {
			baseURL = defaultOpenAIBaseURL
		}
		if key == "" && !custom {
			return nil, fmt.Errorf("embed: provider openai: %w: set %s (or a base URL for an OpenAI-compatible server)", ErrMissingKey, EnvOpenAIKey)
		}
	case ProviderOllama:
		if model == "" {
			model = DefaultOllamaModel
		}
		if baseURL == "" {
			baseURL = llm.OllamaBaseURL("")
		}
	default:
		return nil, fmt.Errorf("embed: %w %q: want none, openai or ollama", ErrUnknownProvider, provider)
	}
	if err := llm.CheckBaseURL(baseURL); err != nil {
		return nil, fmt.Errorf("embed: provider %s: %w", provider, err)
	}
	if err := cfg.check(); err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	r, err := newRemote(provider, model, baseURL, key, cfg)
	if err != nil {
		return nil, err
	}
	return r, nil
}
