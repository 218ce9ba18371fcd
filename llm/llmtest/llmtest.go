// Package llmtest runs local HTTP servers that speak the streaming wire
// protocols of the model providers docent supports — OpenAI
// chat-completions server-sent events, Ollama /api/chat newline-delimited
// JSON and Anthropic /v1/messages server-sent events — so that tests drive
// the real langchaingo clients. A Script says what a server sends: the
// chunks, a delay before each, a status per request (429 then 200) with
// its Retry-After, a connection cut or a stall after N chunks, a malformed
// frame, the usage the provider reports. Each server also lists its models
// (GET /v1/models, or /api/tags for Ollama). The server records every
// request and signals when a client goes away mid-stream.
//
// EmbedServer (embed.go) speaks the embeddings endpoints of OpenAI
// (/v1/embeddings) and Ollama (/api/embed), answering Vector of each text,
// with scripted statuses, Retry-After and malformed, miscounted, ragged or
// non-finite responses.
package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Script is what a server answers.
type Script struct {
	Chunks []string      // the answer's text pieces, in order
	Delay  time.Duration // wait before each chunk (after the headers are sent)

	// Statuses are the HTTP statuses of the 1st, 2nd, … request; a non-200
	// status gets the provider's error body and no stream. Requests beyond
	// the list get 200.
	Statuses []int

	BreakAfter  int    // > 0: cut the connection after this many chunks, without an end marker
	StallAfter  int    // > 0: after this many chunks send nothing more, holding the connection open until the client leaves
	Malformed   bool   // after the chunks, send a frame that breaks the protocol and end there
	StreamError string // after the chunks, report this error in the provider's in-stream format and end

	// RetryAfter is the Retry-After header sent with every non-200 status:
	// delay-seconds ("2") or an HTTP-date (http.TimeFormat).
	RetryAfter string
	// InsufficientQuota makes OpenAI's 429 the exhausted-quota one
	// (code insufficient_quota), which waiting does not cure.
	InsufficientQuota bool

	// Usage is the token usage the server reports at the end of a stream
	// (OpenAI's final usage chunk when the request asks for it, Anthropic's
	// message_start and message_delta, Ollama's prompt_eval_count and
	// eval_count). Zero fields report 100 prompt and 20 completion tokens;
	// OmitUsage sends none.
	Usage     Usage
	OmitUsage bool

	Models   []string // the models the server knows and lists; another gets 404 (empty: any model, and an empty list)
	PageSize int      // Anthropic's model listing: at most this many a page (0: as the request's limit says)
	APIKey   string   // when set, a request without this key gets 401

	// Replies, when set, are the answers to the 1st, 2nd, … chat request
	// in place of Chunks (a judging call's JSON, say): whole, or streamed
	// as one chunk; a request beyond the list gets the last. ReplyDelay is
	// waited before a non-streaming answer, to test a caller's timeout.
	Replies    []string
	ReplyDelay time.Duration

	// EchoKey makes error bodies repeat the credentials the request
	// carried, as some servers and proxies do, to test that they are
	// redacted before reaching a notice or a log.
	EchoKey bool
}

// Usage is the token usage a server reports.
type Usage struct {
	PromptTokens     int
	CompletionTokens int
}

func (u Usage) orDefault() Usage {
	if u.PromptTokens == 0 {
		u.PromptTokens = 100
	}
	if u.CompletionTokens == 0 {
		u.CompletionTokens = 20
	}
	return u
}

// Request is one request a server received.
type Request struct {
	Method string
	Path   string
	Query  url.Values
	Header http.Header
	Body   []byte
	Time   time.Time // when it arrived
	NumCtx int       // Ollama: the request's options.num_ctx (0 when absent)
}

// Message is one message of a request, normalized across protocols: the
// system prompt has Role "system" whatever field carried it.
type Message struct {
	Role string
	Text string
}

