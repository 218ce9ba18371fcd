package llm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/anthropic"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/docent-sh/docent/llm/extractive"
	"github.com/docent-sh/docent/prompt"
	"github.com/docent-sh/docent/textsafe"
	"github.com/docent-sh/docent/tokens"
)

// Answer is one streamed answer and how it went.
type Answer struct {
	Text     string // everything emitted, in order
	Provider string // who wrote the answer: the selected provider, or "extractive" after a fallback
	Model    string
	Notice   string // one line saying what went wrong, when something did
	Fallback bool   // the extractive answer stands in for (or completes) the model's
	Stopped  bool   // the caller cancelled; Text is what had arrived

	TTFT         time.Duration // until the first emitted chunk
	Duration     time.Duration
	Chunks       int     // emitted pieces
	TokensPerSec float64 // output tokens (cl100k_base) per second after the first chunk

	Usage Usage // what the provider reported for the model's answer
}

// Usage is the token usage a provider reported for an answer, as it bills
// it. Reported is false when there is none to report: the extractive
// responder wrote the answer, the model's answer broke off before its
// usage came, or the server does not report usage (some OpenAI-compatible
// servers).
type Usage struct {
	PromptTokens     int  `json:"prompt_tokens"`
	CompletionTokens int  `json:"completion_tokens"`
	Reported         bool `json:"reported"`
}

// usageOf reads the usage langchaingo's clients put into GenerationInfo:
// PromptTokens and CompletionTokens (OpenAI, Ollama), InputTokens and
// OutputTokens (Anthropic).
func usageOf(resp *llms.ContentResponse) Usage {
	if resp == nil || len(resp.Choices) == 0 || resp.Choices[0] == nil {
		return Usage{}
	}
	info := resp.Choices[0].GenerationInfo
	count := func(keys ...string) int {
		for _, k := range keys {
			if n, ok := info[k].(int); ok && n > 0 {
				return n
			}
		}
		return 0
	}
	u := Usage{PromptTokens: count("PromptTokens", "InputTokens"), CompletionTokens: count("CompletionTokens", "OutputTokens")}
	u.Reported = u.PromptTokens > 0 || u.CompletionTokens > 0
	return u
}

// MidStreamSeparator is emitted between a model's answer that broke off
// and the extractive answer that follows it. The partial answer is kept
// rather than withdrawn, because the reader has already seen it; the line
// marks where the model stopped and the offline answer begins.
const MidStreamSeparator = "\n\n— the model's answer broke off; offline answer from the docs: —\n\n"

var (
	errFirstTokenTimeout = errors.New("first-token timeout")
	errIdleTimeout       = errors.New("idle timeout")
	errStaleChunk        = errors.New("chunk from an abandoned attempt")
	errEmptyAnswer       = errors.New("empty answer")
)

// Responder streams answers from the selected provider and falls back to
// the extractive responder when the provider fails. It is safe for
// concurrent use; each Stream call is independent.
type Responder struct {
	sel         Selection
	model       llms.Model   // the provider's client; nil for extractive
	ollamaHTTP  *http.Client // Ollama's client is made per call, for its num_ctx
	extractive  *extractive.Model
	setupNotice string // set when the provider cannot be called at all
	backoffBase time.Duration
	backoffMax  time.Duration
	log         *slog.Logger
}

// Option configures a Responder.
type Option func(*responderConfig)

type responderConfig struct {
	backoffBase, backoffMax time.Duration
	log                     *slog.Logger
	extractive              []extractive.Option
}

// WithBackoff sets the first retry delay (doubled on each retry, with
// jitter) and its ceiling. Defaults: 500 ms and 8 s. A server's
// Retry-After is waited for even when longer, up to
// Selection.RetryAfterMax.
func WithBackoff(base, ceiling time.Duration) Option {
	return func(c *responderConfig) {
		c.backoffBase, c.backoffMax = max(base, 0), max(ceiling, 0)
	}
}

// WithLogger sets the logger (default slog.Default()). Nothing logged
// carries an API key.
func WithLogger(l *slog.Logger) Option {
	return func(c *responderConfig) {
		if l != nil {
			c.log = l
		}
	}
}

