package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// langchaingo v0.1.14's clients flatten an HTTP failure into a string
// ("API returned unexpected status code: 429: …"; Ollama's keeps only the
// body's message), drop the Retry-After header and the error body's code,
// and return no typed error: its llms.Error codes come only from
// openai.MapError and anthropic.MapError, which the clients never call and
// which match substrings (an exhausted quota's 429 reads as a rate limit, a
// 502 as unknown). So the Responder learns what happened from its own
// transport: each call carries an attempt in its context, and the
// transport records the status, Retry-After, the error code, the transport
// error and what the stream validator (stream.go) found.

type attemptKey struct{}

// attempt is what the transport saw during one model call.
type attempt struct {
	mu         sync.Mutex
	status     int
	retryAfter time.Duration
	errorCode  string // the error body's code or type, e.g. "insufficient_quota"
	dialErr    error  // from the round trip: refused, DNS, TLS, connect timeout
	streamErr  error  // malformed frame, broken connection, error event
	completed  bool   // the stream's end marker arrived
	// whole marks a non-streaming call (a judging call): its answer is one
	// JSON body, which the stream validator must not read as frames.
	whole bool
}

func withAttempt(ctx context.Context, a *attempt) context.Context {
	return context.WithValue(ctx, attemptKey{}, a)
}

func attemptFrom(ctx context.Context) *attempt {
	a, _ := ctx.Value(attemptKey{}).(*attempt)
	return a
}

func (a *attempt) setResponse(status int, retryAfter time.Duration, errorCode string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.status, a.retryAfter, a.errorCode = status, retryAfter, errorCode
}

func (a *attempt) setDialErr(err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.dialErr = err
}

func (a *attempt) setStreamErr(err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.streamErr == nil {
		a.streamErr = err
	}
}

func (a *attempt) setCompleted() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.completed = true
}

// snapshot returns a copy safe to read after the call.
func (a *attempt) snapshot() attemptResult {
	a.mu.Lock()
	defer a.mu.Unlock()
	return attemptResult{status: a.status, retryAfter: a.retryAfter, errorCode: a.errorCode,
		dialErr: a.dialErr, streamErr: a.streamErr, completed: a.completed}
}

type attemptResult struct {
	status     int
	retryAfter time.Duration
	errorCode  string
	dialErr    error
	streamErr  error
	completed  bool
}

// newHTTPClient returns the client every provider uses: connecting is
// bounded by connectTimeout, but there is no overall timeout because an
// answer streams for as long as the model writes (the first-token and idle
// timeouts and the caller's context bound the rest).
func newHTTPClient(connectTimeout time.Duration, proto wireProtocol) *http.Client {
	return &http.Client{Transport: &observingTransport{base: BaseTransport(connectTimeout), proto: proto}}
}

// BaseTransport is the HTTP transport every provider call rides on, chat
// and embeddings alike: connecting and the TLS handshake are bounded by
// connectTimeout, proxies come from the environment.
func BaseTransport(connectTimeout time.Duration) *http.Transport {
	dialer := &net.Dialer{Timeout: connectTimeout, KeepAlive: 30 * time.Second}
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   connectTimeout,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          4,
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

type observingTransport struct {
	base  http.RoundTripper
	proto wireProtocol
}

func (t *observingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	a := attemptFrom(req.Context())
	if a == nil {
		return resp, err
	}
	if err != nil {
		a.setDialErr(err)
		return nil, err
	}
	var code string
	if resp.StatusCode >= http.StatusBadRequest {
		code = peekErrorCode(resp)
	}
	a.setResponse(resp.StatusCode, parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()), code)
	if resp.StatusCode == http.StatusOK && t.proto != nil && !a.whole {
		resp.Body = &validatingBody{src: resp.Body, proto: t.proto, attempt: a}
	}
	return resp, nil
}

// maxErrorBody bounds what is read of an error response to find its code;
// error bodies are a few hundred bytes.
const maxErrorBody = 64 << 10

// peekErrorCode reads the start of an error response for its code and
// puts it back, so the client still reads the whole body for its message.
func peekErrorCode(resp *http.Response) string {
	head, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	if err != nil {
		return ""
	}
	return errorCode(head)
}

// errorCode finds the machine-readable kind of a provider's error body:
// OpenAI's error.code (else error.type), Anthropic's error.type. Ollama's
// error is a bare string and has none.
func errorCode(body []byte) string {
	var e struct {
		Error struct {
			Code any    `json:"code"` // a string at OpenAI, a number at some compatible servers
			Type string `json:"type"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil {
		return ""
	}
	if code, ok := e.Error.Code.(string); ok && isCode(code) {
		return code
	}
	if isCode(e.Error.Type) {
		return e.Error.Type
	}
	return ""
}

// maxCodeLen bounds an error code: providers' codes are short identifiers
// ("insufficient_quota", "rate_limit_error").
const maxCodeLen = 64

// isCode reports whether s looks like an error code: a short identifier.
// Anything else in the field (prose, control or invalid bytes, which JSON
// decoding turns into U+FFFD) is no code, so it never reaches a message
// or a log through the classification.
func isCode(s string) bool {
	if s == "" || len(s) > maxCodeLen {
		return false
	}
	for _, r := range s {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '_', r == '-', r == '.', r == ':':
		default:
			return false
		}
	}
	return true
}

// parseRetryAfter reads a Retry-After header in either form RFC 9110
// allows: delay-seconds, or an HTTP-date, taken relative to now. A date in
// the past, a negative delay or an unreadable value mean no wait.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0
		}
		// A delay beyond any cap is as good as "too long"; clamp before
		// multiplying so that it cannot overflow.
		return time.Duration(min(secs, int64(maxRetryAfter/time.Second))) * time.Second
	}
	if at, err := http.ParseTime(v); err == nil {
		return min(max(at.Sub(now), 0), maxRetryAfter)
	}
	return 0
}

// maxRetryAfter is the longest Retry-After the transport records; anything
// longer is far beyond any wait a person would accept.
const maxRetryAfter = 24 * time.Hour

// ParseRetryAfter is parseRetryAfter for the other clients of a provider
// (llm/embed), so that a Retry-After is read one way everywhere: 0 when
// absent, unreadable or past, at most 24 hours.
func ParseRetryAfter(v string, now time.Time) time.Duration { return parseRetryAfter(v, now) }

// ErrorCode is errorCode for the other clients of a provider (llm/embed):
// the short identifier in an error body's error.code or error.type
// ("insufficient_quota"), or "" when there is none.
func ErrorCode(body []byte) string { return errorCode(body) }
