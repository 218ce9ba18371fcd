package embed_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docent-sh/docent/llm/embed"
	"github.com/docent-sh/docent/llm/llmtest"
)

const testKey = "sk-test-s3cret"

// fast keeps retries quick: the backoff is a millisecond, so that only a
// scripted Retry-After makes a test wait.
func fast(opts ...embed.Option) []embed.Option {
	return append([]embed.Option{embed.WithBackoff(time.Millisecond, 5*time.Millisecond)}, opts...)
}

func newOpenAI(t *testing.T, srv *llmtest.EmbedServer, opts ...embed.Option) embed.Embedder {
	t.Helper()
	e, err := embed.New("openai", "", srv.BaseURL(), testKey, fast(opts...)...)
	if err != nil {
		t.Fatalf("New openai: %v", err)
	}
	return e
}

func newOllama(t *testing.T, srv *llmtest.EmbedServer, opts ...embed.Option) embed.Embedder {
	t.Helper()
	e, err := embed.New("ollama", "", srv.BaseURL(), "", fast(opts...)...)
	if err != nil {
		t.Fatalf("New ollama: %v", err)
	}
	return e
}

func texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("chunk %d: how to reset a password", i)
	}
	return out
}

func wantVectors(t *testing.T, in []string, got [][]float32, dim int) {
	t.Helper()
	if len(got) != len(in) {
		t.Fatalf("got %d vectors for %d texts", len(got), len(in))
	}
	for i, text := range in {
		if want := llmtest.Vector(text, dim); !slices.Equal(got[i], want) {
			t.Fatalf("vector %d = %v, want %v (the server's vector for %q)", i, got[i], want, text)
		}
	}
}

func embedError(t *testing.T, err error) *embed.Error {
	t.Helper()
	var e *embed.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is no *embed.Error", err, err)
	}
	return e
}

func TestNew(t *testing.T) {
	for _, p := range []string{"none", "", " None "} {
		e, err := embed.New(p, "", "", "")
		if err != nil || e != nil {
			t.Errorf("New(%q) = %v, %v; want no embedder and no error", p, e, err)
		}
	}
	_, err := embed.New("cohere", "", "", testKey)
	if !errors.Is(err, embed.ErrUnknownProvider) || !strings.Contains(err.Error(), `"cohere"`) {
		t.Errorf("unknown provider: %v, want ErrUnknownProvider naming it", err)
	}
	_, err = embed.New("openai", "", "", "")
	if !errors.Is(err, embed.ErrMissingKey) || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Errorf("openai without key: %v, want ErrMissingKey naming OPENAI_API_KEY", err)
	}
	_, err = embed.New("openai", "", "ftp://example.com", testKey)
	if err == nil || !strings.Contains(err.Error(), "scheme") {
		t.Errorf("ftp base URL: %v, want a scheme error", err)
	}
	_, err = embed.New("openai", "", "https://user:"+testKey+"@example.com:bad", testKey)
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("bad base URL: %v, want an error without the password", err)
	}
	_, err = embed.New("ollama", "", "", "", embed.WithBatchSize(0))
	if err == nil || !strings.Contains(err.Error(), "batch size") {
		t.Errorf("batch size 0: %v, want an error", err)
	}

	for _, c := range []struct {
		provider, key, model string
		dim                  int
	}{
		{"openai", testKey, embed.DefaultOpenAIModel, 1536},
		{"OpenAI", testKey, "text-embedding-3-small", 1536},
		{"ollama", "", embed.DefaultOllamaModel, 768},
	} {
		e, err := embed.New(c.provider, "", "", c.key)
		if err != nil {
			t.Fatalf("New(%s): %v", c.provider, err)
		}
		if e.Model() != c.model || e.Dimension() != c.dim {
			t.Errorf("New(%s): model %q dimension %d, want %q %d", c.provider, e.Model(), e.Dimension(), c.model, c.dim)
		}
		for _, s := range []string{fmt.Sprint(e), fmt.Sprintf("%+v", e), fmt.Sprintf("%#v", e)} {
			if strings.Contains(s, "s3cret") {
				t.Errorf("printing the embedder shows the key: %s", s)
			}
		}
	}
	if e, _ := embed.New("ollama", "mxbai-embed-large:latest", "", ""); e.Dimension() != 1024 {
		t.Errorf("mxbai-embed-large:latest dimension %d, want 1024", e.Dimension())
	}
	if e, _ := embed.New("ollama", "my-own-model", "", ""); e.Dimension() != 0 {
		t.Errorf("unknown model dimension %d, want 0 until the first call", e.Dimension())
	}
}

