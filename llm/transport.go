package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/docent-sh/docent/textsafe"
)

// The langchaingo clients flatten HTTP failures into strings (and the
// Ollama client ignores a stream that breaks off), so the Responder learns
// what really happened from its own transport: each call carries an
// attempt in its context, and the transport records the status, the
// transport error and what the stream validator found.

type attemptKey struct{}

// attempt is what the transport saw during one model call.
type attempt struct {
	mu         sync.Mutex
	status     int
	retryAfter time.Duration
	dialErr    error // from the round trip: refused, DNS, TLS, connect timeout
	streamErr  error // malformed frame, broken connection, error event
	completed  bool  // the stream's end marker arrived
}

func withAttempt(ctx context.Context, a *attempt) context.Context {
	return context.WithValue(ctx, attemptKey{}, a)
}

func attemptFrom(ctx context.Context) *attempt {
	a, _ := ctx.Value(attemptKey{}).(*attempt)
	return a
}

func (a *attempt) setResponse(status int, retryAfter time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.status, a.retryAfter = status, retryAfter
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
	return attemptResult{status: a.status, retryAfter: a.retryAfter, dialErr: a.dialErr,
		streamErr: a.streamErr, completed: a.completed}
}

type attemptResult struct {
	status     int
	retryAfter time.Duration
	dialErr    error
	streamErr  error
	completed  bool
}

// newHTTPClient returns the client every provider uses: connecting is
// bounded by connectTimeout, but there is no overall timeout because an
// answer streams for as long as the model writes (the first-token timeout
// and the caller's context bound the rest).
func newHTTPClient(connectTimeout time.Duration, proto wireProtocol) *http.Client {
	dialer := &net.Dialer{Timeout: connectTimeout, KeepAlive: 30 * time.Second}
	base := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   connectTimeout,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          4,
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	return &http.Client{Transport: &observingTransport{base: base, proto: proto}}
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
	a.setResponse(resp.StatusCode, parseRetryAfter(resp.Header.Get("Retry-After")))
	if resp.StatusCode == http.StatusOK && t.proto != nil {
		resp.Body = &validatingBody{src: resp.Body, proto: t.proto, attempt: a}
	}
	return resp, nil
}

// parseRetryAfter reads the delay-seconds form; the date form is rare from
// model APIs and a wrong guess would only make the backoff shorter.
func parseRetryAfter(v string) time.Duration {
	secs, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || secs < 0 {
		return 0
	}
	return time.Duration(secs) * time.Second
}

// wireProtocol checks one line of a provider's stream: it says whether to
// pass the line on, drop it, or take it as the stream's end marker, and
// returns an error when the line is malformed or reports a failure.
type wireProtocol func(line []byte) (lineAction, error)

type lineAction int

const (
	linePass lineAction = iota
	lineDrop
	lineEnd
)

// errMalformed marks a stream that does not follow its protocol.
var errMalformed = errors.New("malformed stream")

// streamFailure is an error the provider reported inside a 200 stream.
type streamFailure struct{ message string }

func (e *streamFailure) Error() string { return "error in stream: " + e.message }

// openAIStreamLine checks OpenAI chat-completions server-sent events.
func openAIStreamLine(line []byte) (lineAction, error) {
	data, ok, err := sseData(line)
	if !ok || err != nil {
		return linePass, err
	}
	if string(data) == "[DONE]" {
		return lineEnd, nil
	}
	var frame struct {
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &frame); err != nil {
		return linePass, fmt.Errorf("%w: data is not JSON %s", errMalformed, excerpt(data))
	}
	if frame.Error != nil {
		return linePass, &streamFailure{message: frame.Error.Message}
	}
	return linePass, nil
}

// anthropicStreamLine checks Anthropic messages server-sent events.
func anthropicStreamLine(line []byte) (lineAction, error) {
	data, ok, err := sseData(line)
	if !ok || err != nil {
		return linePass, err
	}
	var event struct {
		Type  string `json:"type"`
		Error *struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &event); err != nil {
		return linePass, fmt.Errorf("%w: data is not JSON %s", errMalformed, excerpt(data))
	}
	switch event.Type {
	case "":
		return linePass, fmt.Errorf("%w: event without a type %s", errMalformed, excerpt(data))
	case "message_stop":
		return lineEnd, nil
	case "error":
		msg := "unknown error"
		if event.Error != nil {
			msg = strings.TrimSpace(event.Error.Type + ": " + event.Error.Message)
		}
		return linePass, &streamFailure{message: msg}
	case "message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "ping":
		return linePass, nil
	}
	// Anthropic may add event types; langchaingo's client reports unknown
	// ones with the standard logger, which would write over the TUI, so
	// they are dropped here (a client must ignore them anyway).
	return lineDrop, nil
}

