package server_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docent-sh/docent/apitoken"
	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/internal/requestid"
	"github.com/docent-sh/docent/internal/syncbuf"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/server"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/memory"
	"github.com/docent-sh/docent/store/postgres"
	"github.com/docent-sh/docent/store/postgres/pgtest"
)

// fixture is a server over the real memory store seeded with the demo
// knowledge base, a real session and writer, and a token file with two
// tokens: alice in acme and bob in globex.
type fixture struct {
	t      *testing.T
	srv    *httptest.Server
	store  fixtureStore
	tokens apitoken.Store
	alice  string // acme
	bob    string // globex
	log    *syncbuf.Buffer
	convs  store.Conversations // nil without fixtureOptions.conversations
}

// fixtureStore is what a fixture serves from: the docs and the notes.
type fixtureStore interface {
	store.Store
	store.Notes
}

type fixtureOptions struct {
	// postgres serves from PostgreSQL (DOCENT_TEST_DATABASE_URL, else the
	// test skips), tokens in its api_tokens table, readiness checking its
	// schema; else the memory store and a token file.
	postgres bool
	writer   llm.Selection // zero: extractive
	limits   server.Limits
	ready    []server.Check
	// conversations keeps the turns: in PostgreSQL with postgres, else in
	// conversation files.
	conversations bool
	// sw is the session's kill switch; nil: none.
	sw assistant.Switch
}

var (
	acme   = knowledge.Scope{Workspace: "acme", User: "alice"}
	globex = knowledge.Scope{Workspace: "globex", User: "bob"}
)

// seedAndBuild seeds st with b as `docent seed` does and builds the
// engine a session starts from, with the builder and generation its
// Refresh and notes index need.
func seedAndBuild(tb testing.TB, st store.Store, b knowledge.Bundle) (assistant.Engine, assistant.BuildEngine, int64) {
	tb.Helper()
	ctx := context.Background()
	v := b.Vocabulary()
	if _, err := st.Seed(ctx, b.Docs, store.SeedOptions{Vocabulary: &v}); err != nil {
		tb.Fatal(err)
	}
	build := func(b knowledge.Bundle) (assistant.Engine, error) {
		e, err := retrieval.New(b, retrieval.DefaultConfig())
		if err != nil {
			return nil, err
		}
		return e, nil
	}
	gen, err := st.Generation(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	engine, err := build(b)
	if err != nil {
		tb.Fatal(err)
	}
	return engine, build, gen
}

func newFixture(t *testing.T, o fixtureOptions) *fixture {
	t.Helper()
	ctx := context.Background()
	b, _, err := ingest.LoadBundle(ctx, kb.Docs(), "kb")
	if err != nil {
		t.Fatal(err)
	}
	var st fixtureStore = memory.New(memory.Options{})
	var tokens apitoken.Store = apitoken.NewFileStore(filepath.Join(t.TempDir(), "api-tokens.json"))
	var convs store.Conversations = memory.NewConversationFiles(filepath.Join(t.TempDir(), "conversations"), 0)
	if o.postgres {
		pg, err := postgres.Open(ctx, pgtest.NewDatabase(t), postgres.Options{Migrate: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pg.Close)
		st, tokens, convs = pg, pg.APITokens(), pg
		o.ready = append(o.ready, server.Check{Name: "migrations", Check: pg.Ready})
	}
	engine, build, gen := seedAndBuild(t, st, b)
	sel := o.writer
	if sel.Provider == "" {
		sel, err = llm.Resolve(llm.Config{Provider: llm.ProviderExtractive}, func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
	}
	logBuf := &syncbuf.Buffer{}
	// As docent serve's: lines logged with a request's context name it.
	log := slog.New(requestid.Handler(slog.NewJSONHandler(logBuf, nil)))
	writer, err := llm.NewResponder(sel, llm.WithLogger(log))
	if err != nil {
		t.Fatal(err)
	}
	session := assistant.New(engine, writer, assistant.Options{
		Glossary: b.Glossary, Corpus: "demo", Log: log, Events: st,
		Refresh: assistant.Refresh{Knowledge: st, Build: build, Generation: gen},
		Notes:   assistant.NotesOptions{Source: st, Build: build},
		Switch:  o.sw,
	})
	f := &fixture{t: t, store: st, tokens: tokens, log: logBuf}
	f.alice = f.newToken(acme)
	f.bob = f.newToken(globex)
	if !o.conversations {
		convs = nil
	}
	f.convs = convs
	s := server.New(server.Config{Sessions: session, Docs: st, Tokens: tokens, Conversations: convs, Ready: o.ready, Selection: sel, Limits: o.limits, Log: log})
	f.srv = httptest.NewServer(s.Handler())
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fixture) newToken(scope knowledge.Scope) string {
	f.t.Helper()
	tok, rec, err := apitoken.New(scope, "test", time.Now())
	if err != nil {
		f.t.Fatal(err)
	}
	if err := f.tokens.CreateToken(context.Background(), rec); err != nil {
		f.t.Fatal(err)
	}
	return tok
}

// do sends a request with token (none when "") and returns the response
// with its body read.
func (f *fixture) do(method, path, token, body string) (*http.Response, []byte) {
	f.t.Helper()
	req, err := http.NewRequest(method, f.srv.URL+path, strings.NewReader(body))
	if err != nil {
		f.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		f.t.Fatal(err)
	}
	return resp, data
}

// apiErr is the error body every error response has.
type apiErr struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func decode[T any](t *testing.T, data []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("response is not the JSON expected: %v\n%s", err, data)
	}
	return v
}