type protocol struct {
	name        string
	path        string
	listPath    string // GET: the model listing
	basePath    string // what to append to the server URL for a client's base URL
	contentType string
	keyOK       func(h http.Header, key string) bool
	errorBody   func(status int, model string, quota bool) []byte
	start       func(model string, usage *Usage) []string
	chunk       func(model, text string) []string
	end         func(model string, usage *Usage) []string // usage nil: none reported
	malformed   func(model string) []string
	streamError func(message string) []string
	whole       func(model, text string) []byte // the answer to a non-streaming request
	messages    func(body []byte) ([]Message, error)
	list        func(models []string, q url.Values, pageSize int) []byte
}

// Server is a scripted provider endpoint.
type Server struct {
	URL string // the server's root URL

	proto  protocol
	script Script
	srv    *httptest.Server

	mu           sync.Mutex
	requests     []Request
	completed    int
	replied      int // chat requests answered from Script.Replies so far
	disconnected chan struct{}
	once         sync.Once
}

// NewOpenAI starts an OpenAI chat-completions server (POST
// /v1/chat/completions). It is closed when the test ends.
func NewOpenAI(t testing.TB, s Script) *Server { return start(t, openAIProtocol, s) }

// NewAnthropic starts an Anthropic messages server (POST /v1/messages).
func NewAnthropic(t testing.TB, s Script) *Server { return start(t, anthropicProtocol, s) }

// NewOllama starts an Ollama chat server (POST /api/chat).
func NewOllama(t testing.TB, s Script) *Server { return start(t, ollamaProtocol, s) }

func start(t testing.TB, p protocol, s Script) *Server {
	t.Helper()
	srv := &Server{proto: p, script: s, disconnected: make(chan struct{})}
	srv.srv = httptest.NewServer(http.HandlerFunc(srv.serve))
	srv.URL = srv.srv.URL
	t.Cleanup(srv.Close)
	return srv
}

// BaseURL is what a client is configured with: the URL plus /v1 for
// OpenAI and Anthropic, the bare URL for Ollama.
func (s *Server) BaseURL() string { return s.URL + s.proto.basePath }

// Close shuts the server down, cutting open streams.
func (s *Server) Close() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// Requests returns a copy of the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Completed is how many streams were sent to their end marker.
func (s *Server) Completed() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.completed
}

// Disconnected is closed when a client went away before its stream ended.
func (s *Server) Disconnected() <-chan struct{} { return s.disconnected }

// Messages parses the request body's messages, system prompt first.
func (s *Server) Messages(r Request) ([]Message, error) { return s.proto.messages(r.Body) }

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "read body: "+err.Error(), http.StatusBadRequest)
		return
	}
	var req struct {
		Model         string `json:"model"`
		Stream        *bool  `json:"stream"`
		StreamOptions *struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
		Options struct {
			NumCtx int `json:"num_ctx"`
		} `json:"options"`
	}
	decodeErr := json.Unmarshal(body, &req)
	if r.Method == http.MethodGet {
		decodeErr = nil
	}
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(),
		Header: r.Header.Clone(), Body: body, Time: time.Now(), NumCtx: req.Options.NumCtx})
	s.mu.Unlock()

	if r.Method == http.MethodGet && r.URL.Path == s.proto.listPath {
		s.serveList(w, r, n)
		return
	}
	if r.Method != http.MethodPost || r.URL.Path != s.proto.path {
		http.Error(w, fmt.Sprintf("404 page not found: %s %s", r.Method, r.URL.Path), http.StatusNotFound)
		return
	}
	if decodeErr != nil {
		s.fail(w, http.StatusBadRequest, req.Model, r.Header)
		return
	}
	if s.refused(w, n, req.Model, r.Header) {
		return
	}
	if len(s.script.Models) > 0 && !slices.Contains(s.script.Models, req.Model) {
		s.fail(w, http.StatusNotFound, req.Model, r.Header)
		return
	}
	// Ollama streams unless told not to; the others only when asked.
	streaming := req.Stream != nil && *req.Stream
	if s.proto.name == "ollama" {
		streaming = req.Stream == nil || *req.Stream
	}
	if !streaming {
		s.serveWhole(w, r, req.Model)
		return
	}
	var usage *Usage
	// OpenAI reports usage only when the request asks for it.
	if !s.script.OmitUsage && (s.proto.name != "openai" || req.StreamOptions != nil && req.StreamOptions.IncludeUsage) {
		u := s.script.Usage.orDefault()
		usage = &u
	}
	s.stream(w, r, req.Model, usage)
}

