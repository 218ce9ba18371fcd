package llmtest

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Embedding servers speak the two embeddings wire formats langchaingo
// v0.1.14's clients call: OpenAI's POST /v1/embeddings ({"model", "input":
// [texts]} → {"data": [{"embedding", "index"}]}) and Ollama's POST
// /api/embed ({"model", "input": text or [texts]} → {"embeddings":
// [[…]]}); langchaingo's Ollama client sends one text a request.

// EmbedFault is a way a successful (200) embeddings response goes wrong.
type EmbedFault int

const (
	FaultNone      EmbedFault = iota
	FaultMalformed            // a body that is not JSON
	FaultMissing              // one vector fewer than the inputs
	FaultExtra                // one vector more than the inputs
	FaultRagged               // the last vector one value shorter than the others
	FaultNaN                  // a NaN literal (not JSON) in the first vector
	FaultOverflow             // a value beyond float32 (1e39) in the first vector
)

// EmbedScript is what an embeddings server answers.
type EmbedScript struct {
	// Dimension is the length of every vector (0: 8). DimensionAfter,
	// when > 0, is the length from request DimensionFrom (0-based) on: a
	// model swapped under the client.
	Dimension      int
	DimensionAfter int
	DimensionFrom  int

	// Statuses are the HTTP statuses of the 1st, 2nd, … request, as in
	// Script; requests beyond the list get 200. A non-200 status gets the
	// provider's error body.
	Statuses          []int
	RetryAfter        string // sent with every non-200 status
	InsufficientQuota bool   // OpenAI's 429 is the exhausted-quota one
	// Faults spoil the 1st, 2nd, … successful response; beyond the list
	// responses are sound.
	Faults []EmbedFault

	// Delay holds every response this long, or until the client leaves.
	Delay time.Duration

	Models []string // the models served; another gets 404 (empty: any)
	APIKey string   // when set, a request without this key gets 401
	// EchoKey makes error bodies repeat the credentials the request
	// carried, to test that they are redacted.
	EchoKey bool
	// EchoBareKey makes error bodies quote the bearer token without its
	// first dash-separated prefix ("sk-test-x" as "test-x"), as servers
	// that half-mask a key do: credential patterns do not catch it, only
	// masking the key itself does.
	EchoBareKey bool
}

// EmbedServer is a scripted embeddings endpoint. It records every request.
type EmbedServer struct {
	URL string

	proto  protocol // the chat protocol of the same provider, for error bodies
	path   string
	script EmbedScript
	srv    *httptest.Server

	mu       sync.Mutex
	requests []Request
	served   int // successful responses so far, indexing Faults
}

// NewOpenAIEmbeddings starts an OpenAI embeddings server (POST
// /v1/embeddings). It is closed when the test ends.
func NewOpenAIEmbeddings(t testing.TB, s EmbedScript) *EmbedServer {
	return startEmbed(t, openAIProtocol, "/v1/embeddings", s)
}

// NewOllamaEmbeddings starts an Ollama embeddings server (POST /api/embed).
func NewOllamaEmbeddings(t testing.TB, s EmbedScript) *EmbedServer {
	return startEmbed(t, ollamaProtocol, "/api/embed", s)
}

func startEmbed(t testing.TB, p protocol, path string, s EmbedScript) *EmbedServer {
	t.Helper()
	if s.Dimension <= 0 {
		s.Dimension = 8
	}
	srv := &EmbedServer{proto: p, path: path, script: s}
	srv.srv = httptest.NewServer(http.HandlerFunc(srv.serve))
	srv.URL = srv.srv.URL
	t.Cleanup(srv.Close)
	return srv
}

// BaseURL is what a client is configured with: the URL plus /v1 for
// OpenAI, the bare URL for Ollama.
func (s *EmbedServer) BaseURL() string { return s.URL + s.proto.basePath }

// Close shuts the server down.
func (s *EmbedServer) Close() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// Requests returns a copy of the requests received so far.
func (s *EmbedServer) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Inputs returns the texts a request asked to embed.
func (s *EmbedServer) Inputs(r Request) ([]string, error) {
	_, inputs, err := embedRequest(r.Body)
	return inputs, err
}

// Vector is the vector the servers return for text: dim values in
// [-0.5, 0.5), each a multiple of 1/256 so that it survives JSON and
// float32 exactly, drawn from an FNV-1a hash of the text and the index.
func Vector(text string, dim int) []float32 {
	v := make([]float32, dim)
	var idx [8]byte
	for i := range v {
		h := fnv.New64a()
		_, _ = io.WriteString(h, text)
		binary.LittleEndian.PutUint64(idx[:], uint64(i))
		_, _ = h.Write(idx[:])
		v[i] = float32(int(h.Sum64()&0xff)-128) / 256
	}
	return v
}

