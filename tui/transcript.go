package tui

import (
	"fmt"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/docent-sh/docent/cite"
	"github.com/docent-sh/docent/retrieval"
)

type role int

const (
	roleUser role = iota
	roleAssistant
	roleInfo  // a note from docent itself, e.g. "Stopped."
	roleError // a failed turn
	roleNotes // the notes /notes listed
)

// message is one transcript entry. Its text is sanitized before it gets
// here; its rendered lines are cached and only rebuilt when the text, the
// width or the theme changes.
type message struct {
	role      role
	text      string // markdown for assistant messages
	footer    string // one line under an answer: stopped, fallback notice...
	hint      string // retrieval's one-line notice for the asker, e.g. "Notes unavailable."
	streaming bool
	// answer marks a written answer (not a clarification or a reply that
	// nothing was found), and question is what it answered: /note saves
	// them.
	answer   bool
	question string
	notes    *noteList // what /notes listed, for roleNotes
	// evidence is what an answer rests on (sanitized, by rank), kept with
	// the raw text so citations can be resolved against it.
	evidence []retrieval.Evidence
	// sources are the chunks the writer was given, when the backend said;
	// else evidence names what a citation points at.
	sources []cite.Source

	stream streamRender // settled blocks while streaming
	lines  []string     // rendered, including the blank line that separates it from the previous message
	dirty  bool
}

// transcript is the scrolling conversation, a component over a viewport.
// It keeps each message's rendered lines and where each message starts, so
// a streamed chunk re-renders only the last message. The viewport holds a
// window of those lines, the page in view, so handing it the lines costs
// the same for ten messages or ten thousand; for a key or the wheel the
// window widens by a page either side, the viewport scrolls in it, and the
// window closes on the new view.
type transcript struct {
	msgs   []*message
	starts []int // starts[i] is the first line of msgs[i]
	total  int   // lines in all messages

	width, height int
	wantWidth     int  // the viewport's width; width catches up after a resize
	follow        bool // stick to the bottom as output arrives

	body     scroller // the window of lines around the view
	winStart int      // the transcript line the window starts at

	md *markdown
	st *styles
}

func newTranscript(st *styles) transcript {
	return transcript{follow: true, st: st, body: newScroller()}
}

// eagerRewrap is the transcript length up to which a new width is applied
// at once. Past it, re-wrapping every message takes long enough (about
// 0.25 ms a message) that a window being dragged wider would stutter, so
// the new width waits until the size settles (applyWidth); meanwhile the
// old lines are cut to fit.
const eagerRewrap = 40

// setSize changes the viewport. It reports whether a new width is pending
// because the transcript is too long to re-wrap at every step of a resize.
func (t *transcript) setSize(width, height int) (pending bool) {
	if height != t.height || width != t.wantWidth {
		t.height = height
		t.wantWidth = width
		t.body.setSize(width, height)
		if width != t.width && (t.md == nil || len(t.msgs) <= eagerRewrap) {
			t.applyWidth()
		}
		t.reframe(t.offset())
	}
	return t.wantWidth != t.width
}

// applyWidth re-renders every message for the last width asked for.
func (t *transcript) applyWidth() {
	if t.wantWidth == t.width && t.md != nil {
		return
	}
	t.width = t.wantWidth
	t.restyle()
}

// restyle re-renders everything for a new width or theme.
func (t *transcript) restyle() {
	t.md = newMarkdown(t.st.dark, max(t.width, 1))
	for _, m := range t.msgs {
		m.dirty = true
		m.stream = streamRender{}
	}
	t.relayout(0)
}

// append adds a message at the bottom.
func (t *transcript) append(m *message) {
	m.dirty = true
	t.msgs = append(t.msgs, m)
	t.starts = append(t.starts, t.total)
	t.relayout(len(t.msgs) - 1)
}

// touchLast re-renders the newest message after its text changed.
func (t *transcript) touchLast() { t.touch(len(t.msgs) - 1) }

// touch re-renders message i after its text or footer changed.
func (t *transcript) touch(i int) {
	if i >= 0 && i < len(t.msgs) {
		t.msgs[i].dirty = true
		t.relayout(i)
	}
}

// relayout renders dirty messages from index 'from' on and recomputes
// their start lines.
func (t *transcript) relayout(from int) {
	if t.md == nil {
		return // no size yet: rendered on the first setSize
	}
	offset := t.offset()
	for i := from; i < len(t.msgs); i++ {
		m := t.msgs[i]
		if m.dirty {
			m.lines = t.render(m, i == 0)
			m.dirty = false
		}
		if i == 0 {
			t.starts[i] = 0
		} else {
			t.starts[i] = t.starts[i-1] + len(t.msgs[i-1].lines)
		}
	}
	t.total = 0
	if n := len(t.msgs); n > 0 {
		t.total = t.starts[n-1] + len(t.msgs[n-1].lines)
	}
	t.reframe(offset)
}

