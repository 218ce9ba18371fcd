// Package storetest is the conformance suite every docent knowledge store
// must pass, plus helpers to build test snapshots by hand.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
)

// ReadEvents returns every retrieval event s recorded, oldest first. Each
// store keeps events its own way (a JSONL file, a table), so the caller
// supplies the reader.
type ReadEvents func(t *testing.T, s store.Store) []knowledge.RetrievalEvent

// Run runs the conformance suite. newStore must return an empty store of
// its own (subtests run in parallel) and arrange its cleanup with t.Cleanup.
func Run(t *testing.T, newStore func(t *testing.T) store.Store, readEvents ReadEvents) {
	t.Helper()
	tests := []struct {
		name string
		run  func(t *testing.T, s store.Store)
	}{
		{"EmptyStore", testEmptyStore},
		{"RoundTrip", testRoundTrip},
		{"ReseedUnchanged", testReseedUnchanged},
		{"ChangedDocs", testChangedDocs},
		{"MetadataOnlyChange", testMetadataOnlyChange},
		{"RemovedDoc", testRemovedDoc},
		{"EmptySnapshotDeletesAll", testEmptySnapshotDeletesAll},
		{"SkippedFileKeepsStoredDoc", testSkippedFileKeepsStoredDoc},
		{"UnreadableFolderKeepsItsDocs", testUnreadableFolderKeepsItsDocs},
		{"DeleteShareRefused", testDeleteShareRefused},
		{"ZeroOptionsDeleteNothing", testZeroOptionsDeleteNothing},
		{"InvalidSnapshotWritesNothing", testInvalidSnapshotWritesNothing},
		{"CancelledSeedWritesNothing", testCancelledSeedWritesNothing},
		{"ConcurrentSeeds", testConcurrentSeeds},
		{"Generation", testGeneration},
		{"Vocabulary", testVocabulary},
		{"Embeddings", testEmbeddings},
		{"RetrievalEvents", func(t *testing.T, s store.Store) { testRetrievalEvents(t, s, readEvents) }},
		{"EventsSince", testEventsSince},
		{"Describe", testDescribe},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, newStore(t))
		})
	}
}

// Fixture is a small knowledge base covering every stored field: doc and
// chunk keywords (and their absence), a heading-only chunk, non-ASCII text,
// and slugs whose byte order differs from common linguistic collations.
// It is deliberately out of slug order, with one doc's chunks out of index
// order, so ordering is the store's job.
func Fixture() []knowledge.Doc {
	workspace := NewDoc("concepts/workspace", "Workspace",
		Section{Body: "A workspace groups projects, members and billing. Über-admins see every workspace — naïve café 東京."},
		Section{Heading: "Members", Body: "Invite members from **Settings → Members**.", Keywords: []string{"invite", "member"}},
		Section{Heading: "Roles", Body: "Owner, admin and viewer roles decide what members can change."},
		Section{Heading: "Deleting a workspace", Body: "Only owners can delete a workspace; deletion is final after 30 days."},
	)
	workspace.Keywords = []string{"workspace", "organization"}
	workspace.Description = "What a workspace holds — and who sees it."

	reset := NewDoc("guides/reset-password", "Reset a password",
		Section{Body: "Use the *Forgot password* link on the sign-in page."},
		Section{Heading: "Steps"},
		Section{Heading: "Link expired", Body: "Reset links expire after 1 hour; request a new one.", Keywords: []string{"expired"}},
	)
	reset.Keywords = []string{"password", "login"}
	// Ingest emits chunks in index order, but the store must not rely on it.
	reset.Chunks[0], reset.Chunks[2] = reset.Chunks[2], reset.Chunks[0]

	invoices := NewDoc("billing/invoices", "Invoices",
		Section{Body: "Invoices are issued on the first day of each month."},
		Section{Heading: "Download", Body: "Download PDFs from **Billing → Invoices**."},
	)
	// In C order "invoice-z" sorts before "invoices"; en_US collation
	// ignores the dash and sorts it after.
	invoiceZ := NewDoc("billing/invoice-z", "Invoice Z-series",
		Section{Body: "Z-series invoices correct an earlier invoice."},
	)
	return []knowledge.Doc{workspace, reset, invoices, invoiceZ}
}

func chunkCount(docs []knowledge.Doc) int {
	n := 0
	for _, d := range docs {
		n += len(d.Chunks)
	}
	return n
}

// expectedCorpus is what Corpus must return after seeding docs with the
// given versions (1 when absent): sorted by slug (byte order) and chunk
// index.
func expectedCorpus(docs []knowledge.Doc, versions map[string]int) []knowledge.Doc {
	out := CloneDocs(docs)
	for i := range out {
		out[i].Version = 1
		if v, ok := versions[out[i].Slug]; ok {
			out[i].Version = v
		}
		slices.SortFunc(out[i].Chunks, func(a, b knowledge.Chunk) int { return a.Index - b.Index })
	}
	slices.SortFunc(out, func(a, b knowledge.Doc) int { return strings.Compare(a.Slug, b.Slug) })
	return out
}

