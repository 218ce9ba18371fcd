package tui

import (
	"cmp"
	"fmt"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/textsafe"
)

// maxPills is how many options can be picked with a digit key.
const maxPills = 9

// pills are the clarification options of the last reply. While active
// they own the arrow keys, Enter and the digits.
type pills struct {
	options  []retrieval.Option
	selected int
	active   bool
	asked    int    // the transcript message that offered them
	question string // the question they were offered for: a pick answers it
	// reasons marks the reasons for a rating down (Esc skips them, and
	// nothing is marked dismissed); head is what the pills are for, "Pick"
	// when empty.
	reasons bool
	head    string
}

func newPills(opts []retrieval.Option) pills {
	clean := make([]retrieval.Option, 0, min(len(opts), maxPills))
	for _, o := range opts {
		if len(clean) == maxPills {
			break
		}
		// A pill is one line: a line break in a label must not split it.
		o.Label = textsafe.Line(o.Label)
		o.Category = textsafe.Line(o.Category)
		clean = append(clean, o)
	}
	return pills{options: clean, active: len(clean) > 0}
}

// move shifts the highlight by delta, wrapping around.
func (p *pills) move(delta int) {
	if n := len(p.options); n > 0 {
		p.selected = ((p.selected+delta)%n + n) % n
	}
}

// pick returns the option for a 1-based number, if there is one.
func (p pills) pick(n int) (retrieval.Option, bool) {
	if n < 1 || n > len(p.options) {
		return retrieval.Option{}, false
	}
	return p.options[n-1], true
}

func (p pills) current() (retrieval.Option, bool) { return p.pick(p.selected + 1) }

func optionText(i int, o retrieval.Option) string {
	if o.Category == "" {
		return fmt.Sprintf("%d %s", i+1, o.Label)
	}
	return fmt.Sprintf("%d %s (%s)", i+1, o.Label, o.Category)
}

// pillText is an option in brackets in at most width cells. A long label
// (a doc or note title) is cut inside the brackets, so the pill still
// reads as one and its start ("Docs: ", "Notes: ") stays.
func pillText(i int, o retrieval.Option, width int) string {
	text := optionText(i, o)
	if lipgloss.Width(text)+2 <= width {
		return "[" + text + "]"
	}
	return "[" + ansi.Truncate(text, max(width-2, 2), "…") + "]"
}

// lines lays the pills out left to right, wrapping to width. The selected
// pill carries a ▸ marker as well as its colour, so it stays visible
// without colour.
func (p pills) lines(width int, st *styles) []string {
	if !p.active || width <= 0 {
		return nil
	}
	pieces := make([]string, len(p.options))
	for i, o := range p.options {
		mark, style := " ", st.pill
		if i == p.selected {
			mark, style = st.selected.Render("▸"), st.pillActive
		}
		pieces[i] = mark + style.Render(pillText(i, o, width-1))
	}
	return flow(st.dim.Render(cmp.Or(p.head, "Pick")+":"), pieces, width)
}

// flow lays head and pieces out left to right, one space apart, starting
// a new line where the next piece would pass width. Each piece fits in
// width on its own: the caller cuts it.
func flow(head string, pieces []string, width int) []string {
	var out []string
	cur, curW := head, lipgloss.Width(head)
	for _, p := range pieces {
		w := lipgloss.Width(p)
		if curW > 0 && curW+1+w > width {
			out = append(out, cur)
			cur, curW = "", 0
		}
		if curW > 0 {
			cur += " "
			curW++
		}
		cur += p
		curW += w
	}
	return append(out, cur)
}

// compact is the one-line form for when the pills do not fit: only the
// highlighted option, with its position, so ←/→ still show each in turn.
func (p pills) compact(width int, st *styles) []string {
	o, ok := p.current()
	if !ok || width <= 0 {
		return nil
	}
	head := st.dim.Render(fmt.Sprintf("%s %d/%d ←/→:", cmp.Or(p.head, "Pick"), p.selected+1, len(p.options)))
	text := pillText(p.selected, o, width-lipgloss.Width(head)-2)
	return []string{ansi.Truncate(head+" "+st.selected.Render("▸")+st.pillActive.Render(text), width, "…")}
}