// WithExtractive configures the extractive responder used for extractive
// answers and fallbacks, e.g. extractive.WithPace.
func WithExtractive(opts ...extractive.Option) Option {
	return func(c *responderConfig) { c.extractive = append(c.extractive, opts...) }
}

// NewResponder builds the langchaingo client of sel's provider on an HTTP
// client of its own (connect timeout, no overall timeout). A provider that
// lacks its API key does not fail here: every answer then carries the
// missing-key notice and the extractive answer.
func NewResponder(sel Selection, opts ...Option) (*Responder, error) {
	cfg := responderConfig{backoffBase: 500 * time.Millisecond, backoffMax: 8 * time.Second, log: slog.Default()}
	for _, opt := range opts {
		opt(&cfg)
	}
	if err := sel.applyTimeoutDefaults(); err != nil {
		return nil, fmt.Errorf("llm: %w", err)
	}
	sel.MaxRetries = max(sel.MaxRetries, 0)
	r := &Responder{
		sel:         sel,
		extractive:  extractive.New(cfg.extractive...),
		backoffBase: cfg.backoffBase,
		backoffMax:  cfg.backoffMax,
		log:         cfg.log,
	}
	if sel.Provider != ProviderExtractive {
		if err := checkBaseURL(sel.BaseURL); err != nil {
			return nil, fmt.Errorf("llm: provider %s: %w", sel.Provider, err)
		}
	}

	var err error
	switch sel.Provider {
	case ProviderExtractive:
		r.sel.Model, r.sel.BaseURL = extractive.ModelName, ""
	case ProviderOpenAI:
		token := sel.apiKey
		if token == "" {
			if sel.BaseURL == defaultOpenAIBaseURL {
				r.setupNotice = fmt.Sprintf("openai: no API key: set %s", EnvOpenAIKey)
				break
			}
			// OpenAI-compatible servers often need no key, but the client
			// refuses an empty one.
			token = "no-key"
		}
		r.model, err = openai.New(
			openai.WithToken(token),
			openai.WithModel(sel.Model),
			openai.WithBaseURL(sel.BaseURL),
			openai.WithHTTPClient(newHTTPClient(sel.ConnectTimeout, openAIStreamLine)),
		)
	case ProviderAnthropic:
		if sel.apiKey == "" {
			r.setupNotice = fmt.Sprintf("anthropic: no API key: set %s", EnvAnthropicKey)
			break
		}
		r.model, err = anthropic.New(
			anthropic.WithToken(sel.apiKey),
			anthropic.WithModel(sel.Model),
			anthropic.WithBaseURL(sel.BaseURL),
			anthropic.WithHTTPClient(newHTTPClient(sel.ConnectTimeout, anthropicStreamLine)),
		)
	case ProviderOllama:
		r.ollamaHTTP = newHTTPClient(sel.ConnectTimeout, ollamaStreamLine)
		r.model, err = r.ollamaModel(0)
	case "", ProviderAuto:
		return nil, errors.New("llm: the selection names no provider: resolve the config with Resolve first")
	default:
		return nil, fmt.Errorf("llm: unknown provider %q: want extractive, openai, ollama or anthropic", sel.Provider)
	}
	if err != nil {
		return nil, fmt.Errorf("llm: create %s client: %s", sel.Provider, Redact(err.Error(), sel.apiKey))
	}
	return r, nil
}

// ollamaModel is an Ollama client asking for a context window of numCtx
// tokens (0: the server's default). langchaingo sets num_ctx per client,
// not per call; a client is a few fields over the shared HTTP client.
func (r *Responder) ollamaModel(numCtx int) (llms.Model, error) {
	return ollama.New(
		ollama.WithModel(r.sel.Model),
		ollama.WithServerURL(r.sel.BaseURL),
		ollama.WithHTTPClient(r.ollamaHTTP),
		ollama.WithRunnerNumCtx(numCtx),
	)
}