func expectedSummaries(corpus []knowledge.Doc) []knowledge.DocSummary {
	out := make([]knowledge.DocSummary, len(corpus))
	for i, d := range corpus {
		out[i] = knowledge.DocSummary{Slug: d.Slug, Category: d.Category, Title: d.Title,
			ChunkCount: len(d.Chunks), ContentHash: d.ContentHash, Version: d.Version}
	}
	return out
}

// prune is what the tests of plain snapshots seed with: the snapshot is
// the whole knowledge base, and whatever it lacks goes.
var prune = store.SeedOptions{Prune: true}

func seed(t *testing.T, s store.Store, docs []knowledge.Doc) store.SeedReport {
	t.Helper()
	return seedWith(t, s, docs, prune)
}

func seedWith(t *testing.T, s store.Store, docs []knowledge.Doc, opts store.SeedOptions) store.SeedReport {
	t.Helper()
	r, err := s.Seed(t.Context(), docs, opts)
	if err != nil {
		t.Fatalf("Seed: %v", err)
	}
	return r
}

func checkCounts(t *testing.T, what string, got, want store.Counts) {
	t.Helper()
	if got != want {
		t.Errorf("%s counts = {%v}, want {%v}", what, got, want)
	}
}

func checkCorpus(t *testing.T, s store.Store, want []knowledge.Doc) {
	t.Helper()
	got, err := s.Corpus(t.Context())
	if err != nil {
		t.Fatalf("Corpus: %v", err)
	}
	if diff := diffDocs(want, got); diff != "" {
		t.Errorf("Corpus differs from what was seeded:\n%s", diff)
	}
	summaries, err := s.ListDocs(t.Context())
	if err != nil {
		t.Fatalf("ListDocs: %v", err)
	}
	// A store may return nil or an empty list for no docs.
	if wantSum := expectedSummaries(want); len(summaries)+len(wantSum) > 0 && !reflect.DeepEqual(summaries, wantSum) {
		t.Errorf("ListDocs =\n%+v\nwant\n%+v", summaries, wantSum)
	}
}

// diffDocs names the first few differences, treating nil and empty keyword
// lists alike (a database hands back '{}' for both).
func diffDocs(want, got []knowledge.Doc) string {
	var b strings.Builder
	if len(want) != len(got) {
		fmt.Fprintf(&b, "got %d docs %v, want %d %v\n", len(got), slugs(got), len(want), slugs(want))
		return b.String()
	}
	for i := range want {
		w, g := normalizeDoc(want[i]), normalizeDoc(got[i])
		if reflect.DeepEqual(w, g) {
			continue
		}
		wc, gc := w.Chunks, g.Chunks
		w.Chunks, g.Chunks = nil, nil
		if !reflect.DeepEqual(w, g) {
			fmt.Fprintf(&b, "doc %d:\n  got  %+v\n  want %+v\n", i, g, w)
		}
		if len(wc) != len(gc) {
			fmt.Fprintf(&b, "doc %q: got %d chunks, want %d\n", w.Slug, len(gc), len(wc))
			continue
		}
		for j := range wc {
			if !reflect.DeepEqual(wc[j], gc[j]) {
				fmt.Fprintf(&b, "doc %q chunk %d:\n  got  %+v\n  want %+v\n", w.Slug, j, gc[j], wc[j])
			}
		}
	}
	return b.String()
}

func normalizeDoc(d knowledge.Doc) knowledge.Doc {
	d = d.Clone()
	if len(d.Keywords) == 0 {
		d.Keywords = nil
	}
	for i := range d.Chunks {
		if len(d.Chunks[i].Keywords) == 0 {
			d.Chunks[i].Keywords = nil
		}
	}
	return d
}

func slugs(docs []knowledge.Doc) []string {
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = d.Slug
	}
	return out
}

func testEmptyStore(t *testing.T, s store.Store) {
	checkCorpus(t, s, []knowledge.Doc{})
}

func testRoundTrip(t *testing.T, s store.Store) {
	docs := Fixture()
	r := seed(t, s, docs)
	checkCounts(t, "docs", r.Docs, store.Counts{Inserted: len(docs)})
	checkCounts(t, "chunks", r.Chunks, store.Counts{Inserted: chunkCount(docs)})
	if !r.Changed() {
		t.Errorf("first seed report %q says nothing changed", r)
	}
	checkCorpus(t, s, expectedCorpus(docs, nil))
}

