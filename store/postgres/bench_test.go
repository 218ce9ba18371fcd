package postgres

import (
	"context"
	"testing"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/storetest"
)

// BenchmarkSeed1000Docs seeds 1,000 realistic docs (4-8 chunks each) into
// an empty schema.
func BenchmarkSeed1000Docs(b *testing.B) {
	s := openStore(b, newDatabase(b))
	docs := storetest.GenerateDocs(1000)
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		if _, err := s.pool.Exec(ctx, `TRUNCATE docs_knowledge CASCADE`); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		r, err := s.Seed(ctx, docs, store.SeedOptions{Prune: true})
		if err != nil {
			b.Fatal(err)
		}
		if r.Docs.Inserted != len(docs) {
			b.Fatalf("seed into an empty schema: %s", r)
		}
	}
	b.ReportMetric(float64(len(docs)*b.N)/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkReseedUnchanged1000Docs re-seeds the same 1,000 docs: the
// startup cost when the knowledge base did not change (target < 0.5 s).
func BenchmarkReseedUnchanged1000Docs(b *testing.B) {
	s := openStore(b, newDatabase(b))
	docs := storetest.GenerateDocs(1000)
	ctx := context.Background()
	mustSeed(b, s, docs)
	for b.Loop() {
		r, err := s.Seed(ctx, docs, store.SeedOptions{Prune: true})
		if err != nil {
			b.Fatal(err)
		}
		if r.Changed() {
			b.Fatalf("unchanged re-seed wrote: %s", r)
		}
	}
}

// BenchmarkReseedEveryDocChanged1000Docs alternates between two versions
// of 1,000 docs whose every first chunk differs: the worst-case update.
func BenchmarkReseedEveryDocChanged1000Docs(b *testing.B) {
	s := openStore(b, newDatabase(b))
	ctx := context.Background()
	versions := [2][]knowledge.Doc{storetest.GenerateDocs(1000), storetest.GenerateDocs(1000)}
	for i, d := range versions[1] {
		d.Chunks[0].Content += "\n\nRevised."
		versions[1][i] = storetest.Finish(d)
	}
	mustSeed(b, s, versions[0])
	n := 0
	for b.Loop() {
		n++
		r, err := s.Seed(ctx, versions[n%2], store.SeedOptions{Prune: true})
		if err != nil {
			b.Fatal(err)
		}
		if r.Docs.Updated != 1000 {
			b.Fatalf("re-seed: %s", r)
		}
	}
}

// BenchmarkImport10000Notes imports 10,000 small markdown notes of about
// three chunks each into an empty schema (target ≤ 10 s).
func BenchmarkImport10000Notes(b *testing.B) {
	s := openStore(b, newDatabase(b))
	notes := storetest.GenerateNotes(10_000)
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		if _, err := s.pool.Exec(ctx, `TRUNCATE notes CASCADE`); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		r, err := s.ImportNotes(ctx, notes, nil)
		if err != nil {
			b.Fatal(err)
		}
		if r.Notes != len(notes) {
			b.Fatalf("import into an empty schema: %s", r)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/import")
	b.ReportMetric(float64(len(notes)*b.N)/b.Elapsed().Seconds(), "notes/s")
}
