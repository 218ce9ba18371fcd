package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/internal/askjson"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/server"
)

// /api/retrieve answers with the object of `docent ask --json`.
func TestRetrieveAnswersAsAskJSON(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	resp, body := f.do("POST", "/api/retrieve", f.alice, `{"query": "how do I create a workspace"}`)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(body, &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"corpus", "status", "results", "options", "confidence", "metrics", "query", "rule", "llm", "citations"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("no %q in %s", k, body)
		}
	}
	o := decode[askjson.Output](t, body)
	if o.Status != retrieval.StatusFound || len(o.Results) == 0 || o.Results[0].DocSlug == "" || o.Metrics.Stats.Turns != 1 {
		t.Errorf("got status %s, %d results, stats %+v", o.Status, len(o.Results), o.Metrics.Stats)
	}
	if o.Reply != "" || o.LLM.Called {
		t.Errorf("retrieve wrote an answer: %q", o.Reply)
	}

	first := o.Results[0]
	_, body = f.do("POST", "/api/retrieve", f.alice, fmt.Sprintf(`{"query": "how do I create a workspace", "exclude_chunk_ids": [%q], "top_k": 1}`, first.ChunkID))
	trimmed := decode[askjson.Output](t, body)
	if len(trimmed.Results) != 1 || trimmed.Results[0].ChunkID == first.ChunkID {
		t.Errorf("exclude and top_k 1 gave %v", chunkIDs(trimmed))
	}
	// resource_id answers from one doc, as picking a pill does.
	_, body = f.do("POST", "/api/retrieve", f.alice, `{"resource_id": "concepts/workspace"}`)
	doc := decode[askjson.Output](t, body)
	if len(doc.Results) == 0 || doc.Results[0].DocSlug != "concepts/workspace" {
		t.Fatalf("resource_id gave %v", chunkIDs(doc))
	}
	// A cursor continues the resource after a chunk.
	_, body = f.do("POST", "/api/retrieve", f.alice, fmt.Sprintf(`{"cursor": %q}`, doc.Results[0].ChunkID))
	next := decode[askjson.Output](t, body)
	if len(next.Results) == 0 || next.Results[0].DocSlug != "concepts/workspace" || next.Results[0].ChunkIndex <= doc.Results[0].ChunkIndex {
		t.Errorf("cursor %s gave %v", doc.Results[0].ChunkID, chunkIDs(next))
	}
}

func chunkIDs(o askjson.Output) []string {
	var ids []string
	for _, r := range o.Results {
		ids = append(ids, r.ChunkID)
	}
	return ids
}

// Every refusal is the JSON error with its status and code.
func TestErrors(t *testing.T) {
	f := newFixture(t, fixtureOptions{limits: server.Limits{MaxBodyBytes: 2048, MaxQueryChars: 100, Rate: 1000, Burst: 1000}})
	revoked := f.newToken(acme)
	recs, _ := f.tokens.ListTokens(context.Background())
	if err := f.tokens.RevokeToken(context.Background(), recs[len(recs)-1].ID); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("workspace ", 11)
	cases := []struct {
		name, method, path, token, body string
		status                          int
		code                            string
	}{
		{"no token", "POST", "/api/retrieve", "", `{"query":"workspace"}`, 401, "unauthorized"},
		{"unknown token", "POST", "/api/retrieve", "dct_nope", `{"query":"workspace"}`, 401, "unauthorized"},
		{"revoked token", "POST", "/api/retrieve", revoked, `{"query":"workspace"}`, 401, "unauthorized"},
		{"docs need a token", "GET", "/api/docs", "", "", 401, "unauthorized"},
		{"workspace in the body", "POST", "/api/retrieve", f.alice, `{"query":"workspace","workspace":"globex"}`, 400, "bad_request"},
		{"trailing data", "POST", "/api/retrieve", f.alice, `{"query":"workspace"} {}`, 400, "bad_request"},
		{"not JSON", "POST", "/api/retrieve", f.alice, `query=workspace`, 400, "bad_request"},
		{"empty body", "POST", "/api/retrieve", f.alice, ``, 400, "bad_request"},
		{"wrong type", "POST", "/api/retrieve", f.alice, `{"query": 3}`, 400, "bad_request"},
		{"nothing to look up", "POST", "/api/retrieve", f.alice, `{}`, 400, "bad_request"},
		{"no words", "POST", "/api/retrieve", f.alice, `{"query":"?!"}`, 400, "bad_request"},
		{"cursor with a query", "POST", "/api/retrieve", f.alice, `{"query":"x","cursor":"a#chunk-1"}`, 400, "bad_request"},
		{"bad corpus", "POST", "/api/retrieve", f.alice, `{"query":"x","corpus":"web"}`, 400, "bad_request"},
		{"top_k too high", "POST", "/api/retrieve", f.alice, `{"query":"x","top_k":1000}`, 400, "bad_request"},
		{"query too long", "POST", "/api/retrieve", f.alice, fmt.Sprintf(`{"query":%q}`, long), 413, "query_too_long"},
		{"body too large", "POST", "/api/retrieve", f.alice, `{"query":"` + strings.Repeat("a", 4096) + `"}`, 413, "too_large"},
		{"ask validates too", "POST", "/api/ask", f.alice, `{"query":"x","user":"bob"}`, 400, "bad_request"},
		{"wrong method", "GET", "/api/retrieve", f.alice, "", 405, "method_not_allowed"},
		{"unknown path", "GET", "/api/nothing", f.alice, "", 404, "not_found"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, body := f.do(c.method, c.path, c.token, c.body)
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, c.status, body)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("content type %q", ct)
			}
			e := decode[apiErr](t, body)
			if e.Error.Code != c.code || e.Error.Message == "" {
				t.Errorf("error %+v, want code %s", e.Error, c.code)
			}
			if c.token != "" && strings.Contains(string(body), c.token) {
				t.Errorf("the error repeats the token: %s", body)
			}
		})
	}
	for ct, want := range map[string]int{"text/plain": 415, "application/x-www-form-urlencoded": 415, "application/jsonx": 415,
		"application/json; charset=utf-8": 200, "": 200} {
		req, _ := http.NewRequest("POST", f.srv.URL+"/api/retrieve", strings.NewReader(`{"query":"workspace"}`))
		req.Header.Set("Authorization", "Bearer "+f.alice)
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		resp, err := f.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("content type %q: status %d, want %d", ct, resp.StatusCode, want)
		}
	}
	resp, _ := f.do("POST", "/api/retrieve", f.alice, `{"query":"x"}`)
	if id := resp.Header.Get("X-Request-Id"); id == "" {
		t.Error("no X-Request-Id")
	}
	// Nothing secret reached the log.
	log := f.log.String()
	for _, tok := range []string{f.alice, revoked, "dct_nope"} {
		if strings.Contains(log, tok) {
			t.Errorf("the log holds a token: %s", tok)
		}
	}
	if !strings.Contains(log, `"request_id"`) || !strings.Contains(log, `"route":"POST /api/retrieve"`) {
		t.Errorf("the log lines lack a request id or route:\n%s", log)
	}
}

