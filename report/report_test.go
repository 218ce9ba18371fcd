package report_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/docent-sh/docent/internal/demo"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/report"
)

var day = time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)

func event(hours int, action, query string, top ...string) knowledge.RetrievalEvent {
	ev := knowledge.RetrievalEvent{Time: day.Add(time.Duration(hours) * time.Hour), Query: query, Action: action, Phase: 2, LatencyMS: float64(hours + 1)}
	for _, slug := range top {
		ev.TopResults = append(ev.TopResults, knowledge.TopResult{Slug: slug})
	}
	return ev
}

func fixture() []knowledge.RetrievalEvent {
	return []knowledge.RetrievalEvent{
		event(0, "no_match", "How do I export a note to PDF?"),
		event(1, "found", "how do I create a workspace", "actions/workspaces"),
		event(2, "no_match", "export notes as pdf"),
		event(3, "weak", "PDF export settings", "actions/notes"),
		event(4, "no_match", "what's the weather in Berlin"),
		event(5, "ambiguous", "workspace", "concepts/workspace", "actions/workspaces"),
		event(26, "no_match", "exporting to Word"),
		event(27, "no_match", "hello"),
		event(28, "no_match", "weather tomorrow"),
		event(50, "weak", "billing | invoice download", "concepts/entry"),
		event(51, "no_match", "export notes as PDF"),
	}
}

func TestFindGapsGroupsBySharedTerms(t *testing.T) {
	g := report.FindGaps(fixture(), demo.Docs(t), day)
	if g.Events != 11 || g.Gaps != 9 || g.NoTopic != 1 {
		t.Fatalf("events %d, gaps %d, no topic %d; want 11, 9, 1", g.Events, g.Gaps, g.NoTopic)
	}
	if len(g.Topics) != 3 {
		t.Fatalf("topics = %+v", g.Topics)
	}
	export, weather, billing := g.Topics[0], g.Topics[1], g.Topics[2]
	// "exporting" meets "export"; "pdf" and "notes" are in most of them,
	// "word" in one.
	if export.Label() != "export pdf notes" || export.Count != 5 || export.NoMatch != 4 || export.Weak != 1 {
		t.Errorf("export topic = %+v", export)
	}
	// Most recent first, the same question (in another case) once.
	if want := []string{"export notes as PDF", "exporting to Word", "PDF export settings"}; strings.Join(export.Examples, "|") != strings.Join(want, "|") {
		t.Errorf("examples = %q, want %q", export.Examples, want)
	}
	if export.ClosestDoc == nil || export.ClosestDoc.Slug != "actions/notes" || export.ClosestDoc.Title != "Note Actions" {
		t.Errorf("closest doc = %+v, want the one retrieval ranked first", export.ClosestDoc)
	}
	if !export.LastAsked.Equal(day.Add(51 * time.Hour)) {
		t.Errorf("last asked %v", export.LastAsked)
	}
	if weather.Terms[0] != "weather" || weather.Count != 2 {
		t.Errorf("weather topic = %+v", weather)
	}
	if billing.Count != 1 || billing.Weak != 1 || billing.ClosestDoc.Slug != "concepts/entry" {
		t.Errorf("billing topic = %+v", billing)
	}
}

