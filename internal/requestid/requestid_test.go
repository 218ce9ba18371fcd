package requestid_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/docent-sh/docent/internal/requestid"
)

func lines(t *testing.T, buf *bytes.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

func TestHandler(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(requestid.Handler(slog.NewJSONHandler(&buf, nil)))
	ctx := requestid.With(context.Background(), "abc123")
	if got := requestid.From(ctx); got != "abc123" {
		t.Fatalf("From = %q", got)
	}

	log.WarnContext(ctx, "with the context")
	log.Warn("without a context")
	log.With("component", "x").InfoContext(ctx, "through With")
	// A logger that names the id itself keeps its own, written once.
	log.With(requestid.Key, "own").InfoContext(ctx, "own id")
	// Wrapping twice adds it once.
	slog.New(requestid.Handler(log.Handler())).InfoContext(ctx, "wrapped twice")

	got := lines(t, &buf)
	want := []any{"abc123", nil, "abc123", "own", "abc123"}
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(got), len(want), buf.String())
	}
	for i, w := range want {
		if got[i][requestid.Key] != w {
			t.Errorf("line %q: %s = %v, want %v", got[i]["msg"], requestid.Key, got[i][requestid.Key], w)
		}
	}
	if n := strings.Count(buf.String(), `"`+requestid.Key+`"`); n != 4 {
		t.Errorf("the key is written %d times in all, want 4 (once per line that has it):\n%s", n, buf.String())
	}
}
