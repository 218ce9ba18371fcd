package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// newViewport is the scrolling body every pane uses. Its keys are the
// arrows and the page keys only: letters belong to the input, and pane
// text is wrapped to the width, so there is nothing to scroll sideways.
func newViewport() viewport.Model {
	vp := viewport.New()
	vp.KeyMap = viewport.KeyMap{
		Up:       key.NewBinding(key.WithKeys("up")),
		Down:     key.NewBinding(key.WithKeys("down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup")),
		PageDown: key.NewBinding(key.WithKeys("pgdown")),
	}
	vp.SetHorizontalStep(0)
	return vp
}

// scrollViewport applies a key or wheel message to vp: the viewport's own
// bindings, plus Home and End, which it has none for.
func scrollViewport(vp viewport.Model, msg tea.Msg) viewport.Model {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "home":
			vp.GotoTop()
			return vp
		case "end":
			vp.GotoBottom()
			return vp
		}
	}
	vp, _ = vp.Update(msg) // the viewport returns no Cmd for keys or the wheel
	return vp
}

// scrollKey reports whether a key scrolls a focused pane.
func scrollKey(msg tea.KeyPressMsg) bool {
	switch msg.String() {
	case "up", "down", "pgup", "pgdown", "home", "end":
		return true
	}
	return false
}

// viewLines is what vp shows, as exactly the lines of r.
func viewLines(vp viewport.Model, r rect) []string {
	return fitBlock(strings.Split(vp.View(), "\n"), r.w, r.h)
}

// paneFrame draws a pane into r: a title rule, then the body. The rule
// ends with how far the body is scrolled when it does not fit.
func paneFrame(st *styles, title string, focused bool, vp viewport.Model, r rect) []string {
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
	if vp.TotalLineCount() > vp.Height() {
		pos = fmt.Sprintf(" %d%% ", int(vp.ScrollPercent()*100+0.5))
	}
	fill := max(r.w-lipgloss.Width(head)-lipgloss.Width(pos), 0)
	titleLine := style.Render(head) + st.rule.Render(strings.Repeat("─", fill)) + st.dim.Render(pos)
	body := rect{r.x, r.y + 1, r.w, r.h - 1}
	return append([]string{fitLine(titleLine, r.w)}, viewLines(vp, body)...)
}