// modelFor is the client that answers p: the provider's, or for Ollama
// one sized for p.
func (r *Responder) modelFor(p prompt.Prompt) (llms.Model, error) {
	if r.sel.Provider != ProviderOllama {
		return r.model, nil
	}
	return r.ollamaModel(ollamaNumCtx(p, r.sel.AnswerTokens))
}

// ollamaNumCtx sizes the context window an Ollama request asks for. Ollama
// cuts a prompt longer than its window from the front without a word, and
// its default window (2048 tokens on many servers) is smaller than
// docent's prompt budget, so every request says what it needs: the prompt,
// plus a quarter for the difference between the encoding docent counts
// with and the model's own, plus the answer's room, rounded up to a
// multiple of 1024. The prompt counts as at least its budgets' total, so
// that the questions of a session ask for the same window: Ollama reloads
// the model whenever num_ctx changes.
func ollamaNumCtx(p prompt.Prompt, answerTokens int) int {
	b := p.Report.Budgets
	size := max(p.Report.Tokens.Total, b.Core+b.Docs+b.UI+b.Widgets+b.Recent)
	need := size + size/4 + answerTokens
	return (need + 1023) / 1024 * 1024
}

// Selection is what the responder was built from (for status bars and
// `docent ask --json`); printing it never shows the key.
func (r *Responder) Selection() Selection { return r.sel }

// Stream writes the answer to p, passing each piece to emit as it arrives
// (emit is called from one goroutine at a time, in order, and the pieces
// joined are Answer.Text). Text is cleaned of terminal control sequences
// before it is emitted.
//
// Provider failures are not errors. Before the first token, 429 and 5xx
// are retried with backoff (Selection.MaxRetries times); any other failure,
// or the last retry's, gives an Answer with a one-line Notice and the
// extractive answer, streamed through emit. A failure after the first token
// is not retried, since the reader has already seen part of an answer: the
// part stays, MidStreamSeparator marks where it ended, and the extractive
// answer follows. The first-token timeout counts from the call, across
// retries; after the first token, a stream that sends nothing for the idle
// timeout is such a failure, so no wait is without a limit.
//
// Cancelling ctx (Esc, Ctrl+C) stops the stream at once, closing the HTTP
// connection, and returns the partial Answer with Stopped set. The error
// is only for a prompt without a user message.
func (r *Responder) Stream(ctx context.Context, p prompt.Prompt, emit func(chunk string)) (Answer, error) {
	if strings.TrimSpace(p.User) == "" {
		return Answer{}, errors.New("llm: the prompt has no user message")
	}
	if emit == nil {
		emit = func(string) {}
	}
	out := &output{emit: emit, start: time.Now()}
	ans := Answer{Provider: r.sel.Provider, Model: r.sel.Model}

	var fail *failure
	switch {
	case r.setupNotice != "":
		fail = &failure{notice: r.setupNotice}
	case r.sel.Provider == ProviderExtractive:
		ans.Stopped = r.streamExtractive(ctx, p, out)
	default:
		model, err := r.modelFor(p)
		if err != nil {
			fail = &failure{notice: fmt.Sprintf("%s: create client: %v", r.sel.Provider, err)}
			break
		}
		fail, ans.Stopped = r.streamModel(ctx, model, toMessages(p), out)
	}

	if fail != nil && !ans.Stopped {
		ans.Notice = textsafe.Clip(Redact(fail.notice, r.sel.apiKey), 240)
		ans.Fallback = true
		ans.Provider, ans.Model = ProviderExtractive, extractive.ModelName
		r.log.WarnContext(ctx, "llm: falling back to the extractive answer", "llm", r.sel, "notice", ans.Notice)
		if out.emitted() > 0 {
			out.write(MidStreamSeparator)
		}
		ans.Stopped = r.streamExtractive(ctx, p, out)
	}

	out.finish(&ans)
	r.log.InfoContext(ctx, "llm: answer", "llm", r.sel, "provider", ans.Provider, "fallback", ans.Fallback,
		"stopped", ans.Stopped, "ttft", ans.TTFT, "duration", ans.Duration, "chunks", ans.Chunks,
		"prompt_tokens", ans.Usage.PromptTokens, "completion_tokens", ans.Usage.CompletionTokens)
	return ans, nil
}

