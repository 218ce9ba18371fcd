package eval

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/retrieval/analysis"
)

// ExpectClarify accepts either way of asking the user to clarify: weak
// (one candidate, not confident) or ambiguous (several).
const ExpectClarify = "clarify"

// expectable lists what expect_status may say, in report order.
var expectable = []string{
	string(retrieval.StatusFound), string(retrieval.StatusWeak), string(retrieval.StatusAmbiguous),
	string(retrieval.StatusNoMatch), string(retrieval.StatusMulti), ExpectClarify,
}

// Case is one line of a decision cases file: a question (or a pill pick,
// Doc, or a continuation, After) and the decision expected for it.
//
// ExpectSlugs must all appear among the results' docs; for found, the
// first result's doc must be one of them. An entry may list alternatives
// as "a|b": any one of them satisfies it.
type Case struct {
	Query        string   `json:"query"`
	ExpectStatus string   `json:"expect_status"`
	ExpectSlugs  []string `json:"expect_slugs"`
	Doc          string   `json:"doc,omitempty"`
	After        string   `json:"after,omitempty"`
	Line         int      `json:"-"` // 1-based line in the cases file
}

// Describe names the case in reports: its question, or the lookup it runs.
func (c Case) Describe() string { return asked(c.Query, c.Doc, c.After) }

func asked(query, doc, after string) string {
	switch {
	case doc != "":
		return "--doc " + doc
	case after != "":
		return "--after " + after
	}
	return query
}

// ReadCases parses a JSON Lines cases file. name is for errors, which give
// the line and what is wrong with it; blank lines are skipped.
func ReadCases(r io.Reader, name string) ([]Case, error) {
	var cases []Case
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		c, err := parseCase(line)
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %w", name, n, err)
		}
		c.Line = n
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("%s: no cases", name)
	}
	return cases, nil
}

func parseCase(line []byte) (Case, error) {
	var c Case
	// Strict: a misspelt field ("expect_slug") would silently drop a check.
	if err := decodeLine(line, &c, true); err != nil {
		return c, fmt.Errorf("invalid case: %w", err)
	}
	asks := 0
	for _, s := range []string{c.Query, c.Doc, c.After} {
		if strings.TrimSpace(s) != "" {
			asks++
		}
	}
	switch {
	case asks == 0:
		return c, errors.New(`the case needs "query", "doc" or "after"`)
	case asks > 1:
		return c, errors.New(`the case gives more than one of "query", "doc" and "after"`)
	case !slices.Contains(expectable, c.ExpectStatus):
		return c, fmt.Errorf("expect_status %q: want one of %s", c.ExpectStatus, strings.Join(expectable, ", "))
	case c.ExpectStatus == string(retrieval.StatusFound) && len(c.ExpectSlugs) == 0:
		return c, errors.New("expect_status found needs expect_slugs: the doc the answer must come from")
	}
	for i, s := range c.ExpectSlugs {
		alts := strings.Split(s, "|")
		for j, alt := range alts {
			if strings.TrimSpace(alt) == "" {
				return c, fmt.Errorf("expect_slugs entry %q has an empty slug", s)
			}
			// Written from a file's path ("docs/api/Agent"), a slug
			// names the doc whose slug ingestion made of that path.
			if alts[j] = ingest.NormalizeSlug(strings.TrimSpace(alt)); alts[j] == "" {
				return c, fmt.Errorf("expect_slugs entry %q has a slug of no letters a path could hold", s)
			}
		}
		c.ExpectSlugs[i] = strings.Join(alts, "|")
	}
	return c, nil
}

// CheckSlugs checks the cases' expect_slugs against the knowledge base,
// whose has reports whether a slug is a doc's. An entry none of whose
// alternatives names a doc makes its case fail whatever the engine does,
// without saying why: that is an error, naming each such entry with its
// line. An alternative that names no doc beside one that does is returned
// as a warning: the case can pass, but the file names a page that is not
// there.
func CheckSlugs(cases []Case, name string, has func(slug string) bool) (warnings []string, err error) {
	var bad []string
	for _, c := range cases {
		for _, s := range c.ExpectSlugs {
			var unknown []string
			alts := strings.Split(s, "|")
			for _, alt := range alts {
				if !has(alt) {
					unknown = append(unknown, alt)
				}
			}
			switch {
			case len(unknown) == len(alts):
				bad = append(bad, fmt.Sprintf("line %d: %q", c.Line, s))
			case len(unknown) > 0:
				warnings = append(warnings, fmt.Sprintf("%s line %d: expect_slugs alternative %q names no doc of the knowledge base", name, c.Line, strings.Join(unknown, "|")))
			}
		}
	}
	if len(bad) == 0 {
		return warnings, nil
	}
	const shown = 10
	more := ""
	if len(bad) > shown {
		more = fmt.Sprintf(" and %d more", len(bad)-shown)
		bad = bad[:shown]
	}
	return warnings, fmt.Errorf("%s: expect_slugs names docs the knowledge base does not have (%s%s); `docent docs list` shows its slugs",
		name, strings.Join(bad, ", "), more)
}

