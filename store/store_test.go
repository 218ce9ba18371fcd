package store_test

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/storetest"
)

func TestSeedReportString(t *testing.T) {
	r := store.SeedReport{
		Docs:     store.Counts{Inserted: 19},
		Chunks:   store.Counts{Inserted: 88, Updated: 2, Unchanged: 3, Deleted: 4},
		Duration: 41*time.Millisecond + 400*time.Microsecond,
	}
	want := "docs: 19 inserted, 0 updated, 0 unchanged, 0 deleted, 0 kept; chunks: 88 inserted, 2 updated, 3 unchanged, 4 deleted, 0 kept; vocabulary unchanged; 41ms"
	if got := r.String(); got != want {
		t.Errorf("String() = %q\nwant %q", got, want)
	}
	r.Duration = 350*time.Microsecond + 20*time.Nanosecond
	if got := r.String(); !strings.HasSuffix(got, "; 350µs") {
		t.Errorf("sub-millisecond String() = %q, want it to end in 350µs", got)
	}
}

func TestSeedReportChanged(t *testing.T) {
	for _, tc := range []struct {
		r    store.SeedReport
		want bool
	}{
		{store.SeedReport{}, false},
		{store.SeedReport{Docs: store.Counts{Unchanged: 3}, Chunks: store.Counts{Unchanged: 9}}, false},
		{store.SeedReport{Docs: store.Counts{Inserted: 1}}, true},
		{store.SeedReport{Docs: store.Counts{Deleted: 1}}, true},
		{store.SeedReport{Vocabulary: true}, true},
		{store.SeedReport{Chunks: store.Counts{Updated: 1}}, true},
		{store.SeedReport{Chunks: store.Counts{Deleted: 1}}, true},
	} {
		if got := tc.r.Changed(); got != tc.want {
			t.Errorf("%s: Changed() = %v, want %v", tc.r, got, tc.want)
		}
	}
}

func storedState(docs []knowledge.Doc, versions map[string]int) map[string]store.StoredDoc {
	out := map[string]store.StoredDoc{}
	for _, d := range docs {
		d.Version = 1
		if v, ok := versions[d.Slug]; ok {
			d.Version = v
		}
		out[d.Slug] = store.StoredDocOf(d)
	}
	return out
}

// plan is store.Plan for a complete snapshot: whatever it lacks goes.
func plan(t *testing.T, stored map[string]store.StoredDoc, incoming []knowledge.Doc) store.SeedPlan {
	t.Helper()
	p, err := store.Plan(stored, incoming, store.SeedOptions{Prune: true})
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	return p
}