// A word every doc uses groups less than one the docs lack: the gap is
// about the missing word.
// A found answer the asker rated down is a gap too, counted by reason;
// relevance is, per week, the found answers not rated down.
func TestRatedDownAnswers(t *testing.T) {
	events := fixture()
	down := event(6, "found", "export notes as a pdf file", "actions/notes")
	down.Feedback = &knowledge.TurnFeedback{Rating: knowledge.RatingDown, Reason: knowledge.ReasonOutdated}
	up := event(7, "found", "create a workspace", "actions/workspaces")
	up.Feedback = &knowledge.TurnFeedback{Rating: knowledge.RatingUp}
	nextWeek := event(24*8, "found", "rename a workspace", "actions/workspaces")
	events = append(events, down, up, nextWeek)

	g := report.FindGaps(events, demo.Docs(t), day)
	if g.Gaps != 10 || g.RatedDown != 1 {
		t.Fatalf("gaps %d, rated down %d; want 10 and 1", g.Gaps, g.RatedDown)
	}
	export := g.Topics[0]
	if export.Label() != "export pdf notes" || export.Count != 6 || export.RatedDown[knowledge.ReasonOutdated] != 1 {
		t.Errorf("export topic = %+v", export)
	}
	var out bytes.Buffer
	if err := report.WriteGapsText(&out, g); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ansi.Strip(out.String()), "rated down 1: outdated 1") {
		t.Errorf("text lacks the rated-down count:\n%s", out.String())
	}

	u := report.Summarize(events, day, time.UTC)
	want := []report.WeekRelevance{
		{Week: "2025-W22", Found: 3, Rated: 2, RatedDown: 1, Share: 2.0 / 3},
		{Week: "2025-W24", Found: 1, Share: 1}, // June 1 is a Sunday: eight days on is the week after next
	}
	if fmt.Sprint(u.Relevance) != fmt.Sprint(want) {
		t.Errorf("relevance = %+v, want %+v", u.Relevance, want)
	}
	// Written answers: the fixture's one found, and the three added.
	if u.FeedbackRate != 2.0/4 {
		t.Errorf("feedback rate %v, want 2 of 4 answers rated", u.FeedbackRate)
	}
}

func TestFindGapsPrefersWordsTheDocsLack(t *testing.T) {
	events := []knowledge.RetrievalEvent{
		event(0, "no_match", "note encryption"),
		event(1, "no_match", "note encryption keys"),
		event(2, "no_match", "note color"),
		event(3, "no_match", "note templates gallery"),
	}
	g := report.FindGaps(events, demo.Docs(t), time.Time{})
	if len(g.Topics) < 2 || g.Topics[0].Terms[0] != "encryption" || g.Topics[0].Count != 2 {
		t.Fatalf("topics = %+v, want encryption first, not note", g.Topics)
	}
	// Without docs nothing is rarer than anything else: "note" is in all four.
	g = report.FindGaps(events, nil, time.Time{})
	if g.Topics[0].Terms[0] != "note" || g.Topics[0].Count != 4 {
		t.Fatalf("without docs: topics = %+v", g.Topics)
	}
}

func TestSummarize(t *testing.T) {
	events := fixture()
	events[2].Phase = 1
	events[4].NotesFallbackReason = knowledge.NotesFallbackTimeout
	events[5].NotesFallbackReason = knowledge.NotesFallbackWorkspaceMissing
	u := report.Summarize(events, day, time.UTC)
	if u.Questions != 11 {
		t.Fatalf("questions %d", u.Questions)
	}
	if len(u.PerDay) != 3 || u.PerDay[0] != (report.DayCount{Day: "2025-06-01", Count: 6}) || u.PerDay[1].Count != 3 || u.PerDay[2].Count != 2 {
		t.Errorf("per day = %+v", u.PerDay)
	}
	if u.Decisions[0].Action != "no_match" || u.Decisions[0].Count != 7 || u.Decisions[1].Action != "weak" {
		t.Errorf("decisions = %+v", u.Decisions)
	}
	// Latencies 1,2,3,4,5,6,27,28,29,51,52: nearest rank.
	if u.LatencyP50 != 6 || u.LatencyP95 != 52 {
		t.Errorf("p50 %v, p95 %v", u.LatencyP50, u.LatencyP95)
	}
	if u.Phase1Fallbacks != 1 || u.NotesFallbacks["timeout"] != 1 || len(u.NotesFallbacks) != 1 || u.FallbackRate != 2.0/11 {
		t.Errorf("fallbacks = %d %v %v", u.Phase1Fallbacks, u.NotesFallbacks, u.FallbackRate)
	}
	// A quiet day between two is shown as 0; a day is the report's zone's.
	u = report.Summarize([]knowledge.RetrievalEvent{event(0, "found", "a"), event(48, "found", "b")}, day, time.FixedZone("X", -10*3600))
	if len(u.PerDay) != 3 || u.PerDay[0].Day != "2025-05-31" || u.PerDay[1].Count != 0 {
		t.Errorf("per day = %+v", u.PerDay)
	}
	if u := report.Summarize(nil, day, time.UTC); u.Questions != 0 || u.PerDay == nil || u.Decisions == nil {
		t.Errorf("empty = %+v", u)
	}
}

