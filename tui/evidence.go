package tui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/textsafe"
)

// evidencePane lists the evidence of the last turn, best first by the
// rank score retrieval orders it by. ↑/↓ select an item and Enter expands
// it to the whole chunk; an item taller than the pane (an expanded chunk)
// scrolls line by line before the selection moves on. Space excludes the
// selected chunk from the next answer (or includes it again); the model
// re-asks with the rest on r.
type evidencePane struct {
	items    []retrieval.Evidence // text fields sanitized, sorted by rank
	selected int
	expanded bool            // the selected item shows its whole chunk
	excluded map[string]bool // chunk ids left out of a re-asked answer
	spans    []lineSpan      // where each item's lines are in the body
	body     scroller
	width    int
	st       *styles
}

// lineSpan is the lines [start, end) of one item.
type lineSpan struct{ start, end int }

func newEvidencePane(st *styles) evidencePane {
	return evidencePane{body: newScroller(), st: st}
}

func sanitizeEvidence(items []retrieval.Evidence) []retrieval.Evidence {
	out := make([]retrieval.Evidence, len(items))
	for i, e := range items {
		// Everything but the chunk itself is shown on one line (titles,
		// breadcrumbs, paths, the snippet), so line breaks go too.
		e.DocSlug = textsafe.Line(e.DocSlug)
		e.Title = textsafe.Line(e.Title)
		e.Category = textsafe.Line(e.Category)
		e.Snippet = textsafe.Line(e.Snippet)
		e.Content = textsafe.String(e.Content)
		e.HeaderPath = textsafe.Line(e.HeaderPath)
		e.SourcePath = textsafe.Line(e.SourcePath)
		e.ChunkID = textsafe.Line(e.ChunkID)
		terms := make([]string, len(e.MatchedTerms))
		for j, t := range e.MatchedTerms {
			terms[j] = textsafe.Line(t)
		}
		e.MatchedTerms = terms
		out[i] = e
	}
	// The pane says "rank" on every row, so it must be in rank order
	// whatever order the result came in; ties keep the engine's order.
	slices.SortStableFunc(out, func(a, b retrieval.Evidence) int { return cmp.Compare(b.RankScore, a.RankScore) })
	return out
}

func (p *evidencePane) setItems(items []retrieval.Evidence) {
	p.items = sanitizeEvidence(items)
	p.selected, p.expanded, p.excluded = 0, false, nil
	p.rebuild()
	p.body.vp.GotoTop()
}

func (p *evidencePane) setSize(width, height int) {
	if width == p.width && height-1 == p.body.height() {
		return
	}
	p.body.setSize(width, max(height-1, 0)) // the title takes a line
	if width != p.width {
		p.width = width
		p.rebuild()
	}
	p.reveal()
}

// Update handles a key or wheel message while the pane has focus (the
// wheel also when it does not).
func (p evidencePane) Update(msg tea.Msg) (evidencePane, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || len(p.items) == 0 {
		p.body = p.body.Update(msg)
		return p, nil
	}
	switch k.String() {
	case "up":
		p.step(-1)
	case "down":
		p.step(1)
	case "enter":
		p.expanded = !p.expanded
		p.rebuild()
		p.reveal()
	case "space":
		p.toggle()
	default:
		p.body = p.body.Update(msg)
	}
	return p, nil
}

// toggle excludes the selected chunk, or includes it again.
func (p *evidencePane) toggle() {
	id := p.items[p.selected].ChunkID
	if p.excluded[id] {
		delete(p.excluded, id)
	} else {
		if p.excluded == nil {
			p.excluded = map[string]bool{}
		}
		p.excluded[id] = true
	}
	p.rebuild()
}

// included reports whether a chunk is to be kept in a re-asked answer.
func (p evidencePane) included(chunkID string) bool { return !p.excluded[chunkID] }

// step scrolls through the selected item while part of it is out of view
// in that direction, then selects the next item.
func (p *evidencePane) step(delta int) {
	s := p.spans[p.selected]
	top, bottom := p.body.offset(), p.body.offset()+p.body.height()
	switch {
	case delta > 0 && s.end > bottom:
		p.body.vp.ScrollDown(1)
	case delta < 0 && s.start < top:
		p.body.vp.ScrollUp(1)
	default:
		next := min(max(p.selected+delta, 0), len(p.items)-1)
		if next == p.selected {
			return
		}
		p.selected, p.expanded = next, false
		p.rebuild()
		p.reveal()
	}
}

// reveal scrolls as little as needed to show the selected item, from its
// first line when it is taller than the pane.
func (p *evidencePane) reveal() {
	if p.selected >= len(p.spans) {
		return
	}
	s := p.spans[p.selected]
	top, h := p.body.offset(), p.body.height()
	switch {
	case s.start < top || s.end-s.start > h:
		p.body.vp.SetYOffset(s.start)
	case s.end > top+h:
		p.body.vp.SetYOffset(s.end - h)
	}
}