// embedRequest reads the model and the texts of either provider's
// request: input is a list of texts or one text.
func embedRequest(body []byte) (model string, inputs []string, err error) {
	var req struct {
		Model string          `json:"model"`
		Input json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return "", nil, fmt.Errorf("embeddings request: %w", err)
	}
	if len(req.Input) > 0 && req.Input[0] == '"' {
		var one string
		if err := json.Unmarshal(req.Input, &one); err != nil {
			return "", nil, fmt.Errorf("embeddings request: input: %w", err)
		}
		return req.Model, []string{one}, nil
	}
	if err := json.Unmarshal(req.Input, &inputs); err != nil {
		return "", nil, fmt.Errorf("embeddings request: input: %w", err)
	}
	return req.Model, inputs, nil
}

func (s *EmbedServer) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "read body: "+err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(),
		Header: r.Header.Clone(), Body: body, Time: time.Now()})
	s.mu.Unlock()

	if s.script.Delay > 0 {
		timer := time.NewTimer(s.script.Delay)
		select {
		case <-r.Context().Done():
			timer.Stop()
			return
		case <-timer.C:
		}
	}
	if r.Method != http.MethodPost || r.URL.Path != s.path {
		http.Error(w, fmt.Sprintf("404 page not found: %s %s", r.Method, r.URL.Path), http.StatusNotFound)
		return
	}
	model, inputs, err := embedRequest(body)
	if err != nil {
		s.fail(w, http.StatusBadRequest, model, r.Header)
		return
	}
	if n < len(s.script.Statuses) && s.script.Statuses[n] != http.StatusOK {
		s.fail(w, s.script.Statuses[n], model, r.Header)
		return
	}
	if s.script.APIKey != "" && !s.proto.keyOK(r.Header, s.script.APIKey) {
		s.fail(w, http.StatusUnauthorized, model, r.Header)
		return
	}
	if len(s.script.Models) > 0 && !slices.Contains(s.script.Models, model) {
		s.fail(w, http.StatusNotFound, model, r.Header)
		return
	}

	s.mu.Lock()
	served := s.served
	s.served++
	s.mu.Unlock()
	fault := FaultNone
	if served < len(s.script.Faults) {
		fault = s.script.Faults[served]
	}
	dim := s.script.Dimension
	if s.script.DimensionAfter > 0 && n >= s.script.DimensionFrom {
		dim = s.script.DimensionAfter
	}
	vectors := make([][]float32, len(inputs))
	for i, text := range inputs {
		vectors[i] = Vector(text, dim)
	}
	switch fault {
	case FaultMissing:
		vectors = vectors[:max(len(vectors)-1, 0)]
	case FaultExtra:
		vectors = append(vectors, Vector("extra", dim))
	case FaultRagged:
		if len(vectors) > 0 {
			last := len(vectors) - 1
			vectors[last] = vectors[last][:max(dim-1, 0)]
		}
	}
	out := s.encode(model, vectors)
	switch fault {
	case FaultMalformed:
		out = `{"data":[{"embedding":[0.1,`
	case FaultNaN:
		out = s.spoilFirst(out, "NaN")
	case FaultOverflow:
		out = s.spoilFirst(out, "1e39")
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, out)
}

// spoilFirst puts value at the head of the first vector of a response.
func (s *EmbedServer) spoilFirst(out, value string) string {
	open := `"embeddings":[[`
	if s.proto.name == "openai" {
		open = `"embedding":[`
	}
	i := strings.Index(out, open)
	if i < 0 {
		return out
	}
	i += len(open)
	return out[:i] + value + "," + out[i:]
}

// encode writes vectors in the provider's response format.
func (s *EmbedServer) encode(model string, vectors [][]float32) string {
	if s.proto.name == "ollama" {
		return mustJSON(map[string]any{"model": model, "embeddings": vectors,
			"total_duration": 1000, "load_duration": 10, "prompt_eval_count": 4})
	}
	data := make([]any, len(vectors))
	for i, v := range vectors {
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": v}
	}
	return mustJSON(map[string]any{"object": "list", "data": data, "model": model,
		"usage": map[string]any{"prompt_tokens": 4, "total_tokens": 4}})
}

func (s *EmbedServer) fail(w http.ResponseWriter, status int, model string, h http.Header) {
	if s.script.EchoBareKey {
		_, bare, _ := strings.Cut(strings.TrimPrefix(h.Get("Authorization"), "Bearer "), "-")
		msg := "Incorrect API key provided: " + bare
		body := map[string]any{"error": msg}
		if s.proto.name == "openai" {
			body = map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error", "code": "invalid_api_key"}}
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, mustJSON(body))
		return
	}
	(&Server{proto: s.proto, script: Script{RetryAfter: s.script.RetryAfter,
		InsufficientQuota: s.script.InsufficientQuota, EchoKey: s.script.EchoKey}}).fail(w, status, model, h)
}
