// Package report reads the retrieval events docent recorded and says what
// they show: the documentation gaps (questions the docs did not answer,
// grouped into topics by the informative words they share) and usage
// (questions per day, the decision mix, latency, fallbacks). Pure: the
// caller reads the events and the docs from a store.
package report

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/retrieval/analysis"
)

// Gaps is what the gap report found.
type Gaps struct {
	Since     time.Time `json:"since"`
	Events    int       `json:"events"`     // every event in the window
	Gaps      int       `json:"gaps"`       // events that ended in no_match or weak, or whose answer was rated down
	NoTopic   int       `json:"no_topic"`   // gaps with no informative word (greetings, "it's broken")
	Topics    []Topic   `json:"topics"`     // most asked first
	RatedDown int       `json:"rated_down"` // answers the asker rated down, counted among the gaps
}

// Topic is a group of gap questions sharing informative words.
type Topic struct {
	// Terms are the words the topic's questions share, as most often
	// written, the one that grouped them first.
	Terms   []string `json:"terms"`
	Count   int      `json:"count"`
	NoMatch int      `json:"no_match"`
	Weak    int      `json:"weak"`
	// RatedDown counts answers the asker rated down, by the reason given
	// ("" when none was): "wrong" and "outdated" are for the docs team.
	RatedDown map[knowledge.FeedbackReason]int `json:"rated_down,omitempty"`
	Examples  []string                         `json:"examples"` // distinct questions, most recent first
	// ClosestDoc is the doc retrieval ranked first most often for the
	// topic's questions, else the doc whose title and text share most of
	// its terms; nil when no doc shares any.
	ClosestDoc *DocRef   `json:"closest_doc,omitempty"`
	LastAsked  time.Time `json:"last_asked"`
}

// Label is the topic's terms joined for a chart or a heading.
func (t Topic) Label() string { return strings.Join(t.Terms, " ") }

// DocRef names a doc.
type DocRef struct {
	Slug  string `json:"slug"`
	Title string `json:"title"`
}

// MaxExamples is how many example questions a topic keeps.
const MaxExamples = 3

// maxLabelTerms bounds a topic's label: the grouping word and the words
// most of its questions share besides.
const maxLabelTerms = 3

// gapEvent is one gap question with its informative terms.
type gapEvent struct {
	ev    knowledge.RetrievalEvent
	terms []string // stem keys, each once
}

// isGap reports whether an event shows what the docs lack: it ended in
// no_match or weak, or its answer was rated down.
func isGap(ev knowledge.RetrievalEvent) bool {
	return ev.Action == string(retrieval.StatusNoMatch) || ev.Action == string(retrieval.StatusWeak) || ratedDown(ev)
}

func ratedDown(ev knowledge.RetrievalEvent) bool {
	return ev.Feedback != nil && ev.Feedback.Rating == knowledge.RatingDown
}

// FindGaps groups the events that ended in no_match or weak, or whose
// answer was rated down, into topics.
// Grouping is greedy and deterministic: the term that most ungrouped
// questions share, weighed by how rare it is in the docs (a word every doc
// uses says little about a gap), makes a topic of every ungrouped question
// that has it; then the next, until none is left. docs give the rarity and
// the closest doc.
func FindGaps(events []knowledge.RetrievalEvent, docs []knowledge.Doc, since time.Time) Gaps {
	g := Gaps{Since: since, Topics: []Topic{}}
	surface := map[string]map[string]int{} // stem key → written forms → count
	var gaps []gapEvent
	for _, ev := range events {
		g.Events++
		if !isGap(ev) {
			continue
		}
		g.Gaps++
		if ratedDown(ev) {
			g.RatedDown++
		}
		terms := informative(ev.Query, surface)
		if len(terms) == 0 {
			g.NoTopic++
			continue
		}
		gaps = append(gaps, gapEvent{ev: ev, terms: terms})
	}
	df, docTerms := docFrequencies(docs)
	n := len(docs)
	idf := func(key string) float64 { return math.Log(1 + float64(n+1)/float64(df[key]+1)) }

	// Counts are kept as questions are grouped, and an index finds a
	// term's questions: a month of a busy team's gaps is thousands.
	count := map[string]int{}
	byTerm := map[string][]int{}
	for i, ge := range gaps {
		for _, t := range ge.terms {
			count[t]++
			byTerm[t] = append(byTerm[t], i)
		}
	}
	grouped := make([]bool, len(gaps))
	for left := len(gaps); left > 0; {
		best, bestScore := "", -1.0
		for t, c := range count {
			if c == 0 {
				continue
			}
			s := float64(c) * idf(t)
			if s > bestScore || s == bestScore && t < best {
				best, bestScore = t, s
			}
		}
		var members []gapEvent
		for _, i := range byTerm[best] {
			if grouped[i] {
				continue
			}
			grouped[i] = true
			members = append(members, gaps[i])
			for _, t := range gaps[i].terms {
				count[t]--
			}
			left--
		}
		g.Topics = append(g.Topics, topicOf(best, members, surface, docs, docTerms, idf))
	}
	slices.SortStableFunc(g.Topics, func(a, b Topic) int {
		return cmp.Or(b.Count-a.Count, b.LastAsked.Compare(a.LastAsked), strings.Compare(a.Label(), b.Label()))
	})
	return g
}