func TestPlanKeepsSkippedDocs(t *testing.T) {
	v1 := storetest.Fixture()
	stored := storedState(v1, nil)
	p, err := store.Plan(stored, v1[:1], store.SeedOptions{
		Keep:      []string{"guides/reset-password"},
		KeepUnder: []string{"billing/"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if p.HasWrites() || p.Docs != (store.Counts{Unchanged: 1, Kept: 3}) {
		t.Errorf("plan = %+v, want 1 unchanged and 3 kept, no writes", p)
	}
	// A prefix is a folder, not the start of a name.
	p, err = store.Plan(stored, v1[:3], store.SeedOptions{KeepUnder: []string{"billing/invoice-"}, MaxDeleteShare: 1})
	if err != nil {
		t.Fatal(err)
	}
	if p.Docs.Kept != 1 {
		t.Errorf("kept = %d, want billing/invoice-z only", p.Docs.Kept)
	}
}

func TestPlanRefusesLargeDeletes(t *testing.T) {
	stored := storedState(storetest.GenerateDocs(30), nil)
	for _, tc := range []struct {
		keep     int
		share    float64
		prune    bool
		refused  bool
		wantText string
	}{
		{keep: 24, share: 0.2},
		{keep: 23, share: 0.2, refused: true, wantText: "refusing to delete 7 of 30 stored docs (23.3%; the limit is 20%): 2 in "},
		{keep: 23, share: 0.2, prune: true},
		{keep: 0, share: 0.2, refused: true, wantText: "30 of 30 stored docs (100%; the limit is 20%): 5 in billing, 5 in concepts, 5 in guides, 5 in integrations, 5 in reference and 1 more folder(s)"},
		{keep: 29, share: 0, refused: true, wantText: "(3.3%; the limit is 0%): 1 in "},
		{keep: 0, share: 1},
	} {
		incoming := storetest.GenerateDocs(30)[:tc.keep]
		_, err := store.Plan(stored, incoming, store.SeedOptions{MaxDeleteShare: tc.share, Prune: tc.prune})
		var refused *store.DeleteRefusedError
		if got := errors.As(err, &refused); got != tc.refused || (err != nil && !got) {
			t.Errorf("keep %d, share %v, prune %v: error = %v, want refused %v", tc.keep, tc.share, tc.prune, err, tc.refused)
			continue
		}
		if tc.refused && !strings.Contains(err.Error(), tc.wantText) {
			t.Errorf("refusal %q does not contain %q", err, tc.wantText)
		}
	}
}

func TestPlanFromEmpty(t *testing.T) {
	docs := storetest.Fixture()
	p := plan(t, nil, docs)
	if len(p.Insert) != len(docs) || len(p.Update)+len(p.Delete) != 0 {
		t.Fatalf("plan = %d inserts, %d updates, %d deletes; want %d inserts only",
			len(p.Insert), len(p.Update), len(p.Delete), len(docs))
	}
	for _, d := range p.Insert {
		if d.Version != 1 {
			t.Errorf("new doc %s planned at version %d, want 1", d.Slug, d.Version)
		}
	}
	if docs[0].Version != 0 {
		t.Error("Plan modified the incoming docs")
	}
	if !p.HasWrites() {
		t.Error("HasWrites() = false for a first seed")
	}
}

func TestPlanUnchanged(t *testing.T) {
	docs := storetest.Fixture()
	p := plan(t, storedState(docs, map[string]int{"billing/invoices": 7}), storetest.Fixture())
	if p.HasWrites() {
		t.Fatalf("plan for an unchanged snapshot writes: %+v", p)
	}
	if want := (store.Counts{Unchanged: len(docs)}); p.Docs != want {
		t.Errorf("docs = %v, want %v", p.Docs, want)
	}
}

func TestPlanChangedDoc(t *testing.T) {
	v1 := storetest.Fixture()
	stored := storedState(v1, map[string]int{"concepts/workspace": 4})

	v2 := storetest.CloneDocs(v1)
	ws := &v2[0]
	ws.Chunks[1].Content += " More."
	ws.Chunks = ws.Chunks[:2] // chunks 2 and 3 are stale
	*ws = storetest.Finish(*ws)

	p := plan(t, stored, v2)
	if len(p.Update) != 1 || len(p.Insert)+len(p.Delete) != 0 {
		t.Fatalf("plan = %+v, want one update", p)
	}
	u := p.Update[0]
	if u.Doc.Version != 5 || !u.RowChanged {
		t.Errorf("update version %d row changed %v, want version 5 and the row rewritten", u.Doc.Version, u.RowChanged)
	}
	if len(u.InsertChunks) != 0 || len(u.UpdateChunks) != 1 || u.UpdateChunks[0].Index != 1 {
		t.Errorf("chunk writes: insert %v update %v, want only chunk 1 updated", u.InsertChunks, u.UpdateChunks)
	}
	if !reflect.DeepEqual(u.DeleteChunks, []int{2, 3}) {
		t.Errorf("stale chunks = %v, want [2 3]", u.DeleteChunks)
	}
	if want := (store.Counts{Updated: 1, Deleted: 2, Unchanged: 1 + storetestChunks(v1[1:])}); p.Chunks != want {
		t.Errorf("chunks = %v, want %v", p.Chunks, want)
	}
}

func storetestChunks(docs []knowledge.Doc) int {
	n := 0
	for _, d := range docs {
		n += len(d.Chunks)
	}
	return n
}

// A change only chunking can see (say, a new ingest version re-deriving
// keywords) is written without bumping the version or rewriting the row.
func TestPlanChunkOnlyChange(t *testing.T) {
	v1 := storetest.Fixture()
	v2 := storetest.CloneDocs(v1)
	v2[2].Chunks[0].Keywords = []string{"monthly"}
	p := plan(t, storedState(v1, nil), v2)
	if len(p.Update) != 1 {
		t.Fatalf("plan = %+v, want one update", p)
	}
	u := p.Update[0]
	if u.RowChanged || u.Doc.Version != 1 || len(u.UpdateChunks) != 1 {
		t.Errorf("update = row changed %v, version %d, %d chunk updates; want the chunk only, version 1",
			u.RowChanged, u.Doc.Version, len(u.UpdateChunks))
	}
}

func TestPlanDeletesMissingDocs(t *testing.T) {
	v1 := storetest.Fixture()
	p := plan(t, storedState(v1, nil), nil)
	want := []string{"billing/invoice-z", "billing/invoices", "concepts/workspace", "guides/reset-password"}
	if !reflect.DeepEqual(p.Delete, want) {
		t.Errorf("Delete = %v, want %v (sorted)", p.Delete, want)
	}
	if wantChunks := (store.Counts{Deleted: storetestChunks(v1)}); p.Chunks != wantChunks {
		t.Errorf("chunks = %v, want %v", p.Chunks, wantChunks)
	}
}

func TestChunkFingerprintCoversStoredFields(t *testing.T) {
	base := storetest.Fixture()[0].Chunks[1]
	basePrint := store.ChunkFingerprint(base)
	for name, edit := range map[string]func(c *knowledge.Chunk){
		"hash":         func(c *knowledge.Chunk) { c.Hash = "other" },
		"header path":  func(c *knowledge.Chunk) { c.HeaderPath += " > More" },
		"title":        func(c *knowledge.Chunk) { c.Title = "Other" },
		"category":     func(c *knowledge.Chunk) { c.Category = "other" },
		"heading-only": func(c *knowledge.Chunk) { c.HeadingOnly = !c.HeadingOnly },
		"keywords":     func(c *knowledge.Chunk) { c.Keywords = append(c.Keywords, "more") },
		"keyword split": func(c *knowledge.Chunk) {
			c.Keywords = []string{strings.Join(c.Keywords, "")}
		},
		"body chars": func(c *knowledge.Chunk) { c.BodyChars++ },
		"index":      func(c *knowledge.Chunk) { c.Index++ },
		"text":       func(c *knowledge.Chunk) { c.Text += " More." },
		"no text":    func(c *knowledge.Chunk) { c.Text = "" },
	} {
		c := base
		c.Keywords = append([]string(nil), base.Keywords...)
		edit(&c)
		if store.ChunkFingerprint(c) == basePrint {
			t.Errorf("changing the %s leaves the fingerprint unchanged", name)
		}
	}
	c := base
	c.Keywords = nil
	empty := c
	empty.Keywords = []string{}
	if store.ChunkFingerprint(c) != store.ChunkFingerprint(empty) {
		t.Error("nil and empty keywords fingerprint differently; a database hands back '{}' for both")
	}
	withoutText := base
	withoutText.Text = ""
	if store.StoredChunkFingerprint(withoutText, store.TextDigest(base.Text)) != basePrint {
		t.Error("a chunk read without its text, with the digest of its text, fingerprints differently")
	}
}

func TestDocFingerprintCoversStoredFields(t *testing.T) {
	base := storetest.Fixture()[0]
	basePrint := store.DocFingerprint(base)
	for name, edit := range map[string]func(d *knowledge.Doc){
		"content hash": func(d *knowledge.Doc) { d.ContentHash = "other" },
		"title":        func(d *knowledge.Doc) { d.Title = "Other" },
		"category":     func(d *knowledge.Doc) { d.Category = "other" },
		"source path":  func(d *knowledge.Doc) { d.SourcePath = "other.md" },
		"keywords":     func(d *knowledge.Doc) { d.Keywords = []string{"other"} },
		"description":  func(d *knowledge.Doc) { d.Description = "Other." },
	} {
		d := base.Clone()
		edit(&d)
		if store.DocFingerprint(d) == basePrint {
			t.Errorf("changing the %s leaves the fingerprint unchanged", name)
		}
	}
	d := base.Clone()
	d.Version = 9
	d.Content = "the content hash stands for the content"
	if store.DocFingerprint(d) != basePrint {
		t.Error("version or content changes the doc fingerprint; only stored metadata and the hash should")
	}
}

func TestValidateSnapshot(t *testing.T) {
	if err := store.ValidateSnapshot(storetest.Fixture()); err != nil {
		t.Fatalf("fixture rejected: %v", err)
	}
	if err := store.ValidateSnapshot(nil); err != nil {
		t.Fatalf("empty snapshot rejected: %v", err)
	}
	for name, tc := range map[string]struct {
		edit func(docs []knowledge.Doc) []knowledge.Doc
		want []string
	}{
		"empty slug": {func(d []knowledge.Doc) []knowledge.Doc { d[1].Slug = ""; return d },
			[]string{`doc #1 ""`, "empty slug"}},
		"duplicate slug": {func(d []knowledge.Doc) []knowledge.Doc { return append(d, d[0]) },
			[]string{`doc #4 "concepts/workspace" (concepts/workspace.md): duplicate slug, first used by doc #0`}},
		"missing hash": {func(d []knowledge.Doc) []knowledge.Doc { d[2].ContentHash = ""; return d },
			[]string{`"billing/invoices"`, "empty content hash"}},
		"foreign chunk": {func(d []knowledge.Doc) []knowledge.Doc { d[0].Chunks[1].DocSlug = "x/y"; return d },
			[]string{`"concepts/workspace"`, `chunk 1: belongs to doc "x/y"`}},
		"duplicate index": {func(d []knowledge.Doc) []knowledge.Doc { d[0].Chunks[2].Index = 1; return d },
			[]string{"chunk 1: duplicate index"}},
		"negative index": {func(d []knowledge.Doc) []knowledge.Doc { d[0].Chunks[2].Index = -1; return d },
			[]string{"chunk -1: negative index"}},
		"invalid UTF-8": {func(d []knowledge.Doc) []knowledge.Doc { d[3].Title = "bad \xff"; return d },
			[]string{`"billing/invoice-z"`, "title is not valid UTF-8"}},
		"NUL keyword": {func(d []knowledge.Doc) []knowledge.Doc { d[0].Chunks[1].Keywords[1] = "a\x00"; return d },
			[]string{"chunk 1: keywords item 1 contains a NUL byte"}},
	} {
		err := store.ValidateSnapshot(tc.edit(storetest.Fixture()))
		var snapErr *store.SnapshotError
		if !errors.As(err, &snapErr) {
			t.Errorf("%s: error = %v, want a *SnapshotError", name, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not contain %q", name, err, w)
			}
		}
	}
}

func TestValidateSnapshotTruncatesLongLists(t *testing.T) {
	docs := storetest.GenerateDocs(30)
	for i := range docs {
		docs[i].ContentHash = ""
	}
	err := store.ValidateSnapshot(docs)
	if err == nil {
		t.Fatal("no error for 30 docs without hashes")
	}
	msg := err.Error()
	if !strings.Contains(msg, "(30 problems)") || !strings.HasSuffix(msg, "; and 20 more") {
		t.Errorf("error = %q, want the count and the first 10 problems", msg)
	}
}

func TestPrepareEvent(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	in := knowledge.RetrievalEvent{Query: "q", TopResults: []knowledge.TopResult{{Slug: "a/b"}}}
	got, err := store.PrepareEvent(in, now)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Time.Equal(now) || got.NormalizedTokens == nil || got.TopResults[0].MatchedTerms == nil {
		t.Errorf("prepared = %+v, want stamped with now and empty (not nil) lists", got)
	}
	if in.TopResults[0].MatchedTerms != nil {
		t.Error("PrepareEvent modified the caller's top results")
	}
	stamped := in
	stamped.Time = now.Add(-time.Hour)
	if got, _ := store.PrepareEvent(stamped, now); !got.Time.Equal(stamped.Time) {
		t.Errorf("time = %v, want the event's own %v", got.Time, stamped.Time)
	}

	for name, ev := range map[string]knowledge.RetrievalEvent{
		"confidence":         {Confidence: math.NaN()},
		"latency":            {LatencyMS: math.Inf(1)},
		"top result 0 score": {TopResults: []knowledge.TopResult{{Score: math.NaN()}}},
		"query":              {Query: "a\x00b"},
		"normalized tokens":  {NormalizedTokens: []string{"\xfe"}},
	} {
		if _, err := store.PrepareEvent(ev, now); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: error = %v, want one naming the %s", name, err, name)
		}
	}
}
