package reference_test

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/docent-sh/docent/eval"
	"github.com/docent-sh/docent/eval/reference"
	"github.com/docent-sh/docent/internal/evaldata"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store/postgres"
	"github.com/docent-sh/docent/store/postgres/pgtest"
)

// The msmarco-5k benchmark (../shared/eval/README.md) measures ranking on
// real web passages and questions, where the demo KB is too small for term
// statistics to matter. The data stays outside the repository.

const (
	msmarcoPassages       = 5000 // README: a 5,000-passage subset
	msmarcoJudgedQueries  = 43   // README: 43 queries have judgments
	msmarcoReferenceNDCG  = 0.70 // README: plain BM25's nDCG@10
	msmarcoReferenceSlack = 0.02 // the README rounds to two digits
	// msmarcoTieSlack is how far below the plain BM25 docent may score and
	// still count as equal: rounding of scores reorders exact ties.
	msmarcoTieSlack = 0.005
)

// requireMSMarco loads the benchmark or, when it is not there, skips the
// test (locally) or fails it (under CI=true, and whenever DOCENT_EVAL_DIR
// was set explicitly): see evaldata.Dir.
func requireMSMarco(tb testing.TB) *eval.Dataset {
	tb.Helper()
	dir := evaldata.Dir(tb, "msmarco-5k")
	ds, err := eval.LoadDataset(dir)
	if err != nil {
		tb.Fatalf("load msmarco-5k: %v", err)
	}
	if len(ds.Corpus) != msmarcoPassages || len(ds.JudgedQueries()) != msmarcoJudgedQueries {
		tb.Fatalf("%s: %d passages and %d judged queries, the README describes %d and %d",
			dir, len(ds.Corpus), len(ds.JudgedQueries()), msmarcoPassages, msmarcoJudgedQueries)
	}
	return ds
}

// quality runs one engine over the judged queries and scores it.
func quality(t *testing.T, e eval.Engine, ds *eval.Dataset) eval.Quality {
	t.Helper()
	ctx := context.Background()
	if err := e.Index(ctx, ds.Corpus); err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	run := eval.Run{}
	for _, q := range ds.JudgedQueries() {
		ids, err := e.Search(ctx, q.Text, eval.Depth)
		if err != nil {
			t.Fatal(err)
		}
		if len(ids) > eval.Depth {
			t.Fatalf("%s returned %d results for %s", e.Name(), len(ids), q.ID)
		}
		seen := map[string]bool{}
		for _, id := range ids {
			if seen[id] {
				t.Fatalf("%s ranks %s twice for %s: the measures would count it twice", e.Name(), id, q.ID)
			}
			seen[id] = true
		}
		run[q.ID] = ids
	}
	return eval.Evaluate(run, ds.Qrels)
}

// TestMSMarcoRanking holds docent's ranking to the evaluation issue's
// targets: nDCG@10 at least a plain BM25's (the README's 0.70, which the
// reference below must reproduce, validating data and measures) and not
// below bleve's or PostgreSQL's. Speed is `docent eval`'s to report.
func TestMSMarcoRanking(t *testing.T) {
	ds := requireMSMarco(t)
	docent := quality(t, eval.NewDocent(retrieval.DefaultConfig(), nil), ds)
	bm25 := newReferenceBM25(ds.Corpus).quality(ds)
	t.Logf("docent:     %+v", docent)
	t.Logf("plain BM25: %+v", bm25)

	if math.Abs(bm25.NDCG10-msmarcoReferenceNDCG) > msmarcoReferenceSlack {
		t.Errorf("plain BM25 nDCG@10 = %.4f, the README's figure is %.2f (±%.2f): the measures or the reference are off",
			bm25.NDCG10, msmarcoReferenceNDCG, msmarcoReferenceSlack)
	}
	if docent.NDCG10 < bm25.NDCG10-msmarcoTieSlack || docent.NDCG10 < msmarcoReferenceNDCG {
		t.Errorf("docent nDCG@10 = %.4f, want at least the plain BM25's %.4f and %.2f", docent.NDCG10, bm25.NDCG10, msmarcoReferenceNDCG)
	}

	t.Run("bleve", func(t *testing.T) {
		b := quality(t, reference.NewBleve(), ds)
		t.Logf("bleve:      %+v", b)
		if docent.NDCG10 < b.NDCG10 {
			t.Errorf("docent nDCG@10 = %.4f is below bleve's %.4f", docent.NDCG10, b.NDCG10)
		}
	})
	t.Run("postgres", func(t *testing.T) {
		st, err := postgres.Open(context.Background(), pgtest.NewDatabase(t), postgres.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		p := quality(t, reference.NewPostgres(st), ds)
		t.Logf("postgres:   %+v", p)
		if docent.NDCG10 < p.NDCG10 {
			t.Errorf("docent nDCG@10 = %.4f is below PostgreSQL's %.4f", docent.NDCG10, p.NDCG10)
		}
	})
}

// BenchmarkMSMarcoSearch times docent's ranking of the judged queries, as
// the evaluation harness runs it (one op = every query, depth 100).
func BenchmarkMSMarcoSearch(b *testing.B) {
	ds := requireMSMarco(b)
	queries := ds.JudgedQueries()
	d := eval.NewDocent(retrieval.DefaultConfig(), nil)
	ctx := context.Background()
	if err := d.Index(ctx, ds.Corpus); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		for _, q := range queries {
			if _, err := d.Search(ctx, q.Text, eval.Depth); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(queries)), "ns/query")
}

