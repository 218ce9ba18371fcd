package embed

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/docent-sh/docent/llm"
)

// langchaingo v0.1.14's embeddings clients flatten an HTTP failure into a
// string and drop the Retry-After header and the error body's code, so,
// as llm's Responder does, the embedder learns what happened from its own
// transport: each request's context carries an attempt, and the
// transport records the status, Retry-After, error code and transport
// error there.

type attemptKey struct{}

type attempt struct {
	mu         sync.Mutex
	status     int
	retryAfter time.Duration
	errorCode  string
	dialErr    error
}

type attemptResult struct {
	status     int
	retryAfter time.Duration
	errorCode  string
	dialErr    error
}

func withAttempt(ctx context.Context, a *attempt) context.Context {
	return context.WithValue(ctx, attemptKey{}, a)
}

func (a *attempt) snapshot() attemptResult {
	a.mu.Lock()
	defer a.mu.Unlock()
	return attemptResult{status: a.status, retryAfter: a.retryAfter, errorCode: a.errorCode, dialErr: a.dialErr}
}

// newHTTPClient bounds connecting; the request timeout comes from each
// batch's context.
func newHTTPClient(connectTimeout time.Duration) *http.Client {
	return &http.Client{Transport: &observingTransport{base: llm.BaseTransport(connectTimeout)}}
}

type observingTransport struct{ base http.RoundTripper }

// maxErrorBody bounds what is read of an error response for its code.
const maxErrorBody = 64 << 10

func (t *observingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	a, _ := req.Context().Value(attemptKey{}).(*attempt)
	if a == nil {
		return resp, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if err != nil {
		a.dialErr = err
		return nil, err
	}
	// Ollama's client sends one request per text: the record is of the
	// last, which is the failing one when the batch fails.
	a.status, a.retryAfter, a.errorCode = resp.StatusCode, 0, ""
	if resp.StatusCode >= http.StatusBadRequest {
		a.retryAfter = llm.ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
		head, rerr := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		// Put the head back, so that the client still reads the whole
		// body for its message.
		resp.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
		if rerr == nil {
			a.errorCode = llm.ErrorCode(head)
		}
	}
	return resp, nil
}