func TestResolveReadsTheEnvironment(t *testing.T) {
	srv := llmtest.NewOpenAIEmbeddings(t, llmtest.EmbedScript{APIKey: testKey})
	env := map[string]string{"OPENAI_API_KEY": testKey, "OPENAI_BASE_URL": srv.BaseURL()}
	e, err := embed.Resolve(embed.Config{Provider: "openai"}, func(k string) string { return env[k] })
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	if _, err := e.Embed(context.Background(), []string{"hello"}); err != nil {
		t.Fatalf("Embed through the environment's key and URL: %v", err)
	}
	if e, err := embed.Resolve(embed.Config{}, nil); e != nil || err != nil {
		t.Errorf("Resolve of the zero Config = %v, %v; want embeddings off", e, err)
	}

	ollama := llmtest.NewOllamaEmbeddings(t, llmtest.EmbedScript{})
	host := strings.TrimPrefix(ollama.URL, "http://")
	e, err = embed.Resolve(embed.Config{Provider: "ollama"}, func(k string) string {
		return map[string]string{"OLLAMA_HOST": host}[k]
	})
	if err != nil {
		t.Fatalf("Resolve ollama: %v", err)
	}
	if _, err := e.Embed(context.Background(), []string{"hello"}); err != nil || len(ollama.Requests()) != 1 {
		t.Fatalf("Embed at OLLAMA_HOST=%s: %v, %d requests", host, err, len(ollama.Requests()))
	}
}

func TestOpenAIBatches(t *testing.T) {
	srv := llmtest.NewOpenAIEmbeddings(t, llmtest.EmbedScript{Dimension: 12, APIKey: testKey,
		Models: []string{embed.DefaultOpenAIModel}})
	e := newOpenAI(t, srv)
	in := texts(150)
	in[3] = "a text\nover two lines"
	keep := slices.Clone(in)
	got, err := e.Embed(context.Background(), in)
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	wantVectors(t, in, got, 12)
	if !slices.Equal(in, keep) {
		t.Errorf("Embed changed the caller's texts")
	}
	if e.Dimension() != 12 {
		t.Errorf("Dimension after the call = %d, want the server's 12 over the table's 1536", e.Dimension())
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests for 150 texts in batches of %d, want 3", len(reqs), embed.DefaultBatchSize)
	}
	var sent []string
	for i, r := range reqs {
		inputs, err := srv.Inputs(r)
		if err != nil {
			t.Fatal(err)
		}
		if want := []int{64, 64, 22}[i]; len(inputs) != want {
			t.Errorf("request %d carried %d texts, want %d", i, len(inputs), want)
		}
		sent = append(sent, inputs...)
		if r.Path != "/v1/embeddings" || r.Header.Get("Authorization") != "Bearer "+testKey {
			t.Errorf("request %d: %s with Authorization %q", i, r.Path, r.Header.Get("Authorization"))
		}
		if strings.Contains(r.Query.Encode(), "s3cret") || bytes.Contains(r.Body, []byte("s3cret")) {
			t.Errorf("request %d carries the key outside its header: %s %s", i, r.Query.Encode(), r.Body)
		}
		var body struct{ Model string }
		if json.Unmarshal(r.Body, &body); body.Model != embed.DefaultOpenAIModel {
			t.Errorf("request %d asked for model %q", i, body.Model)
		}
	}
	if !slices.Equal(sent, in) {
		t.Errorf("the texts sent differ from the texts given (newlines must be kept, order too)")
	}
}

