package assistant

import (
	"math"
	"slices"
	"sync"

	"github.com/docent-sh/docent/retrieval"
)

// Stats are rolling figures over a session's last turns, for the debug
// pane and --json output. The session keeps them, not the engine: they
// describe a conversation, and they outlive an engine rebuilt after a seed.
type Stats struct {
	Turns        int     `json:"turns"`         // turns in the window
	P50MS        float64 `json:"p50_ms"`        // median retrieval latency
	P95MS        float64 `json:"p95_ms"`        // 95th percentile retrieval latency
	MatchRate    float64 `json:"match_rate"`    // share of turns answered: found or multi
	FallbackRate float64 `json:"fallback_rate"` // share of turns that needed a fallback
	DedupeRate   float64 `json:"dedupe_rate"`   // share of turns where de-duplication trimmed a chunk
}

// statsWindow is how many recent turns Stats covers: enough for stable
// percentiles, small enough to follow a change within a session.
const statsWindow = 512

type turnRecord struct {
	ms       float64
	matched  bool
	fallback bool
	deduped  bool
}

type statsKeeper struct {
	mu   sync.Mutex
	ring []turnRecord
	next int
}

func (s *statsKeeper) record(r retrieval.Result) {
	rec := turnRecord{
		ms:       r.Metrics.RetrievalMS,
		matched:  r.Status == retrieval.StatusFound || r.Status == retrieval.StatusMulti,
		fallback: r.Metrics.Fallback != "",
		deduped:  r.Metrics.DedupeTrimmed > 0,
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.ring) < statsWindow {
		s.ring = append(s.ring, rec)
		return
	}
	s.ring[s.next] = rec
	s.next = (s.next + 1) % statsWindow
}

func (s *statsKeeper) snapshot() Stats {
	s.mu.Lock()
	recs := slices.Clone(s.ring)
	s.mu.Unlock()
	st := Stats{Turns: len(recs)}
	if len(recs) == 0 {
		return st
	}
	lat := make([]float64, len(recs))
	var matched, fallback, deduped int
	for i, r := range recs {
		lat[i] = r.ms
		if r.matched {
			matched++
		}
		if r.fallback {
			fallback++
		}
		if r.deduped {
			deduped++
		}
	}
	slices.Sort(lat)
	st.P50MS = percentile(lat, 0.50)
	st.P95MS = percentile(lat, 0.95)
	n := float64(len(recs))
	st.MatchRate = float64(matched) / n
	st.FallbackRate = float64(fallback) / n
	st.DedupeRate = float64(deduped) / n
	return st
}

// percentile returns the nearest-rank percentile of sorted values.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}