// rebuild renders every item into the viewport, keeping the scroll
// position.
func (p *evidencePane) rebuild() {
	if p.width <= 0 {
		return
	}
	if len(p.items) == 0 {
		p.spans = nil
		p.body.setLines([]string{p.st.dim.Render("No evidence yet: ask a question.")})
		return
	}
	var all []string
	p.spans = make([]lineSpan, len(p.items))
	for i, e := range p.items {
		start := len(all)
		all = append(all, p.renderItem(i, e)...)
		p.spans[i] = lineSpan{start, len(all)}
	}
	offset := p.body.offset()
	p.body.setLines(all)
	p.body.vp.SetYOffset(offset)
}

// title is the pane's title line text.
func (p evidencePane) title() string {
	if len(p.items) == 0 {
		return "Evidence"
	}
	if n := len(p.excluded); n > 0 {
		return fmt.Sprintf("Evidence · %d by rank · %d left out", len(p.items), n)
	}
	return fmt.Sprintf("Evidence · %d by rank", len(p.items))
}

func (p *evidencePane) renderItem(i int, e retrieval.Evidence) []string {
	st := p.st
	mark := "  "
	titleStyle := st.label
	if i == p.selected {
		mark = st.selected.Render("▸ ")
		titleStyle = st.selected
	}
	out := p.renderBody(i, e, mark, titleStyle)
	if p.excluded[e.ChunkID] {
		// Dimmed, and said in words: a terminal without colour still
		// shows what the next answer leaves out.
		for j := range out {
			out[j] = st.dim.Render(ansi.Strip(out[j]))
		}
	}
	return out
}

func (p *evidencePane) renderBody(i int, e retrieval.Evidence, mark string, titleStyle lipgloss.Style) []string {
	st, w := p.st, p.width
	status := ""
	if p.excluded[e.ChunkID] {
		status = " · left out"
	}
	// The head wraps rather than losing its end: the rank is what the list
	// is sorted by.
	head := titleStyle.Render(fmt.Sprintf("%d %s", i+1, e.Title)) +
		st.dim.Render(fmt.Sprintf(" · %s · rank %.2f%s", e.Category, e.RankScore, status))
	var out []string
	for j, l := range strings.Split(lipgloss.Wrap(head, max(w-4, 1), ""), "\n") {
		if j == 0 {
			out = append(out, mark+l)
		} else {
			out = append(out, "    "+l)
		}
	}
	if e.HeaderPath != "" {
		out = append(out, wrapPrefixed(breadcrumb(e.HeaderPath), w, "    ", "    ", st.dim)...)
	}
	if e.Snippet != "" {
		snippet := highlightTerms(e.Snippet, e.MatchedTerms, st.highlight)
		out = append(out, wrapPrefixed(snippet, w, "    ", "    ", lipgloss.NewStyle())...)
	}
	if e.SourcePath != "" {
		out = append(out, wrapPrefixed(e.SourcePath, w, "    ", "    ", st.dim)...)
	}
	if i == p.selected && p.expanded {
		out = append(out, "    "+st.paneTitle.Render(fmt.Sprintf("── %s ──", e.ChunkID)))
		content := strings.TrimSpace(e.Content)
		if content == "" {
			content = "(empty chunk)"
		}
		for _, para := range strings.Split(content, "\n") {
			out = append(out, wrapPrefixed(para, w, "    ", "    ", lipgloss.NewStyle())...)
		}
	}
	return out
}

// breadcrumb shows "Title > Section > Sub" as "Title › Section › Sub".
func breadcrumb(headerPath string) string {
	return strings.ReplaceAll(headerPath, " > ", " › ")
}

// matchRanges returns the byte ranges of s to highlight: every word that
// starts with a matched term (so "note" marks "notes", as the engine stems
// plurals), and every occurrence of a multi-word term starting at a word.
// Matching ignores case.
func matchRanges(s string, terms []string) [][2]int {
	var ranges [][2]int
	lower := strings.ToLower(s)
	if len(lower) != len(s) {
		// Lowercasing changed byte lengths (rare scripts): offsets would
		// not line up, so highlight nothing rather than the wrong text.
		return nil
	}
	for start := 0; start < len(s); {
		r, size := utf8.DecodeRuneInString(s[start:])
		if !isWordRune(r) || (start > 0 && isWordRune(lastRune(s[:start]))) {
			start += size
			continue
		}
		end := 0
		for _, t := range terms {
			t = strings.ToLower(strings.TrimSpace(t))
			if t == "" || !strings.HasPrefix(lower[start:], t) {
				continue
			}
			end = max(end, wordEnd(s, start+len(t)))
		}
		if end > start {
			ranges = append(ranges, [2]int{start, end})
			start = end
			continue
		}
		start += size
	}
	return ranges
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// wordEnd extends i to the end of the word it is in.
func wordEnd(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !isWordRune(r) {
			break
		}
		i += size
	}
	return i
}

// highlightTerms styles the matched terms in s.
func highlightTerms(s string, terms []string, style lipgloss.Style) string {
	ranges := matchRanges(s, terms)
	if len(ranges) == 0 {
		return s
	}
	var b strings.Builder
	prev := 0
	for _, r := range ranges {
		b.WriteString(s[prev:r[0]])
		b.WriteString(style.Render(s[r[0]:r[1]]))
		prev = r[1]
	}
	b.WriteString(s[prev:])
	return b.String()
}
