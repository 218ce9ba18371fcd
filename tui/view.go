package tui

import (
	"fmt"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/docent-sh/docent/textsafe"
)

// View draws the screen. It only reads state prepared by Update: each
// component draws its visible lines into the area the layout gave it.
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
		screen = append(screen, fitBlock(m.infoBlock(l.info.w, l.info.h), l.info.w, l.info.h)...)
	}
	if l.rule.h > 0 {
		screen = append(screen, m.st.rule.Render(strings.Repeat("─", l.rule.w)))
	}
	screen = append(screen, fitBlock(strings.Split(m.input.View(), "\n"), l.input.w, l.input.h)...)
	screen = append(screen, m.statusBar(l.status.w))
	v.SetContent(strings.Join(screen, "\n"))

	if m.focus == focusInput && !m.pills.active && m.overlay.kind == noOverlay {
		if c := m.input.Cursor(); c != nil {
			c.X += l.input.x
			c.Y += l.input.y
			if c.Y >= l.input.y && c.Y < l.input.y+l.input.h {
				v.Cursor = c
			}
		}
	}
	return v
}

// body is the transcript with the open panes beside or under it, a zoomed
// pane alone, or an overlay over all of it.
func (m Model) body() []string {
	l := m.layout
	if m.overlay.kind != noOverlay {
		return m.overlay.view(m.st, l.body)
	}
	var column []string
	if l.evidence.h > 0 {
		column = append(column, paneFrame(m.st, m.evidence.title(), m.focus == focusEvidence, m.evidence.body, l.evidence)...)
	}
	if l.debug.h > 0 {
		column = append(column, paneFrame(m.st, "Debug", m.focus == focusDebug, m.debug.body, l.debug)...)
	}
	if l.transcript.h == 0 {
		return column
	}
	main := m.transcriptLines()
	if len(column) == 0 {
		return main
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
	return m.transcript.view(l)
}

func (m Model) welcome(width int) []string {
	if !m.ready {
		text := "Loading the docs. You can type your first question meanwhile: it goes out as soon as they are ready."
		return wrapPrefixed(text, width, "  ", "  ", m.st.welcome)
	}
	text := "Ask a question about the docs"
	if m.suggest != "" {
		text += ", e.g. “" + m.suggest + "”"
	}
	text += ". Enter sends, alt+enter adds a line, ? shows every key."
	out := wrapPrefixed(text, width, "  ", "  ", m.st.welcome)
	for _, n := range m.notices {
		out = append(out, "")
		out = append(out, wrapPrefixed(textsafe.Line(n), width, m.st.notice.Render("note: "), "      ", m.st.notice)...)
	}
	return out
}

// infoWant is how many lines the info area would like: what docent is
// doing (or feedback), the queued questions and the pills.
func (m Model) infoWant() int {
	n := len(m.queue) + len(m.pills.lines(m.width, m.st)) + len(m.chips.lines(m.width, m.st))
	if m.hasStatusLine() {
		n++
	}
	return n
}

// hasStatusLine reports whether statusLine has something to say, without
// drawing it: the layout asks on every message, a streamed chunk included.
func (m Model) hasStatusLine() bool {
	return !m.ready || m.activity != idle || m.notice != "" || m.focus == focusTranscript ||
		(m.transcript.below() > 0 && m.layout.transcript.h > 0)
}

// infoBlock is the info area in at most height lines: when they do not
// all fit, the pills shrink to one line, then the queue does.
func (m Model) infoBlock(width, height int) []string {
	var out []string
	if s := m.statusLine(); s != "" {
		out = append(out, s)
	}
	queued := m.queuedLines(width)
	pillLines := m.pills.lines(width, m.st)
	if len(out)+len(queued)+len(pillLines) > height {
		pillLines = m.pills.compact(width, m.st)
	}
	if len(out)+len(queued)+len(pillLines) > height && len(queued) > 1 {
		queued = []string{m.st.notice.Render(fmt.Sprintf("⧗ %d questions queued: sent one by one when docent is free", len(m.queue)))}
	}
	out = append(out, queued...)
	out = append(out, pillLines...)
	return append(out, m.chips.lines(width, m.st)...)
}

func (m Model) queuedLines(width int) []string {
	out := make([]string, len(m.queue))
	for i, q := range m.queue {
		text := textsafe.Line(q)
		out[i] = m.st.notice.Render("⧗ queued: ") + m.st.user.Render(text)
		out[i] = fitLine(out[i], width)
	}
	return out
}

// statusLine is the line above the input: progress, feedback or a scroll
// hint. hasStatusLine says when it is not empty.
func (m Model) statusLine() string {
	switch {
	case !m.ready:
		return m.spin.View() + " " + m.st.notice.Render(progressText(m.progress)+prefixed("  ", m.notice))
	case m.activity == retrieving:
		return m.spin.View() + " " + m.st.notice.Render("Searching the docs… "+m.elapsed()+prefixed("  ", m.notice))
	case m.activity == answering:
		return m.spin.View() + " " + m.st.notice.Render("Answering… "+m.elapsed()+"  (esc stops)"+prefixed("  ", m.notice))
	case m.activity == attaching:
		return m.spin.View() + " " + m.st.notice.Render("Loading the context… "+m.elapsed()+prefixed("  ", m.notice))
	case m.activity == savingNote:
		return m.spin.View() + " " + m.st.notice.Render("Saving the note… "+m.elapsed()+prefixed("  ", m.notice))
	case m.activity == listingNotes:
		return m.spin.View() + " " + m.st.notice.Render("Reading the notes… "+m.elapsed()+prefixed("  ", m.notice))
	case m.activity == resuming:
		return m.spin.View() + " " + m.st.notice.Render("Opening the conversation… "+m.elapsed()+prefixed("  ", m.notice))
	case m.activity == exporting:
		return m.spin.View() + " " + m.st.notice.Render("Exporting the conversation… "+m.elapsed()+prefixed("  ", m.notice))
	case m.activity == enhancing:
		return m.spin.View() + " " + m.st.notice.Render("Asking the model for search terms… "+m.elapsed()+prefixed("  ", m.notice))
	case m.activity == makingQuiz:
		return m.spin.View() + " " + m.st.notice.Render("Writing a quiz… "+m.elapsed()+"  (esc stops)"+prefixed("  ", m.notice))
	case m.notice != "":
		return m.st.notice.Render(m.notice)
	case m.focus == focusTranscript:
		// The transcript has no title line to mark its focus.
		return m.st.paneActive.Render("▸ Transcript") + m.st.notice.Render(" ↑/↓ pgup/pgdn home/end scroll · esc: back")
	case m.transcript.below() > 0 && m.layout.transcript.h > 0:
		return m.st.notice.Render(fmt.Sprintf("↓ %d more lines (pgdn to follow)", m.transcript.below()))
	}
	return ""
}

func (m Model) elapsed() string {
	return fmt.Sprintf("%.1fs", m.now.Sub(m.started).Seconds())
}

// statusBar shows the knowledge base, the attached context, store, model,
// phase and the last latency; the least important parts go first when
// the width is short.
func (m Model) statusBar(width int) string {
	st := m.status
	if !m.ready {
		return m.st.status.Render(fitLine(" starting… │ ? keys ", width))
	}
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
	kb := fmt.Sprintf("%d docs · %d chunks", st.Docs, st.Chunks)
	if n := len(m.skipped); n > 0 {
		kb += fmt.Sprintf(" · %d skipped (f5)", n)
	}
	context := ""
	if m.context != "" {
		context = "context " + textsafe.Line(filepath.Base(m.context))
	}
	scope := ""
	if len(m.settings.scope) > 0 {
		scope = "scope " + textsafe.Line(strings.Join(m.settings.scope, ","))
	}
	// In order of importance: the first ones survive on narrow screens.
	parts := []string{kb, scope, context, fmt.Sprintf("phase %d", phase), latency, provider, store}
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
