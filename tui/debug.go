package tui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/retrieval/analysis"
	"github.com/docent-sh/docent/textsafe"
)

// debugTopN is how many rows of the score table the debug pane shows.
const debugTopN = 8

// debugSlugRunes clips each slug on the compared line, so the line fits an
// 80-column pane.
const debugSlugRunes = 18

// debugPane explains the last turn: how the query was normalized, how the
// evidence scored, which rule decided, and how the answer was produced.
type debugPane struct {
	report turnReport
	body   scroller
	width  int
	st     *styles
}

func newDebugPane(st *styles) debugPane {
	return debugPane{body: newScroller(), st: st}
}

func (p *debugPane) setSize(width, height int) {
	p.body.setSize(width, max(height-1, 0)) // the title takes a line
	if width != p.width {
		p.width = width
		p.rebuild()
	}
}

// setReport shows a turn from its top, or adds the answer to the turn
// shown without moving: the answer's part is at the end.
func (p *debugPane) setReport(r turnReport) {
	newTurn := r.res != p.report.res
	p.report = r
	p.rebuild()
	if newTurn {
		p.body.vp.GotoTop()
	}
}

// Update scrolls the pane for a key or a wheel message.
func (p debugPane) Update(msg tea.Msg) (debugPane, tea.Cmd) {
	p.body = p.body.Update(msg)
	return p, nil
}

// turnReport is what the debug pane explains.
type turnReport struct {
	res   *retrieval.Result
	info  *AnswerInfo
	stats *assistant.Stats
}

func (p *debugPane) rebuild() {
	if p.width <= 0 {
		return
	}
	r, st := p.report, p.st
	if r.res == nil {
		p.body.setLines([]string{st.dim.Render("Nothing to explain yet: ask a question.")})
		p.body.vp.GotoTop()
		return
	}
	res := r.res
	var out []string
	kv := func(k, v string) {
		out = append(out, wrapPrefixed(v, p.width, st.dim.Render(fmt.Sprintf("%-10s", k)), strings.Repeat(" ", 10), st.label)...)
	}
	kv("query", textsafe.Line(res.Query))
	kv("tokens", orDash(strings.Join(sanitizeAll(tokenLabels(res.NormalizedTokens)), " ")))
	synonyms, typos := rewrites(res.Results)
	// One line for both kinds of rewrite: most questions have none.
	var rewritten []string
	if synonyms != "" {
		rewritten = append(rewritten, "synonyms "+synonyms)
	}
	if typos != "" {
		rewritten = append(rewritten, "typos "+typos)
	}
	kv("rewrites", orDash(strings.Join(rewritten, " · ")))
	kv("status", fmt.Sprintf("%s · rule %s · confidence %.2f", res.Status, orDash(textsafe.Line(res.Rule)), res.Confidence))
	// The docs the decision compared, with the measures its rules read:
	// coverage and naming of the top doc and of the next, and the next
	// doc's rank as a share of the top's.
	if c := res.Candidates; len(c) > 0 {
		line := fmt.Sprintf("%s c%.2f n%.2f", textsafe.Clip(textsafe.Line(c[0].DocSlug), debugSlugRunes), c[0].Coverage, c[0].Naming)
		if len(c) > 1 && c[0].Rank > 0 {
			line += fmt.Sprintf(" · %s c%.2f n%.2f ×%.2f", textsafe.Clip(textsafe.Line(c[1].DocSlug), debugSlugRunes), c[1].Coverage, c[1].Naming, c[1].Rank/c[0].Rank)
		}
		kv("compared", line)
	}
	fallback := res.Metrics.Fallback
	if fallback == "" {
		fallback = "none"
	}
	kv("phase", fmt.Sprintf("%d · fallback %s · dedupe trimmed %d", res.Metrics.Phase, textsafe.Line(fallback), res.Metrics.DedupeTrimmed))
	kv("latency", fmt.Sprintf("retrieval %.2f ms", res.Metrics.RetrievalMS))
	if s := r.stats; s != nil && s.Turns > 0 {
		kv("session", fmt.Sprintf("%s · p50 %.2f ms · p95 %.2f ms · match %.0f%% · fallback %.0f%% · dedupe %.0f%%",
			plural(s.Turns, "turn"), s.P50MS, s.P95MS, 100*s.MatchRate, 100*s.FallbackRate, 100*s.DedupeRate))
	}
	for _, n := range res.Notes {
		kv("note", textsafe.Line(n))
	}

	out = append(out, "", st.paneTitle.Render(fmt.Sprintf("top %d", min(len(res.Results), debugTopN))))
	out = append(out, scoreTable(res.Results[:min(len(res.Results), debugTopN)], p.width, st)...)
	if len(res.Results) == 0 {
		out = append(out, st.dim.Render(" (no results)"))
	}

	if info := r.info; info != nil {
		out = append(out, "", st.paneTitle.Render("answer"))
		kv("model", orDash(textsafe.Line(providerLabel(info.Provider, info.Model))))
		kv("ttft", fmt.Sprintf("%d ms · %.1f tokens/s", info.TTFT.Milliseconds(), info.TokensPerSec))
		kv("fallback", fmt.Sprintf("%t%s", info.Fallback, prefixed(" · ", textsafe.Line(info.Notice))))
		for _, l := range info.ContextLines {
			out = append(out, wrapPrefixed(textsafe.Line(l), p.width, " ", " ", st.dim)...)
		}
	}
	offset := p.body.offset()
	p.body.setLines(out)
	p.body.vp.SetYOffset(offset)
}

