package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestRunReportsEachEndpoint(t *testing.T) {
	var retrieve, ask atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer dct_good" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		switch r.URL.Path {
		case "/api/retrieve":
			retrieve.Add(1)
		case "/api/ask":
			ask.Add(1)
		}
	}))
	defer srv.Close()
	cases := filepath.Join(t.TempDir(), "cases.jsonl")
	os.WriteFile(cases, []byte(`{"query": "explain workspace"}`+"\n"+`{"doc": "concepts/home"}`+"\n"), 0o600)
	o := options{url: srv.URL, duration: 500 * time.Millisecond, rate: 20, askRate: 4, cases: cases, maxQueries: 10}

	var out strings.Builder
	if err := run(context.Background(), o, "dct_good", &out); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	if retrieve.Load() < 5 || ask.Load() < 1 {
		t.Errorf("requests: %d retrieve, %d ask", retrieve.Load(), ask.Load())
	}
	for _, want := range []string{"retrieve ", "ask ", "p99", "100.00%"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	if err := run(context.Background(), o, "dct_bad", &out); err == nil || !strings.Contains(err.Error(), "succeeded") {
		t.Errorf("refused requests: err %v", err)
	}
	if err := run(context.Background(), o, "", &out); err == nil {
		t.Error("no token: no error")
	}
}
