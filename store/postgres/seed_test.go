package postgres

import (
	"context"
	"errors"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/storetest"
)

func TestReseedUnchangedWritesNothing(t *testing.T) {
	t.Parallel()
	s := openStore(t, newDatabase(t))
	docs := storetest.GenerateDocs(60)
	mustSeed(t, s, docs)
	before := rowVersions(t, s)

	r := mustSeed(t, s, storetest.CloneDocs(docs))
	if r.Changed() {
		t.Fatalf("re-seed report says something changed: %s", r)
	}
	after := rowVersions(t, s)
	if len(before) == 0 || !maps.Equal(before, after) {
		for k, v := range before {
			if after[k] != v {
				t.Errorf("%s was rewritten: %s → %s", k, v, after[k])
			}
		}
		t.Fatalf("unchanged re-seed rewrote rows (%d rows before, %d after)", len(before), len(after))
	}
}

func TestChangedDocRewritesOnlyChangedRows(t *testing.T) {
	t.Parallel()
	s := openStore(t, newDatabase(t))
	v1 := storetest.GenerateDocs(10)
	mustSeed(t, s, v1)
	before := rowVersions(t, s)

	v2 := storetest.CloneDocs(v1)
	d := &v2[3]
	d.Chunks[1].Content += "\n\nOne more sentence."
	*d = storetest.Finish(*d)
	mustSeed(t, s, v2)
	after := rowVersions(t, s)

	// The generation row moves with every seed that writes.
	rewritten := map[string]bool{"doc " + d.Slug: true, "chunk " + d.Slug + "#1": true, "generation": true}
	for key, v := range before {
		if changed := after[key] != v; changed != rewritten[key] {
			t.Errorf("%s rewritten = %v, want %v", key, changed, rewritten[key])
		}
	}
}

