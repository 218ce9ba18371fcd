package server

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docent-sh/docent/store"
)

// FuzzReadTurn feeds the request decoder any body: it never panics,
// refuses with a 4xx error, and what it accepts is one JSON object with
// known fields whose query fits the cap.
func FuzzReadTurn(f *testing.F) {
	for _, seed := range []string{
		`{"query": "how do I create a workspace"}`,
		`{"resource_id": "concepts/workspace", "query": "share"}`,
		`{"cursor": "concepts/workspace#chunk-1"}`,
		`{"query": "x", "exclude_chunk_ids": ["a#chunk-0"], "top_k": 3, "corpus": "notes"}`,
		`{"query": "x"} {}`,
		`{"query": "x", "workspace": "other"}`,
		`{"query": "\u0000"}`,
		`[]`, `null`, ``, `{"top_k": 1e400}`,
	} {
		f.Add([]byte(seed))
	}
	limits := Limits{MaxBodyBytes: 4096, MaxQueryChars: 200}.withDefaults()
	f.Fuzz(func(t *testing.T, body []byte) {
		r := httptest.NewRequest("POST", "/api/retrieve", bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		tr, apiErr := readTurn(w, r, limits)
		req := tr.req
		if apiErr != nil {
			if apiErr.Status < 400 || apiErr.Status >= 500 || apiErr.Code == "" || apiErr.Message == "" {
				t.Fatalf("refusal %+v", apiErr)
			}
			if !utf8.ValidString(apiErr.Message) {
				t.Fatalf("message is not UTF-8: %q", apiErr.Message)
			}
			return
		}
		if len(body) > int(limits.MaxBodyBytes) {
			t.Fatalf("accepted %d bytes over the %d limit", len(body), limits.MaxBodyBytes)
		}
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(body, &probe); err != nil {
			t.Fatalf("accepted a body that is not one JSON object: %v", err)
		}
		for k := range probe {
			switch strings.ToLower(k) {
			case "corpus", "query", "resource_id", "exclude_chunk_ids", "cursor", "top_k", "conversation_id":
			default:
				t.Fatalf("accepted unknown field %q", k)
			}
		}
		if utf8.RuneCountInString(req.Query) > limits.MaxQueryChars {
			t.Fatalf("accepted a query of %d characters", utf8.RuneCountInString(req.Query))
		}
		if req.Query == "" && req.DocSlug == "" && req.NoteID == "" && req.AfterChunkID == "" {
			t.Fatal("accepted a request with nothing to look up")
		}
		if tr.conversation != "" && !store.ParseConversationID(tr.conversation) {
			t.Fatalf("accepted conversation_id %q", tr.conversation)
		}
		if req.TopK < 0 || req.TopK > maxTopK {
			t.Fatalf("accepted top_k %d", req.TopK)
		}
	})
}

// FuzzHeaders feeds the Authorization and X-Request-Id parsers any text:
// a bearer token comes back trimmed and non-empty, and a request id is
// always short, plain ASCII, fit for a log line and a header.
func FuzzHeaders(f *testing.F) {
	for _, seed := range []string{"Bearer dct_abc", "bearer  x ", "Basic dXNlcjpw", "Bearer", "", "Bearer \x00\n",
		"req-123", strings.Repeat("a", 65), "id with spaces", "\x1b[2J"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if tok, ok := bearer(s); ok && (tok == "" || tok != strings.TrimSpace(tok)) {
			t.Fatalf("bearer(%q) = %q", s, tok)
		}
		id := requestID(s)
		if id == "" || len(id) > 64 || strings.IndexFunc(id, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
		}) >= 0 {
			t.Fatalf("requestID(%q) = %q", s, id)
		}
	})
}
