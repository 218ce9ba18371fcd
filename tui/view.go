package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/docent-sh/docent/textsafe"
)

// View draws the screen. It only reads state prepared by Update and looks
// at the visible lines of the transcript, so it stays cheap however long
// the conversation gets.
func (m Model) View() tea.View {
	var v tea.View
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "docent"
	if m.width == 0 || m.height == 0 {
		return v
	}
	l := m.layout
	screen := make([]string, 0, m.height)
	screen = append(screen, m.body()...)
	if l.info.h > 0 {
		info := m.pillLines
		if len(info) == 0 {
			info = []string{m.infoLine()}
		}
		screen = append(screen, fitBlock(info, l.info.w, l.info.h)...)
	}
	if l.rule.h > 0 {
		screen = append(screen, m.st.rule.Render(strings.Repeat("─", l.rule.w)))
	}
	screen = append(screen, fitBlock(strings.Split(m.input.View(), "\n"), l.input.w, l.input.h)...)
	screen = append(screen, m.statusBar(l.status.w))
	v.SetContent(strings.Join(screen, "\n"))

	if m.focus == focusInput && !m.pills.active && !m.showHelp {
		if c := m.input.Cursor(); c != nil {
			c.X += l.input.x
			c.Y += l.input.y
			if c.Y < l.input.y+l.input.h {
				v.Cursor = c
			}
		}
	}
	return v
}

// body is the transcript (or the help) with the open panes beside or
// under it.
func (m Model) body() []string {
	l := m.layout
	var main []string
	if m.showHelp {
		main = fitBlock(m.helpLines(l.transcript.w), l.transcript.w, l.transcript.h)
	} else {
		main = m.transcriptLines()
	}
	if l.evidence.h == 0 && l.debug.h == 0 {
		return main
	}
	var column []string
	if l.evidence.h > 0 {
		title := fmt.Sprintf("Evidence · %d", len(m.evidence.items))
		column = append(column, m.pane(title, m.focus == focusEvidence, m.evidence.body.window(m.evidence.contentHeight()), l.evidence)...)
	}
	if l.debug.h > 0 {
		column = append(column, m.pane("Debug", m.focus == focusDebug, m.debug.body.window(m.debug.contentHeight()), l.debug)...)
	}
	if !l.wide {
		return append(main, column...)
	}
	divider := m.st.rule.Render("│")
	out := make([]string, len(main))
	for i := range main {
		right := ""
		if i < len(column) {
			right = column[i]
		}
		out[i] = main[i] + divider + right
	}
	return out
}

func (m Model) transcriptLines() []string {
	l := m.layout.transcript
	if len(m.transcript.msgs) == 0 {
		return fitBlock(m.welcome(l.w), l.w, l.h)
	}
	return fitBlock(m.transcript.visible(), l.w, l.h)
}

func (m Model) welcome(width int) []string {
	text := "Ask a question about the docs, e.g. “explain workspace”. Enter sends, alt+enter adds a line, ? shows every key."
	return wrapPrefixed(text, width, "  ", "  ", m.st.welcome)
}

// pane draws a titled pane into r: a title rule, then the body.
func (m Model) pane(title string, focused bool, body []string, r rect) []string {
	style := m.st.paneTitle
	mark := "─"
	if focused {
		style = m.st.paneActive
		mark = "▸"
	}
	head := mark + " " + title + " "
	if focused {
		head += "(tab: next · esc: back) "
	}
	fill := max(r.w-lipgloss.Width(head), 0)
	titleLine := style.Render(head) + m.st.rule.Render(strings.Repeat("─", fill))
	out := []string{fitLine(titleLine, r.w)}
	return append(out, fitBlock(body, r.w, r.h-1)...)
}

// helpLines lays out every key binding, then the typed commands. The
// groups of keys go side by side, as many to a row as the width takes, so
// that everything fits on a small terminal.
func (m Model) helpLines(width int) []string {
	h := m.help
	h.ShowAll = true
	h.SetWidth(0) // measure untruncated: help cuts what does not fit with "…"
	groups := m.keys.FullHelp()
	var rows [][][]key.Binding
	for perRow := len(groups); perRow >= 1; perRow-- {
		rows = rows[:0]
		fits := true
		for i := 0; i < len(groups); i += perRow {
			row := groups[i:min(i+perRow, len(groups))]
			rows = append(rows, row)
			fits = fits && lipgloss.Width(h.FullHelpView(row)) <= width
		}
		if fits {
			break
		}
	}
	h.SetWidth(width) // one group wider than the screen is cut with "…"

	out := []string{m.st.paneActive.Render("Keys") + m.st.dim.Render("  (? or esc closes)")}
	for _, row := range rows {
		out = append(out, "")
		out = append(out, strings.Split(h.FullHelpView(row), "\n")...)
	}
	out = append(out, "", m.st.paneActive.Render("Commands")+m.st.dim.Render("  (type, then enter)"))
	return append(out, strings.Split(h.FullHelpView([][]key.Binding{commandBindings()}), "\n")...)
}

// statusBar shows the knowledge base, store, model, phase and the last
// latency; the least important parts go first when the width is short.
func (m Model) statusBar(width int) string {
	st := m.status
	phase := st.Phase
	latency := ""
	if r := m.lastResult; r != nil {
		if r.Metrics.Phase > 0 {
			phase = r.Metrics.Phase
		}
		latency = formatMS(r.Metrics.RetrievalMS)
	}
	provider := "no model"
	if st.Provider != "" {
		provider = providerLabel(st.Provider, st.Model)
	}
	if info := m.lastInfo; info != nil && info.Provider != "" {
		provider = providerLabel(info.Provider, info.Model)
	}
	store := st.Store
	if store == "" {
		store = "embedded"
	}
	provider, store = textsafe.Line(provider), textsafe.Line(store)
	// In order of importance: the first ones survive on narrow screens.
	parts := []string{
		fmt.Sprintf("%d docs · %d chunks", st.Docs, st.Chunks),
		fmt.Sprintf("phase %d", phase),
		latency,
		provider,
		store,
	}
	helpHint := "? keys"
	sep := " │ "
	for n := len(parts); n >= 0; n-- {
		var kept []string
		for _, p := range parts[:n] {
			if p != "" {
				kept = append(kept, p)
			}
		}
		line := " " + strings.Join(append(kept, helpHint), sep) + " "
		if lipgloss.Width(line) <= width || n == 0 {
			return m.st.status.Render(fitLine(line, width))
		}
	}
	return ""
}

// formatMS shows a latency with the precision that matters at its size.
func formatMS(ms float64) string {
	switch {
	case ms < 10:
		return fmt.Sprintf("%.2f ms", ms)
	case ms < 1000:
		return fmt.Sprintf("%.0f ms", ms)
	default:
		return fmt.Sprintf("%.1f s", ms/1000)
	}
}

// providerLabel is "provider · model", or one name when they are the same.
func providerLabel(provider, model string) string {
	if model == "" || model == provider {
		return provider
	}
	return provider + " · " + model
}
