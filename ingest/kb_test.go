package ingest

import (
	"context"
	"io/fs"
	"sync"
	"testing"

	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/tokens"
)

// TestLoadDemoKB loads the embedded demo knowledge base the way the CLI
// does on first run.
func TestLoadDemoKB(t *testing.T) {
	res, err := Load(context.Background(), kb.Docs(), "kb")
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("warnings: %v", res.Warnings)
	}
	if len(res.Docs) != 19 || res.Files != 19 {
		t.Fatalf("got %d docs from %d files, want 19", len(res.Docs), res.Files)
	}
	slugs := map[string]bool{}
	for _, d := range res.Docs {
		slugs[d.Slug] = true
		checkChunkInvariants(t, d)
		if d.Title == "" || len(d.Keywords) == 0 || d.Category == rootCategory {
			t.Errorf("%s: title %q keywords %v category %q", d.Slug, d.Title, d.Keywords, d.Category)
		}
		for _, c := range d.Chunks {
			if n := tokens.Default().Count(c.Content); n > MaxChunkTokens {
				t.Errorf("%s: %d tokens, over the limit", c.ID(), n)
			}
		}
	}
	if !slugs["concepts/home"] || !slugs["concepts/workspace"] {
		t.Errorf("missing expected slugs in %v", slugs)
	}
}

// TestParseDocConcurrently backs the shared goldmark parser: under -race,
// parsing in parallel must be safe and give the sequential result.
func TestParseDocConcurrently(t *testing.T) {
	res, err := Load(context.Background(), kb.Docs(), "kb")
	if err != nil {
		t.Fatal(err)
	}
	want := make([]string, len(res.Docs))
	srcs := make([][]byte, len(res.Docs))
	for i, d := range res.Docs {
		want[i] = renderDoc(d)
		if srcs[i], err = fs.ReadFile(kb.Docs(), d.SourcePath); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	got := make([]string, len(srcs))
	for i := range srcs {
		wg.Go(func() {
			d, err := ParseDoc(res.Docs[i].SourcePath, srcs[i])
			if err != nil {
				t.Error(err)
				return
			}
			got[i] = renderDoc(d)
		})
	}
	wg.Wait()
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s: concurrent parse differs from sequential", res.Docs[i].Slug)
		}
	}
}
