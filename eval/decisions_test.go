package eval

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/docent-sh/docent/internal/demo"
	"github.com/docent-sh/docent/retrieval"
)

// acceptancePath holds the retrieval issue's acceptance cases; make test
// runs them here, in retrieval and through the command line.
const acceptancePath = "../testdata/acceptance.jsonl"

func readCasesFile(t *testing.T, path string) []Case {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases, err := ReadCases(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestAcceptanceCases(t *testing.T) {
	cases := readCasesFile(t, acceptancePath)
	report := RunDecisions(demo.Engine(t), cases)
	if report.Passed != report.Cases || report.WrongConfident != 0 {
		var buf bytes.Buffer
		report.WriteText(&buf, true)
		t.Fatalf("acceptance cases: %d of %d passed, %d wrong confident\n%s", report.Passed, report.Cases, report.WrongConfident, buf.String())
	}
	// Every status of the table, and both lookups, are covered.
	seen := map[string]bool{}
	for _, c := range cases {
		seen[c.ExpectStatus] = true
		seen["doc"] = seen["doc"] || c.Doc != ""
		seen["after"] = seen["after"] || c.After != ""
	}
	for _, want := range []string{"found", "weak", "ambiguous", "no_match", "multi", "clarify", "doc", "after"} {
		if !seen[want] {
			t.Errorf("the acceptance cases have no %s case", want)
		}
	}
}

func TestReadCasesNamesTheLine(t *testing.T) {
	for _, tc := range []struct{ name, input, want string }{
		{"unknown field", `{"query": "a", "expect_status": "found", "expect_slug": ["x"]}`, `line 1: invalid case: json: unknown field "expect_slug"`},
		{"bad status", "\n" + `{"query": "a", "expect_status": "maybe"}`, `line 2: expect_status "maybe": want one of found, weak, ambiguous, no_match, multi, clarify`},
		{"no question", `{"expect_status": "weak"}`, `line 1: the case needs "query", "doc" or "after"`},
		{"two questions", `{"query": "a", "doc": "concepts/home", "expect_status": "found", "expect_slugs": ["concepts/home"]}`, "more than one of"},
		{"found without slugs", `{"query": "a", "expect_status": "found"}`, "found needs expect_slugs"},
		{"empty alternative", `{"query": "a", "expect_status": "weak", "expect_slugs": ["a|"]}`, `entry "a|" has an empty slug`},
		{"slug of no letters", `{"query": "a", "expect_status": "found", "expect_slugs": ["\u0007"]}`, "has a slug of no letters a path could hold"},
		{"broken JSON", `{"query": "a",`, "line 1: invalid case"},
		{"two objects", `{"query": "a", "expect_status": "weak"} {}`, "more than one JSON value"},
		{"empty file", "\n\n", "cases.jsonl: no cases"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCases(strings.NewReader(tc.input), "cases.jsonl")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// A slug written from a file's path names the doc ingestion made of it;
// a slug that names no doc is an error when no alternative of its entry
// does, a warning when another does.
func TestCheckSlugs(t *testing.T) {
	cases, err := ReadCases(strings.NewReader(
		`{"query": "a", "expect_status": "found", "expect_slugs": ["Docs/API/Agent"]}`+"\n"+
			`{"query": "b", "expect_status": "found", "expect_slugs": ["guides/Getting Started|guides/gone"]}`+"\n"+
			`{"query": "c", "expect_status": "multi", "expect_slugs": ["docs/api/agent", "nope/one|nope/two"]}`+"\n"), "cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if got := cases[0].ExpectSlugs[0]; got != "docs/api/agent" {
		t.Errorf("slug read as %q, want docs/api/agent", got)
	}
	docs := map[string]bool{"docs/api/agent": true, "guides/getting-started": true}
	warnings, err := CheckSlugs(cases, "cases.jsonl", func(s string) bool { return docs[s] })
	if len(warnings) != 1 || !strings.Contains(warnings[0], `line 2: expect_slugs alternative "guides/gone"`) {
		t.Errorf("warnings %q, want one for line 2's guides/gone", warnings)
	}
	if err == nil || !strings.Contains(err.Error(), `line 3: "nope/one|nope/two"`) || strings.Contains(err.Error(), "line 1") {
		t.Errorf("error %v, want line 3's entry alone", err)
	}
	if _, err := CheckSlugs(cases[:2], "cases.jsonl", func(s string) bool { return docs[s] }); err != nil {
		t.Errorf("cases that can pass: %v", err)
	}
}

func TestJudge(t *testing.T) {
	found := func(slugs ...string) Outcome {
		return Outcome{Status: retrieval.StatusFound, Slugs: slugs, First: slugs[0]}
	}
	for _, tc := range []struct {
		name          string
		c             Case
		o             Outcome
		pass, wrongly bool
	}{
		{"found on the expected doc", Case{ExpectStatus: "found", ExpectSlugs: []string{"a"}}, found("a", "b"), true, false},
		{"found on another doc", Case{ExpectStatus: "found", ExpectSlugs: []string{"a"}}, found("b", "a"), false, true},
		{"found on an alternative", Case{ExpectStatus: "found", ExpectSlugs: []string{"a|b"}}, found("b"), true, false},
		{"found where clarify was expected", Case{ExpectStatus: "clarify"}, found("a"), false, true},
		{"clarify accepts weak", Case{ExpectStatus: "clarify", ExpectSlugs: []string{"a"}}, Outcome{Status: retrieval.StatusWeak, Slugs: []string{"a"}, First: "a"}, true, false},
		{"clarify accepts ambiguous", Case{ExpectStatus: "clarify"}, Outcome{Status: retrieval.StatusAmbiguous}, true, false},
		{"clarify refuses no_match", Case{ExpectStatus: "clarify"}, Outcome{Status: retrieval.StatusNoMatch}, false, false},
		{"every expected slug must appear", Case{ExpectStatus: "multi", ExpectSlugs: []string{"a", "c"}}, Outcome{Status: retrieval.StatusMulti, Slugs: []string{"a", "b"}}, false, false},
		{"weak expected, ambiguous given", Case{ExpectStatus: "weak"}, Outcome{Status: retrieval.StatusAmbiguous}, false, false},
		{"no_match where found was expected", Case{ExpectStatus: "found", ExpectSlugs: []string{"a"}}, Outcome{Status: retrieval.StatusNoMatch}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.c.Judge(tc.o)
			if v.Passed != tc.pass || v.WrongConfident != tc.wrongly {
				t.Errorf("Judge = %+v, want passed %v, wrong confident %v", v, tc.pass, tc.wrongly)
			}
			if !v.Passed && v.Why == "" {
				t.Error("a failure must say why")
			}
		})
	}
}

// A cases file with failures: the report counts them, fills the
// confusion matrix and lists each failure, and its text is safe for a
// terminal.
func TestRunDecisionsReportsFailures(t *testing.T) {
	cases, err := ReadCases(strings.NewReader(strings.Join([]string{
		`{"query": "explain workspace", "expect_status": "found", "expect_slugs": ["concepts/workspace"]}`,
		`{"query": "explain workspace", "expect_status": "found", "expect_slugs": ["concepts/home"]}`,
		`{"query": "workspace", "expect_status": "found", "expect_slugs": ["concepts/workspace"]}`,
		`{"query": "explain notes", "expect_status": "no_match"}`,
		`{"query": "the thing \u001b[31mred", "expect_status": "weak"}`,
	}, "\n")), "cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	r := RunDecisions(demo.Engine(t), cases)
	if r.Cases != 5 || r.Passed != 1 || r.WrongConfident != 2 {
		t.Fatalf("report: %d cases, %d passed, %d wrong confident; want 5, 1, 2", r.Cases, r.Passed, r.WrongConfident)
	}
	wantConfusion := map[string]int{"found/found": 2, "found/ambiguous": 1, "no_match/found": 1, "weak/no_match": 1}
	if len(r.Confusion) != len(wantConfusion) {
		t.Errorf("confusion %v, want %v", r.Confusion, wantConfusion)
	}
	for k, n := range wantConfusion {
		if r.Confusion[k] != n {
			t.Errorf("confusion[%s] = %d, want %d", k, r.Confusion[k], n)
		}
	}
	if len(r.Failures) != 4 || r.Failures[0].Line != 2 || r.Failures[0].GotStatus != "found" || r.Failures[0].GotSlugs[0] != "concepts/workspace" {
		t.Fatalf("failures %+v", r.Failures)
	}

	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"cases":5`, `"passed":1`, `"accuracy":0.2`, `"wrong_confident":2`, `"confusion":{`, `"failures":[{`, `"expect_status":"found"`, `"got_status":"found"`, `"expect_slugs":["concepts/home"]`, `"got_slugs":[`} {
		if !strings.Contains(string(raw), key) {
			t.Errorf("JSON lacks %s: %s", key, raw)
		}
	}

	var text bytes.Buffer
	if err := r.WriteText(&text, false); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	for _, want := range []string{"cases 5, passed 1, accuracy 20.0%, wrong confident answers 2", "failing cases (4)", "line 2", "answered from concepts/workspace, want concepts/home"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	if strings.ContainsRune(out, 0x1b) {
		t.Errorf("an escape sequence from the cases file reached the report:\n%q", out)
	}
}

// fakeDecider answers each question with a canned result, so the
// report's arithmetic is checked apart from the engine's decisions.
type fakeDecider map[string]retrieval.Result

func (f fakeDecider) Ask(q retrieval.Query) retrieval.Result { return f[q.Text] }
func (f fakeDecider) Lookup(slug string) retrieval.Result    { return f["--doc "+slug] }
func (f fakeDecider) Continue(id string, _ []string) retrieval.Result {
	return f["--after "+id]
}

func ranked(status retrieval.Status, rule string, slugs ...string) retrieval.Result {
	res := retrieval.Result{Status: status, Rule: rule}
	for i, s := range slugs {
		res.Candidates = append(res.Candidates, retrieval.Candidate{DocSlug: s, Rank: float64(10 - i)})
		if status != retrieval.StatusNoMatch {
			res.Results = append(res.Results, retrieval.Evidence{DocSlug: s})
		}
	}
	return res
}

// hit@1 and MRR read the ranking whatever was decided, over found
// questions only; precision and recall are per expected status, with
// clarify satisfied by weak and ambiguous.
func TestRunDecisionsRankingAndStatusFigures(t *testing.T) {
	d := fakeDecider{
		"q1":      ranked(retrieval.StatusFound, "found", "a", "b"),
		"q2":      ranked(retrieval.StatusWeak, "weak", "b", "a"),       // found expected: rank 2
		"q3":      ranked(retrieval.StatusNoMatch, "none", "c", "d"),    // found expected: not ranked
		"q4":      ranked(retrieval.StatusAmbiguous, "close", "a", "b"), // clarify
		"q5":      ranked(retrieval.StatusFound, "found", "x"),          // no_match expected
		"--doc a": ranked(retrieval.StatusFound, "lookup", "a"),         // not a ranking
	}
	cases, err := ReadCases(strings.NewReader(strings.Join([]string{
		`{"query": "q1", "expect_status": "found", "expect_slugs": ["a"]}`,
		`{"query": "q2", "expect_status": "found", "expect_slugs": ["a"]}`,
		`{"query": "q3", "expect_status": "found", "expect_slugs": ["a|b"]}`,
		`{"query": "q4", "expect_status": "clarify", "expect_slugs": ["a", "b"]}`,
		`{"query": "q5", "expect_status": "no_match"}`,
		`{"doc": "a", "expect_status": "found", "expect_slugs": ["a"]}`,
	}, "\n")), "cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	r := RunDecisions(d, cases)
	if r.Ranked != 3 || math.Abs(r.HitAt1-1.0/3) > 1e-9 || math.Abs(r.MRR-(1+0.5+0)/3) > 1e-9 {
		t.Errorf("ranked %d, hit@1 %v, MRR %v; want 3, 1/3, 1/2", r.Ranked, r.HitAt1, r.MRR)
	}
	want := map[string]StatusFigure{
		"found":    {Status: "found", Expected: 4, Decided: 3, Correct: 2, Precision: 2.0 / 3, Recall: 0.5},
		"clarify":  {Status: "clarify", Expected: 1, Decided: 2, Correct: 1, Precision: 0.5, Recall: 1},
		"no_match": {Status: "no_match", Expected: 1, Decided: 1, Correct: 0, Precision: 0, Recall: 0},
	}
	if len(r.Statuses) != len(want) {
		t.Fatalf("statuses %+v, want %d rows", r.Statuses, len(want))
	}
	for _, s := range r.Statuses {
		w := want[s.Status]
		if s.Expected != w.Expected || s.Decided != w.Decided || s.Correct != w.Correct ||
			math.Abs(s.Precision-w.Precision) > 1e-9 || math.Abs(s.Recall-w.Recall) > 1e-9 {
			t.Errorf("%s: %+v, want %+v", s.Status, s, w)
		}
	}

	var text bytes.Buffer
	if err := r.WriteText(&text, true); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	for _, want := range []string{"hit@1 33.3%, MRR 0.500", "found  4  3  2  66.7%  50.0%", "rule weak", "1. b rank 10.00", "2. a rank 9.00", "rule none"} {
		if !strings.Contains(strings.Join(strings.Fields(out), "  "), strings.Join(strings.Fields(want), "  ")) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	var plain bytes.Buffer
	if err := r.WriteText(&plain, false); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "rule ") {
		t.Errorf("without explain, no rules are printed:\n%s", plain.String())
	}
}

// A case is asked as docent ask asks it: "in the docs" says where to
// look, and is no word of the question.
func TestDecideAsksWithoutTheWordsThatNameTheDocs(t *testing.T) {
	want := retrieval.Result{Status: retrieval.StatusFound}
	d := fakeDecider{"what does the beta marker mean?": want}
	if got := Decide(d, Case{Query: "what does the beta marker in the docs mean?"}); got.Status != want.Status {
		t.Errorf("status %q: the engine was asked with the corpus's words left in", got.Status)
	}
	if got := Decide(d, Case{Query: "what does the beta marker mean?"}); got.Status != want.Status {
		t.Errorf("status %q for a question that names no corpus", got.Status)
	}
}