// informative returns the stem keys of the query's informative words,
// each once, in order, and counts how each was written.
func informative(query string, surface map[string]map[string]int) []string {
	var out []string
	for _, w := range analysis.Tokens(query) {
		if analysis.IsStopword(w) {
			continue
		}
		key := analysis.StemKey(analysis.Singular(w))
		if surface[key] == nil {
			surface[key] = map[string]int{}
		}
		surface[key][w]++
		if !slices.Contains(out, key) {
			out = append(out, key)
		}
	}
	return out
}

// docFrequencies counts the docs whose title, keywords or text use each
// stem key, and returns each doc's set of them.
func docFrequencies(docs []knowledge.Doc) (map[string]int, []map[string]bool) {
	df := map[string]int{}
	sets := make([]map[string]bool, len(docs))
	for i, d := range docs {
		seen := map[string]bool{}
		add := func(s string) {
			for _, w := range analysis.Tokens(s) {
				if !analysis.IsStopword(w) {
					seen[analysis.StemKey(analysis.Singular(w))] = true
				}
			}
		}
		add(d.Title)
		add(strings.Join(d.Keywords, " "))
		for _, c := range d.Chunks {
			add(c.Text)
		}
		for k := range seen {
			df[k]++
		}
		sets[i] = seen
	}
	return df, sets
}

// written is the form a stem key was most often written in (ties: the
// shortest, then the first alphabetically).
func written(key string, surface map[string]map[string]int) string {
	best, bestN := "", 0
	for w, n := range surface[key] {
		if n > bestN || n == bestN && (len(w) < len(best) || len(w) == len(best) && w < best) {
			best, bestN = w, n
		}
	}
	return best
}

func topicOf(key string, members []gapEvent, surface map[string]map[string]int, docs []knowledge.Doc, docTerms []map[string]bool, idf func(string) float64) Topic {
	t := Topic{Terms: []string{written(key, surface)}, Count: len(members), Examples: []string{}}
	// The other words most of the questions share name the topic better:
	// "export" alone, or "export pdf".
	count := map[string]int{}
	for _, m := range members {
		for _, k := range m.terms {
			if k != key {
				count[k]++
			}
		}
	}
	var also []string
	for k, c := range count {
		if 2*c > len(members) || len(members) == 1 {
			also = append(also, k)
		}
	}
	slices.SortFunc(also, func(a, b string) int {
		return cmp.Or(count[b]-count[a], cmp.Compare(idf(b), idf(a)), strings.Compare(a, b))
	})
	for _, k := range also[:min(len(also), maxLabelTerms-1)] {
		t.Terms = append(t.Terms, written(k, surface))
	}
	// Most recent first, one example per distinct question.
	sorted := slices.Clone(members)
	slices.SortStableFunc(sorted, func(a, b gapEvent) int { return b.ev.Time.Compare(a.ev.Time) })
	seen := map[string]bool{}
	tops := map[string]int{}
	for _, m := range sorted {
		switch m.ev.Action {
		case string(retrieval.StatusNoMatch):
			t.NoMatch++
		case string(retrieval.StatusWeak):
			t.Weak++
		}
		if ratedDown(m.ev) {
			if t.RatedDown == nil {
				t.RatedDown = map[knowledge.FeedbackReason]int{}
			}
			t.RatedDown[m.ev.Feedback.Reason]++
		}
		if m.ev.Time.After(t.LastAsked) {
			t.LastAsked = m.ev.Time
		}
		q := strings.Join(strings.Fields(m.ev.Query), " ")
		if k := strings.ToLower(q); !seen[k] && len(t.Examples) < MaxExamples {
			seen[k] = true
			t.Examples = append(t.Examples, q)
		}
		if len(m.ev.TopResults) > 0 {
			tops[m.ev.TopResults[0].Slug]++
		}
	}
	t.ClosestDoc = closestDoc(tops, members, docs, docTerms)
	return t
}

// closestDoc is the doc ranked first most often for the topic's questions
// (ties: the first slug), else the doc sharing most of their terms (ties:
// the first in the docs' order).
func closestDoc(tops map[string]int, members []gapEvent, docs []knowledge.Doc, docTerms []map[string]bool) *DocRef {
	titles := make(map[string]string, len(docs))
	for _, d := range docs {
		titles[d.Slug] = d.Title
	}
	best, bestN := "", 0
	for slug, n := range tops {
		if _, ok := titles[slug]; ok && (n > bestN || n == bestN && slug < best) {
			best, bestN = slug, n
		}
	}
	if best != "" {
		return &DocRef{Slug: best, Title: titles[best]}
	}
	terms := map[string]bool{}
	for _, m := range members {
		for _, k := range m.terms {
			terms[k] = true
		}
	}
	for i, d := range docs {
		n := 0
		for k := range terms {
			if docTerms[i][k] {
				n++
			}
		}
		if n > bestN {
			best, bestN = d.Slug, n
		}
	}
	if best == "" {
		return nil
	}
	return &DocRef{Slug: best, Title: titles[best]}
}