func TestWriteGapsText(t *testing.T) {
	g := report.FindGaps(fixture(), demo.Docs(t), day)
	var b bytes.Buffer
	if err := report.WriteGapsText(&b, g); err != nil {
		t.Fatal(err)
	}
	out := ansi.Strip(b.String())
	for _, want := range []string{
		"Documentation gaps since 2025-06-01",
		"9 of 11 questions ended without a confident answer (no match or weak); 1 had no topic words.",
		"  export pdf notes" + strings.Repeat(" ", 9) + strings.Repeat("█", 30) + " 5", // labels padded to the longest
		"1. export pdf notes — 5 questions (no match 4, weak 1), last asked 2025-06-03",
		"closest doc: Note Actions (actions/notes)",
		"“export notes as PDF”",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestWriteGapsMarkdown(t *testing.T) {
	g := report.FindGaps(fixture(), demo.Docs(t), day)
	var b bytes.Buffer
	if err := report.WriteGapsMarkdown(&b, g); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"# Documentation gaps since 2025-06-01\n",
		"| 1 | export pdf notes | 5 | 4 | 1 | 0 | Note Actions (`actions/notes`) |\n",
		"## 1. export pdf notes\n",
		"- billing \\| invoice download\n", // a pipe would end a table cell, or start one
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
}

func TestWriteUsageText(t *testing.T) {
	var b bytes.Buffer
	if err := report.WriteUsageText(&b, report.Summarize(fixture(), day, time.UTC)); err != nil {
		t.Fatal(err)
	}
	out := ansi.Strip(b.String())
	for _, want := range []string{"11 questions.", "  2025-06-01 " + strings.Repeat("█", 30) + " 6", "Decisions: no_match 7 (63.6%), weak 2 (18.2%)", "p50 6.00 ms, p95 52.00 ms", "Fallbacks: 0.0% of questions"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2025, 6, 30, 15, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"":           now.AddDate(0, 0, -30),
		"7d":         now.AddDate(0, 0, -7),
		"2W":         now.AddDate(0, 0, -14),
		"12h":        now.Add(-12 * time.Hour),
		"2025-06-01": time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC),
	} {
		got, err := report.ParseSince(in, now, time.UTC)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"30", "d", "-3d", "1y", "2025-13-01", "yesterday"} {
		if _, err := report.ParseSince(in, now, time.UTC); err == nil {
			t.Errorf("ParseSince(%q) accepted", in)
		}
	}
}

// FuzzParseSince: any input is a time not after now, or an error
// without control characters.
func FuzzParseSince(f *testing.F) {
	for _, s := range []string{"30d", "2w", "12h", "2025-06-01", "", "99999d", "\x1b[2J"} {
		f.Add(s)
	}
	now := time.Date(2025, 6, 30, 15, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		got, err := report.ParseSince(s, now, time.UTC)
		if err != nil {
			if strings.ContainsFunc(err.Error(), func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				t.Fatalf("error has a control character: %q", err)
			}
			return
		}
		if got.After(now) && !strings.Contains(s, "-") {
			t.Fatalf("ParseSince(%q) = %v, after now", s, got)
		}
	})
}

// BenchmarkFindGaps: a month of a busy team's gaps, 5000 questions over
// a vocabulary of 2000 words, on the demo docs.
func BenchmarkFindGaps(b *testing.B) {
	docs := demo.Docs(b)
	var events []knowledge.RetrievalEvent
	for i := range 5000 {
		q := fmt.Sprintf("how to w%d with w%d and w%d", i%2000, (i*7)%2000, (i*13)%1500)
		events = append(events, event(i%700, "no_match", q))
	}
	b.ResetTimer()
	for b.Loop() {
		report.FindGaps(events, docs, time.Time{})
	}
}
