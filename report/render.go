package report

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/textsafe"
)

// ChartRows is how many topics the terminal chart shows.
const ChartRows = 10

// Bar chart geometry: the widest bar, and the label column's limit.
const (
	barWidth   = 30
	labelWidth = 28
)

var (
	barStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("12"))
	titleStyle = lipgloss.NewStyle().Bold(true)
	dimStyle   = lipgloss.NewStyle().Faint(true)
)

// bar is one row of a chart.
type bar struct {
	label string
	n     int
}

// chart draws rows as horizontal bars scaled to the largest, labels
// left-aligned: lipgloss styles, which a writer without colours (a pipe,
// NO_COLOR) strips to the plain characters.
func chart(b *strings.Builder, rows []bar) {
	width, most := 0, 0
	for _, r := range rows {
		width = max(width, lipgloss.Width(r.label))
		most = max(most, r.n)
	}
	width = min(width, labelWidth)
	for _, r := range rows {
		label := r.label
		if lipgloss.Width(label) > width {
			label = textsafe.Clip(label, width)
		}
		n := 0
		if most > 0 {
			n = (r.n*barWidth + most - 1) / most
		}
		fmt.Fprintf(b, "  %s%s %s %d\n", label, strings.Repeat(" ", max(0, width-lipgloss.Width(label))),
			barStyle.Render(strings.Repeat("█", n)), r.n)
	}
}

// ratedDownText says how many of the gaps were answers rated down.
func ratedDownText(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" or were answers rated down (%d)", n)
}

// topicRatedDown is ", rated down N (wrong 2, outdated 1)" for a topic
// with answers rated down, else "".
func topicRatedDown(t Topic) string {
	if len(t.RatedDown) == 0 {
		return ""
	}
	total := 0
	var reasons []string
	for _, r := range append([]knowledge.FeedbackReason{""}, knowledge.FeedbackReasons...) {
		n := t.RatedDown[r]
		total += n
		if n > 0 && r != "" {
			reasons = append(reasons, fmt.Sprintf("%s %d", strings.ReplaceAll(string(r), "_", " "), n))
		}
	}
	if len(reasons) == 0 {
		return fmt.Sprintf(", rated down %d", total)
	}
	return fmt.Sprintf(", rated down %d: %s", total, strings.Join(reasons, ", "))
}

func sinceText(t time.Time) string {
	if t.IsZero() {
		return "ever"
	}
	return "since " + t.Format(time.DateOnly)
}