// testVocabulary checks that a seed stores the vocabulary that came with
// the docs, that an unchanged one writes nothing, and that a seed without
// one leaves it.
func testVocabulary(t *testing.T, s store.Store) {
	ctx := t.Context()
	readVocabulary := func() knowledge.Vocabulary {
		t.Helper()
		v, err := s.Vocabulary(ctx)
		if err != nil {
			t.Fatalf("Vocabulary: %v", err)
		}
		return v
	}
	if v := readVocabulary(); !v.Equal(knowledge.Vocabulary{}) {
		t.Errorf("empty store's vocabulary = %+v, want none", v)
	}
	docs := Fixture()
	v1 := knowledge.Vocabulary{
		Glossary: "- **Workspace**: an area of an entry.",
		Synonyms: []knowledge.Synonym{{From: "space", To: "workspace"}, {From: "pw", To: "password"}},
		Concepts: []string{"concepts/*"},
	}
	r := seedWith(t, s, docs, store.SeedOptions{Vocabulary: &v1})
	if !r.Vocabulary {
		t.Errorf("first seed with a vocabulary: report %q says it was not written", r)
	}
	if got := readVocabulary(); !got.Equal(v1) {
		t.Errorf("Vocabulary() = %+v, want %+v", got, v1)
	}
	gen := generation(t, s)
	same := v1
	same.Synonyms = append([]knowledge.Synonym(nil), v1.Synonyms...)
	if r := seedWith(t, s, Fixture(), store.SeedOptions{Vocabulary: &same}); r.Changed() {
		t.Errorf("re-seed with the same vocabulary: report %q says something changed", r)
	}
	if g := generation(t, s); g != gen {
		t.Errorf("an unchanged seed moved the generation from %d to %d", gen, g)
	}
	if r := seed(t, s, Fixture()); r.Changed() {
		t.Errorf("seed without a vocabulary: report %q says something changed", r)
	}
	if got := readVocabulary(); !got.Equal(v1) {
		t.Errorf("a seed without a vocabulary changed it to %+v", got)
	}
	v2 := knowledge.Vocabulary{Synonyms: []knowledge.Synonym{{From: "pw", To: "password"}}}
	if r := seedWith(t, s, Fixture(), store.SeedOptions{Vocabulary: &v2}); !r.Vocabulary || !r.Changed() {
		t.Errorf("seed with a new vocabulary: report %q, want it written", r)
	}
	if g := generation(t, s); g == gen {
		t.Error("a seed that changed only the vocabulary left the generation as it was: running sessions would not see it")
	}
	if got := readVocabulary(); !got.Equal(v2) {
		t.Errorf("Vocabulary() = %+v, want %+v", got, v2)
	}
}

func testReseedUnchanged(t *testing.T, s store.Store) {
	docs := Fixture()
	seed(t, s, docs)
	r := seed(t, s, Fixture())
	checkCounts(t, "docs", r.Docs, store.Counts{Unchanged: len(docs)})
	checkCounts(t, "chunks", r.Chunks, store.Counts{Unchanged: chunkCount(docs)})
	if r.Changed() {
		t.Errorf("re-seed report %q says something changed", r)
	}
	checkCorpus(t, s, expectedCorpus(docs, nil))
}

func bySlug(docs []knowledge.Doc, slug string) *knowledge.Doc {
	for i := range docs {
		if docs[i].Slug == slug {
			return &docs[i]
		}
	}
	panic("storetest: no doc " + slug)
}

func testChangedDocs(t *testing.T, s store.Store) {
	v1 := Fixture()
	total := chunkCount(v1)
	seed(t, s, v1)

	v2 := CloneDocs(v1)
	ws := bySlug(v2, "concepts/workspace")
	ws.Chunks[1].Content += " Pending invites expire after 7 days." // content change
	ws.Chunks[2].Keywords = []string{"role", "permission"}          // metadata-only chunk change
	ws.Chunks = ws.Chunks[:3]                                       // chunk 3 is now stale
	*ws = Finish(*ws)
	reset := bySlug(v2, "guides/reset-password")
	reset.Chunks = append(reset.Chunks, knowledge.Chunk{Index: 3, HeaderPath: "Reset a password > SSO",
		Content: "## SSO\n\nSSO users reset their password with their identity provider."})
	*reset = Finish(*reset)

	r := seed(t, s, v2)
	checkCounts(t, "docs", r.Docs, store.Counts{Updated: 2, Unchanged: len(v1) - 2})
	checkCounts(t, "chunks", r.Chunks, store.Counts{Inserted: 1, Updated: 2, Deleted: 1, Unchanged: total - 3})
	checkCorpus(t, s, expectedCorpus(v2, map[string]int{"concepts/workspace": 2, "guides/reset-password": 2}))

	// A second content change bumps the version again.
	v3 := CloneDocs(v2)
	ws = bySlug(v3, "concepts/workspace")
	ws.Chunks[0].Content = "# Workspace\n\nA workspace is the top-level container."
	*ws = Finish(*ws)
	r = seed(t, s, v3)
	checkCounts(t, "docs", r.Docs, store.Counts{Updated: 1, Unchanged: len(v1) - 1})
	checkCounts(t, "chunks", r.Chunks, store.Counts{Updated: 1, Unchanged: chunkCount(v3) - 1})
	checkCorpus(t, s, expectedCorpus(v3, map[string]int{"concepts/workspace": 3, "guides/reset-password": 2}))
}

// testMetadataOnlyChange covers edits the content hash cannot see (a title
// from front matter, keywords): they must be written, but the version only
// tracks content.
func testMetadataOnlyChange(t *testing.T, s store.Store) {
	v1 := Fixture()
	seed(t, s, v1)

	v2 := CloneDocs(v1)
	inv := bySlug(v2, "billing/invoices")
	inv.Title = "Invoices and receipts"
	*inv = Finish(*inv) // chunk titles follow the doc title
	reset := bySlug(v2, "guides/reset-password")
	reset.Keywords = append(reset.Keywords, "sign-in")
	if inv.ContentHash != bySlug(v1, "billing/invoices").ContentHash {
		t.Fatal("fixture edit changed the content hash; this test needs a metadata-only edit")
	}

	r := seed(t, s, v2)
	checkCounts(t, "docs", r.Docs, store.Counts{Updated: 2, Unchanged: len(v1) - 2})
	checkCounts(t, "chunks", r.Chunks, store.Counts{Updated: len(inv.Chunks), Unchanged: chunkCount(v1) - len(inv.Chunks)})
	checkCorpus(t, s, expectedCorpus(v2, nil))
}