// streamExtractive writes the extractive answer to p from the prompt's
// fields, without retries or timeouts: it cannot fail except by
// cancellation, which it reports.
func (r *Responder) streamExtractive(ctx context.Context, p prompt.Prompt, out *output) (stopped bool) {
	gen := out.begin(nil)
	_, err := r.extractive.Stream(ctx, p, out.streamingFunc(gen))
	out.end(gen, err == nil)
	if err != nil && ctx.Err() == nil {
		r.log.ErrorContext(ctx, "llm: extractive answer failed", "error", err)
	}
	return ctx.Err() != nil
}

// streamModel calls the provider, retrying 429 and 5xx before the first
// token. It reports why the call failed, or that the caller stopped it.
func (r *Responder) streamModel(ctx context.Context, model llms.Model, messages []llms.MessageContent, out *output) (*failure, bool) {
	callCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// One watchdog bounds every wait: until the first token it is the
	// first-token deadline, then each token re-arms it for the idle
	// timeout. When it has already fired, a chunk is refused so that
	// nothing is emitted from an attempt that is being abandoned.
	var streaming atomic.Bool
	watchdog := time.AfterFunc(r.sel.FirstTokenTimeout, func() {
		if streaming.Load() {
			cancel(errIdleTimeout)
		} else {
			cancel(errFirstTokenTimeout)
		}
	})
	defer watchdog.Stop()
	onChunk := func() error {
		if !watchdog.Stop() {
			if streaming.Load() {
				return errIdleTimeout
			}
			return errFirstTokenTimeout
		}
		streaming.Store(true)
		watchdog.Reset(r.sel.IdleTimeout)
		return nil
	}

	for try := 0; ; try++ {
		a := &attempt{}
		gen := out.begin(onChunk)
		resp, err := model.GenerateContent(withAttempt(callCtx, a), messages,
			llms.WithStreamingFunc(out.streamingFunc(gen)))
		res := a.snapshot()
		if err == nil && res.streamErr != nil {
			// langchaingo's Ollama client ends quietly on a broken stream.
			err = res.streamErr
		}
		if err == nil && callCtx.Err() != nil && !res.completed {
			// The watchdog closed the stream, and some clients take a
			// closed connection for the end of the answer. (A stream whose
			// end marker arrived is complete, even if the watchdog fired
			// just after.)
			err = context.Cause(callCtx)
		}
		out.end(gen, err == nil)
		// A caller's cancel is a stop whatever the client made of it: some
		// clients end a stream quietly when its connection is closed.
		if ctx.Err() != nil {
			return nil, true
		}
		if err == nil && out.emitted() == 0 {
			err = errEmptyAnswer
		}
		if err == nil {
			out.setUsage(usageOf(resp))
			return nil, false
		}
		fail := r.classify(err, res, context.Cause(callCtx))
		r.log.WarnContext(ctx, "llm: call failed", "llm", r.sel, "attempt", try+1, "status", res.status,
			"error", Redact(err.Error(), r.sel.apiKey))
		if n := out.emitted(); n > 0 {
			fail.notice = fmt.Sprintf("%s: the answer broke off after %s (%s)", r.sel.Provider, plural(n, "chunk"), fail.detail)
			return fail, false
		}
		if !fail.retryable || try >= r.sel.MaxRetries {
			if fail.retryable && try > 0 {
				fail.notice += " after " + plural(try, "retry")
			}
			return fail, false
		}
		if res.retryAfter > r.sel.RetryAfterMax {
			// Asking again sooner than the server said would only be
			// refused again.
			fail.notice += fmt.Sprintf(": the server asks to wait %s, longer than the %s cap", res.retryAfter, r.sel.RetryAfterMax)
			return fail, false
		}
		wait := time.NewTimer(r.backoff(try, res.retryAfter))
		select {
		case <-callCtx.Done():
			wait.Stop()
			if ctx.Err() != nil {
				return nil, true
			}
			return r.classify(context.Cause(callCtx), attemptResult{}, context.Cause(callCtx)), false
		case <-wait.C:
		}
	}
}

