package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
)

// Usage is what the usage report found.
type Usage struct {
	Since     time.Time     `json:"since"`
	Questions int           `json:"questions"`
	PerDay    []DayCount    `json:"per_day"`   // every day from the first question to the last, in the report's time zone
	Decisions []ActionCount `json:"decisions"` // most frequent first
	// Retrieval latency, nearest rank, in milliseconds; 0 without events.
	LatencyP50 float64 `json:"latency_p50_ms"`
	LatencyP95 float64 `json:"latency_p95_ms"`
	// FallbackRate is the share of questions something fell back on:
	// retrieval answered by its doc-level phase 1 while others in the
	// window had phase 2, or the team's notes could not be searched (a
	// missing workspace is configuration, not a fallback). The answer
	// writer's fallback to the offline answer is not recorded in events.
	FallbackRate    float64        `json:"fallback_rate"`
	Phase1Fallbacks int            `json:"phase1_fallbacks"`
	NotesFallbacks  map[string]int `json:"notes_fallbacks"` // by reason
	// Relevance is, per ISO week, the share of found answers the asker
	// did not rate down: the measure of whether answers help.
	Relevance []WeekRelevance `json:"relevance"`
	// FeedbackRate is the share of written answers (found or multi) their
	// askers rated, up or down.
	FeedbackRate float64 `json:"feedback_rate"`
}

// WeekRelevance is one week's found answers and how many were rated down.
type WeekRelevance struct {
	Week      string  `json:"week"` // ISO week, e.g. 2026-W48
	Found     int     `json:"found"`
	RatedDown int     `json:"rated_down"`
	Rated     int     `json:"rated"` // rated up or down
	Share     float64 `json:"share"` // (found − rated down) / found
}

// DayCount is the questions of one day.
type DayCount struct {
	Day   string `json:"day"` // YYYY-MM-DD
	Count int    `json:"count"`
}

// ActionCount is how many questions ended in one decision.
type ActionCount struct {
	Action string  `json:"action"`
	Count  int     `json:"count"`
	Share  float64 `json:"share"`
}

// Summarize computes the usage report of events; days are counted in loc.
func Summarize(events []knowledge.RetrievalEvent, since time.Time, loc *time.Location) Usage {
	u := Usage{Since: since, Questions: len(events), PerDay: []DayCount{}, Decisions: []ActionCount{}, NotesFallbacks: map[string]int{}, Relevance: []WeekRelevance{}}
	if len(events) == 0 {
		return u
	}
	days := map[string]int{}
	actions := map[string]int{}
	latencies := make([]float64, 0, len(events))
	first, last := events[0].Time, events[0].Time
	maxPhase := 0
	for _, ev := range events {
		days[ev.Time.In(loc).Format(time.DateOnly)]++
		actions[cmp.Or(ev.Action, "unknown")]++
		latencies = append(latencies, ev.LatencyMS)
		first, last = minTime(first, ev.Time), maxTime(last, ev.Time)
		maxPhase = max(maxPhase, ev.Phase)
	}
	fell := 0
	for _, ev := range events {
		notes := ev.NotesFallbackReason != "" && ev.NotesFallbackReason != knowledge.NotesFallbackWorkspaceMissing
		phase1 := maxPhase > 1 && ev.Phase == 1
		if notes {
			u.NotesFallbacks[ev.NotesFallbackReason]++
		}
		if phase1 {
			u.Phase1Fallbacks++
		}
		if notes || phase1 {
			fell++
		}
	}
	u.FallbackRate = float64(fell) / float64(len(events))
	// Every day in between, so a chart shows the quiet days too.
	end := dayStart(last.In(loc))
	for d := dayStart(first.In(loc)); !d.After(end); d = d.AddDate(0, 0, 1) {
		key := d.Format(time.DateOnly)
		u.PerDay = append(u.PerDay, DayCount{Day: key, Count: days[key]})
	}
	for a, n := range actions {
		u.Decisions = append(u.Decisions, ActionCount{Action: a, Count: n, Share: float64(n) / float64(len(events))})
	}
	slices.SortFunc(u.Decisions, func(a, b ActionCount) int { return cmp.Or(b.Count-a.Count, strings.Compare(a.Action, b.Action)) })
	slices.Sort(latencies)
	u.LatencyP50, u.LatencyP95 = nearestRank(latencies, 50), nearestRank(latencies, 95)
	u.Relevance = relevance(events, loc)
	answered, rated := 0, 0
	for _, ev := range events {
		if ev.Action == string(retrieval.StatusFound) || ev.Action == string(retrieval.StatusMulti) {
			answered++
			if ev.Feedback != nil {
				rated++
			}
		}
	}
	if answered > 0 {
		u.FeedbackRate = float64(rated) / float64(answered)
	}
	return u
}

// relevance is the share of found answers without negative feedback, per
// ISO week in loc, oldest week first; weeks without a found answer are
// left out (no share to give).
func relevance(events []knowledge.RetrievalEvent, loc *time.Location) []WeekRelevance {
	weeks := map[string]*WeekRelevance{}
	for _, ev := range events {
		if ev.Action != string(retrieval.StatusFound) {
			continue
		}
		y, w := ev.Time.In(loc).ISOWeek()
		key := fmt.Sprintf("%04d-W%02d", y, w)
		r := weeks[key]
		if r == nil {
			r = &WeekRelevance{Week: key}
			weeks[key] = r
		}
		r.Found++
		if ev.Feedback != nil {
			r.Rated++
			if ev.Feedback.Rating == knowledge.RatingDown {
				r.RatedDown++
			}
		}
	}
	out := make([]WeekRelevance, 0, len(weeks))
	for _, r := range weeks {
		r.Share = float64(r.Found-r.RatedDown) / float64(r.Found)
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b WeekRelevance) int { return strings.Compare(a.Week, b.Week) })
	return out
}

// nearestRank is the p-th percentile of sorted values by nearest rank,
// the definition docent-eval's latency figures use.
func nearestRank(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	return sorted[max(rank, 1)-1]
}

func dayStart(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