func TestStoredChunkIDsAreStable(t *testing.T) {
	t.Parallel()
	s := openStore(t, newDatabase(t))
	docs := storetest.Fixture()
	mustSeed(t, s, docs)
	rows, err := s.pool.Query(t.Context(), `SELECT id, doc_slug, chunk_index FROM docs_knowledge_chunks`)
	if err != nil {
		t.Fatal(err)
	}
	var (
		id    uuid.UUID
		slug  string
		index int
		n     int
	)
	if _, err := pgx.ForEachRow(rows, []any{&id, &slug, &index}, func() error {
		n++
		if want := ChunkUUID(slug, index); id != want {
			t.Errorf("chunk %s stored as %s, want %s", knowledge.ChunkID(slug, index), id, want)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no chunks stored")
	}
	id = ChunkUUID("guides/reset-password", 2)
	if id.Version() != 5 || id != ChunkUUID("guides/reset-password", 2) || id == ChunkUUID("guides/reset-password", 3) {
		t.Errorf("ChunkUUID is not a stable uuid v5 per chunk id: %s", id)
	}
}

func TestConcurrentSeedersWithSeparatePools(t *testing.T) {
	t.Parallel()
	url := newDatabase(t)
	stores := []*Store{openStore(t, url), openStore(t, url)}
	docs := storetest.GenerateDocs(200)

	var wg sync.WaitGroup
	reports := make([]store.SeedReport, len(stores))
	errs := make([]error, len(stores))
	for i, s := range stores {
		wg.Go(func() {
			reports[i], errs[i] = s.Seed(t.Context(), storetest.CloneDocs(docs), store.SeedOptions{Prune: true})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("seeder %d: %v", i, err)
		}
	}
	inserted := reports[0].Docs.Inserted + reports[1].Docs.Inserted
	unchanged := reports[0].Docs.Unchanged + reports[1].Docs.Unchanged
	if inserted != len(docs) || unchanged != len(docs) {
		t.Errorf("reports %q and %q: want one seeder to insert all %d docs and the other to find them unchanged",
			reports[0], reports[1], len(docs))
	}

	// Same state as a single seed into a fresh database.
	single := openStore(t, newDatabase(t))
	mustSeed(t, single, docs)
	got, want := mustCorpus(t, stores[1]), mustCorpus(t, single)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("concurrent seeds left %d docs, differing from a single seed's %d", len(got), len(want))
	}
}

// TestCancelledSeedKeepsPreviousState cancels a seed after it has written
// (it deleted a doc and inserted none yet) while it waits on a row lock
// the test holds, then checks nothing it wrote survived and that it let go
// of the seed lock.
func TestCancelledSeedKeepsPreviousState(t *testing.T) {
	t.Parallel()
	url := newDatabase(t)
	s := openStore(t, url)
	v1 := storetest.GenerateDocs(30)
	mustSeed(t, s, v1)
	before := mustCorpus(t, s)

	v2 := storetest.CloneDocs(v1[1:]) // v1[0] gets deleted
	blocked := &v2[4]
	blocked.Chunks[0].Content += "\n\nEdited."
	*blocked = storetest.Finish(*blocked)
	for _, d := range storetest.GenerateDocs(500) {
		d.Slug = "new/" + d.Slug
		for i := range d.Chunks {
			d.Chunks[i].DocSlug = d.Slug
		}
		v2 = append(v2, d)
	}

	locker, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer locker.Close(context.Background())
	lockTx, err := locker.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer lockTx.Rollback(context.Background())
	if _, err := lockTx.Exec(t.Context(), `SELECT 1 FROM docs_knowledge WHERE slug = $1 FOR UPDATE`, blocked.Slug); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := s.Seed(ctx, v2, store.SeedOptions{Prune: true})
		done <- err
	}()

	// Wait until the seeder has written (it has a transaction id) and is
	// stuck on our row lock. The watcher needs its own connection: inside
	// the locker's transaction pg_stat_activity would stay frozen.
	watcher, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close(context.Background())
	deadline := time.Now().Add(20 * time.Second)
	for {
		var waiting bool
		err := watcher.QueryRow(t.Context(), `SELECT EXISTS (SELECT 1 FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock'
			AND backend_xid IS NOT NULL AND query LIKE 'UPDATE docs_knowledge%')`).Scan(&waiting)
		if err != nil {
			t.Fatal(err)
		}
		if waiting {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("seed finished before it could be cancelled mid-way: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the seeder never blocked on the locked row")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	err = <-done
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled seed: error = %v, want context.Canceled", err)
	}
	if strings.Contains(err.Error(), "%!") {
		t.Errorf("malformed error: %v", err)
	}

	// Cancelling ended the seeder's transaction on the server too (pgx
	// sends a cancel request), freeing the seed lock while the locker
	// still holds its row: another seeder that leaves the row alone runs.
	reseed := openStore(t, url)
	seedCtx, seedCancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer seedCancel()
	r, err := reseed.Seed(seedCtx, v1, store.SeedOptions{Prune: true})
	if err != nil {
		t.Fatalf("seed after the cancelled one: %v", err)
	}
	if r.Changed() {
		t.Errorf("the cancelled seed left changes behind: %s", r)
	}
	if got := mustCorpus(t, s); !reflect.DeepEqual(got, before) {
		t.Errorf("corpus changed after a cancelled seed: %d docs, want %d", len(got), len(before))
	}
	if gen := mustGeneration(t, s); gen != 1 {
		t.Errorf("knowledge generation after a cancelled seed = %d, want 1 (the first seed's)", gen)
	}
}

func TestListDocsCountsChunks(t *testing.T) {
	t.Parallel()
	s := openStore(t, newDatabase(t))
	docs := storetest.GenerateDocs(25)
	mustSeed(t, s, docs)
	list, err := s.ListDocs(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	var slugs []string
	for _, d := range docs {
		want[d.Slug] = len(d.Chunks)
		slugs = append(slugs, d.Slug)
	}
	sort.Strings(slugs)
	if len(list) != len(docs) {
		t.Fatalf("listed %d docs, want %d", len(list), len(docs))
	}
	for i, d := range list {
		if d.Slug != slugs[i] || d.ChunkCount != want[d.Slug] || d.Version != 1 {
			t.Errorf("list[%d] = %+v, want slug %s with %d chunks at version 1", i, d, slugs[i], want[slugs[i]])
		}
	}
}

// TestReseedFillsTextStoredBeforeIt covers an upgrade: rows stored before
// migration 005 hold no plain text and no description, and the next seed
// of the same knowledge base rewrites exactly those rows.
func TestReseedFillsTextStoredBeforeIt(t *testing.T) {
	t.Parallel()
	s := openStore(t, newDatabase(t))
	docs := storetest.Fixture()
	mustSeed(t, s, docs)
	if _, err := s.pool.Exec(t.Context(), `UPDATE docs_knowledge_chunks SET text = ''`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.pool.Exec(t.Context(), `UPDATE docs_knowledge SET description = ''`); err != nil {
		t.Fatal(err)
	}
	wantChunks, chunks, described := 0, 0, 0
	for _, d := range docs {
		if d.Description != "" {
			described++
		}
		chunks += len(d.Chunks)
		for _, c := range d.Chunks {
			if c.Text != "" {
				wantChunks++
			}
		}
	}
	if wantChunks != chunks || described == 0 {
		t.Fatalf("the fixture should give every chunk a text (%d of %d) and a doc a description", wantChunks, chunks)
	}
	r := mustSeed(t, s, storetest.CloneDocs(docs))
	if r.Chunks.Updated != wantChunks || r.Docs.Updated != len(docs) {
		t.Errorf("re-seed after the upgrade: %s, want every doc and chunk updated", r)
	}
	got := mustCorpus(t, s)
	if len(got) != len(docs) {
		t.Fatalf("%d docs stored, want %d", len(got), len(docs))
	}
	for i, d := range storetest.CloneDocs(docs) {
		slices.SortFunc(d.Chunks, func(a, b knowledge.Chunk) int { return a.Index - b.Index })
		i = slices.IndexFunc(got, func(g knowledge.Doc) bool { return g.Slug == d.Slug })
		if got[i].Description != d.Description {
			t.Errorf("%s: stored description %q, want %q", d.Slug, got[i].Description, d.Description)
		}
		for j, c := range d.Chunks {
			if got[i].Chunks[j].Text != c.Text {
				t.Errorf("%s: stored text %q, want %q", c.ID(), got[i].Chunks[j].Text, c.Text)
			}
		}
	}
	if r := mustSeed(t, s, storetest.CloneDocs(docs)); r.Changed() {
		t.Errorf("a second re-seed wrote: %s", r)
	}
}