func TestOllamaBatches(t *testing.T) {
	srv := llmtest.NewOllamaEmbeddings(t, llmtest.EmbedScript{Dimension: 5, Models: []string{embed.DefaultOllamaModel}})
	e := newOllama(t, srv, embed.WithBatchSize(2))
	in := texts(5)
	got, err := e.Embed(context.Background(), in)
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	wantVectors(t, in, got, 5)
	reqs := srv.Requests()
	// langchaingo's Ollama client sends one text a request.
	if len(reqs) != len(in) {
		t.Fatalf("%d requests, want one per text (%d)", len(reqs), len(in))
	}
	for i, r := range reqs {
		inputs, _ := srv.Inputs(r)
		if r.Path != "/api/embed" || !slices.Equal(inputs, in[i:i+1]) || r.Header.Get("Authorization") != "" {
			t.Errorf("request %d: %s %q, Authorization %q", i, r.Path, inputs, r.Header.Get("Authorization"))
		}
	}
	if e.Dimension() != 5 {
		t.Errorf("Dimension = %d, want 5", e.Dimension())
	}
}

func TestEmptyInputs(t *testing.T) {
	srv := llmtest.NewOpenAIEmbeddings(t, llmtest.EmbedScript{})
	e := newOpenAI(t, srv)
	if got, err := e.Embed(context.Background(), nil); err != nil || len(got) != 0 {
		t.Errorf("Embed(nil) = %v, %v", got, err)
	}
	_, err := e.Embed(context.Background(), []string{"a", "b", " \n"})
	if !errors.Is(err, embed.ErrEmptyText) || !strings.Contains(err.Error(), "text 2") {
		t.Errorf("an empty text: %v, want ErrEmptyText naming text 2", err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent for a call refused up front", n)
	}
}

func TestRetryAfterThenSuccess(t *testing.T) {
	for _, c := range []struct {
		name  string
		start func(testing.TB, llmtest.EmbedScript) *llmtest.EmbedServer
		make  func(*testing.T, *llmtest.EmbedServer, ...embed.Option) embed.Embedder
	}{
		{"openai", llmtest.NewOpenAIEmbeddings, newOpenAI},
		{"ollama", llmtest.NewOllamaEmbeddings, newOllama},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := c.start(t, llmtest.EmbedScript{Statuses: []int{429}, RetryAfter: "1"})
			e := c.make(t, srv)
			in := []string{"one"}
			got, err := e.Embed(context.Background(), in)
			if err != nil {
				t.Fatalf("Embed after a 429: %v", err)
			}
			wantVectors(t, in, got, 8)
			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want the 429 and its retry", len(reqs))
			}
			if waited := reqs[1].Time.Sub(reqs[0].Time); waited < time.Second {
				t.Errorf("retried after %s, before the server's Retry-After of 1s", waited)
			}
		})
	}
}

func TestRetryAfterBeyondTheCap(t *testing.T) {
	srv := llmtest.NewOpenAIEmbeddings(t, llmtest.EmbedScript{Statuses: []int{429, 429}, RetryAfter: "120"})
	e := newOpenAI(t, srv, embed.WithRetries(3, 2*time.Second))
	start := time.Now()
	_, err := e.Embed(context.Background(), []string{"one"})
	if err == nil || !strings.Contains(err.Error(), "rate limited (429)") || !strings.Contains(err.Error(), "longer than the 2s cap") {
		t.Fatalf("Retry-After 120 with a 2s cap: %v", err)
	}
	if len(srv.Requests()) != 1 || time.Since(start) > time.Second {
		t.Errorf("%d requests in %s: a wait beyond the cap must end the retries at once", len(srv.Requests()), time.Since(start))
	}
}

func TestServerErrorsExhaustTheRetries(t *testing.T) {
	srv := llmtest.NewOpenAIEmbeddings(t, llmtest.EmbedScript{Statuses: []int{200, 500, 500, 502}})
	e := newOpenAI(t, srv, embed.WithBatchSize(2), embed.WithRetries(2, time.Second))
	_, err := e.Embed(context.Background(), texts(3))
	ee := embedError(t, err)
	if ee.Batch != 2 || ee.Batches != 2 || ee.First != 2 || ee.Last != 2 || ee.Status != 502 || ee.Retries != 2 {
		t.Errorf("error %+v: want batch 2 of 2, text 2, status 502, 2 retries", *ee)
	}
	want := "embed: openai text-embedding-3-small: batch 2 of 2 (texts 2–2): server error (502) after 2 retries"
	if err.Error() != want {
		t.Errorf("error text\n got %q\nwant %q", err.Error(), want)
	}
	if n := len(srv.Requests()); n != 4 {
		t.Errorf("%d requests, want batch 1, then batch 2 three times", n)
	}
}