// ollamaStreamLine checks Ollama /api/chat newline-delimited JSON.
func ollamaStreamLine(line []byte) (lineAction, error) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return linePass, nil
	}
	var frame struct {
		Done  bool   `json:"done"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(line, &frame); err != nil {
		return linePass, fmt.Errorf("%w: line is not JSON %s", errMalformed, excerpt(line))
	}
	if frame.Error != "" {
		return linePass, &streamFailure{message: frame.Error}
	}
	if frame.Done {
		return lineEnd, nil
	}
	return linePass, nil
}

// sseData returns the payload of a "data:" line. Blank lines, comments and
// the other SSE fields are valid and carry no data; anything else is not
// server-sent events at all.
func sseData(line []byte) ([]byte, bool, error) {
	line = bytes.TrimRight(line, "\r")
	if len(line) == 0 || line[0] == ':' {
		return nil, false, nil
	}
	field, value, _ := bytes.Cut(line, []byte(":"))
	switch string(field) {
	case "data":
		return bytes.TrimSpace(value), true, nil
	case "event", "id", "retry":
		return nil, false, nil
	}
	return nil, false, fmt.Errorf("%w: not a server-sent event line %s", errMalformed, excerpt(line))
}

// excerpt shows the start of a bad frame in a notice: enough to recognize
// it, cleaned of anything a terminal would interpret.
func excerpt(b []byte) string {
	return "(" + textsafe.Clip(string(b), 32) + ")"
}

// validatingBody passes a stream through line by line, releasing a line to
// the client only after the protocol accepted it. A malformed line, a
// failure reported in the stream or an end before the end marker becomes a
// read error (and is recorded on the attempt), so every client sees the
// same clear failure instead of skipping bad frames or, as langchaingo's
// Ollama client does, taking a truncated stream for a complete one.
type validatingBody struct {
	src     io.ReadCloser
	proto   wireProtocol
	attempt *attempt

	raw  []byte // read but not yet split into lines
	out  []byte // validated, waiting for the client
	done bool   // end marker seen: the rest passes unchecked
	err  error  // sticky
	buf  [4096]byte
}

func (b *validatingBody) Read(p []byte) (int, error) {
	for len(b.out) == 0 {
		if b.err != nil {
			return 0, b.err
		}
		n, err := b.src.Read(b.buf[:])
		b.raw = append(b.raw, b.buf[:n]...)
		b.releaseLines()
		if err != nil && b.err == nil {
			b.finish(err)
		}
	}
	n := copy(p, b.out)
	b.out = b.out[n:]
	return n, nil
}

func (b *validatingBody) releaseLines() {
	for b.err == nil {
		i := bytes.IndexByte(b.raw, '\n')
		if i < 0 {
			return
		}
		line := b.raw[:i+1]
		keep := b.check(bytes.TrimRight(line, "\r\n"))
		if b.err != nil {
			return
		}
		if keep {
			b.out = append(b.out, line...)
		}
		b.raw = b.raw[i+1:]
	}
}

// check validates one line and reports whether to pass it on.
func (b *validatingBody) check(line []byte) bool {
	if b.done {
		return true
	}
	action, err := b.proto(line)
	if err != nil {
		b.fail(err)
		return false
	}
	switch action {
	case lineEnd:
		b.done = true
		b.attempt.setCompleted()
	case lineDrop:
		return false
	}
	return true
}

// finish handles the end of the source: a last line without a newline,
// then either a clean end after the marker or a broken stream.
func (b *validatingBody) finish(readErr error) {
	if len(b.raw) > 0 {
		keep := b.check(b.raw)
		if b.err != nil {
			return
		}
		if keep {
			b.out = append(b.out, b.raw...)
		}
		b.raw = nil
	}
	switch {
	case readErr == io.EOF && b.done:
		b.err = io.EOF
	case readErr == io.EOF:
		b.fail(fmt.Errorf("stream ended before its end marker: %w", io.ErrUnexpectedEOF))
	default:
		b.fail(fmt.Errorf("stream broke off: %w", readErr))
	}
}

func (b *validatingBody) fail(err error) {
	b.err = err
	b.attempt.setStreamErr(err)
}

func (b *validatingBody) Close() error { return b.src.Close() }
