package postgres

import (
	"testing"

	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/kb"
)

// TestDemoKnowledgeBase seeds what ingest makes of the embedded demo
// knowledge base: real output, not hand-built fixtures, must round-trip.
func TestDemoKnowledgeBase(t *testing.T) {
	t.Parallel()
	res, err := ingest.Load(t.Context(), kb.Docs(), "kb")
	if err != nil {
		t.Fatalf("ingest demo KB: %v", err)
	}
	s := openStore(t, newDatabase(t))
	r := mustSeed(t, s, res.Docs)
	if r.Docs.Inserted != len(res.Docs) || r.Docs.Inserted == 0 {
		t.Fatalf("first seed: %s, want %d docs inserted", r, len(res.Docs))
	}
	t.Logf("demo KB first seed: %s", r)
	if r = mustSeed(t, s, res.Docs); r.Changed() {
		t.Errorf("second seed changed something: %s", r)
	}
	got := mustCorpus(t, s)
	if len(got) != len(res.Docs) {
		t.Fatalf("corpus has %d docs, want %d", len(got), len(res.Docs))
	}
	for i, d := range got {
		want := res.Docs[i]
		if d.Slug != want.Slug || d.ContentHash != want.ContentHash || d.Content != want.Content || len(d.Chunks) != len(want.Chunks) {
			t.Errorf("doc %d: got %s (%d chunks), want %s (%d chunks)", i, d.Slug, len(d.Chunks), want.Slug, len(want.Chunks))
		}
	}
}
