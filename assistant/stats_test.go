package assistant

import (
	"testing"

	"github.com/docent-sh/docent/retrieval"
)

func TestPercentile(t *testing.T) {
	v := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	if p := percentile(v, 0.5); p != 5 {
		t.Errorf("p50 = %v", p)
	}
	if p := percentile(v, 0.95); p != 10 {
		t.Errorf("p95 = %v", p)
	}
	if p := percentile(nil, 0.5); p != 0 {
		t.Errorf("empty p50 = %v", p)
	}
}

func TestStatsOverTheWindow(t *testing.T) {
	var k statsKeeper
	if s := k.snapshot(); s != (Stats{}) {
		t.Fatalf("no turns: %+v", s)
	}
	turn := func(status retrieval.Status, ms float64, fallback string, trimmed int) retrieval.Result {
		return retrieval.Result{Status: status, Metrics: retrieval.Metrics{RetrievalMS: ms, Fallback: fallback, DedupeTrimmed: trimmed}}
	}
	k.record(turn(retrieval.StatusFound, 1, "", 2))
	k.record(turn(retrieval.StatusMulti, 2, "", 0))
	k.record(turn(retrieval.StatusAmbiguous, 3, "phase1", 0))
	k.record(turn(retrieval.StatusNoMatch, 4, "", 1))
	want := Stats{Turns: 4, P50MS: 2, P95MS: 4, MatchRate: 0.5, FallbackRate: 0.25, DedupeRate: 0.5}
	if s := k.snapshot(); s != want {
		t.Errorf("stats = %+v, want %+v", s, want)
	}
	// The window keeps the last statsWindow turns: the four above are gone.
	for range statsWindow {
		k.record(turn(retrieval.StatusFound, 10, "", 0))
	}
	want = Stats{Turns: statsWindow, P50MS: 10, P95MS: 10, MatchRate: 1}
	if s := k.snapshot(); s != want {
		t.Errorf("after a full window: %+v, want %+v", s, want)
	}
}
