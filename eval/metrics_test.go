package eval

import (
	"fmt"
	"math"
	"testing"
	"time"
)

// TestEvaluateByHand checks the measures on the hand-made dataset in
// testdata/tiny against figures worked out on paper (see the comments),
// so every benchmark figure rests on arithmetic that is itself tested.
func TestEvaluateByHand(t *testing.T) {
	ds, err := LoadDataset("testdata/tiny")
	if err != nil {
		t.Fatal(err)
	}
	run := Run{
		// q1 judges d1 2, d3 1, d4 0; d2 is unjudged and gains 0.
		// DCG  = 0/log2(2) + 2/log2(3) + 0/log2(4) + 1/log2(5) = 1.692536
		// IDCG = 2/log2(2) + 1/log2(3) + 0/log2(4)             = 2.630930
		// nDCG@10 = 0.643322; both relevant docs found: recall 1;
		// first relevant at rank 2: MRR 0.5.
		"q1": {"d4", "d1", "d2", "d3"},
		// q2 judges d3 3, d2 0: d3 first is ideal. nDCG 1, recall 1, MRR 1.
		"q2": {"d3"},
		// q3 has no judgments: skipped whatever it returns.
		"q3": {"d1"},
	}
	got := Evaluate(run, ds.Qrels)
	want := Quality{NDCG10: 0.821661, Recall100: 1, MRR10: 0.75, Queries: 2}
	if got.Queries != want.Queries || !near(got.NDCG10, want.NDCG10) || !near(got.Recall100, want.Recall100) || !near(got.MRR10, want.MRR10) {
		t.Fatalf("Evaluate:\n got %+v\nwant %+v", got, want)
	}

	// A judged query the run lacks scores 0 on every measure.
	got = Evaluate(Run{"q2": {"d3"}}, ds.Qrels)
	if got.Queries != 2 || !near(got.NDCG10, 0.5) || !near(got.Recall100, 0.5) || !near(got.MRR10, 0.5) {
		t.Fatalf("missing q1: got %+v, want every measure 0.5 over 2 queries", got)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// Only the top 10 count for nDCG and MRR, the top 100 for recall.
func TestEvaluateCutOffs(t *testing.T) {
	deep := make([]string, 0, 102)
	for i := range 100 {
		deep = append(deep, fmt.Sprintf("filler%d", i))
	}
	deep[10] = "x" // rank 11
	deep = append(deep, "y")
	got := Evaluate(Run{"q": deep}, Qrels{"q": {"x": 2, "y": 1}})
	if got.NDCG10 != 0 || got.MRR10 != 0 || got.Recall100 != 0.5 {
		t.Fatalf("cut-offs: got %+v, want nDCG@10 0, MRR@10 0, Recall@100 0.5", got)
	}
	// A query whose judgments are all 0 counts, and scores 0.
	got = Evaluate(Run{"q": {"a"}}, Qrels{"q": {"a": 0}})
	if got.Queries != 1 || got.NDCG10 != 0 || got.Recall100 != 0 || got.MRR10 != 0 {
		t.Fatalf("all-zero judgments: got %+v", got)
	}
}

func TestSummarizeNearestRank(t *testing.T) {
	var samples []time.Duration
	for i := 100; i >= 1; i-- { // out of order on purpose
		samples = append(samples, time.Duration(i)*time.Millisecond)
	}
	got := summarize(samples)
	if got != (Latency{P50: 50, P95: 95, P99: 99}) {
		t.Fatalf("summarize(1..100 ms) = %+v", got)
	}
	if got := summarize([]time.Duration{3 * time.Millisecond}); got != (Latency{3, 3, 3}) {
		t.Fatalf("one sample: %+v", got)
	}
	if got := summarize(nil); got != (Latency{}) {
		t.Fatalf("no samples: %+v", got)
	}
}