// Outcome is what the engine decided for a case: its status and the docs
// it showed, results first, then the options it offered.
type Outcome struct {
	Status retrieval.Status
	Slugs  []string
	First  string // the first result's doc; "" when there are no results
	// Ranking is the docs in the engine's rank order, whatever it decided:
	// hit@1 and MRR read it.
	Ranking    []string
	Rule       string
	Candidates []retrieval.Candidate
}

// OutcomeOf reads an engine result.
func OutcomeOf(res retrieval.Result) Outcome {
	o := Outcome{Status: res.Status}
	add := func(slug string) {
		if !slices.Contains(o.Slugs, slug) {
			o.Slugs = append(o.Slugs, slug)
		}
	}
	for _, ev := range res.Results {
		add(ev.DocSlug)
	}
	for _, opt := range res.Options {
		add(opt.DocSlug)
	}
	if len(res.Results) > 0 {
		o.First = res.Results[0].DocSlug
	}
	o.Rule, o.Candidates = res.Rule, res.Candidates
	for _, c := range res.Candidates {
		o.Ranking = append(o.Ranking, c.DocSlug)
	}
	if len(o.Ranking) == 0 {
		// A lookup or a reply without candidates: the results are its
		// ranking.
		for _, ev := range res.Results {
			if !slices.Contains(o.Ranking, ev.DocSlug) {
				o.Ranking = append(o.Ranking, ev.DocSlug)
			}
		}
	}
	return o
}

// reciprocalRank is 1/rank of the first doc in ranking that the case
// expects, 0 when none is there.
func (c Case) reciprocalRank(ranking []string) float64 {
	for i, slug := range ranking {
		if c.firstIsExpected(slug) {
			return 1 / float64(i+1)
		}
	}
	return 0
}

// Verdict is a case judged against its outcome.
type Verdict struct {
	Passed bool
	// WrongConfident marks the worst failure for support staff: the
	// engine answered as found where it should not have, or from the
	// wrong doc.
	WrongConfident bool
	Why            string // for a failure: what did not hold
}

// Judge checks an outcome against the case.
func (c Case) Judge(o Outcome) Verdict {
	var why []string
	if !c.statusMatches(o.Status) {
		why = append(why, fmt.Sprintf("status %s, want %s", o.Status, c.ExpectStatus))
	}
	for _, want := range c.ExpectSlugs {
		if !slices.ContainsFunc(strings.Split(want, "|"), func(s string) bool { return slices.Contains(o.Slugs, s) }) {
			why = append(why, fmt.Sprintf("%s not among the results", want))
		}
	}
	firstRight := c.firstIsExpected(o.First)
	if c.ExpectStatus == string(retrieval.StatusFound) && o.Status == retrieval.StatusFound && !firstRight {
		why = append(why, fmt.Sprintf("answered from %s, want %s", orNone(o.First), strings.Join(c.ExpectSlugs, " or ")))
	}
	wrongConfident := o.Status == retrieval.StatusFound &&
		(c.ExpectStatus != string(retrieval.StatusFound) || !firstRight)
	return Verdict{Passed: len(why) == 0, WrongConfident: wrongConfident, Why: strings.Join(why, "; ")}
}

func (c Case) statusMatches(got retrieval.Status) bool {
	if c.ExpectStatus == ExpectClarify {
		return got == retrieval.StatusWeak || got == retrieval.StatusAmbiguous
	}
	return string(got) == c.ExpectStatus
}

func (c Case) firstIsExpected(first string) bool {
	for _, want := range c.ExpectSlugs {
		if slices.Contains(strings.Split(want, "|"), first) {
			return true
		}
	}
	return false
}

func orNone(s string) string {
	if s == "" {
		return "no result"
	}
	return s
}

// Decider is what decisions are measured on: a retrieval engine.
type Decider interface {
	Ask(q retrieval.Query) retrieval.Result
	Lookup(slug string) retrieval.Result
	Continue(chunkID string, shown []string) retrieval.Result
}

// Decide runs one case the way `docent ask` would: a question, a pill pick
// (--doc) or a continuation (--after), each as the first turn of a fresh
// session.
func Decide(d Decider, c Case) retrieval.Result {
	switch {
	case c.Doc != "":
		return d.Lookup(c.Doc)
	case c.After != "":
		return d.Continue(c.After, nil)
	}
	// docent ask reads "in the docs" and the like as where to look, not as
	// words of the question (analysis.CorpusIntent): asked of the docs,
	// it searches without them.
	text := c.Query
	if corpus, rest := analysis.CorpusIntent(text); corpus == knowledge.CorpusDocs {
		text = rest
	}
	return d.Ask(retrieval.Query{Text: text})
}

