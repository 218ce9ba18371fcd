package embed

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tmc/langchaingo/embeddings"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/docent-sh/docent/internal/redact"
	"github.com/docent-sh/docent/textsafe"
)

// remote embeds through a provider's langchaingo client. It calls the
// client's CreateEmbedding (langchaingo's embeddings.EmbedderClient) once
// per batch rather than embeddings.NewEmbedder's EmbedDocuments, because
// that one batches without retrying a batch, and by default rewrites the
// caller's texts in place (newlines to spaces).
type remote struct {
	provider, model, baseURL string
	client                   embeddings.EmbedderClient
	redactor                 *redact.Redactor
	opt                      options
	log                      *slog.Logger
	dim                      atomic.Int64 // the server's vector length, once seen
}

func newRemote(provider, model, baseURL, key string, opt options) (*remote, error) {
	r := &remote{provider: provider, model: model, baseURL: baseURL, redactor: redact.New(), opt: opt, log: opt.log}
	r.redactor.AddKey(key)
	if r.log == nil {
		r.log = slog.Default()
	}
	httpClient := newHTTPClient(opt.connectTimeout)
	var err error
	switch provider {
	case ProviderOpenAI:
		if key == "" {
			// An OpenAI-compatible server may need no key, but the client
			// refuses an empty one.
			key = "no-key"
		}
		r.client, err = openai.New(
			openai.WithToken(key),
			openai.WithEmbeddingModel(model),
			openai.WithBaseURL(baseURL),
			openai.WithHTTPClient(httpClient),
		)
	case ProviderOllama:
		r.client, err = ollama.New(
			ollama.WithModel(model),
			ollama.WithServerURL(baseURL),
			ollama.WithHTTPClient(httpClient),
		)
	}
	if err != nil {
		return nil, fmt.Errorf("embed: create %s client: %s", provider, r.redactor.String(err.Error()))
	}
	return r, nil
}

func (r *remote) Model() string { return r.model }

func (r *remote) Dimension() int {
	if d := r.dim.Load(); d > 0 {
		return int(d)
	}
	return KnownDimension(r.model)
}

// String names the embedder for logs and status lines: provider, model
// and host, never the key.
func (r *remote) String() string {
	return r.provider + " " + r.model + " at " + redact.URL(r.baseURL)
}

// GoString keeps %#v from printing the client and the redactor, which
// hold the key.
func (r *remote) GoString() string {
	return fmt.Sprintf("embed.remote{provider:%q, model:%q, baseURL:%q}", r.provider, r.model, redact.URL(r.baseURL))
}

// LogValue keeps slog from printing the key.
func (r *remote) LogValue() slog.Value {
	return slog.GroupValue(slog.String("provider", r.provider), slog.String("model", r.model),
		slog.String("base_url", redact.URL(r.baseURL)))
}