// backoff is base·2^try with ±20% jitter, never above the ceiling, and at
// least the server's Retry-After (which the caller has checked against
// its cap).
func (r *Responder) backoff(try int, retryAfter time.Duration) time.Duration {
	d := r.backoffBase << min(try, 16)
	if r.backoffBase > 0 {
		d += time.Duration((rand.Float64()*0.4 - 0.2) * float64(d))
	}
	return max(min(d, r.backoffMax), retryAfter)
}

// toMessages converts the prompt for langchaingo: system, the earlier
// conversation (Prompt.Conversation), then the user message.
func toMessages(p prompt.Prompt) []llms.MessageContent {
	history := p.Conversation()
	msgs := make([]llms.MessageContent, 0, len(history)+2)
	if strings.TrimSpace(p.System) != "" {
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeSystem, p.System))
	}
	for _, m := range history {
		role := llms.ChatMessageTypeHuman
		if m.Role == "assistant" {
			role = llms.ChatMessageTypeAI
		}
		msgs = append(msgs, llms.TextParts(role, m.Text))
	}
	return append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, p.User))
}

// output collects what is emitted for one answer. Chunks of an attempt
// that was abandoned (a retry started, the call returned) are refused, so
// a late callback from a client's reader goroutine cannot interleave.
type output struct {
	mu      sync.Mutex
	emit    func(string)
	cleaner textsafe.Stream
	text    strings.Builder
	chunks  int
	start   time.Time
	first   time.Time
	gen     int
	open    bool
	onChunk func() error // an error refuses the chunk: the attempt is being abandoned
	usage   Usage
}

func (o *output) setUsage(u Usage) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.usage = u
}

func (o *output) begin(onChunk func() error) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.gen++
	o.open = true
	o.onChunk = onChunk
	o.cleaner = textsafe.Stream{}
	return o.gen
}

// end closes attempt gen; a complete attempt releases what the cleaner
// held back.
func (o *output) end(gen int, complete bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if gen != o.gen {
		return
	}
	o.open = false
	if complete {
		if rest := o.cleaner.Flush(); rest != "" {
			o.writeLocked(rest)
		}
	}
}

func (o *output) streamingFunc(gen int) func(context.Context, []byte) error {
	return func(ctx context.Context, chunk []byte) error {
		o.mu.Lock()
		defer o.mu.Unlock()
		if !o.open || gen != o.gen {
			return errStaleChunk
		}
		// Nothing more reaches the screen once the reader pressed Esc, even
		// if the client had a chunk in hand.
		if err := ctx.Err(); err != nil {
			return err
		}
		clean := o.cleaner.Write(string(chunk))
		if clean == "" {
			return nil
		}
		if o.onChunk != nil {
			if err := o.onChunk(); err != nil {
				return err
			}
		}
		o.writeLocked(clean)
		return nil
	}
}

func (o *output) write(s string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.writeLocked(s)
}

func (o *output) writeLocked(s string) {
	if o.chunks == 0 {
		o.first = time.Now()
	}
	o.chunks++
	o.text.WriteString(s)
	o.emit(s)
}

func (o *output) emitted() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.chunks
}

func (o *output) finish(a *Answer) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.open = false
	now := time.Now()
	a.Text = o.text.String()
	a.Chunks = o.chunks
	a.Usage = o.usage
	a.Duration = now.Sub(o.start)
	if o.chunks == 0 {
		return
	}
	a.TTFT = o.first.Sub(o.start)
	// With one chunk there is no generation time to speak of.
	span := a.Duration
	if o.chunks > 1 {
		span -= a.TTFT
	}
	if span > 0 {
		a.TokensPerSec = float64(tokens.Default().Count(a.Text)) / span.Seconds()
	}
}

// plural writes "1 chunk", "2 chunks", "1 retry", "3 retries".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(noun, "y"))
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