// rewrites collects the synonym and typo rewrites recorded on the evidence.
func rewrites(items []retrieval.Evidence) (synonyms, typos string) {
	var syn, typo []string
	for _, e := range items {
		for _, r := range e.MatchExplain.Synonyms {
			syn = appendUnique(syn, textsafe.Line(r.From)+"→"+textsafe.Line(r.To))
		}
		for _, r := range e.MatchExplain.TypoFixes {
			typo = appendUnique(typo, textsafe.Line(r.From)+"→"+textsafe.Line(r.To))
		}
	}
	return strings.Join(syn, " "), strings.Join(typo, " ")
}

func appendUnique(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// tokenLabels returns the tokens as the pane shows them: a value word,
// which stands for the words that asked for a value, as the kind of
// value it is ("[a duration]" for "how long"; see
// analysis.AskedValue).
func tokenLabels(tokens []string) []string {
	out := make([]string, len(tokens))
	for i, t := range tokens {
		out[i] = t
		if label, ok := analysis.ValueLabel(t); ok {
			out[i] = "[" + label + "]"
		}
	}
	return out
}

func sanitizeAll(in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = textsafe.Line(s)
	}
	return out
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}

func prefixed(prefix, s string) string {
	if s == "" {
		return ""
	}
	return prefix + s
}

// wideTableWidth is the width from which a score row fits on one line.
const wideTableWidth = 72

// scoreTable shows slug, chunk, match score, rank score and matched terms
// per result: one row each on a wide pane, two lines each on a narrow one.
func scoreTable(items []retrieval.Evidence, width int, st *styles) []string {
	var out []string
	if width >= wideTableWidth {
		out = append(out, st.dim.Render(fmt.Sprintf(" %-24s %5s %6s %6s  %s", "slug", "chunk", "match", "rank", "terms")))
		for _, e := range items {
			out = append(out, fmt.Sprintf(" %-24s %5d %6.2f %6.2f  %s", textsafe.Line(e.DocSlug), e.ChunkIndex,
				e.Score, e.RankScore, strings.Join(sanitizeAll(e.MatchedTerms), ",")))
		}
		return out
	}
	for i, e := range items {
		out = append(out, fmt.Sprintf(" %d %s #%d", i+1, textsafe.Line(e.DocSlug), e.ChunkIndex))
		detail := fmt.Sprintf("match %.2f · rank %.2f · %s", e.Score, e.RankScore, orDash(strings.Join(sanitizeAll(e.MatchedTerms), ",")))
		out = append(out, wrapPrefixed(detail, width, "   ", "   ", st.dim)...)
	}
	return out
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
