package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/report"
	"github.com/docent-sh/docent/store/memory"
	"github.com/docent-sh/docent/store/postgres"
	"github.com/docent-sh/docent/store/postgres/pgtest"
)

// reportEvents are a week of questions, two of them about exporting that
// the docs do not answer, and one older than the window.
func reportEvents(now time.Time) []knowledge.RetrievalEvent {
	return []knowledge.RetrievalEvent{
		{Time: now.AddDate(0, 0, -40), Query: "export to pdf, long ago", Action: "no_match", Phase: 2, LatencyMS: 9},
		{Time: now.AddDate(0, 0, -3), Query: "how do I export a note to PDF", Action: "no_match", Phase: 2, LatencyMS: 1},
		{Time: now.AddDate(0, 0, -2), Query: "explain workspace", Action: "found", Phase: 2, LatencyMS: 2,
			TopResults: []knowledge.TopResult{{Slug: "concepts/workspace", MatchedTerms: []string{"workspace"}}}},
		{Time: now.AddDate(0, 0, -1), Query: "pdf export \x1b[31msettings", Action: "weak", Phase: 2, LatencyMS: 3,
			TopResults: []knowledge.TopResult{{Slug: "actions/notes", MatchedTerms: []string{"export"}}}},
	}
}

func writeEventsFile(t *testing.T, c *cli, events []knowledge.RetrievalEvent) {
	t.Helper()
	path := filepath.Join(c.env["XDG_STATE_HOME"], "docent", eventsFile)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, ev := range events {
		line, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(line, '\n'))
	}
	writeFile(t, path, b.String())
}