// chunks are the answer to the next chat request: Script.Chunks, or the
// next of Script.Replies.
func (s *Server) chunks() []string {
	if len(s.script.Replies) == 0 {
		return s.script.Chunks
	}
	s.mu.Lock()
	n := s.replied
	s.replied++
	s.mu.Unlock()
	return []string{s.script.Replies[min(n, len(s.script.Replies)-1)]}
}

// pause waits d before the next piece of a reply, reporting false (and
// marking the client gone) when the client hangs up first.
func (s *Server) pause(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-r.Context().Done():
		s.markDisconnected()
		return false
	case <-timer.C:
		return true
	}
}

// serveWhole answers a non-streaming request with the next of
// Script.Replies, after Script.ReplyDelay.
func (s *Server) serveWhole(w http.ResponseWriter, r *http.Request, model string) {
	text := strings.Join(s.chunks(), "")
	if !s.pause(r, s.script.ReplyDelay) {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(s.proto.whole(model, text))
}

// refused answers request n with its scripted status or a 401 for a
// missing key, and reports whether it did.
func (s *Server) refused(w http.ResponseWriter, n int, model string, h http.Header) bool {
	if n < len(s.script.Statuses) && s.script.Statuses[n] != http.StatusOK {
		s.fail(w, s.script.Statuses[n], model, h)
		return true
	}
	if s.script.APIKey != "" && !s.proto.keyOK(h, s.script.APIKey) {
		s.fail(w, http.StatusUnauthorized, model, h)
		return true
	}
	return false
}

// serveList answers the model listing with Script.Models.
func (s *Server) serveList(w http.ResponseWriter, r *http.Request, n int) {
	if s.refused(w, n, "", r.Header) {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(s.proto.list(s.script.Models, r.URL.Query(), s.script.PageSize))
}

func (s *Server) fail(w http.ResponseWriter, status int, model string, h http.Header) {
	body := s.proto.errorBody(status, model, s.script.InsufficientQuota)
	if s.script.EchoKey {
		var echo strings.Builder
		for _, name := range []string{"Authorization", "X-Api-Key"} {
			if v := h.Get(name); v != "" {
				echo.WriteString(" " + name + ": " + v)
			}
		}
		body = []byte(strings.Replace(string(body), `"message":"`, `"message":"request had`+jsonEscape(echo.String())+`; `, 1))
	}
	w.Header().Set("Content-Type", "application/json")
	if s.script.RetryAfter != "" {
		w.Header().Set("Retry-After", s.script.RetryAfter)
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// jsonEscape escapes s for use inside a JSON string literal.
func jsonEscape(s string) string {
	q := mustJSON(s)
	return q[1 : len(q)-1]
}

func (s *Server) stream(w http.ResponseWriter, r *http.Request, model string, usage *Usage) {
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", s.proto.contentType)
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	send := func(frames []string) bool {
		for _, f := range frames {
			if _, err := io.WriteString(w, f); err != nil {
				s.markDisconnected()
				return false
			}
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	if !send(s.proto.start(model, usage)) {
		return
	}
	chunks := s.chunks()
	for i, text := range chunks {
		if s.script.BreakAfter > 0 && i == s.script.BreakAfter {
			// Abort the handler: the server closes the connection without
			// the final empty chunk, so the client reads an unexpected EOF.
			panic(http.ErrAbortHandler)
		}
		if s.script.StallAfter > 0 && i == s.script.StallAfter {
			s.stall(r)
			return
		}
		if !s.pause(r, s.script.Delay) {
			return
		}
		if !send(s.proto.chunk(model, text)) {
			return
		}
	}
	if s.script.BreakAfter > 0 && s.script.BreakAfter >= len(chunks) {
		panic(http.ErrAbortHandler)
	}
	if s.script.StallAfter > 0 && s.script.StallAfter >= len(chunks) {
		s.stall(r)
		return
	}
	if s.script.Malformed {
		send(s.proto.malformed(model))
		return
	}
	if s.script.StreamError != "" {
		send(s.proto.streamError(s.script.StreamError))
		return
	}
	// Count the stream before its end marker goes out: a client returns as
	// soon as it reads the marker, and a test asking Completed right then
	// must not race the handler's bookkeeping.
	s.mu.Lock()
	s.completed++
	s.mu.Unlock()
	if !send(s.proto.end(model, usage)) {
		s.mu.Lock()
		s.completed--
		s.mu.Unlock()
	}
}

// stall keeps the stream open without sending anything, as a model that
// hangs mid-answer does, until the client gives up (or the server closes).
func (s *Server) stall(r *http.Request) {
	<-r.Context().Done()
	s.markDisconnected()
}

func (s *Server) markDisconnected() { s.once.Do(func() { close(s.disconnected) }) }

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("llmtest: encode %T: %v", v, err))
	}
	return string(b)
}

func sse(event string, v any) string {
	var b strings.Builder
	if event != "" {
		b.WriteString("event: " + event + "\n")
	}
	b.WriteString("data: " + mustJSON(v) + "\n\n")
	return b.String()
}

func bearerOK(h http.Header, key string) bool {
	return h.Get("Authorization") == "Bearer "+key
}

// OpenAI chat completions.
var openAIProtocol = protocol{
	name:        "openai",
	path:        "/v1/chat/completions",
	listPath:    "/v1/models",
	basePath:    "/v1",
	contentType: "text/event-stream",
	keyOK:       bearerOK,
	errorBody: func(status int, model string, quota bool) []byte {
		typ, code, msg := "server_error", "", http.StatusText(status)
		switch status {
		case http.StatusUnauthorized:
			typ, code, msg = "invalid_request_error", "invalid_api_key", "Incorrect API key provided."
		case http.StatusNotFound:
			typ, code, msg = "invalid_request_error", "model_not_found", fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", model)
		case http.StatusTooManyRequests:
			typ, code, msg = "requests", "rate_limit_exceeded", "Rate limit reached for requests."
			if quota {
				typ, code, msg = "insufficient_quota", "insufficient_quota", "You exceeded your current quota, please check your plan and billing details."
			}
		case http.StatusBadRequest:
			typ, msg = "invalid_request_error", "Invalid request."
		}
		return []byte(mustJSON(map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}}))
	},
	start: func(model string, _ *Usage) []string {
		return []string{sse("", openAIChunk(model, map[string]any{"role": "assistant", "content": ""}, nil))}
	},
	chunk: func(model, text string) []string {
		return []string{sse("", openAIChunk(model, map[string]any{"content": text}, nil))}
	},
	end: func(model string, usage *Usage) []string {
		stop := "stop"
		frames := []string{sse("", openAIChunk(model, map[string]any{}, &stop))}
		if usage != nil {
			frames = append(frames, sse("", map[string]any{
				"id": "chatcmpl-llmtest", "object": "chat.completion.chunk", "created": 1700000000, "model": model,
				"choices": []any{}, "usage": map[string]any{"prompt_tokens": usage.PromptTokens,
					"completion_tokens": usage.CompletionTokens, "total_tokens": usage.PromptTokens + usage.CompletionTokens},
			}))
		}
		return append(frames, "data: [DONE]\n\n")
	},
	malformed: func(string) []string {
		return []string{`data: {"id":"chatcmpl-llmtest","choices":[{"delta":{"content":` + "\n\n"}
	},
	streamError: func(message string) []string {
		return []string{sse("", map[string]any{"error": map[string]any{"message": message, "type": "server_error"}})}
	},
	whole: func(model, text string) []byte {
		return []byte(mustJSON(map[string]any{
			"id": "chatcmpl-llmtest", "object": "chat.completion", "created": 1700000000, "model": model,
			"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": text}, "finish_reason": "stop"}},
			"usage":   map[string]any{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
		}))
	},
	messages: func(body []byte) ([]Message, error) {
		var req struct {
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, fmt.Errorf("openai request: %w", err)
		}
		var out []Message
		for _, m := range req.Messages {
			text, err := contentText(m.Content)
			if err != nil {
				return nil, fmt.Errorf("openai request: %s message: %w", m.Role, err)
			}
			out = append(out, Message{Role: m.Role, Text: text})
		}
		return out, nil
	},
	list: func(models []string, _ url.Values, _ int) []byte {
		data := make([]any, 0, len(models))
		for _, m := range models {
			data = append(data, map[string]any{"id": m, "object": "model", "created": 1700000000, "owned_by": "llmtest"})
		}
		return []byte(mustJSON(map[string]any{"object": "list", "data": data}))
	},
}