// A token of globex gets none of acme's notes, whatever its request says;
// a token of acme gets them. On each store.
func TestNotesStayInTheTokensWorkspace(t *testing.T) {
	t.Run("memory", func(t *testing.T) { testNotesStayInTheTokensWorkspace(t, newFixture(t, fixtureOptions{})) })
	t.Run("postgres", func(t *testing.T) {
		testNotesStayInTheTokensWorkspace(t, newFixture(t, fixtureOptions{postgres: true}))
	})
}

func testNotesStayInTheTokensWorkspace(t *testing.T, f *fixture) {
	n := knowledge.Note{Workspace: acme.Workspace, Owner: acme.User, Visibility: knowledge.VisibilityWorkspace,
		Title: "Stale dashboard runbook", Body: "When the dashboard shows stale numbers, restart the sync agent from the admin console.",
		Format: knowledge.FormatMarkdown}
	if err := ingest.ChunkNote(&n); err != nil {
		t.Fatal(err)
	}
	stored, err := f.store.AddNote(context.Background(), acme, n)
	if err != nil {
		t.Fatal(err)
	}
	bodies := []string{
		`{"query": "search my notes for stale dashboard sync agent"}`,
		`{"query": "stale dashboard sync agent", "corpus": "notes"}`,
		`{"query": "restart the sync agent"}`,
		fmt.Sprintf(`{"resource_id": %q}`, stored.ID),
		fmt.Sprintf(`{"resource_id": %q, "corpus": "notes"}`, stored.ID),
	}
	for _, b := range bodies {
		_, body := f.do("POST", "/api/retrieve", f.bob, b)
		// The id is the caller's own input, echoed in "query"; the note's
		// title and text are what must not come back.
		if strings.Contains(string(body), "Stale dashboard runbook") || strings.Contains(string(body), "admin console") {
			t.Errorf("globex's token read acme's note with %s:\n%s", b, body)
		}
	}
	_, body := f.do("POST", "/api/retrieve", f.alice, bodies[1])
	if !strings.Contains(string(body), "Stale dashboard runbook") {
		t.Errorf("acme's token did not find acme's note:\n%s", body)
	}
	// The stream too.
	_, body = f.do("POST", "/api/ask", f.bob, bodies[1])
	if strings.Contains(string(body), "Stale dashboard runbook") || strings.Contains(string(body), "sync agent from the admin") {
		t.Errorf("globex's stream holds acme's note:\n%s", body)
	}
}

func TestDocs(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	resp, body := f.do("GET", "/api/docs", f.bob, "")
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	got := decode[struct {
		Docs []struct {
			Slug, Title, Category, Hash string
			Chunks                      int
		}
	}](t, body)
	want, _ := f.store.ListDocs(context.Background())
	if len(got.Docs) != len(want) || len(want) == 0 {
		t.Fatalf("%d docs, want %d", len(got.Docs), len(want))
	}
	for i, d := range got.Docs {
		w := want[i]
		if d.Slug != w.Slug || d.Title != w.Title || d.Category != w.Category || d.Chunks != w.ChunkCount || d.Hash != w.ContentHash {
			t.Errorf("doc %d = %+v, want %+v", i, d, w)
		}
	}
}