func testRemovedDoc(t *testing.T, s store.Store) {
	v1 := Fixture()
	seed(t, s, v1)
	removed := bySlug(v1, "guides/reset-password")
	var v2 []knowledge.Doc
	for _, d := range CloneDocs(v1) {
		if d.Slug != removed.Slug {
			v2 = append(v2, d)
		}
	}
	r := seed(t, s, v2)
	checkCounts(t, "docs", r.Docs, store.Counts{Unchanged: len(v2), Deleted: 1})
	checkCounts(t, "chunks", r.Chunks, store.Counts{Unchanged: chunkCount(v2), Deleted: len(removed.Chunks)})
	checkCorpus(t, s, expectedCorpus(v2, nil))

	// Re-adding it starts a new life at version 1.
	r = seed(t, s, v1)
	checkCounts(t, "docs", r.Docs, store.Counts{Inserted: 1, Unchanged: len(v2)})
	checkCorpus(t, s, expectedCorpus(v1, nil))
}

func testEmptySnapshotDeletesAll(t *testing.T, s store.Store) {
	docs := Fixture()
	seed(t, s, docs)
	r := seed(t, s, nil)
	checkCounts(t, "docs", r.Docs, store.Counts{Deleted: len(docs)})
	checkCounts(t, "chunks", r.Chunks, store.Counts{Deleted: chunkCount(docs)})
	checkCorpus(t, s, []knowledge.Doc{})
}

// without returns a copy of docs lacking the given slugs.
func without(docs []knowledge.Doc, slugs ...string) []knowledge.Doc {
	var out []knowledge.Doc
	for _, d := range CloneDocs(docs) {
		if !slices.Contains(slugs, d.Slug) {
			out = append(out, d)
		}
	}
	return out
}

// A file that is still there but could not be read this time (broken front
// matter, a permission) keeps its stored doc, reported as kept; a file
// really gone in the same seed is deleted.
func testSkippedFileKeepsStoredDoc(t *testing.T, s store.Store) {
	v1 := Fixture()
	seed(t, s, v1)
	kept := bySlug(v1, "guides/reset-password")
	gone := bySlug(v1, "billing/invoice-z")
	v2 := without(v1, kept.Slug, gone.Slug)

	r := seedWith(t, s, v2, store.SeedOptions{Keep: []string{kept.Slug, "guides/never-stored"}, MaxDeleteShare: store.DefaultMaxDeleteShare + 0.05})
	checkCounts(t, "docs", r.Docs, store.Counts{Unchanged: len(v2), Deleted: 1, Kept: 1})
	checkCounts(t, "chunks", r.Chunks, store.Counts{Unchanged: chunkCount(v2), Deleted: len(gone.Chunks), Kept: len(kept.Chunks)})
	checkCorpus(t, s, expectedCorpus(without(v1, gone.Slug), nil))

	// Kept, it is still an ordinary doc: fixed, it is written as usual.
	r = seedWith(t, s, without(v1, gone.Slug), store.SeedOptions{})
	checkCounts(t, "docs after the fix", r.Docs, store.Counts{Unchanged: len(v1) - 1})
}

func testUnreadableFolderKeepsItsDocs(t *testing.T, s store.Store) {
	v1 := Fixture()
	seed(t, s, v1)
	gen := generation(t, s)
	// Every billing doc is missing because billing/ could not be listed.
	v2 := without(v1, "billing/invoices", "billing/invoice-z")
	r := seedWith(t, s, v2, store.SeedOptions{KeepUnder: []string{"billing/"}})
	checkCounts(t, "docs", r.Docs, store.Counts{Unchanged: len(v2), Kept: 2})
	if r.Changed() {
		t.Errorf("report %q says a seed that kept everything changed something", r)
	}
	checkCorpus(t, s, expectedCorpus(v1, nil))
	checkGeneration(t, s, "after a seed that only kept docs", gen)
}