func TestReportGapsEmbedded(t *testing.T) {
	c := newCLI(t)
	writeEventsFile(t, c, reportEvents(time.Now()))
	out, errOut, code := c.run("report", "gaps", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var g report.Gaps
	if err := json.Unmarshal([]byte(out), &g); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if g.Events != 3 || g.Gaps != 2 || len(g.Topics) != 1 || g.Topics[0].Terms[0] != "export" ||
		g.Topics[0].ClosestDoc == nil || g.Topics[0].ClosestDoc.Slug != "actions/notes" {
		t.Fatalf("gaps = %+v", g)
	}

	// In a pipe the chart has no colours, and the docs' or askers' control
	// sequences never reach the terminal.
	out, _, code = c.run("report", "gaps")
	if code != 0 || strings.Contains(out, "\x1b") || !strings.Contains(out, "█") || !strings.Contains(out, "“pdf export settings”") {
		t.Fatalf("exit %d, text:\n%q", code, out)
	}
	out, _, _ = c.run("report", "gaps", "--markdown", "--since", "60d")
	if !strings.Contains(out, "| 1 | export pdf | 3 | 2 | 1 | 0 | Note Actions (`actions/notes`) |") {
		t.Fatalf("markdown:\n%s", out)
	}
}

func TestReportUsageEmbedded(t *testing.T) {
	c := newCLI(t)
	writeEventsFile(t, c, reportEvents(time.Now()))
	out, errOut, code := c.run("report", "usage", "--json", "--since", "7d")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var u report.Usage
	if err := json.Unmarshal([]byte(out), &u); err != nil {
		t.Fatal(err)
	}
	if u.Questions != 3 || u.LatencyP50 != 2 || u.LatencyP95 != 3 || len(u.PerDay) < 3 || u.Decisions[0].Count != 1 {
		t.Fatalf("usage = %+v", u)
	}
	out, _, code = c.run("report", "usage")
	if code != 0 || !strings.Contains(out, "3 questions.") || !strings.Contains(out, "p50 2.00 ms") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	// No events recorded yet is a report of none, not an error.
	out, errOut, code = newCLI(t).run("report", "usage")
	if code != 0 || !strings.Contains(out, "0 questions.") {
		t.Fatalf("exit %d, %q, %q", code, out, errOut)
	}
}

func TestReportUsageErrors(t *testing.T) {
	c := newCLI(t)
	for _, args := range [][]string{
		{"report", "gaps", "--since", "yesterday"},
		{"report", "usage", "--since", "30"},
		{"report", "gaps", "--json", "--markdown"},
		{"report"},
		{"report", "trends"},
	} {
		if _, errOut, code := c.run(args...); code != 2 {
			t.Errorf("%q: exit %d (%s), want 2", args, code, errOut)
		}
	}
}

// With PostgreSQL the reports read the retrieval_events table.
func TestReportOnPostgres(t *testing.T) {
	dbURL := pgtest.NewDatabase(t)
	st, err := postgres.Open(t.Context(), dbURL, postgres.Options{Migrate: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range reportEvents(time.Now()) {
		if err := st.RecordRetrieval(t.Context(), ev); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	c := newCLI(t, "DATABASE_URL", dbURL)
	out, errOut, code := c.run("report", "gaps", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var g report.Gaps
	if err := json.Unmarshal([]byte(out), &g); err != nil {
		t.Fatal(err)
	}
	if g.Events != 3 || g.Gaps != 2 || len(g.Topics) != 1 || g.Topics[0].Count != 2 {
		t.Fatalf("gaps = %+v", g)
	}
	out, errOut, code = c.run("report", "usage", "--json", "--since", "60d")
	var u report.Usage
	if code != 0 || json.Unmarshal([]byte(out), &u) != nil || u.Questions != 4 {
		t.Fatalf("exit %d (%s): %s", code, errOut, out)
	}
}

// A turn rated down shows in both reports: among the gaps with its
// reason, and in the week's relevance.
func testReportsCountRatings(t *testing.T, c *cli, rate func(scope knowledge.Scope, id string, turn int, f knowledge.TurnFeedback) error) {
	t.Helper()
	o := c.askJSON("explain workspace")
	if o.Status != "found" || o.Conversation == "" || o.Turn == nil {
		t.Fatalf("ask: %s, recorded as %q %v", o.Status, o.Conversation, o.Turn)
	}
	c.askJSON("explain workspace")
	scope := knowledge.Scope{Workspace: knowledge.DefaultConversationWorkspace, User: "alice"}
	if err := rate(scope, o.Conversation, *o.Turn, knowledge.TurnFeedback{Rating: knowledge.RatingDown, Reason: knowledge.ReasonOutdated}); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := c.run("report", "gaps", "--json")
	var g report.Gaps
	if code != 0 || json.Unmarshal([]byte(out), &g) != nil {
		t.Fatalf("report gaps: exit %d: %s%s", code, out, errOut)
	}
	if g.Gaps != 1 || g.RatedDown != 1 || len(g.Topics) != 1 || g.Topics[0].RatedDown[knowledge.ReasonOutdated] != 1 {
		t.Errorf("gaps = %+v", g)
	}
	out, errOut, code = c.run("report", "usage", "--json")
	var u report.Usage
	if code != 0 || json.Unmarshal([]byte(out), &u) != nil {
		t.Fatalf("report usage: exit %d: %s%s", code, out, errOut)
	}
	if len(u.Relevance) != 1 || u.Relevance[0].Found != 2 || u.Relevance[0].RatedDown != 1 || u.Relevance[0].Share != 0.5 {
		t.Errorf("relevance = %+v, want one week, 2 found, 1 rated down", u.Relevance)
	}
}

func TestReportsCountRatingsEmbedded(t *testing.T) {
	c := newCLI(t, "XDG_DATA_HOME", t.TempDir(), "DOCENT_USER", "alice")
	st := memory.NewConversationFiles(filepath.Join(c.env["XDG_DATA_HOME"], "docent", "conversations"), 0)
	testReportsCountRatings(t, c, func(scope knowledge.Scope, id string, turn int, f knowledge.TurnFeedback) error {
		return st.RateTurn(t.Context(), scope, id, turn, f)
	})
}

func TestReportsCountRatingsPostgres(t *testing.T) {
	url := pgtest.NewDatabase(t)
	c := newCLI(t, "DATABASE_URL", url, "DOCENT_USER", "alice")
	if _, errOut, code := c.run("seed"); code != 0 {
		t.Fatalf("seed: exit %d: %s", code, errOut)
	}
	st, err := postgres.Open(t.Context(), url, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	testReportsCountRatings(t, c, func(scope knowledge.Scope, id string, turn int, f knowledge.TurnFeedback) error {
		return st.RateTurn(t.Context(), scope, id, turn, f)
	})
}