func openAIChunk(model string, delta map[string]any, finish *string) map[string]any {
	var reason any
	if finish != nil {
		reason = *finish
	}
	return map[string]any{
		"id": "chatcmpl-llmtest", "object": "chat.completion.chunk", "created": 1700000000, "model": model,
		"system_fingerprint": "fp_llmtest",
		"choices":            []any{map[string]any{"index": 0, "delta": delta, "finish_reason": reason}},
	}
}

// contentText reads a message content that is either a string or a list
// of parts ({"type":"text","text":…}).
func contentText(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", err
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String(), nil
}

// Anthropic messages.
var anthropicProtocol = protocol{
	name:        "anthropic",
	path:        "/v1/messages",
	listPath:    "/v1/models",
	basePath:    "/v1",
	contentType: "text/event-stream",
	keyOK: func(h http.Header, key string) bool {
		return h.Get("X-Api-Key") == key
	},
	errorBody: func(status int, model string, _ bool) []byte {
		typ, msg := "api_error", http.StatusText(status)
		switch status {
		case http.StatusBadRequest:
			typ, msg = "invalid_request_error", "invalid request"
		case http.StatusUnauthorized:
			typ, msg = "authentication_error", "invalid x-api-key"
		case http.StatusForbidden:
			typ, msg = "permission_error", "permission denied"
		case http.StatusNotFound:
			typ, msg = "not_found_error", "model: "+model
		case http.StatusTooManyRequests:
			typ, msg = "rate_limit_error", "rate limited"
		case 529:
			typ, msg = "overloaded_error", "Overloaded"
		}
		return []byte(mustJSON(map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}}))
	},
	// Anthropic always reports usage, and langchaingo's client requires it:
	// without Script usage the counts are zero.
	start: func(model string, usage *Usage) []string {
		var u Usage
		if usage != nil {
			u = *usage
		}
		return []string{
			sse("message_start", map[string]any{"type": "message_start", "message": map[string]any{
				"id": "msg_llmtest", "type": "message", "role": "assistant", "content": []any{}, "model": model,
				"stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": u.PromptTokens, "output_tokens": min(u.CompletionTokens, 1)},
			}}),
			sse("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
				"content_block": map[string]any{"type": "text", "text": ""}}),
			sse("ping", map[string]any{"type": "ping"}),
		}
	},
	chunk: func(_, text string) []string {
		return []string{sse("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": text}})}
	},
	end: func(_ string, usage *Usage) []string {
		var u Usage
		if usage != nil {
			u = *usage
		}
		return []string{
			sse("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0}),
			sse("message_delta", map[string]any{"type": "message_delta",
				"delta": map[string]any{"stop_reason": "end_turn", "stop_sequence": nil},
				"usage": map[string]any{"output_tokens": u.CompletionTokens}}),
			sse("message_stop", map[string]any{"type": "message_stop"}),
		}
	},
	malformed: func(string) []string {
		return []string{"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":\n\n"}
	},
	streamError: func(message string) []string {
		return []string{sse("error", map[string]any{"type": "error", "error": map[string]any{"type": "overloaded_error", "message": message}})}
	},
	whole: func(model, text string) []byte {
		return []byte(mustJSON(map[string]any{
			"id": "msg_llmtest", "type": "message", "role": "assistant", "model": model,
			"content":     []any{map[string]any{"type": "text", "text": text}},
			"stop_reason": "end_turn", "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": 100, "output_tokens": 20},
		}))
	},
	messages: func(body []byte) ([]Message, error) {
		var req struct {
			System   json.RawMessage `json:"system"`
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, fmt.Errorf("anthropic request: %w", err)
		}
		var out []Message
		system, err := contentText(req.System)
		if err != nil {
			return nil, fmt.Errorf("anthropic request: system: %w", err)
		}
		if system != "" {
			out = append(out, Message{Role: "system", Text: system})
		}
		for _, m := range req.Messages {
			text, err := contentText(m.Content)
			if err != nil {
				return nil, fmt.Errorf("anthropic request: %s message: %w", m.Role, err)
			}
			out = append(out, Message{Role: m.Role, Text: text})
		}
		return out, nil
	},
	list: anthropicList,
}