func (r *remote) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	size := r.opt.batchSize
	batches := (len(texts) + size - 1) / size
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			b := i / size
			return nil, r.newError(batch{n: b + 1, of: batches, first: b * size, last: min((b+1)*size, len(texts)) - 1},
				fmt.Sprintf("text %d is empty: there is nothing to embed", i), 0, 0, ErrEmptyText)
		}
	}
	out := make([][]float32, 0, len(texts))
	for b := range batches {
		lo, hi := b*size, min((b+1)*size, len(texts))
		vecs, err := r.embedBatch(ctx, texts[lo:hi], batch{n: b + 1, of: batches, first: lo, last: hi - 1})
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

// ErrEmptyText: a text to embed is empty or white space alone, which
// providers refuse or embed as noise.
var ErrEmptyText = errors.New("empty text")

// batch says which part of an Embed call a request carries.
type batch struct {
	n, of       int // 1-based
	first, last int // texts[first..last], inclusive
}

// embedBatch embeds one batch, retrying 429, 5xx and timeouts.
func (r *remote) embedBatch(ctx context.Context, texts []string, b batch) ([][]float32, error) {
	for try := 0; ; try++ {
		if err := ctx.Err(); err != nil {
			return nil, r.newError(b, "cancelled: "+err.Error(), 0, try, err)
		}
		a := &attempt{}
		actx, cancel := context.WithTimeout(withAttempt(ctx, a), r.opt.requestTimeout)
		// The client gets a copy: nothing it does may reach the caller's
		// slice.
		vecs, err := r.client.CreateEmbedding(actx, slices.Clone(texts))
		timedOut := errors.Is(actx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
		cancel()
		res := a.snapshot()
		if err == nil {
			if reason := r.checkVectors(vecs, len(texts)); reason != "" {
				return nil, r.newError(b, reason, res.status, try, ErrBadVectors)
			}
			r.dim.CompareAndSwap(0, int64(len(vecs[0])))
			return vecs, nil
		}
		if cerr := ctx.Err(); cerr != nil {
			return nil, r.newError(b, "cancelled: "+cerr.Error(), 0, try, cerr)
		}
		f := r.classify(err, res, timedOut, vecs, len(texts))
		if !f.retryable || try >= r.opt.maxRetries {
			if f.retryable && try > 0 {
				f.reason += " after " + plural(try, "retry")
			}
			return nil, r.newError(b, f.reason, res.status, try, f.cause)
		}
		if res.retryAfter > r.opt.retryAfterMax {
			f.reason += fmt.Sprintf(": the server asks to wait %s, longer than the %s cap", res.retryAfter, r.opt.retryAfterMax)
			return nil, r.newError(b, f.reason, res.status, try, f.cause)
		}
		wait := r.backoff(try, res.retryAfter)
		r.log.LogAttrs(ctx, slog.LevelWarn, "embed: retrying batch",
			slog.String("provider", r.provider), slog.String("model", r.model),
			slog.Int("batch", b.n), slog.Int("batches", b.of),
			slog.String("reason", f.reason), slog.Duration("wait", wait), slog.Int("retry", try+1))
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, r.newError(b, "cancelled while waiting to retry ("+f.reason+")", res.status, try, ctx.Err())
		case <-timer.C:
		}
	}
}

// checkVectors says what is wrong with a batch's vectors, or "" when
// nothing is: one per text, all of one length (the length seen before, if
// any), every value finite.
func (r *remote) checkVectors(vecs [][]float32, texts int) string {
	if len(vecs) != texts {
		return fmt.Sprintf("the server returned %s for %s", plural(len(vecs), "vector"), plural(texts, "text"))
	}
	return checkVectors(vecs, int(r.dim.Load()))
}

// checkVectors is the length and value check of a non-empty list of
// vectors: all of length want (when want > 0, else of the first's), none
// empty, every value finite.
func checkVectors(vecs [][]float32, want int) string {
	if want == 0 && len(vecs) > 0 {
		want = len(vecs[0])
	}
	if want == 0 {
		return "the server returned an empty vector"
	}
	for i, v := range vecs {
		if len(v) != want {
			return fmt.Sprintf("vector %d has %s, expected %d like the others", i, plural(len(v), "value"), want)
		}
		for j, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return fmt.Sprintf("vector %d holds %v at %d", i, x, j)
			}
		}
	}
	return ""
}

// failure is why a batch's request failed, worded for the error.
type failure struct {
	reason    string
	retryable bool
	cause     error
}

// classify words a failed request. The transport's record (status,
// Retry-After, dial error) is trusted over the client's error text,
// which langchaingo words differently for each provider.
func (r *remote) classify(err error, res attemptResult, timedOut bool, vecs [][]float32, texts int) failure {
	f := failure{cause: err}
	switch {
	case timedOut:
		f.reason, f.retryable = fmt.Sprintf("no answer within %s (request timeout)", r.opt.requestTimeout), true
	case res.dialErr != nil:
		f.reason = "cannot reach " + r.host() + ": " + r.clip(res.dialErr.Error())
	case res.status == http.StatusUnauthorized || res.status == http.StatusForbidden:
		f.reason = fmt.Sprintf("authentication failed (%d)", res.status)
		if r.provider == ProviderOpenAI {
			f.reason += ": check " + EnvOpenAIKey
		}
	case res.status == http.StatusNotFound:
		f.reason = fmt.Sprintf("model %q not found (404)", r.model)
		if r.provider == ProviderOllama {
			f.reason += fmt.Sprintf(": run `ollama pull %s` or check the model and base URL", r.model)
		} else {
			f.reason += ": check the model and base URL"
		}
	case res.status == http.StatusTooManyRequests && res.errorCode == "insufficient_quota":
		// Waiting does not refill a quota.
		f.reason = "quota exhausted (429 insufficient_quota): check the plan and billing of the account"
	case res.status == http.StatusTooManyRequests:
		f.reason, f.retryable = "rate limited (429)", true
	case res.status >= 500:
		f.reason, f.retryable = fmt.Sprintf("server error (%d)", res.status), true
	case res.status >= 400:
		f.reason = fmt.Sprintf("request rejected (%d): %s", res.status, r.clip(err.Error()))
	case errors.Is(err, openai.ErrUnexpectedResponseLength), errors.Is(err, ollama.ErrIncompleteEmbedding):
		f.reason, f.cause = fmt.Sprintf("the server returned %s for %s", plural(len(vecs), "vector"), plural(texts, "text")), ErrBadVectors
	case errors.Is(err, openai.ErrEmptyResponse), errors.Is(err, ollama.ErrEmptyResponse):
		f.reason, f.cause = "the server returned no vectors for "+plural(texts, "text"), ErrBadVectors
	default:
		f.reason = "unreadable response: " + r.clip(err.Error())
	}
	return f
}