func TestNotRetried(t *testing.T) {
	for _, c := range []struct {
		name   string
		script llmtest.EmbedScript
		want   string
		bad    bool // wraps ErrBadVectors
	}{
		{"quota", llmtest.EmbedScript{Statuses: []int{429}, InsufficientQuota: true}, "quota exhausted", false},
		{"unauthorized", llmtest.EmbedScript{APIKey: "another-key"}, "authentication failed (401): check OPENAI_API_KEY", false},
		{"unknown model", llmtest.EmbedScript{Models: []string{"other"}}, `model "text-embedding-3-small" not found (404)`, false},
		{"bad request", llmtest.EmbedScript{Statuses: []int{400}}, "request rejected (400): ", false},
		{"bad JSON", llmtest.EmbedScript{Faults: []llmtest.EmbedFault{llmtest.FaultMalformed}}, "unreadable response", false},
		{"NaN", llmtest.EmbedScript{Faults: []llmtest.EmbedFault{llmtest.FaultNaN}}, "unreadable response", false},
		{"overflow", llmtest.EmbedScript{Faults: []llmtest.EmbedFault{llmtest.FaultOverflow}}, "unreadable response", false},
		{"missing vector", llmtest.EmbedScript{Faults: []llmtest.EmbedFault{llmtest.FaultMissing}}, "the server returned 2 vectors for 3 texts", true},
		{"extra vector", llmtest.EmbedScript{Faults: []llmtest.EmbedFault{llmtest.FaultExtra}}, "the server returned 4 vectors for 3 texts", true},
		{"ragged", llmtest.EmbedScript{Faults: []llmtest.EmbedFault{llmtest.FaultRagged}}, "vector 2 has 7 values, expected 8", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.NewOpenAIEmbeddings(t, c.script)
			e := newOpenAI(t, srv)
			got, err := e.Embed(context.Background(), texts(3))
			if err == nil || got != nil {
				t.Fatalf("Embed = %d vectors, %v; want an error and no vectors", len(got), err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want it to say %q", err, c.want)
			}
			if errors.Is(err, embed.ErrBadVectors) != c.bad {
				t.Errorf("errors.Is(ErrBadVectors) = %v, want %v", !c.bad, c.bad)
			}
			if n := len(srv.Requests()); n != 1 {
				t.Errorf("%d requests: this failure must not be retried", n)
			}
		})
	}
}

func TestOllamaWrongCounts(t *testing.T) {
	for _, c := range []struct {
		fault llmtest.EmbedFault
		want  string
	}{
		{llmtest.FaultMissing, "the server returned no vectors for 2 texts"},
		{llmtest.FaultExtra, "the server returned 3 vectors for 2 texts"},
		{llmtest.FaultNaN, "unreadable response"},
	} {
		srv := llmtest.NewOllamaEmbeddings(t, llmtest.EmbedScript{Faults: []llmtest.EmbedFault{llmtest.FaultNone, c.fault}})
		e := newOllama(t, srv)
		_, err := e.Embed(context.Background(), texts(2))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("fault %d: %v, want %q", c.fault, err, c.want)
		}
	}
}

func TestDimensionMustHoldAcrossBatchesAndCalls(t *testing.T) {
	srv := llmtest.NewOpenAIEmbeddings(t, llmtest.EmbedScript{Dimension: 8, DimensionAfter: 6, DimensionFrom: 1})
	e := newOpenAI(t, srv, embed.WithBatchSize(2))
	_, err := e.Embed(context.Background(), texts(4))
	ee := embedError(t, err)
	if ee.Batch != 2 || !errors.Is(err, embed.ErrBadVectors) || !strings.Contains(err.Error(), "vector 0 has 6 values, expected 8") {
		t.Errorf("a second batch of another length: %v", err)
	}
	// The next call is checked against the length seen first too.
	if _, err := e.Embed(context.Background(), texts(1)); !errors.Is(err, embed.ErrBadVectors) {
		t.Errorf("a later call of another length: %v", err)
	}
	if e.Dimension() != 8 {
		t.Errorf("Dimension = %d, want the first length seen, 8", e.Dimension())
	}
}