// A seed that would delete more than the allowed share of the stored docs
// writes nothing and says how many and where; with Prune it goes ahead.
func testDeleteShareRefused(t *testing.T, s store.Store) {
	docs := GenerateDocs(10) // categories cycle through six folders
	seed(t, s, docs)
	gen := generation(t, s)
	remaining := docs[:7]
	changed := CloneDocs(remaining)
	changed[0].Chunks[0].Content += " Changed, so a partial write would show."
	changed[0] = Finish(changed[0])

	_, err := s.Seed(t.Context(), changed, store.SeedOptions{MaxDeleteShare: store.DefaultMaxDeleteShare})
	var refused *store.DeleteRefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("Seed deleting 3 of 10 docs with a 20%% limit: error = %v, want a *store.DeleteRefusedError", err)
	}
	wantFolders := []store.FolderCount{{Folder: "guides", Docs: 1}, {Folder: "reference", Docs: 1}, {Folder: "troubleshooting", Docs: 1}}
	if refused.Deleting != 3 || refused.Stored != 10 || !reflect.DeepEqual(refused.Folders, wantFolders) {
		t.Errorf("refusal = %+v, want 3 of 10 docs in %v", refused, wantFolders)
	}
	for _, want := range []string{"3 of 10", "30%", "20%", "1 in guides"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q does not say %q", err, want)
		}
	}
	checkCorpus(t, s, expectedCorpus(docs, nil))
	checkGeneration(t, s, "after a refused seed", gen)

	// Exactly at the limit is allowed.
	r := seedWith(t, s, docs[:8], store.SeedOptions{MaxDeleteShare: store.DefaultMaxDeleteShare})
	checkCounts(t, "docs at the limit", r.Docs, store.Counts{Unchanged: 8, Deleted: 2})
	r = seedWith(t, s, changed[:1], store.SeedOptions{MaxDeleteShare: store.DefaultMaxDeleteShare, Prune: true})
	checkCounts(t, "docs with Prune", r.Docs, store.Counts{Updated: 1, Deleted: 7})
	checkCorpus(t, s, expectedCorpus(changed[:1], map[string]int{changed[0].Slug: 2}))
}

func testZeroOptionsDeleteNothing(t *testing.T, s store.Store) {
	docs := Fixture()
	seed(t, s, docs)
	_, err := s.Seed(t.Context(), docs[:3], store.SeedOptions{})
	var refused *store.DeleteRefusedError
	if !errors.As(err, &refused) || refused.Deleting != 1 {
		t.Fatalf("Seed deleting a doc with zero options: error = %v, want a refusal of 1 doc", err)
	}
	checkCorpus(t, s, expectedCorpus(docs, nil))
}

func generation(t *testing.T, s store.Store) int64 {
	t.Helper()
	gen, err := s.Generation(t.Context())
	if err != nil {
		t.Fatalf("Generation: %v", err)
	}
	return gen
}

func testInvalidSnapshotWritesNothing(t *testing.T, s store.Store) {
	docs := Fixture()
	seed(t, s, docs)
	want := expectedCorpus(docs, nil)

	duplicate := CloneDocs(docs)
	duplicate[0].Chunks[0].Content = "# Workspace\n\nchanged, so a partial write would show"
	duplicate[0] = Finish(duplicate[0])
	duplicate = append(duplicate, duplicate[1].Clone())

	nul := CloneDocs(docs)
	nul[2].Chunks[1].Content = "bad\x00byte"

	for name, tc := range map[string]struct {
		docs       []knowledge.Doc
		mentioning []string
	}{
		"duplicate slug": {duplicate, []string{duplicate[1].Slug, "duplicate slug"}},
		"NUL byte":       {nul, []string{nul[2].Slug, "chunk 1", "NUL"}},
	} {
		_, err := s.Seed(t.Context(), tc.docs, prune)
		var snapErr *store.SnapshotError
		if !errors.As(err, &snapErr) {
			t.Errorf("%s: Seed error = %v, want a *store.SnapshotError", name, err)
			continue
		}
		for _, m := range tc.mentioning {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%s: error %q does not mention %q", name, err, m)
			}
		}
	}
	checkCorpus(t, s, want)
}

func testCancelledSeedWritesNothing(t *testing.T, s store.Store) {
	docs := Fixture()
	seed(t, s, docs)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := s.Seed(ctx, GenerateDocs(50), prune)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Seed with a cancelled context: error = %v, want context.Canceled", err)
	}
	checkCorpus(t, s, expectedCorpus(docs, nil))
}

