package tui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/docent-sh/docent/textsafe"
)

type overlayKind int

const (
	noOverlay overlayKind = iota
	helpOverlay
	skippedOverlay
	quizOverlay
)

// overlay is a page that covers the body (transcript and panes) until it
// is closed: the key help or the list of skipped files. It scrolls like a
// pane, so it is whole at any terminal size.
type overlay struct {
	kind  overlayKind
	title string
	hint  string // how to close it, beside the title
	body  scroller
}

func (o *overlay) setSize(width, height int) {
	o.body.setSize(width, max(height-1, 0)) // the title takes a line
}

// Update scrolls the overlay for a key or a wheel message.
func (o overlay) Update(msg tea.Msg) (overlay, tea.Cmd) {
	o.body = o.body.Update(msg)
	return o, nil
}

func (o overlay) view(st *styles, r rect) []string {
	if r.h <= 0 {
		return nil
	}
	head := st.paneActive.Render(o.title) + st.dim.Render("  "+o.hint)
	if p := o.body.position(); p != "" {
		head += st.dim.Render("  ↑/↓ pgup/pgdn scroll · " + p)
	}
	return append([]string{fitLine(head, r.w)}, o.body.view(rect{r.x, r.y + 1, r.w, r.h - 1})...)
}

// newOverlay makes an overlay showing lines in an area of width×height.
func newOverlay(kind overlayKind, title, hint string, lines []string, width, height int) overlay {
	o := overlay{kind: kind, title: title, hint: hint, body: newScroller()}
	o.setSize(width, height)
	o.body.setLines(lines)
	return o
}

// helpLines lays out every key binding, then the typed commands. The
// groups of keys go side by side, as many to a row as the width takes; on
// a screen too narrow for one group, each binding takes its own lines.
func helpLines(keys keyMap, hm help.Model, st *styles, width int) []string {
	hm.ShowAll = true
	hm.SetWidth(0) // measure untruncated: help cuts what does not fit with "…"
	groups := keys.FullHelp()
	var rows [][][]key.Binding
	fits := false
	for perRow := len(groups); perRow >= 1 && !fits; perRow-- {
		rows = rows[:0]
		fits = true
		for i := 0; i < len(groups); i += perRow {
			row := groups[i:min(i+perRow, len(groups))]
			rows = append(rows, row)
			fits = fits && lipgloss.Width(hm.FullHelpView(row)) <= width
		}
	}
	commands := commandBindings()
	if !fits || lipgloss.Width(hm.FullHelpView([][]key.Binding{commands})) > width {
		return narrowHelp(append(groups, commands), hm.Styles, st, width)
	}

	var out []string
	for i, row := range rows {
		if i > 0 {
			out = append(out, "")
		}
		out = append(out, strings.Split(hm.FullHelpView(row), "\n")...)
	}
	out = append(out, "", st.paneActive.Render("Commands")+st.dim.Render("  (type, then enter)"))
	return append(out, strings.Split(hm.FullHelpView([][]key.Binding{commands}), "\n")...)
}

// narrowHelp lists each binding on its own line, its description wrapped
// under it, group after group; the last group is the typed commands.
func narrowHelp(groups [][]key.Binding, hs help.Styles, st *styles, width int) []string {
	var out []string
	for i, g := range groups {
		if i == len(groups)-1 {
			out = append(out, "", st.paneActive.Render("Commands")+st.dim.Render("  (type, then enter)"))
		} else if i > 0 {
			out = append(out, "")
		}
		for _, b := range g {
			out = append(out, hs.FullKey.Render(b.Help().Key))
			out = append(out, wrapPrefixed(b.Help().Desc, width, "  ", "  ", hs.FullDesc)...)
		}
	}
	return out
}

// skippedLines lists the files start-up skipped, one a line with its
// reason, wrapped to width.
func skippedLines(files []SkippedFile, st *styles, width int) []string {
	if len(files) == 0 {
		return []string{st.dim.Render("Every file of the knowledge base was loaded.")}
	}
	var out []string
	for _, f := range files {
		out = append(out, wrapPrefixed(textsafe.Line(f.Path), width, "  ", "    ", st.label)...)
		out = append(out, wrapPrefixed(textsafe.Line(f.Reason), width, "    ", "    ", st.dim)...)
	}
	return out
}
