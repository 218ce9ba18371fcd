package postgres

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/postgres/pgtest"
)

func adminURL(tb testing.TB) string { return pgtest.AdminURL(tb) }

func newDatabase(tb testing.TB) string { return pgtest.NewDatabase(tb) }

func openStore(tb testing.TB, url string) *Store {
	tb.Helper()
	s, err := Open(context.Background(), url, Options{Migrate: true})
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(s.Close)
	return s
}

func mustSeed(tb testing.TB, s *Store, docs []knowledge.Doc) store.SeedReport {
	tb.Helper()
	r, err := s.Seed(context.Background(), docs, store.SeedOptions{Prune: true})
	if err != nil {
		tb.Fatalf("Seed: %v", err)
	}
	return r
}

func mustCorpus(tb testing.TB, s *Store) []knowledge.Doc {
	tb.Helper()
	docs, err := s.Corpus(context.Background())
	if err != nil {
		tb.Fatalf("Corpus: %v", err)
	}
	return docs
}

// rowVersions maps every doc and chunk row, and the knowledge generation
// row, to its physical version (ctid, xmin) and updated_at: any UPDATE, or
// DELETE and re-INSERT, changes it.
func rowVersions(tb testing.TB, s *Store) map[string]string {
	tb.Helper()
	rows, err := s.pool.Query(context.Background(), `
		SELECT 'doc ' || slug, ctid::text || ' ' || xmin::text || ' ' || updated_at::text FROM docs_knowledge
		UNION ALL
		SELECT 'chunk ' || doc_slug || '#' || chunk_index, ctid::text || ' ' || xmin::text || ' ' || updated_at::text
		FROM docs_knowledge_chunks
		UNION ALL
		SELECT 'generation', generation::text || ' ' || ctid::text || ' ' || xmin::text || ' ' || updated_at::text
		FROM docs_knowledge_generation`)
	if err != nil {
		tb.Fatalf("read row versions: %v", err)
	}
	out := map[string]string{}
	var key, version string
	if _, err := pgx.ForEachRow(rows, []any{&key, &version}, func() error {
		out[key] = version
		return nil
	}); err != nil {
		tb.Fatalf("read row versions: %v", err)
	}
	return out
}

func mustGeneration(tb testing.TB, s *Store) int64 {
	tb.Helper()
	gen, err := s.Generation(context.Background())
	if err != nil {
		tb.Fatalf("Generation: %v", err)
	}
	return gen
}

// shipped is the migrations this docent embeds, in order. Tests follow
// it instead of naming the last version: versions need not be contiguous,
// since branches reserve their numbers.
func shipped(tb testing.TB) []Migration {
	tb.Helper()
	ms, err := availableMigrations()
	if err != nil {
		tb.Fatal(err)
	}
	if len(ms) < 4 {
		tb.Fatalf("shipped migrations %v, want at least the four that create docent's tables", ms)
	}
	return ms
}

// latest is the newest shipped version.
func latest(tb testing.TB) uint {
	ms := shipped(tb)
	return ms[len(ms)-1].Version
}

// previous is the version one down from the newest.
func previous(tb testing.TB) uint {
	ms := shipped(tb)
	return ms[len(ms)-2].Version
}

// stepsDownTo is how many migrations are reverted to reach version.
func stepsDownTo(tb testing.TB, version uint) int {
	n := 0
	for _, m := range shipped(tb) {
		if m.Version > version {
			n++
		}
	}
	return n
}