// anthropicList pages the listing as the API does: limit (default 20,
// capped by pageSize when set) models after after_id, with has_more and
// last_id to ask for the next page.
func anthropicList(models []string, q url.Values, pageSize int) []byte {
	limit, err := strconv.Atoi(q.Get("limit"))
	if err != nil || limit <= 0 {
		limit = 20
	}
	if pageSize > 0 {
		limit = min(limit, pageSize)
	}
	from := 0
	if after := q.Get("after_id"); after != "" {
		from = slices.Index(models, after) + 1
	}
	to := min(from+limit, len(models))
	data := make([]any, 0, to-from)
	for _, m := range models[from:to] {
		data = append(data, map[string]any{"type": "model", "id": m, "display_name": m, "created_at": ollamaTime})
	}
	page := map[string]any{"data": data, "has_more": to < len(models), "first_id": nil, "last_id": nil}
	if to > from {
		page["first_id"], page["last_id"] = models[from], models[to-1]
	}
	return []byte(mustJSON(page))
}

// Ollama chat.
var ollamaProtocol = protocol{
	name:        "ollama",
	path:        "/api/chat",
	listPath:    "/api/tags",
	contentType: "application/x-ndjson",
	keyOK:       bearerOK,
	errorBody: func(status int, model string, _ bool) []byte {
		msg := strings.ToLower(http.StatusText(status))
		if status == http.StatusNotFound {
			msg = fmt.Sprintf("model %q not found, try pulling it first", model)
		}
		return []byte(mustJSON(map[string]any{"error": msg}))
	},
	start: func(string, *Usage) []string { return nil },
	chunk: func(model, text string) []string {
		return []string{mustJSON(map[string]any{"model": model, "created_at": ollamaTime,
			"message": map[string]any{"role": "assistant", "content": text}, "done": false}) + "\n"}
	},
	end: func(model string, usage *Usage) []string {
		frame := map[string]any{"model": model, "created_at": ollamaTime,
			"message": map[string]any{"role": "assistant", "content": ""}, "done": true, "done_reason": "stop",
			"total_duration": 1000000}
		if usage != nil {
			frame["prompt_eval_count"], frame["eval_count"] = usage.PromptTokens, usage.CompletionTokens
		}
		return []string{mustJSON(frame) + "\n"}
	},
	malformed: func(model string) []string {
		return []string{`{"model":"` + model + `","message":{"role":"assistant","content":` + "\n"}
	},
	streamError: func(message string) []string {
		return []string{mustJSON(map[string]any{"error": message}) + "\n"}
	},
	whole: func(model, text string) []byte {
		return []byte(mustJSON(map[string]any{"model": model, "created_at": ollamaTime,
			"message": map[string]any{"role": "assistant", "content": text}, "done": true, "done_reason": "stop"}) + "\n")
	},
	messages: func(body []byte) ([]Message, error) {
		var req struct {
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, fmt.Errorf("ollama request: %w", err)
		}
		out := make([]Message, 0, len(req.Messages))
		for _, m := range req.Messages {
			out = append(out, Message{Role: m.Role, Text: m.Content})
		}
		return out, nil
	},
	list: func(models []string, _ url.Values, _ int) []byte {
		tags := make([]any, 0, len(models))
		for _, m := range models {
			tags = append(tags, map[string]any{"name": m, "model": m, "modified_at": ollamaTime, "size": 1,
				"digest": "llmtest", "details": map[string]any{"format": "gguf", "family": "llama"}})
		}
		return []byte(mustJSON(map[string]any{"models": tags}))
	},
}

const ollamaTime = "2024-01-01T00:00:00Z"
