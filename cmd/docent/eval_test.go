package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docent-sh/docent/eval"
)

func TestEvalDecisionsAcceptance(t *testing.T) {
	out, errOut, code := newCLI(t).run("eval", "decisions", "--cases", acceptanceCases, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	var r eval.DecisionReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	if r.Cases < 19 || r.Passed != r.Cases || r.Accuracy != 1 || r.WrongConfident != 0 || len(r.Failures) != 0 {
		t.Fatalf("report %+v, want every case passed", r)
	}

	out, _, code = newCLI(t).run("eval", "decisions", "--cases", acceptanceCases)
	if code != 0 || !strings.Contains(out, "accuracy 100.0%, wrong confident answers 0") || !strings.Contains(out, "no failing cases") {
		t.Fatalf("text report, exit %d:\n%s", code, out)
	}
}

func TestEvalDecisionsFailuresExitOne(t *testing.T) {
	cases := filepath.Join(t.TempDir(), "cases.jsonl")
	writeFile(t, cases, `{"query": "explain workspace", "expect_status": "found", "expect_slugs": ["concepts/workspace"]}`+"\n"+
		`{"query": "explain workspace", "expect_status": "no_match"}`+"\n")
	out, errOut, code := newCLI(t).run("eval", "decisions", "--cases", cases)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, errOut)
	}
	for _, want := range []string{"cases 2, passed 1, accuracy 50.0%, wrong confident answers 1", "line 2", "status found, want no_match"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "1 of 2 cases failed") {
		t.Errorf("stderr %q", errOut)
	}
}

func TestEvalDecisionsOnOwnDocs(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "guides", "billing.md"), "---\ntitle: Billing\nkeywords: [invoice, billing]\n---\n\nInvoices go out on the first day of each month.\n")
	writeFile(t, filepath.Join(dir, "guides", "export.md"), "---\ntitle: Export\n---\n\nExport writes every note to a zip file.\n")
	cases := filepath.Join(dir, "cases.jsonl")
	writeFile(t, cases, `{"query": "explain billing", "expect_status": "found", "expect_slugs": ["Guides/Billing"]}`+"\n"+
		`{"doc": "guides/export", "expect_status": "found", "expect_slugs": ["guides/export"]}`+"\n")
	out, errOut, code := newCLI(t).run("eval", "decisions", "--docs", dir, "--cases", cases)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	// A slug no doc has makes its case fail whatever docent decides: the
	// run stops and says which.
	writeFile(t, cases, `{"query": "explain billing", "expect_status": "found", "expect_slugs": ["guides/billing"]}`+"\n"+
		`{"query": "explain export", "expect_status": "found", "expect_slugs": ["guides/exports"]}`+"\n")
	_, errOut, code = newCLI(t).run("eval", "decisions", "--docs", dir, "--cases", cases)
	if code != 2 || !strings.Contains(errOut, `line 2: "guides/exports"`) {
		t.Errorf("unknown slug: exit %d, stderr %q; want 2 naming line 2", code, errOut)
	}
}

func TestEvalUsageErrors(t *testing.T) {
	badCases := filepath.Join(t.TempDir(), "bad.jsonl")
	writeFile(t, badCases, `{"query": "a", "expect_status": "found", "expect_slugs": ["x"]}`+"\n"+`{"query": "b", "expect_status": "sure"}`+"\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "decisions"}, "needs --cases"},
		{[]string{"eval", "decisions", "--cases", "nope.jsonl"}, "nope.jsonl"},
		{[]string{"eval", "decisions", "--cases", badCases}, "bad.jsonl line 2: expect_status \"sure\""},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, errOut, code := newCLI(t).run(tc.args...)
			if code != 2 || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, tc.want)
			}
		})
	}
}