func TestCancellation(t *testing.T) {
	t.Run("during a request", func(t *testing.T) {
		srv := llmtest.NewOpenAIEmbeddings(t, llmtest.EmbedScript{Delay: 10 * time.Second})
		e := newOpenAI(t, srv)
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		start := time.Now()
		_, err := e.Embed(ctx, texts(2))
		if !errors.Is(err, context.Canceled) || time.Since(start) > 2*time.Second {
			t.Errorf("cancelled after 50ms: %v after %s", err, time.Since(start))
		}
		embedError(t, err)
	})
	t.Run("while waiting to retry", func(t *testing.T) {
		srv := llmtest.NewOllamaEmbeddings(t, llmtest.EmbedScript{Statuses: []int{503}, RetryAfter: "20"})
		e := newOllama(t, srv)
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		start := time.Now()
		_, err := e.Embed(ctx, texts(1))
		if !errors.Is(err, context.Canceled) || time.Since(start) > 2*time.Second || !strings.Contains(err.Error(), "server error (503)") {
			t.Errorf("cancelled while waiting out a Retry-After of 20s: %v after %s", err, time.Since(start))
		}
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})
	t.Run("before the call", func(t *testing.T) {
		srv := llmtest.NewOpenAIEmbeddings(t, llmtest.EmbedScript{})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := newOpenAI(t, srv).Embed(ctx, texts(1)); !errors.Is(err, context.Canceled) || len(srv.Requests()) != 0 {
			t.Errorf("a cancelled context: %v, %d requests", err, len(srv.Requests()))
		}
	})
}

func TestRequestTimeout(t *testing.T) {
	srv := llmtest.NewOpenAIEmbeddings(t, llmtest.EmbedScript{Delay: 5 * time.Second})
	e := newOpenAI(t, srv, embed.WithRequestTimeout(100*time.Millisecond), embed.WithRetries(1, time.Second))
	start := time.Now()
	_, err := e.Embed(context.Background(), texts(1))
	if err == nil || !strings.Contains(err.Error(), "no answer within 100ms (request timeout) after 1 retry") {
		t.Errorf("a server slower than the timeout: %v", err)
	}
	if n := len(srv.Requests()); n != 2 || time.Since(start) > 3*time.Second {
		t.Errorf("%d requests in %s, want 2 quickly", n, time.Since(start))
	}
}

func TestConnectionRefused(t *testing.T) {
	srv := llmtest.NewOllamaEmbeddings(t, llmtest.EmbedScript{})
	base := srv.BaseURL()
	srv.Close()
	e, err := embed.New("ollama", "", base, "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Embed(context.Background(), texts(1))
	if err == nil || !strings.Contains(err.Error(), "cannot reach 127.0.0.1:") {
		t.Errorf("a closed server: %v", err)
	}
}

// TestKeyNeverShown drives every way an error can quote the server
// (rejections with the request's credentials echoed back, retries that
// log) and looks for the key, whole or in part, in the errors, their
// causes and the log.
func TestKeyNeverShown(t *testing.T) {
	// Odd statuses quote the key without its "sk-" prefix, which only
	// masking the key itself catches; even ones repeat the header.
	for _, status := range []int{400, 401, 403, 404, 422, 409, 500} {
		var logs bytes.Buffer
		logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		srv := llmtest.NewOpenAIEmbeddings(t, llmtest.EmbedScript{Statuses: []int{status, status}, EchoKey: status%2 == 0, EchoBareKey: status%2 == 1})
		e := newOpenAI(t, srv, embed.WithLogger(logger), embed.WithRetries(1, time.Second))
		_, err := e.Embed(context.Background(), texts(1))
		if err == nil {
			t.Fatalf("status %d: no error", status)
		}
		logger.Error("embedding failed", "err", err, "embedder", e)
		shown := []string{err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err), logs.String()}
		for u := errors.Unwrap(err); u != nil; u = errors.Unwrap(u) {
			shown = append(shown, u.Error(), fmt.Sprintf("%#v", u))
		}
		for _, s := range shown {
			if strings.Contains(s, "s3cret") {
				t.Errorf("status %d: the key shows: %s", status, s)
			}
		}
		if (status == 400 || status == 409) && !strings.Contains(err.Error(), "[redacted]") {
			t.Errorf("status %d: the echoed key should be quoted masked: %s", status, err)
		}
	}
}
