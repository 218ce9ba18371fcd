package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// scroller is the scrolling body of every pane: a bubbles viewport, which
// keeps the scroll position and handles the keys and the wheel, and the
// lines it holds. Panes draw the viewport's window of those lines
// themselves: the lines are already wrapped to the width, and the
// viewport's own View would wrap and pad each of them again with lipgloss
// on every frame (most of a frame's cost with three panes open).
type scroller struct {
	vp    viewport.Model
	lines []string // never contain a line break, so the viewport keeps them as they are
}

// newScroller's keys are the arrows and the page keys only: letters
// belong to the input, and pane text is wrapped to the width, so there is
// nothing to scroll sideways.
func newScroller() scroller {
	vp := viewport.New()
	vp.KeyMap = viewport.KeyMap{
		Up:       key.NewBinding(key.WithKeys("up")),
		Down:     key.NewBinding(key.WithKeys("down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup")),
		PageDown: key.NewBinding(key.WithKeys("pgdown")),
	}
	vp.SetHorizontalStep(0)
	return scroller{vp: vp}
}

func (s *scroller) setSize(width, height int) {
	s.vp.SetWidth(width)
	s.vp.SetHeight(height)
}

// setLines replaces the content, keeping the scroll position where it can.
func (s *scroller) setLines(lines []string) {
	s.lines = lines
	s.vp.SetContentLines(lines)
}

func (s *scroller) offset() int { return s.vp.YOffset() }
func (s *scroller) height() int { return s.vp.Height() }

// Update applies a key or wheel message: the viewport's own bindings,
// plus Home and End, which it has none for.
func (s scroller) Update(msg tea.Msg) scroller {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "home":
			s.vp.GotoTop()
			return s
		case "end":
			s.vp.GotoBottom()
			return s
		}
	}
	s.vp, _ = s.vp.Update(msg) // the viewport returns no Cmd for keys or the wheel
	return s
}

// view is the lines in view, as exactly the lines of r.
func (s scroller) view(r rect) []string {
	from := min(s.vp.YOffset(), len(s.lines))
	to := min(from+s.vp.Height(), len(s.lines))
	return fitBlock(s.lines[from:to], r.w, r.h)
}

// position says how far the body is scrolled, when it does not fit.
func (s scroller) position() string {
	if s.vp.TotalLineCount() <= s.vp.Height() {
		return ""
	}
	return fmt.Sprintf("%d%%", int(s.vp.ScrollPercent()*100+0.5))
}

// scrollKey reports whether a key scrolls a focused pane.
func scrollKey(msg tea.KeyPressMsg) bool {
	switch msg.String() {
	case "up", "down", "pgup", "pgdown", "home", "end":
		return true
	}
	return false
}

// paneFrame draws a pane into r: a title rule, then the body. The rule
// ends with how far the body is scrolled when it does not fit.
func paneFrame(st *styles, title string, focused bool, body scroller, r rect) []string {
	if r.h <= 0 {
		return nil
	}
	style, mark := st.paneTitle, "─"
	if focused {
		style, mark = st.paneActive, "▸"
	}
	head := mark + " " + title + " "
	if focused {
		head += "(esc: back) "
	}
	pos := ""
	if p := body.position(); p != "" {
		pos = " " + p + " "
	}
	fill := max(r.w-lipgloss.Width(head)-lipgloss.Width(pos), 0)
	titleLine := style.Render(head) + st.rule.Render(strings.Repeat("─", fill)) + st.dim.Render(pos)
	return append([]string{fitLine(titleLine, r.w)}, body.view(rect{r.x, r.y + 1, r.w, r.h - 1})...)
}
