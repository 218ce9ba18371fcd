package server_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docent-sh/docent/apitoken"
	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/server"
	"github.com/docent-sh/docent/store/memory"
)

// BenchmarkRetrieveParallel sends POST /api/retrieve to the handler from
// many goroutines at once (16 per core), wired as `docent serve` wires it
// without a database: the memory store with its events file and settings
// file (the kill switch), the notes file, the token file and a JSON log.
// The demo knowledge base keeps retrieval itself cheap, so what is
// measured is the server path around it, the part the in-process
// retrieval benchmarks do not see: per-request allocations and the locks
// every request takes. It reports p50/p99 per request; under contention
// a lock held across a syscall shows in p99.
func BenchmarkRetrieveParallel(b *testing.B) {
	h, token := serveLikeHandler(b)
	queries := []string{
		"explain workspace", "what is quick links", "how do I rename a note", "what are workspace actions",
		"workspace and widgets", "where are my shortcuts?", "how do I find my notes?", "explain notes",
		"wrkspace", "how do I do it", "resize a widget on the dashboard", "move a note to another workspace",
	}
	bodies := make([]string, len(queries))
	for i, q := range queries {
		body, _ := json.Marshal(map[string]string{"query": q})
		bodies[i] = string(body)
	}
	var mu sync.Mutex
	var lat []time.Duration
	b.SetParallelism(16)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for i := 0; pb.Next(); i++ {
			req := httptest.NewRequest(http.MethodPost, "/api/retrieve", strings.NewReader(bodies[i%len(bodies)]))
			req.Header.Set("Authorization", "Bearer "+token)
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			start := time.Now()
			h.ServeHTTP(rec, req)
			mine = append(mine, time.Since(start))
			if rec.Code != http.StatusOK {
				b.Errorf("status %d: %s", rec.Code, rec.Body)
				return
			}
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	b.StopTimer()
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(int(p*float64(len(lat))), len(lat)-1)].Nanoseconds())
	}
	b.ReportMetric(pct(0.50), "p50-ns")
	b.ReportMetric(pct(0.99), "p99-ns")
}

// serveLikeHandler is the handler `docent serve` builds on the demo
// knowledge base without a database (see cmd/docent: openStore,
// sessionNotes), with its files in a temporary directory, and a token.
func serveLikeHandler(b *testing.B) (http.Handler, string) {
	b.Helper()
	ctx := context.Background()
	dir := b.TempDir()
	bundle, _, err := ingest.LoadBundle(ctx, kb.Docs(), "kb")
	if err != nil {
		b.Fatal(err)
	}
	st := memory.New(memory.Options{EventsPath: filepath.Join(dir, "events.jsonl"), SettingsPath: filepath.Join(dir, "settings.json")})
	engine, build, gen := seedAndBuild(b, st, bundle)
	notes, err := memory.Open(ctx, memory.Options{NotesPath: filepath.Join(dir, "notes.jsonl"), NoteReadsPath: filepath.Join(dir, "note-reads.jsonl")})
	if err != nil {
		b.Fatal(err)
	}
	sel, err := llm.Resolve(llm.Config{Provider: llm.ProviderExtractive}, func(string) string { return "" })
	if err != nil {
		b.Fatal(err)
	}
	writer, err := llm.NewResponder(sel)
	if err != nil {
		b.Fatal(err)
	}
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	session := assistant.New(engine, writer, assistant.Options{
		Glossary: bundle.Glossary, Corpus: "demo", Log: log, Events: st, Switch: st,
		Refresh: assistant.Refresh{Knowledge: st, Build: build, Generation: gen},
		Notes:   assistant.NotesOptions{Source: notes, Build: build},
	})
	tokens := apitoken.NewFileStore(filepath.Join(dir, "api-tokens.json"))
	tok, rec, err := apitoken.New(knowledge.Scope{Workspace: "load", User: "load"}, "bench", time.Now())
	if err != nil {
		b.Fatal(err)
	}
	if err := tokens.CreateToken(ctx, rec); err != nil {
		b.Fatal(err)
	}
	s := server.New(server.Config{Sessions: session, Docs: st, Tokens: tokens, Selection: sel, Log: log,
		Limits: server.Limits{Rate: 1e9, Burst: 1e9}})
	return s.Handler(), tok
}