func testConcurrentSeeds(t *testing.T, s store.Store) {
	docs := GenerateDocs(40)
	var wg sync.WaitGroup
	reports := make([]store.SeedReport, 2)
	errs := make([]error, 2)
	for i := range reports {
		wg.Go(func() { reports[i], errs[i] = s.Seed(t.Context(), CloneDocs(docs), prune) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("seeder %d: %v", i, err)
		}
	}
	// Seeds serialize: whichever ran second found everything in place.
	first, second := reports[0], reports[1]
	if first.Docs.Inserted == 0 {
		first, second = second, first
	}
	checkCounts(t, "first seeder's docs", first.Docs, store.Counts{Inserted: len(docs)})
	checkCounts(t, "second seeder's docs", second.Docs, store.Counts{Unchanged: len(docs)})
	checkCounts(t, "second seeder's chunks", second.Chunks, store.Counts{Unchanged: chunkCount(docs)})
	checkCorpus(t, s, expectedCorpus(docs, nil))
	// Only the seed that wrote counts as a new generation.
	checkGeneration(t, s, "after two concurrent seeds of the same snapshot", 1)
}

func checkGeneration(t *testing.T, s store.Store, when string, want int64) {
	t.Helper()
	if got := generation(t, s); got != want {
		t.Errorf("Generation %s = %d, want %d", when, got, want)
	}
}

// testGeneration pins exact numbers so every store counts alike: a new
// store is at 0 and each seed that writes anything adds one, whatever it
// wrote; seeds that write nothing (unchanged, invalid, cancelled) add none.
func testGeneration(t *testing.T, s store.Store) {
	checkGeneration(t, s, "of a new store", 0)
	seed(t, s, nil)
	checkGeneration(t, s, "after seeding nothing into an empty store", 0)

	v1 := Fixture()
	seed(t, s, v1)
	checkGeneration(t, s, "after the first seed", 1)
	if r := seed(t, s, Fixture()); r.Changed() {
		t.Fatalf("re-seed report %q says something changed", r)
	}
	checkGeneration(t, s, "after an unchanged re-seed", 1)

	v2 := CloneDocs(v1)
	inv := bySlug(v2, "billing/invoices")
	inv.Chunks[1].Content += " Older invoices stay available for 7 years."
	*inv = Finish(*inv)
	seed(t, s, v2)
	checkGeneration(t, s, "after a seed that changed one chunk", 2)

	metadata := CloneDocs(v2)
	bySlug(metadata, "guides/reset-password").Keywords = []string{"password", "login", "sign-in"}
	seed(t, s, metadata)
	checkGeneration(t, s, "after a metadata-only change", 3)

	invalid := append(CloneDocs(metadata), metadata[0].Clone())
	invalid[0].Title = "changed, so a partial write would show"
	if _, err := s.Seed(t.Context(), invalid, prune); err == nil {
		t.Fatal("Seed with a duplicate slug succeeded")
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := s.Seed(ctx, GenerateDocs(5), prune); err == nil {
		t.Fatal("Seed with a cancelled context succeeded")
	}
	checkGeneration(t, s, "after an invalid and a cancelled seed", 3)

	seed(t, s, nil)
	checkGeneration(t, s, "after a seed that deleted everything", 4)
}

func testRetrievalEvents(t *testing.T, s store.Store, readEvents ReadEvents) {
	// Microseconds: the precision PostgreSQL keeps.
	at := time.Date(2025, 3, 14, 9, 26, 53, 589793000, time.UTC)
	full := knowledge.RetrievalEvent{
		Time:             at,
		Query:            "How do I reset my password? «urgent»",
		NormalizedTokens: []string{"reset", "password"},
		TopResults: []knowledge.TopResult{
			{Slug: "guides/reset-password", ChunkIndex: 0, Score: 7.25, MatchedTerms: []string{"reset", "password"}},
			{Slug: "concepts/workspace", ChunkIndex: 2, Score: 1.5, MatchedTerms: []string{}},
		},
		Action:           "found",
		Confidence:       0.875,
		LatencyMS:        1.25,
		Phase:            2,
		PromptTokens:     ptr(1432),
		CompletionTokens: ptr(61),
		CostUSD:          ptr(0.0002514),

		Corpus:              "docs",
		CrossCorpusShown:    true,
		CrossCorpusGap:      ptr(0.125),
		NotesAvailable:      false,
		NotesError:          "notes unavailable: timeout",
		NotesFallbackReason: knowledge.NotesFallbackTimeout,

		ConversationID: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
		TurnIndex:      ptr(3),
	}
	sparse := knowledge.RetrievalEvent{Query: "refund", Action: "no_match", Phase: 1}

	before := time.Now()
	for _, ev := range []knowledge.RetrievalEvent{full, sparse} {
		if err := s.RecordRetrieval(t.Context(), ev); err != nil {
			t.Fatalf("RecordRetrieval(%q): %v", ev.Query, err)
		}
	}
	bad := full
	bad.Confidence = math.NaN()
	if err := s.RecordRetrieval(t.Context(), bad); err == nil || !strings.Contains(err.Error(), "confidence") {
		t.Errorf("RecordRetrieval with a NaN confidence: error = %v, want one naming the confidence", err)
	}
	bad = full
	bad.NotesFallbackReason = "gremlins"
	if err := s.RecordRetrieval(t.Context(), bad); err == nil || !strings.Contains(err.Error(), "notes fallback reason") {
		t.Errorf("RecordRetrieval with an unknown notes fallback reason: error = %v, want one naming it", err)
	}
	bad = full
	bad.ConversationID = "../etc"
	if err := s.RecordRetrieval(t.Context(), bad); err == nil || !strings.Contains(err.Error(), "conversation id") {
		t.Errorf("RecordRetrieval with a conversation id that is no uuid: error = %v, want one naming it", err)
	}
	bad = full
	bad.CompletionTokens = ptr(-1)
	if err := s.RecordRetrieval(t.Context(), bad); err == nil || !strings.Contains(err.Error(), "completion tokens") {
		t.Errorf("RecordRetrieval with negative completion tokens: error = %v, want one naming them", err)
	}

	got := readEvents(t, s)
	if len(got) != 2 {
		t.Fatalf("read back %d events, want 2: %+v", len(got), got)
	}
	if !got[0].Time.Equal(at) {
		t.Errorf("event time = %v, want %v", got[0].Time, at)
	}
	got[0].Time = at
	if !reflect.DeepEqual(got[0], full) {
		t.Errorf("event =\n%+v\nwant\n%+v", got[0], full)
	}

	// An event without a time is stamped when recorded.
	if got[1].Time.Before(before.Add(-time.Minute)) || got[1].Time.After(time.Now().Add(time.Minute)) {
		t.Errorf("untimed event stamped %v, want about %v", got[1].Time, before)
	}
	wantSparse := sparse
	wantSparse.Time = got[1].Time
	if len(got[1].NormalizedTokens) != 0 || len(got[1].TopResults) != 0 {
		t.Errorf("sparse event lists = %v, %v, want empty", got[1].NormalizedTokens, got[1].TopResults)
	}
	got[1].NormalizedTokens, got[1].TopResults = nil, nil
	if !reflect.DeepEqual(got[1], wantSparse) {
		t.Errorf("event =\n%+v\nwant\n%+v", got[1], wantSparse)
	}
}

// Events lists what RecordRetrieval recorded from a time on, oldest
// first, whatever order the events were recorded in.
func testEventsSince(t *testing.T, s store.Store) {
	lister, ok := s.(store.EventLister)
	if !ok {
		t.Fatalf("%T does not list its events (store.EventLister)", s)
	}
	if got, err := lister.Events(t.Context(), time.Time{}); err != nil || len(got) != 0 {
		t.Fatalf("Events on an empty store = %v, %v; want none", got, err)
	}
	day := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	for _, ev := range []knowledge.RetrievalEvent{
		{Time: day.Add(48 * time.Hour), Query: "third", Action: "found", LatencyMS: 3},
		{Time: day, Query: "first", Action: "no_match", NormalizedTokens: []string{"refund"}},
		{Time: day.Add(24 * time.Hour), Query: "second", Action: "weak",
			TopResults: []knowledge.TopResult{{Slug: "billing/invoices", ChunkIndex: 1, Score: 2.5, MatchedTerms: []string{"invoice"}}}},
	} {
		if err := s.RecordRetrieval(t.Context(), ev); err != nil {
			t.Fatalf("RecordRetrieval(%q): %v", ev.Query, err)
		}
	}
	queries := func(evs []knowledge.RetrievalEvent) []string {
		var q []string
		for _, ev := range evs {
			q = append(q, ev.Query)
		}
		return q
	}
	all, err := lister.Events(t.Context(), time.Time{})
	if err != nil {
		t.Fatalf("Events: %v", err)
	}
	if got := queries(all); !slices.Equal(got, []string{"first", "second", "third"}) {
		t.Fatalf("Events(all) = %q, want oldest first", got)
	}
	if !all[1].Time.Equal(day.Add(24*time.Hour)) || all[1].Action != "weak" || len(all[1].TopResults) != 1 ||
		all[1].TopResults[0].Slug != "billing/invoices" || all[0].NormalizedTokens[0] != "refund" {
		t.Errorf("events read back = %+v", all)
	}
	since, err := lister.Events(t.Context(), day.Add(24*time.Hour))
	if err != nil {
		t.Fatalf("Events(since): %v", err)
	}
	if got := queries(since); !slices.Equal(got, []string{"second", "third"}) {
		t.Errorf("Events(since the second) = %q, want second and third", got)
	}
	if got, err := lister.Events(t.Context(), day.Add(72*time.Hour)); err != nil || len(got) != 0 {
		t.Errorf("Events(after the last) = %v, %v; want none", got, err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := lister.Events(ctx, time.Time{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Events with a cancelled context: error %v, want context.Canceled", err)
	}
}

func testDescribe(t *testing.T, s store.Store) {
	d := s.Describe()
	if d == "" {
		t.Fatal("Describe is empty")
	}
	for _, r := range d {
		if !unicode.IsPrint(r) {
			t.Fatalf("Describe %q has a non-printable rune %U", d, r)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// Embed gives every chunk of docs an embedding of model: dim values
// derived from the chunk's id and model, with the awkward floats (negative
// zero, the smallest subnormal, the largest float32) among them, so a
// store that rounds or reorders shows it.
func Embed(docs []knowledge.Doc, model string, dim int) []knowledge.Doc {
	out := CloneDocs(docs)
	awkward := []float32{float32(math.Copysign(0, -1)), math.SmallestNonzeroFloat32, math.MaxFloat32, -1.0 / 3}
	for i := range out {
		for j := range out[i].Chunks {
			c := &out[i].Chunks[j]
			seed := md5Hex(model + "\x00" + c.ID())
			v := make([]float32, dim)
			for k := range v {
				v[k] = float32(int(seed[k%len(seed)])-'a') / float32(k+1)
				if k < len(awkward) && (j+k)%2 == 0 {
					v[k] = awkward[k]
				}
			}
			c.Embedding = &knowledge.Embedding{Model: model, Vector: v}
		}
	}
	return out
}

// stripEmbeddings is docs as a seed without an embedder brings them.
func stripEmbeddings(docs []knowledge.Doc) []knowledge.Doc {
	out := CloneDocs(docs)
	for i := range out {
		for j := range out[i].Chunks {
			out[i].Chunks[j].Embedding = nil
		}
	}
	return out
}

// checkEmbeddings compares the embeddings Corpus returns with want's, bit
// for bit (reflect.DeepEqual takes -0 for 0).
func checkEmbeddings(t *testing.T, s store.Store, when string, want []knowledge.Doc) {
	t.Helper()
	got, err := s.Corpus(t.Context())
	if err != nil {
		t.Fatalf("%s: Corpus: %v", when, err)
	}
	wantBy := map[string]*knowledge.Embedding{}
	for _, d := range want {
		for _, c := range d.Chunks {
			wantBy[c.ID()] = c.Embedding
		}
	}
	n := 0
	for _, d := range got {
		for _, c := range d.Chunks {
			n++
			w, ok := wantBy[c.ID()]
			if !ok {
				t.Errorf("%s: unexpected chunk %s", when, c.ID())
				continue
			}
			if msg := embeddingDiff(c.Embedding, w); msg != "" {
				t.Errorf("%s: chunk %s: %s", when, c.ID(), msg)
			}
		}
	}
	if n != len(wantBy) {
		t.Errorf("%s: Corpus has %d chunks, want %d", when, n, len(wantBy))
	}
}

func embeddingDiff(got, want *knowledge.Embedding) string {
	switch {
	case got == nil && want == nil:
		return ""
	case got == nil:
		return fmt.Sprintf("no embedding, want one of %s", want.Model)
	case want == nil:
		return fmt.Sprintf("embedding of %s, want none", got.Model)
	case got.Model != want.Model:
		return fmt.Sprintf("embedding of %s, want %s", got.Model, want.Model)
	case len(got.Vector) != len(want.Vector):
		return fmt.Sprintf("%d dimensions, want %d", len(got.Vector), len(want.Vector))
	}
	for i := range got.Vector {
		if math.Float32bits(got.Vector[i]) != math.Float32bits(want.Vector[i]) {
			return fmt.Sprintf("value %d = %g (%#08x), want %g (%#08x)", i, got.Vector[i], math.Float32bits(got.Vector[i]),
				want.Vector[i], math.Float32bits(want.Vector[i]))
		}
	}
	return ""
}

// testEmbeddings: vectors round-trip bit for bit; a seed that brings none
// keeps the stored ones of unchanged content (metadata edits included)
// and drops those of changed content; new vectors of another model replace
// the old ones without a version bump; a bad vector is refused.
func testEmbeddings(t *testing.T, s store.Store) {
	v1 := Embed(Fixture(), "model-a", 12)
	total := chunkCount(v1)
	r := seed(t, s, v1)
	checkCounts(t, "chunks", r.Chunks, store.Counts{Inserted: total})
	checkEmbeddings(t, s, "first seed", v1)
	checkCorpus(t, s, expectedCorpus(v1, nil))

	// The same docs without embeddings (no embedder configured): nothing
	// written, the vectors stay.
	gen := generation(t, s)
	r = seed(t, s, stripEmbeddings(v1))
	checkCounts(t, "chunks", r.Chunks, store.Counts{Unchanged: total})
	checkGeneration(t, s, "an unchanged seed without embeddings", gen)
	checkEmbeddings(t, s, "re-seed without embeddings", v1)

	// The same vectors again: nothing written either.
	r = seed(t, s, v1)
	if r.Changed() {
		t.Errorf("re-seed with the stored embeddings wrote: %s", r)
	}

	// A content edit drops the edited chunk's stale vector; a title edit
	// rewrites every chunk of its doc but keeps their vectors (embeddings
	// are made from content alone).
	v2 := stripEmbeddings(v1)
	ws := bySlug(v2, "concepts/workspace")
	ws.Chunks[1].Content += " Pending invites expire after 7 days."
	*ws = Finish(*ws)
	inv := bySlug(v2, "billing/invoices")
	inv.Title = "Invoices and receipts"
	for i := range inv.Chunks {
		inv.Chunks[i].Title = inv.Title
	}
	r = seed(t, s, v2)
	checkCounts(t, "chunks", r.Chunks, store.Counts{Updated: 1 + len(inv.Chunks), Unchanged: total - 1 - len(inv.Chunks)})
	want := CloneDocs(v1)
	bySlug(want, "concepts/workspace").Chunks[1] = ws.Chunks[1] // no embedding
	checkEmbeddings(t, s, "after a content and a title edit", want)

	// Another model: every chunk is rewritten with its new vector, and no
	// version moves (the content did not change).
	gen = generation(t, s)
	v3 := Embed(v2, "model-b", 7)
	r = seed(t, s, v3)
	checkCounts(t, "chunks", r.Chunks, store.Counts{Updated: total})
	checkCounts(t, "docs", r.Docs, store.Counts{Updated: len(v3)})
	checkEmbeddings(t, s, "after a model change", v3)
	checkCorpus(t, s, expectedCorpus(v3, map[string]int{"concepts/workspace": 2}))
	if after := generation(t, s); after == gen {
		t.Errorf("generation stayed %d after new embeddings were written", gen)
	}

	// A vector no store may keep is refused, and nothing is written.
	for _, bad := range []*knowledge.Embedding{
		{Model: "model-c", Vector: []float32{1, float32(math.NaN())}},
		{Model: "model-c", Vector: []float32{float32(math.Inf(1))}},
		{Model: "", Vector: []float32{1}},
		{Model: "model-c"},
	} {
		v4 := Embed(v2, "model-c", 7)
		v4[0].Chunks[0].Embedding = bad
		if _, err := s.Seed(t.Context(), v4, prune); err == nil {
			t.Errorf("Seed with embedding %+v: no error", bad)
		}
	}
	checkEmbeddings(t, s, "after refused seeds", v3)
}
