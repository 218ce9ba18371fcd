package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/docent-sh/docent/retrieval"
)

// scriptedEngine answers from a fixed run and records what the runner
// asked of it.
type scriptedEngine struct {
	name     string
	run      Run
	failOn   string // a query id whose search fails
	calls    []string
	searched map[string]int
}

func (s *scriptedEngine) Name() string { return s.name }

func (s *scriptedEngine) Index(_ context.Context, corpus []Document) error {
	s.calls = append(s.calls, fmt.Sprintf("index %d", len(corpus)))
	return nil
}

func (s *scriptedEngine) Search(_ context.Context, text string, k int) ([]string, error) {
	if s.searched == nil {
		s.searched = map[string]int{}
	}
	s.searched[text]++
	if k != Depth {
		return nil, fmt.Errorf("asked for %d results, want %d", k, Depth)
	}
	for id, q := range map[string]string{"q1": "solar electricity", "q2": "stored energy", "q3": "nuclear fusion"} {
		if q == text {
			if id == s.failOn {
				return nil, errors.New("backend down")
			}
			return s.run[id], nil
		}
	}
	return nil, fmt.Errorf("unexpected query %q", text)
}

func (s *scriptedEngine) Close(context.Context) error {
	s.calls = append(s.calls, "close")
	return nil
}

func TestRunRetrieval(t *testing.T) {
	ds, err := LoadDataset("testdata/tiny")
	if err != nil {
		t.Fatal(err)
	}
	perfect := &scriptedEngine{name: "perfect", run: Run{"q1": {"d1", "d3"}, "q2": {"d3"}}}
	empty := &scriptedEngine{name: "empty", run: Run{}}
	report, err := RunRetrieval(context.Background(), ds, []Engine{perfect, empty}, Options{Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	if report.Dataset != "tiny" || report.Queries != 2 || report.Documents != 4 || report.Rounds != 3 || len(report.Engines) != 2 {
		t.Fatalf("report %+v", report)
	}
	p, e := report.Engines[0], report.Engines[1]
	if p.Name != "perfect" || p.NDCG10 != 1 || p.Recall100 != 1 || p.MRR10 != 1 {
		t.Errorf("perfect engine: %+v", p)
	}
	if e.Name != "empty" || e.NDCG10 != 0 || e.Recall100 != 0 || e.MRR10 != 0 {
		t.Errorf("empty engine: %+v", e)
	}
	// Judged queries only: one scored pass and three timed rounds each.
	if !slices.Equal(perfect.calls, []string{"index 4", "close"}) {
		t.Errorf("calls %v", perfect.calls)
	}
	if perfect.searched["solar electricity"] != 4 || perfect.searched["stored energy"] != 4 || perfect.searched["nuclear fusion"] != 0 {
		t.Errorf("searches %v, want each judged query 1+3 times and the unjudged one never", perfect.searched)
	}

	// The JSON has the shape.
	raw, err := json.Marshal(report)
	if err != nil {
		t.Fatal(err)
	}
	var generic struct {
		Dataset string           `json:"dataset"`
		Queries int              `json:"queries"`
		Engines []map[string]any `json:"engines"`
	}
	if err := json.Unmarshal(raw, &generic); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"name", "ndcg_at_10", "recall_at_100", "mrr_at_10", "index_ms", "latency_ms", "heap_mb"} {
		if _, ok := generic.Engines[0][key]; !ok {
			t.Errorf("engine JSON lacks %q: %s", key, raw)
		}
	}
	lat, _ := generic.Engines[0]["latency_ms"].(map[string]any)
	for _, key := range []string{"p50", "p95", "p99"} {
		if _, ok := lat[key]; !ok {
			t.Errorf("latency_ms lacks %q: %s", key, raw)
		}
	}

	var table bytes.Buffer
	if err := report.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"dataset tiny: 4 documents, 2 judged queries", "nDCG@10", "perfect", "1.0000", "empty", "0.0000"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
}

func TestRunRetrievalNamesTheFailingEngineAndClosesIt(t *testing.T) {
	ds, err := LoadDataset("testdata/tiny")
	if err != nil {
		t.Fatal(err)
	}
	broken := &scriptedEngine{name: "broken", run: Run{}, failOn: "q2"}
	never := &scriptedEngine{name: "never"}
	_, err = RunRetrieval(context.Background(), ds, []Engine{broken, never}, Options{})
	if err == nil || !strings.Contains(err.Error(), "broken: query q2: backend down") {
		t.Fatalf("error %v, want it to name the engine and the query", err)
	}
	if !slices.Contains(broken.calls, "close") {
		t.Error("the failing engine was not closed")
	}
	if len(never.calls) != 0 {
		t.Error("the run went on after a failure")
	}
}

// Docent's engine on the tiny dataset: each document is ingested and
// chunked, and ranks where its best chunk does.
func TestDocentEngine(t *testing.T) {
	ds, err := LoadDataset("testdata/tiny")
	if err != nil {
		t.Fatal(err)
	}
	d := NewDocent(retrieval.DefaultConfig(), nil)
	ctx := context.Background()
	if _, err := d.Search(ctx, "solar", 10); err == nil {
		t.Error("Search before Index succeeded")
	}
	if err := d.Index(ctx, ds.Corpus); err != nil {
		t.Fatal(err)
	}
	defer d.Close(ctx)
	got, err := d.Search(ctx, "solar electricity", 10)
	if err != nil {
		t.Fatal(err)
	}
	// d1 has both words (and "solar" twice); d2 and d3 say electricity.
	if len(got) != 3 || got[0] != "d1" || !slices.Contains(got, "d2") || !slices.Contains(got, "d3") {
		t.Errorf("Search(solar electricity) = %v, want d1 first, then d2 and d3", got)
	}
	// "stored" finds "store" and "storing" through their stem.
	if got, _ := d.Search(ctx, "stored", 10); !slices.Equal(got, []string{"d3"}) {
		t.Errorf("Search(stored) = %v, want [d3]", got)
	}
	if got, _ := d.Search(ctx, "solar electricity", 1); !slices.Equal(got, []string{"d1"}) {
		t.Errorf("k=1: %v", got)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := d.Search(cancelled, "solar", 10); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled search: %v", err)
	}
}

// A document split into several chunks still takes one place, and the
// ranking is deep enough to fill k documents.
func TestDocentEngineOneRankPerDocument(t *testing.T) {
	long := strings.Repeat("Solar panels face south. ", 5)
	corpus := []Document{
		{ID: "multi", Title: "Solar", Text: "## Roof\n\n" + long + "\n\n## Field\n\n" + long + "\n\n## Balcony\n\n" + long},
		{ID: "one", Text: "A solar lamp."},
		{ID: "two", Text: "Solar cookers."},
	}
	d := NewDocent(retrieval.DefaultConfig(), nil)
	ctx := context.Background()
	if err := d.Index(ctx, corpus); err != nil {
		t.Fatal(err)
	}
	got, err := d.Search(ctx, "solar", 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != "multi" || got[1] == "multi" {
		t.Errorf("Search(solar, 2) = %v, want multi once, then another document", got)
	}
}
