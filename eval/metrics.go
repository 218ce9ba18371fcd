package eval

import (
	"math"
	"slices"
	"time"
)

// Run is what an engine returned: for each query id, document ids, best
// first.
type Run map[string][]string

// Quality holds the ranking measures, averaged over the judged queries.
type Quality struct {
	NDCG10    float64
	Recall100 float64
	MRR10     float64
	Queries   int // judged queries the averages are over
}

// Evaluate scores a run against judgments with trec_eval's conventions:
// nDCG@10 with linear gains (the judgment score) and the ideal DCG from
// every judged document of the query, relevant or not; Recall@100 and
// MRR@10 with score >= 1 as relevant. Queries without judgments are
// skipped; a judged query the run lacks scores 0 (trec_eval -c), so an
// engine cannot gain by returning nothing.
func Evaluate(run Run, qrels Qrels) Quality {
	var sum Quality
	for qid, judged := range qrels {
		if len(judged) == 0 {
			continue
		}
		sum.Queries++
		ranked := run[qid]
		sum.NDCG10 += ndcgAt(10, ranked, judged)
		sum.Recall100 += recallAt(100, ranked, judged)
		sum.MRR10 += reciprocalRankAt(10, ranked, judged)
	}
	if sum.Queries == 0 {
		return sum
	}
	n := float64(sum.Queries)
	return Quality{NDCG10: sum.NDCG10 / n, Recall100: sum.Recall100 / n, MRR10: sum.MRR10 / n, Queries: sum.Queries}
}

func ndcgAt(k int, ranked []string, judged map[string]int) float64 {
	var dcg float64
	for i, id := range ranked[:min(k, len(ranked))] {
		dcg += float64(judged[id]) / math.Log2(float64(i+2))
	}
	gains := make([]int, 0, len(judged))
	for _, g := range judged {
		gains = append(gains, g)
	}
	slices.SortFunc(gains, func(a, b int) int { return b - a })
	var ideal float64
	for i, g := range gains[:min(k, len(gains))] {
		ideal += float64(g) / math.Log2(float64(i+2))
	}
	if ideal == 0 {
		return 0
	}
	return dcg / ideal
}

func recallAt(k int, ranked []string, judged map[string]int) float64 {
	relevant := 0
	for _, g := range judged {
		if g >= 1 {
			relevant++
		}
	}
	if relevant == 0 {
		return 0
	}
	found := 0
	for _, id := range ranked[:min(k, len(ranked))] {
		if judged[id] >= 1 {
			found++
		}
	}
	return float64(found) / float64(relevant)
}

func reciprocalRankAt(k int, ranked []string, judged map[string]int) float64 {
	for i, id := range ranked[:min(k, len(ranked))] {
		if judged[id] >= 1 {
			return 1 / float64(i+1)
		}
	}
	return 0
}

// Latency summarizes query times in milliseconds.
type Latency struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
}

// summarize returns nearest-rank percentiles: each figure is a time that
// was measured, never an interpolation between two.
func summarize(samples []time.Duration) Latency {
	if len(samples) == 0 {
		return Latency{}
	}
	sorted := slices.Clone(samples)
	slices.Sort(sorted)
	at := func(p float64) float64 {
		rank := int(math.Ceil(p / 100 * float64(len(sorted))))
		return float64(sorted[max(rank, 1)-1]) / float64(time.Millisecond)
	}
	return Latency{P50: at(50), P95: at(95), P99: at(99)}
}