func TestHealthAndReadiness(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	if resp, body := f.do("GET", "/healthz", "", ""); resp.StatusCode != 200 {
		t.Errorf("healthz %d: %s", resp.StatusCode, body)
	}
	if resp, body := f.do("GET", "/readyz", "", ""); resp.StatusCode != 200 || !strings.Contains(string(body), `"index":"ok"`) {
		t.Errorf("readyz %d: %s", resp.StatusCode, body)
	}
	down := newFixture(t, fixtureOptions{ready: []server.Check{{Name: "store", Check: func(context.Context) error {
		return errors.New("dial tcp 10.0.0.1:5432: connection refused (password=hunter2)")
	}}}})
	resp, body := down.do("GET", "/readyz", "", "")
	if resp.StatusCode != 503 || decode[apiErr](t, body).Error.Code != "not_ready" || !strings.Contains(string(body), `"store":"failed"`) {
		t.Errorf("readyz with a failing store: %d %s", resp.StatusCode, body)
	}
	if strings.Contains(string(body), "hunter2") || strings.Contains(string(body), "10.0.0.1") {
		t.Errorf("readyz tells an unauthenticated caller the store's error: %s", body)
	}
}

func TestRateLimit(t *testing.T) {
	f := newFixture(t, fixtureOptions{limits: server.Limits{Rate: 0.01, Burst: 2}})
	for i := range 2 {
		if resp, body := f.do("GET", "/api/docs", f.alice, ""); resp.StatusCode != 200 {
			t.Fatalf("request %d: %d %s", i+1, resp.StatusCode, body)
		}
	}
	resp, body := f.do("GET", "/api/docs", f.alice, "")
	if resp.StatusCode != http.StatusTooManyRequests || decode[apiErr](t, body).Error.Code != "rate_limited" {
		t.Fatalf("third request: %d %s", resp.StatusCode, body)
	}
	if ra := resp.Header.Get("Retry-After"); ra != "100" {
		t.Errorf("Retry-After %q, want 100 (one request at 0.01/s)", ra)
	}
	// Another token has its own bucket.
	if resp, _ := f.do("GET", "/api/docs", f.bob, ""); resp.StatusCode != 200 {
		t.Errorf("bob was limited by alice's requests: %d", resp.StatusCode)
	}
}

func TestMetrics(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	f.do("POST", "/api/retrieve", f.alice, `{"query": "how do I create a workspace"}`)
	f.do("POST", "/api/retrieve", f.alice, `{"query": "what's the weather in Berlin"}`)
	f.do("GET", "/api/nothing/secret-path", f.alice, "")
	f.do("GET", "/api/docs", "dct_wrong", "")
	f.do("BREW", "/api/docs", f.alice, "")
	resp, body := f.do("GET", "/metrics", "", "")
	if resp.StatusCode != 200 {
		t.Fatalf("metrics %d", resp.StatusCode)
	}
	m := string(body)
	for _, want := range []string{
		`docent_http_request_duration_seconds_bucket{code="200",method="POST",route="POST /api/retrieve",le="0.5"}`,
		`docent_http_request_duration_seconds_count{code="404",method="GET",route="unmatched"} 1`,
		`docent_http_request_duration_seconds_count{code="405",method="other",route="unmatched"} 1`,
		`docent_decisions_total{status="found"} 1`,
		`docent_decisions_total{status="no_match"} 1`,
		`docent_auth_failures_total{reason="unknown"} 1`,
		`docent_sse_streams_in_flight 0`,
		`docent_index_generation 1`,
		`docent_retrieval_enabled 1`,
	} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	for _, leak := range []string{"secret-path", f.alice, "dct_wrong", "Berlin", "BREW"} {
		if strings.Contains(m, leak) {
			t.Errorf("metrics hold %q", leak)
		}
	}
}

// On PostgreSQL readiness checks the schema, and the tokens are the
// database's.
func TestPostgres(t *testing.T) {
	f := newFixture(t, fixtureOptions{postgres: true})
	if resp, body := f.do("GET", "/readyz", "", ""); resp.StatusCode != 200 || !strings.Contains(string(body), `"migrations":"ok"`) {
		t.Errorf("readyz %d: %s", resp.StatusCode, body)
	}
	if resp, body := f.do("POST", "/api/retrieve", f.alice, `{"query": "how do I create a workspace"}`); resp.StatusCode != 200 ||
		decode[askjson.Output](t, body).Status != retrieval.StatusFound {
		t.Errorf("retrieve %d: %s", resp.StatusCode, body)
	}
	if resp, _ := f.do("GET", "/api/docs", "dct_"+strings.Repeat("x", 43), ""); resp.StatusCode != 401 {
		t.Errorf("an unknown token: %d", resp.StatusCode)
	}
}