// clip makes outside text (a server's message, a transport error) fit
// for an error line: see mask; then the length is bounded (a cut cannot
// leave part of a secret, since they are masked by then).
func (r *remote) clip(s string) string {
	return textsafe.Clip(mask(r.redactor, s), maxReason)
}

// maxReason bounds the outside text quoted in an error.
const maxReason = 160

// mask makes outside text one clean line and then masks its secrets. The
// order matters: cleaning drops control sequences, so masking first
// would miss a key that an escape sequence splits ("sk-te\x1b[0mst…")
// and the cleaning then joins.
func mask(red *redact.Redactor, s string) string {
	return red.String(textsafe.Line(strings.ToValidUTF8(s, "\uFFFD")))
}

// host is the server's host, never its path or query, which could hold
// a key.
func (r *remote) host() string {
	if u, err := url.Parse(r.baseURL); err == nil && u.Host != "" {
		return u.Host
	}
	return "the server"
}

// backoff is the wait before retry try+1: base·2^try with ±25% jitter,
// capped, and at least the server's Retry-After (which the caller has
// checked against the cap).
func (r *remote) backoff(try int, retryAfter time.Duration) time.Duration {
	d := r.opt.backoffBase << min(try, 16)
	if d > 0 {
		d += time.Duration(rand.Int64N(int64(d)/2+1)) - d/4
	}
	return max(min(d, r.opt.backoffMax), retryAfter)
}

// Error is a failed Embed: which provider, model and batch, and why. Its
// text holds no key, and Unwrap gives a cause whose text is masked too
// (errors.Is still finds context.Canceled, ErrBadVectors and the like).
type Error struct {
	Provider string
	Model    string
	Batch    int // 1-based
	Batches  int
	First    int // the batch's first text, 0-based
	Last     int // its last text, inclusive
	Status   int // the last HTTP status, 0 when none came
	Retries  int
	Reason   string
	cause    error
}

func (e *Error) Error() string {
	return fmt.Sprintf("embed: %s %s: batch %d of %d (texts %d–%d): %s",
		e.Provider, e.Model, e.Batch, e.Batches, e.First, e.Last, e.Reason)
}

func (e *Error) Unwrap() error { return e.cause }

// GoString keeps %#v to the masked text: the cause's fields could hold
// the unmasked one.
func (e *Error) GoString() string { return fmt.Sprintf("&embed.Error{%q}", e.Error()) }

func (r *remote) newError(b batch, reason string, status, retries int, cause error) *Error {
	return &Error{Provider: r.provider, Model: r.model, Batch: b.n, Batches: b.of, First: b.first, Last: b.last,
		Status: status, Retries: retries, Reason: reason, cause: seal(r.redactor, cause)}
}

// sealed is an error whose text is masked and whose cause cannot be
// reached by unwrapping, only matched by errors.Is.
type sealed struct {
	msg   string
	cause error
}

func (e *sealed) Error() string        { return e.msg }
func (e *sealed) Is(target error) bool { return errors.Is(e.cause, target) }
func (e *sealed) GoString() string     { return fmt.Sprintf("%q", e.msg) }
func seal(red *redact.Redactor, err error) error {
	if err == nil {
		return nil
	}
	return &sealed{msg: mask(red, err.Error()), cause: err}
}

// plural writes "1 vector", "2 vectors", "1 retry", "3 retries".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(noun, "y"))
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
