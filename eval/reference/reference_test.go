package reference_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/docent-sh/docent/eval"
	"github.com/docent-sh/docent/eval/reference"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store/postgres"
	"github.com/docent-sh/docent/store/postgres/pgtest"
)

func tiny(t *testing.T) *eval.Dataset {
	t.Helper()
	ds, err := eval.LoadDataset("../testdata/tiny")
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func TestBleve(t *testing.T) {
	ds := tiny(t)
	ctx := context.Background()
	for _, b := range []*reference.Bleve{reference.NewBleve(), reference.NewBleveScorch()} {
		t.Run(b.Name(), func(t *testing.T) {
			if _, err := b.Search(ctx, "solar", 10); err == nil {
				t.Error("Search before Index succeeded")
			}
			if err := b.Index(ctx, ds.Corpus); err != nil {
				t.Fatal(err)
			}
			got, err := b.Search(ctx, "solar electricity", 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 3 || got[0] != "d1" || slices.Contains(got, "d4") {
				t.Errorf("Search(solar electricity) = %v, want d1 first, d4 absent", got)
			}
			// The English analyzer stems: "stored" meets "store" and "storing".
			if got, _ := b.Search(ctx, "stored", 10); !slices.Equal(got, []string{"d3"}) {
				t.Errorf("Search(stored) = %v, want [d3]", got)
			}
			if got, _ := b.Search(ctx, "solar electricity", 1); len(got) != 1 {
				t.Errorf("k=1 returned %v", got)
			}
			if err := b.Close(ctx); err != nil {
				t.Fatal(err)
			}
			if err := b.Close(ctx); err != nil {
				t.Errorf("second Close: %v", err)
			}
		})
	}
}

// All engines side by side on one dataset, PostgreSQL included, through
// the runner as `docent-eval retrieval` drives them.
func TestAllEnginesOnTinyDataset(t *testing.T) {
	url := pgtest.NewDatabase(t)
	ctx := context.Background()
	st, err := postgres.Open(ctx, url, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	ds := tiny(t)
	engines := []eval.Engine{
		eval.NewDocent(retrieval.DefaultConfig(), nil), reference.NewBleve(), reference.NewBleveScorch(), reference.NewPostgres(st),
	}
	report, err := eval.RunRetrieval(ctx, ds, engines, eval.Options{Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range report.Engines {
		names = append(names, e.Name)
		// Every engine finds the one doc judged 3 for q2 and a relevant
		// doc first for q1: MRR@10 is 1.
		if e.MRR10 != 1 {
			t.Errorf("%s: MRR@10 %v, want 1", e.Name, e.MRR10)
		}
	}
	if !slices.Equal(names, []string{"docent", "bleve", "bleve-scorch", "postgres"}) {
		t.Errorf("engines %v", names)
	}

	// The PostgreSQL engine searches the documents it was given.
	p := reference.NewPostgres(st)
	if _, err := p.Search(ctx, "solar", 10); err == nil {
		t.Error("Search before Index succeeded")
	}
	if err := p.Index(ctx, ds.Corpus); err != nil {
		t.Fatal(err)
	}
	if got, err := p.Search(ctx, "solar electricity", 10); err != nil || !slices.Equal(got, []string{"d1"}) {
		t.Errorf("Search(solar electricity) = %v, %v; want [d1] (websearch_to_tsquery ANDs the words)", got, err)
	}
	if err := p.Close(ctx); err != nil {
		t.Fatal(err)
	}
	bad := reference.NewPostgres(st)
	if err := bad.Index(ctx, []eval.Document{{ID: "x"}, {ID: "x"}}); err == nil {
		t.Error("duplicate ids were indexed")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := reference.NewPostgres(st).Index(cancelled, ds.Corpus); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Index: %v", err)
	}
}