// DecisionReport is the outcome of a cases file; it marshals to the JSON
// `docent eval decisions --json` prints.
type DecisionReport struct {
	Cases          int            `json:"cases"`
	Passed         int            `json:"passed"`
	Accuracy       float64        `json:"accuracy"`
	WrongConfident int            `json:"wrong_confident"`
	Confusion      map[string]int `json:"confusion"` // "expected/got" → cases
	// Ranking quality over the questions expected to be found (pill picks
	// and continuations aside): the share whose first-ranked doc is an
	// expected one, and the mean reciprocal rank of the first expected
	// doc among the top MaxCandidates docs (0 when it is not there).
	Ranked   int            `json:"ranked"`
	HitAt1   float64        `json:"hit_at_1"`
	MRR      float64        `json:"mrr"`
	Statuses []StatusFigure `json:"statuses"`
	Failures []Failure      `json:"failures"`
}

// StatusFigure is one expected status's precision and recall, on the
// status alone (which docs were shown is judged per case): of the cases
// whose decision satisfies Status, the share that expected it; of the
// cases that expected it, the share whose decision satisfies it.
type StatusFigure struct {
	Status    string  `json:"status"`
	Expected  int     `json:"expected"`
	Decided   int     `json:"decided"`
	Correct   int     `json:"correct"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
}

// Failure is one case that did not pass.
type Failure struct {
	Line         int      `json:"line"`
	Query        string   `json:"query"`
	Doc          string   `json:"doc,omitempty"`
	After        string   `json:"after,omitempty"`
	ExpectStatus string   `json:"expect_status"`
	GotStatus    string   `json:"got_status"`
	ExpectSlugs  []string `json:"expect_slugs"`
	GotSlugs     []string `json:"got_slugs"`
	Why          string   `json:"why"`
	Rule         string   `json:"rule"` // the decision rule that set the status
	// Candidates are the top docs the policy weighed, with its measures.
	Candidates []retrieval.Candidate `json:"candidates"`
}

// explainedCandidates is how many candidates a failure lists.
const explainedCandidates = 3

// RunDecisions judges every case.
func RunDecisions(d Decider, cases []Case) DecisionReport {
	r := DecisionReport{Cases: len(cases), Confusion: map[string]int{}, Failures: []Failure{}}
	statuses := map[string]*StatusFigure{}
	var labels []string
	for _, c := range cases {
		if !slices.Contains(labels, c.ExpectStatus) {
			labels = append(labels, c.ExpectStatus)
			statuses[c.ExpectStatus] = &StatusFigure{Status: c.ExpectStatus}
		}
	}
	var hits, rr float64
	for _, c := range cases {
		o := OutcomeOf(Decide(d, c))
		v := c.Judge(o)
		r.Confusion[c.ExpectStatus+"/"+string(o.Status)]++
		statuses[c.ExpectStatus].Expected++
		for _, l := range labels {
			if (Case{ExpectStatus: l}).statusMatches(o.Status) {
				statuses[l].Decided++
				if l == c.ExpectStatus {
					statuses[l].Correct++
				}
			}
		}
		if c.ExpectStatus == string(retrieval.StatusFound) && c.Query != "" {
			r.Ranked++
			if len(o.Ranking) > 0 && c.firstIsExpected(o.Ranking[0]) {
				hits++
			}
			rr += c.reciprocalRank(o.Ranking)
		}
		if v.WrongConfident {
			r.WrongConfident++
		}
		if v.Passed {
			r.Passed++
			continue
		}
		r.Failures = append(r.Failures, Failure{
			Line: c.Line, Query: c.Query, Doc: c.Doc, After: c.After,
			ExpectStatus: c.ExpectStatus, GotStatus: string(o.Status),
			ExpectSlugs: nonNil(c.ExpectSlugs), GotSlugs: nonNil(o.Slugs), Why: v.Why,
			Rule: o.Rule, Candidates: nonNil(o.Candidates[:min(len(o.Candidates), explainedCandidates)]),
		})
	}
	if r.Cases > 0 {
		r.Accuracy = float64(r.Passed) / float64(r.Cases)
	}
	if r.Ranked > 0 {
		r.HitAt1, r.MRR = hits/float64(r.Ranked), rr/float64(r.Ranked)
	}
	for _, l := range expectable {
		sf, ok := statuses[l]
		if !ok {
			continue
		}
		if sf.Decided > 0 {
			sf.Precision = float64(sf.Correct) / float64(sf.Decided)
		}
		if sf.Expected > 0 {
			sf.Recall = float64(sf.Correct) / float64(sf.Expected)
		}
		r.Statuses = append(r.Statuses, *sf)
	}
	return r
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