// BenchmarkMSMarcoBuild times ingesting and indexing the 5,000 passages.
func BenchmarkMSMarcoBuild(b *testing.B) {
	ds := requireMSMarco(b)
	for b.Loop() {
		if err := eval.NewDocent(retrieval.DefaultConfig(), nil).Index(context.Background(), ds.Corpus); err != nil {
			b.Fatal(err)
		}
	}
}

// referenceBM25 is the README's plain BM25: k1 0.9, b 0.4, lower-case
// alphanumeric tokens, a small English stopword list, no stemming, title
// and text as one field. It is written here, apart from the engine, so the
// comparison shares none of the engine's analysis or scoring code.
type referenceBM25 struct {
	k1, b    float64
	ids      []string
	docLen   []float64
	avgLen   float64
	postings map[string][]refPosting
}

type refPosting struct {
	doc int
	tf  int
}

// refStopwords is Lucene's classic English stop set, the "small English
// stopword list" of BM25 baselines.
var refStopwords = func() map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be but by for if in into is it no not of on or
		such that the their then there these they this to was will with`) {
		set[w] = true
	}
	return set
}()

func refTokens(s string) []string {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	out := words[:0]
	for _, w := range words {
		if !refStopwords[w] {
			out = append(out, w)
		}
	}
	return out
}

func TestReferenceTokens(t *testing.T) {
	got := refTokens("The U.S. Army's 2nd battalion, and Straße")
	want := []string{"u", "s", "army", "s", "2nd", "battalion", "straße"}
	if !slices.Equal(got, want) {
		t.Fatalf("refTokens = %q, want %q", got, want)
	}
}

func newReferenceBM25(corpus []eval.Document) *referenceBM25 {
	r := &referenceBM25{k1: 0.9, b: 0.4, postings: map[string][]refPosting{}}
	var total float64
	for i, d := range corpus {
		toks := refTokens(d.Title + " " + d.Text)
		r.ids = append(r.ids, d.ID)
		r.docLen = append(r.docLen, float64(len(toks)))
		total += float64(len(toks))
		tf := map[string]int{}
		for _, t := range toks {
			tf[t]++
		}
		for t, n := range tf {
			r.postings[t] = append(r.postings[t], refPosting{doc: i, tf: n})
		}
	}
	r.avgLen = total / float64(max(len(corpus), 1))
	return r
}

// search returns up to depth ids by score, best first; equal scores keep
// corpus order. Each distinct query term counts once.
func (r *referenceBM25) search(query string, depth int) []string {
	n := float64(len(r.ids))
	scores := map[int]float64{}
	seen := map[string]bool{}
	for _, t := range refTokens(query) {
		if seen[t] {
			continue
		}
		seen[t] = true
		list := r.postings[t]
		if len(list) == 0 {
			continue
		}
		df := float64(len(list))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range list {
			tf := float64(p.tf)
			norm := 1 - r.b + r.b*r.docLen[p.doc]/r.avgLen
			scores[p.doc] += idf * tf * (r.k1 + 1) / (tf + r.k1*norm)
		}
	}
	docs := make([]int, 0, len(scores))
	for d := range scores {
		docs = append(docs, d)
	}
	slices.SortFunc(docs, func(a, b int) int {
		if c := cmp.Compare(scores[b], scores[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	out := make([]string, 0, min(depth, len(docs)))
	for _, d := range docs[:min(depth, len(docs))] {
		out = append(out, r.ids[d])
	}
	return out
}

func (r *referenceBM25) quality(ds *eval.Dataset) eval.Quality {
	run := eval.Run{}
	for _, q := range ds.JudgedQueries() {
		run[q.ID] = r.search(q.Text, eval.Depth)
	}
	return eval.Evaluate(run, ds.Qrels)
}
