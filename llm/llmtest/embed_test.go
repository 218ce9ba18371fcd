package llmtest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/docent-sh/docent/llm/llmtest"
)

func TestVector(t *testing.T) {
	a, b := llmtest.Vector("hello", 16), llmtest.Vector("hello", 16)
	if !slices.Equal(a, b) || slices.Equal(a, llmtest.Vector("hellO", 16)) {
		t.Errorf("Vector is not a function of the text: %v %v", a, b)
	}
	for _, x := range a {
		if x < -0.5 || x >= 0.5 || x*256 != float32(int(x*256)) {
			t.Errorf("value %v is not a multiple of 1/256 in [-0.5, 0.5)", x)
		}
	}
	if !slices.Equal(llmtest.Vector("hello", 4), a[:4]) {
		t.Errorf("a shorter vector is not the start of a longer one")
	}
}

// post sends body to the server's endpoint and decodes the vectors of
// either format; ok is false when the body is not JSON.
func post(t *testing.T, srv *llmtest.EmbedServer, path, body string) (status int, vectors [][]float32, ok bool) {
	t.Helper()
	resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out struct {
		Data []struct {
			Embedding []float32 `json:"embedding"`
			Index     int       `json:"index"`
		} `json:"data"`
		Embeddings [][]float32 `json:"embeddings"`
	}
	if json.Unmarshal(raw, &out) != nil {
		return resp.StatusCode, nil, false
	}
	for _, d := range out.Data {
		vectors = append(vectors, d.Embedding)
	}
	return resp.StatusCode, append(vectors, out.Embeddings...), true
}

func TestEmbedServers(t *testing.T) {
	faults := []llmtest.EmbedFault{llmtest.FaultNone, llmtest.FaultMissing, llmtest.FaultExtra,
		llmtest.FaultRagged, llmtest.FaultMalformed, llmtest.FaultNaN, llmtest.FaultOverflow}
	for _, c := range []struct {
		name  string
		start func(testing.TB, llmtest.EmbedScript) *llmtest.EmbedServer
		path  string
	}{
		{"openai", llmtest.NewOpenAIEmbeddings, "/v1/embeddings"},
		{"ollama", llmtest.NewOllamaEmbeddings, "/api/embed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := c.start(t, llmtest.EmbedScript{Dimension: 3, Statuses: []int{429}, RetryAfter: "2", Faults: faults})
			body := `{"model":"m","input":["a","b"]}`
			if status, _, _ := post(t, srv, c.path, body); status != http.StatusTooManyRequests {
				t.Fatalf("first request: %d, want the scripted 429", status)
			}
			for _, fault := range faults {
				status, vecs, ok := post(t, srv, c.path, body)
				if status != http.StatusOK {
					t.Fatalf("fault %d: status %d", fault, status)
				}
				var lens []int
				for _, v := range vecs {
					lens = append(lens, len(v))
				}
				want := map[llmtest.EmbedFault][]int{llmtest.FaultNone: {3, 3}, llmtest.FaultMissing: {3},
					llmtest.FaultExtra: {3, 3, 3}, llmtest.FaultRagged: {3, 2}}[fault]
				if bad := fault == llmtest.FaultMalformed || fault == llmtest.FaultNaN || fault == llmtest.FaultOverflow; bad == ok || !bad && !slices.Equal(lens, want) {
					t.Errorf("fault %d: JSON %v, vector lengths %v, want %v", fault, ok, lens, want)
				}
				if fault == llmtest.FaultNone && (!slices.Equal(vecs[0], llmtest.Vector("a", 3)) || !slices.Equal(vecs[1], llmtest.Vector("b", 3))) {
					t.Errorf("vectors %v are not Vector of the inputs", vecs)
				}
			}
			// A single string input, as langchaingo's Ollama client sends.
			if _, vecs, _ := post(t, srv, c.path, `{"model":"m","input":"a"}`); len(vecs) != 1 {
				t.Errorf("one text: %d vectors", len(vecs))
			}
			reqs := srv.Requests()
			if len(reqs) != len(faults)+2 || reqs[0].Path != c.path {
				t.Fatalf("%d requests recorded", len(reqs))
			}
			if in, err := srv.Inputs(reqs[1]); err != nil || !slices.Equal(in, []string{"a", "b"}) {
				t.Errorf("Inputs = %q, %v", in, err)
			}
			if status, _, _ := post(t, srv, "/v1/chat/completions", body); status != http.StatusNotFound {
				t.Errorf("another path: %d, want 404", status)
			}
		})
	}
}

func TestEmbedServerErrors(t *testing.T) {
	srv := llmtest.NewOpenAIEmbeddings(t, llmtest.EmbedScript{APIKey: "sk-right-key-123", Models: []string{"m"}})
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/embeddings", strings.NewReader(`{"model":"m","input":["a"]}`))
	req.Header.Set("Authorization", "Bearer sk-wrong-key-456")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("wrong key: %d, want 401", resp.StatusCode)
	}
	req, _ = http.NewRequest(http.MethodPost, srv.URL+"/v1/embeddings", strings.NewReader(`{"model":"other","input":["a"]}`))
	req.Header.Set("Authorization", "Bearer sk-right-key-123")
	if resp, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown model: %d, want 404", resp.StatusCode)
	}
	if status, _, _ := post(t, srv, "/v1/embeddings", `{"input":`); status != http.StatusBadRequest {
		t.Errorf("a broken request: %d, want 400", status)
	}
}