func (t *transcript) render(m *message, first bool) []string {
	var body []string
	sourced := false // the body ends with the answer's sources
	switch m.role {
	case roleUser:
		body = wrapPrefixed(m.text, t.width, t.st.userMark.Render("› "), "  ", t.st.user)
	case roleAssistant:
		// Citations show as numbered footnotes, and the finished answer
		// lists the sources it cites.
		if m.streaming {
			// A citation still being written is held back rather than
			// shown as half an id.
			body = m.stream.render(t.md, cite.NewRenumberer(nil).Write(m.text))
		} else {
			f := m.footnoted()
			body = t.md.render(f.Text)
			if sourced = len(f.Notes) > 0; sourced {
				body = append(body, "")
			}
			for _, n := range f.Notes {
				style := t.st.footer
				if !n.Known {
					style = t.st.errorText
				}
				body = append(body, wrapPrefixed(fmt.Sprintf("[%d] %s", n.N, n.Label()), t.width, "  ", "      ", style)...)
			}
		}
	case roleInfo:
		body = wrapPrefixed(m.text, t.width, "  ", "  ", t.st.dim)
	case roleError:
		body = wrapPrefixed(m.text, t.width, t.st.errorText.Render("! "), "  ", t.st.errorText)
	case roleNotes:
		body = m.notes.lines(t.width, t.st)
	}
	if m.hint != "" {
		if sourced {
			body = append(body, "") // the hint is about the turn, not one more source
		}
		body = append(body, wrapPrefixed(m.hint, t.width, "  ", "  ", t.st.dim)...)
	}
	if m.footer != "" {
		body = append(body, wrapPrefixed(m.footer, t.width, "  ", "  ", t.st.footer)...)
	}
	if first {
		return body
	}
	return append([]string{""}, body...)
}

// wrapPrefixed wraps text to width with a first-line prefix and a hanging
// indent, styling the text.
func wrapPrefixed(text string, width int, first, rest string, style lipgloss.Style) []string {
	inner := max(width-lipgloss.Width(first), 1)
	wrapped := strings.Split(lipgloss.Wrap(text, inner, ""), "\n")
	for i, l := range wrapped {
		p := rest
		if i == 0 {
			p = first
		}
		wrapped[i] = p + style.Render(l)
	}
	return wrapped
}

func (t *transcript) maxOffset() int { return max(t.total-t.height, 0) }

// offset is the first transcript line in view.
func (t *transcript) offset() int { return t.winStart + t.body.offset() }

// reframe shows the transcript from line offset (from the bottom when
// following) and hands the viewport the page in view.
func (t *transcript) reframe(offset int) { t.reframePadded(offset, 0) }

// reframePadded is reframe with pad more lines either side of the view.
func (t *transcript) reframePadded(offset, pad int) {
	if t.follow {
		offset = t.maxOffset()
	}
	offset = min(max(offset, 0), t.maxOffset())
	t.follow = offset >= t.maxOffset()
	start := max(offset-pad, 0)
	end := min(offset+t.height+pad, t.total)
	t.body.setLines(t.lineRange(start, end))
	t.winStart = start
	t.body.vp.SetYOffset(offset - start)
}

// lineRange copies transcript lines [from, to).
func (t *transcript) lineRange(from, to int) []string {
	if from >= to {
		return nil
	}
	out := make([]string, 0, to-from)
	i := max(sort.Search(len(t.starts), func(i int) bool { return t.starts[i] > from })-1, 0)
	line := from - t.starts[i]
	for ; i < len(t.msgs) && len(out) < to-from; i++ {
		lines := t.msgs[i].lines
		for ; line < len(lines) && len(out) < to-from; line++ {
			out = append(out, lines[line])
		}
		line = 0
	}
	return out
}

// Update scrolls the transcript for a key or a wheel message: the
// viewport's own bindings, plus Home and End. Scrolling up stops
// following new output until the view is back at the bottom.
func (t transcript) Update(msg tea.Msg) (transcript, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "home":
			t.top()
			return t, nil
		case "end":
			t.bottom()
			return t, nil
		}
	}
	before := t.offset()
	t.reframePadded(before, max(t.height, 1))
	t.body = t.body.Update(msg)
	if after := t.offset(); after != before {
		t.follow = false
	}
	t.reframe(t.offset())
	return t, nil
}

func (t *transcript) top() {
	t.follow = false
	t.reframe(0)
}

func (t *transcript) bottom() {
	t.follow = true
	t.reframe(t.maxOffset())
}

// below reports how many lines are hidden under the view.
func (t *transcript) below() int { return max(t.total-t.offset()-t.height, 0) }

// view is the lines in view, as exactly the lines of r. Only they are
// drawn, so a frame costs the same for ten messages or ten thousand.
func (t transcript) view(r rect) []string { return t.body.view(r) }

// lastAnswer is the newest assistant message with text, for Ctrl+Y.
func (t *transcript) lastAnswer() *message {
	for i := len(t.msgs) - 1; i >= 0; i-- {
		if t.msgs[i].role == roleAssistant && t.msgs[i].text != "" {
			return t.msgs[i]
		}
	}
	return nil
}

// lastWritten is the newest written answer, for /note: not a
// clarification or a reply that nothing was found, and not one still
// being written.
func (t *transcript) lastWritten() *message {
	for i := len(t.msgs) - 1; i >= 0; i-- {
		if m := t.msgs[i]; m.answer && !m.streaming && strings.TrimSpace(m.text) != "" {
			return m
		}
	}
	return nil
}

// footnoted is the message with its citations numbered, named by the
// sources the writer was given or else by the turn's evidence.
func (m *message) footnoted() cite.Footnoted {
	sources := m.sources
	if sources == nil {
		for _, ev := range m.evidence {
			sources = append(sources, cite.Source{ID: ev.ChunkID, Title: ev.Title, Path: ev.HeaderPath, File: ev.SourcePath})
		}
	}
	return cite.Footnotes(m.text, sources)
}
