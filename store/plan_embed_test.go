package store_test

import (
	"testing"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/storetest"
)

// The planner's embedding rules, without a store: a seed without vectors
// writes nothing over stored ones; new vectors of another model rewrite
// the chunks (no version bump); a content edit without one clears it, a
// metadata edit keeps it.
func TestPlanEmbeddings(t *testing.T) {
	embedded := storetest.Embed(storetest.Fixture(), "a", 3)
	stored := map[string]store.StoredDoc{}
	total := 0
	for _, d := range embedded {
		d.Version = 1
		stored[d.Slug] = store.StoredDocOf(d)
		total += len(d.Chunks)
	}
	plan := func(docs []knowledge.Doc) store.SeedPlan {
		t.Helper()
		p, err := store.Plan(stored, docs, store.SeedOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}

	if p := plan(storetest.Fixture()); p.HasWrites() {
		t.Errorf("the same docs without vectors: plan writes %+v", p.Chunks)
	}
	if p := plan(embedded); p.HasWrites() {
		t.Errorf("the same docs with the same model's vectors: plan writes %+v", p.Chunks)
	}
	p := plan(storetest.Embed(storetest.Fixture(), "b", 3))
	if p.Chunks.Updated != total || len(p.Update) != len(embedded) {
		t.Fatalf("another model: %+v, want all %d chunks updated", p.Chunks, total)
	}
	for _, u := range p.Update {
		if u.RowChanged || u.Doc.Version != 1 {
			t.Errorf("another model rewrote doc %s's row (version %d)", u.Doc.Slug, u.Doc.Version)
		}
	}
	// Another dimension of the same model is another embedding too.
	if p := plan(storetest.Embed(storetest.Fixture(), "a", 4)); p.Chunks.Updated != total {
		t.Errorf("another dimension: %+v, want all %d updated", p.Chunks, total)
	}

	docs := storetest.Fixture()
	ws := &docs[0]
	ws.Chunks[1].Content += " More."
	*ws = storetest.Finish(*ws)
	ws.Chunks[2].Keywords = []string{"changed"}
	p = plan(docs)
	if len(p.Update) != 1 || len(p.Update[0].UpdateChunks) != 2 {
		t.Fatalf("an edit: %+v", p.Update)
	}
	storedHashes := stored[ws.Slug].ChunkHashes
	for _, c := range p.Update[0].UpdateChunks {
		keeps := store.KeepsEmbedding(c, storedHashes[c.Index])
		if want := c.Index == 2; keeps != want {
			t.Errorf("chunk %d: KeepsEmbedding = %v, want %v (content edited: %v)", c.Index, keeps, want, c.Index == 1)
		}
	}
}
