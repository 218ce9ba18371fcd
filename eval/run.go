package eval

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"text/tabwriter"
	"time"
)

// Depth is how many documents each engine returns per query: Recall@100
// needs 100.
const Depth = 100

// Options tunes RunRetrieval.
type Options struct {
	// Rounds is how many times every query is timed after the first,
	// untimed pass whose rankings are scored: with a few dozen queries one
	// pass alone would make p99 the single slowest query.
	Rounds int
	// Progress, when set, hears what the run is doing (for a terminal).
	Progress func(format string, args ...any)
}

// Preparer is an Engine that reads the queries once before they are run
// and timed (docent-hybrid embeds them): neither index time nor query
// latency includes it.
type Preparer interface {
	Prepare(ctx context.Context, queries []string) error
}

// RetrievalReport is the outcome of one run; it marshals to the JSON that
// `docent-eval retrieval --json` prints.
type RetrievalReport struct {
	Dataset   string         `json:"dataset"`
	Documents int            `json:"documents"`
	Queries   int            `json:"queries"`
	Rounds    int            `json:"rounds"`
	Engines   []EngineReport `json:"engines"`
}

// EngineReport is one engine's figures.
type EngineReport struct {
	Name      string  `json:"name"`
	NDCG10    float64 `json:"ndcg_at_10"`
	Recall100 float64 `json:"recall_at_100"`
	MRR10     float64 `json:"mrr_at_10"`
	IndexMS   int64   `json:"index_ms"`
	Latency   Latency `json:"latency_ms"`
	// HeapMB is the Go heap in use that indexing added, after a
	// collection. An engine that keeps its index in another process
	// (PostgreSQL) shows only its client's share.
	HeapMB float64 `json:"heap_mb"`
}

// RunRetrieval measures each engine in turn on the dataset's judged
// queries: the same queries, in the same order, on the same machine. Each
// engine is closed before the next one indexes, so heap figures do not
// include the previous engine.
func RunRetrieval(ctx context.Context, ds *Dataset, engines []Engine, opts Options) (RetrievalReport, error) {
	queries := ds.JudgedQueries()
	rounds := max(opts.Rounds, 1)
	report := RetrievalReport{Dataset: ds.Name, Documents: len(ds.Corpus), Queries: len(queries), Rounds: rounds}
	progress := opts.Progress
	if progress == nil {
		progress = func(string, ...any) {}
	}
	for _, engine := range engines {
		progress("%s: indexing %d documents", engine.Name(), len(ds.Corpus))
		er, err := measure(ctx, engine, ds, queries, rounds)
		if cerr := engine.Close(ctx); err == nil && cerr != nil {
			err = fmt.Errorf("close %s: %w", engine.Name(), cerr)
		}
		if err != nil {
			return report, err
		}
		progress("%s: nDCG@10 %.4f, p95 %.3f ms", er.Name, er.NDCG10, er.Latency.P95)
		report.Engines = append(report.Engines, er)
	}
	return report, nil
}

func measure(ctx context.Context, engine Engine, ds *Dataset, queries []Query, rounds int) (EngineReport, error) {
	name := engine.Name()
	before := heapInUse()
	start := time.Now()
	if err := engine.Index(ctx, ds.Corpus); err != nil {
		return EngineReport{}, fmt.Errorf("%s: index %s: %w", name, ds.Name, err)
	}
	indexed := time.Since(start)
	heap := max(int64(heapInUse())-int64(before), 0)
	if p, ok := engine.(Preparer); ok {
		texts := make([]string, len(queries))
		for i, q := range queries {
			texts[i] = q.Text
		}
		if err := p.Prepare(ctx, texts); err != nil {
			return EngineReport{}, fmt.Errorf("%s: prepare the queries of %s: %w", name, ds.Name, err)
		}
	}

	run := make(Run, len(queries))
	for _, q := range queries {
		ids, err := engine.Search(ctx, q.Text, Depth)
		if err != nil {
			return EngineReport{}, fmt.Errorf("%s: query %s: %w", name, q.ID, err)
		}
		run[q.ID] = ids
	}
	samples := make([]time.Duration, 0, rounds*len(queries))
	for range rounds {
		for _, q := range queries {
			t0 := time.Now()
			if _, err := engine.Search(ctx, q.Text, Depth); err != nil {
				return EngineReport{}, fmt.Errorf("%s: query %s: %w", name, q.ID, err)
			}
			samples = append(samples, time.Since(t0))
		}
	}
	quality := Evaluate(run, ds.Qrels)
	return EngineReport{
		Name:      name,
		NDCG10:    quality.NDCG10,
		Recall100: quality.Recall100,
		MRR10:     quality.MRR10,
		IndexMS:   indexed.Milliseconds(),
		Latency:   summarize(samples),
		HeapMB:    float64(heap) / (1 << 20),
	}, nil
}

// heapInUse collects garbage first, so the figure is what is reachable
// (plus fragmentation), not what is waiting to be freed.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// WriteTable prints the report as an aligned table.
func (r RetrievalReport) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "dataset %s: %d documents, %d judged queries, latency over %d timed rounds\n\n",
		r.Dataset, r.Documents, r.Queries, r.Rounds)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "engine\tnDCG@10\tRecall@100\tMRR@10\tindex ms\tp50 ms\tp95 ms\tp99 ms\theap MB\t")
	for _, e := range r.Engines {
		fmt.Fprintf(tw, "%s\t%.4f\t%.4f\t%.4f\t%d\t%.3f\t%.3f\t%.3f\t%.1f\t\n",
			e.Name, e.NDCG10, e.Recall100, e.MRR10, e.IndexMS, e.Latency.P50, e.Latency.P95, e.Latency.P99, e.HeapMB)
	}
	return tw.Flush()
}