// WriteGapsText prints the gaps for a terminal: a summary, the chart of
// the top ChartRows topics and each topic's details.
func WriteGapsText(w io.Writer, g Gaps) error {
	var b strings.Builder
	b.WriteString(titleStyle.Render(fmt.Sprintf("Documentation gaps %s", sinceText(g.Since))) + "\n")
	fmt.Fprintf(&b, "%d of %d questions ended without a confident answer (no match or weak)%s", g.Gaps, g.Events, ratedDownText(g.RatedDown))
	if g.NoTopic > 0 {
		fmt.Fprintf(&b, "; %d had no topic words", g.NoTopic)
	}
	b.WriteString(".\n")
	if len(g.Topics) == 0 {
		_, err := io.WriteString(w, b.String())
		return err
	}
	b.WriteString("\n")
	var rows []bar
	for _, t := range g.Topics[:min(ChartRows, len(g.Topics))] {
		rows = append(rows, bar{label: textsafe.Line(t.Label()), n: t.Count})
	}
	chart(&b, rows)
	for i, t := range g.Topics[:min(ChartRows, len(g.Topics))] {
		fmt.Fprintf(&b, "\n%d. %s — %d %s (no match %d, weak %d%s), last asked %s\n", i+1, textsafe.Line(t.Label()),
			t.Count, plural(t.Count, "question"), t.NoMatch, t.Weak, topicRatedDown(t), t.LastAsked.Format(time.DateOnly))
		if t.ClosestDoc != nil {
			fmt.Fprintf(&b, "   closest doc: %s (%s)\n", textsafe.Line(t.ClosestDoc.Title), textsafe.Line(t.ClosestDoc.Slug))
		}
		for _, ex := range t.Examples {
			fmt.Fprintf(&b, "   %s\n", dimStyle.Render("“"+textsafe.Clip(textsafe.Line(ex), 100)+"”"))
		}
	}
	if n := len(g.Topics) - ChartRows; n > 0 {
		fmt.Fprintf(&b, "\n…and %d more %s (--json or --markdown lists them all).\n", n, plural(n, "topic"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteGapsMarkdown writes the gaps for the docs team: a table of every
// topic, then each with its example questions.
func WriteGapsMarkdown(w io.Writer, g Gaps) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Documentation gaps %s\n\n", sinceText(g.Since))
	fmt.Fprintf(&b, "%d of %d questions asked ended without a confident answer (no match or weak)%s", g.Gaps, g.Events, ratedDownText(g.RatedDown))
	if g.NoTopic > 0 {
		fmt.Fprintf(&b, "; %d of them had no topic words", g.NoTopic)
	}
	b.WriteString(". Topics group questions by the words they share, most asked first.\n")
	if len(g.Topics) == 0 {
		_, err := io.WriteString(w, b.String())
		return err
	}
	b.WriteString("\n| # | topic | questions | no match | weak | rated down | closest doc |\n|---:|---|---:|---:|---:|---:|---|\n")
	for i, t := range g.Topics {
		doc := "—"
		if t.ClosestDoc != nil {
			doc = fmt.Sprintf("%s (`%s`)", inline(t.ClosestDoc.Title), inline(t.ClosestDoc.Slug))
		}
		down := 0
		for _, n := range t.RatedDown {
			down += n
		}
		fmt.Fprintf(&b, "| %d | %s | %d | %d | %d | %d | %s |\n", i+1, inline(t.Label()), t.Count, t.NoMatch, t.Weak, down, doc)
	}
	for i, t := range g.Topics {
		fmt.Fprintf(&b, "\n## %d. %s\n\n", i+1, inline(t.Label()))
		fmt.Fprintf(&b, "%d %s, last on %s.", t.Count, plural(t.Count, "question"), t.LastAsked.Format(time.DateOnly))
		if t.ClosestDoc != nil {
			fmt.Fprintf(&b, " Closest doc: %s (`%s`).", inline(t.ClosestDoc.Title), strings.ReplaceAll(textsafe.Line(t.ClosestDoc.Slug), "`", ""))
		}
		b.WriteString("\n\n")
		for _, ex := range t.Examples {
			fmt.Fprintf(&b, "- %s\n", inline(textsafe.Clip(textsafe.Line(ex), 200)))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdSpecial are the characters that would make a question's text markup.
var mdSpecial = regexp.MustCompile("[\\\\`*_\\[\\]<>#|]")

// inline is untrusted text as literal markdown on one line.
func inline(s string) string {
	return mdSpecial.ReplaceAllStringFunc(textsafe.Line(s), func(m string) string { return "\\" + m })
}

// WriteUsageText prints usage for a terminal: the totals, a chart of the
// questions per day, the decision mix, latency and fallbacks.
func WriteUsageText(w io.Writer, u Usage) error {
	var b strings.Builder
	b.WriteString(titleStyle.Render(fmt.Sprintf("Usage %s", sinceText(u.Since))) + "\n")
	fmt.Fprintf(&b, "%d %s.\n", u.Questions, plural(u.Questions, "question"))
	if u.Questions == 0 {
		_, err := io.WriteString(w, b.String())
		return err
	}
	b.WriteString("\nQuestions per day:\n")
	var rows []bar
	for _, d := range u.PerDay {
		rows = append(rows, bar{label: d.Day, n: d.Count})
	}
	chart(&b, rows)
	b.WriteString("\nDecisions: ")
	var mix []string
	for _, d := range u.Decisions {
		mix = append(mix, fmt.Sprintf("%s %d (%s)", textsafe.Line(d.Action), d.Count, percent(d.Share)))
	}
	b.WriteString(strings.Join(mix, ", ") + "\n")
	fmt.Fprintf(&b, "Retrieval latency: p50 %s ms, p95 %s ms\n", ms(u.LatencyP50), ms(u.LatencyP95))
	fmt.Fprintf(&b, "Fallbacks: %s of questions", percent(u.FallbackRate))
	var parts []string
	if u.Phase1Fallbacks > 0 {
		parts = append(parts, fmt.Sprintf("retrieval phase 1: %d", u.Phase1Fallbacks))
	}
	reasons := make([]string, 0, len(u.NotesFallbacks))
	for r := range u.NotesFallbacks {
		reasons = append(reasons, r)
	}
	slices.Sort(reasons)
	for _, r := range reasons {
		parts = append(parts, fmt.Sprintf("notes %s: %d", textsafe.Line(r), u.NotesFallbacks[r]))
	}
	if len(parts) > 0 {
		b.WriteString(" (" + strings.Join(parts, ", ") + ")")
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "Feedback: %s of written answers rated\n", percent(u.FeedbackRate))
	if len(u.Relevance) > 0 {
		b.WriteString("\nRelevance (found answers not rated down):\n")
		for _, r := range u.Relevance {
			fmt.Fprintf(&b, "  %s  %s of %d found (%d rated, %d down)\n", r.Week, percent(r.Share), r.Found, r.Rated, r.RatedDown)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON prints v (Gaps or Usage) as one indented JSON object.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write report JSON: %w", err)
	}
	return nil
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func percent(share float64) string { return strconv.FormatFloat(100*share, 'f', 1, 64) + "%" }

func ms(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

// sinceRE is a --since duration: a number of days, weeks or hours.
var sinceRE = regexp.MustCompile(`^(\d{1,5})([dwh])$`)

// ParseSince reads --since: a duration back from now ("30d", "2w",
// "12h") or a date ("2025-06-01", midnight in loc). "" is the default, 30
// days.
func ParseSince(s string, now time.Time, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	if s == "" {
		s = DefaultSince
	}
	if m := sinceRE.FindStringSubmatch(s); m != nil {
		n, _ := strconv.Atoi(m[1])
		switch m[2] {
		case "h":
			return now.Add(-time.Duration(n) * time.Hour), nil
		case "w":
			n *= 7
		}
		return now.AddDate(0, 0, -n), nil
	}
	if t, err := time.ParseInLocation(time.DateOnly, s, loc); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%q is neither a duration (30d, 2w, 12h) nor a date (2025-06-01)", textsafe.Clip(textsafe.Line(s), 40))
}

// DefaultSince is --since's default: a month of questions.
const DefaultSince = "30d"
