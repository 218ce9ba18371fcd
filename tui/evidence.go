package tui

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/lipgloss/v2"

	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/textsafe"
)

// evidencePane lists the evidence of the last turn. ↑/↓ select an item
// and Enter expands it to the whole chunk.
type evidencePane struct {
	items    []retrieval.Evidence // text fields sanitized
	selected int
	expanded bool // the selected item shows its whole chunk

	width, height int
	body          lines // rendered items, scrolled to keep the selection in view
}

// lines is a scrollable block of rendered lines.
type lines struct {
	all    []string
	offset int
}

func (l *lines) window(height int) []string {
	l.offset = min(max(l.offset, 0), max(len(l.all)-height, 0))
	end := min(l.offset+height, len(l.all))
	return l.all[l.offset:end]
}

func (l *lines) scroll(delta, height int) {
	l.offset += delta
	l.window(height)
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
	return out
}

func (p *evidencePane) setItems(items []retrieval.Evidence, st *styles) {
	p.items = sanitizeEvidence(items)
	p.selected, p.expanded = 0, false
	p.body.offset = 0
	p.rebuild(st)
}

func (p *evidencePane) setSize(width, height int, st *styles) {
	if width != p.width || height != p.height {
		p.width, p.height = width, height
		p.rebuild(st)
	}
}

func (p *evidencePane) move(delta int, st *styles) {
	if len(p.items) == 0 {
		return
	}
	p.selected = min(max(p.selected+delta, 0), len(p.items)-1)
	p.expanded = false
	p.rebuild(st)
}

func (p *evidencePane) toggleExpand(st *styles) {
	if len(p.items) == 0 {
		return
	}
	p.expanded = !p.expanded
	p.rebuild(st)
}

// contentHeight is the pane's height without its title line.
func (p *evidencePane) contentHeight() int { return max(p.height-1, 0) }

// rebuild renders every item and scrolls so the selected one is in view.
func (p *evidencePane) rebuild(st *styles) {
	if p.width <= 0 {
		return
	}
	if len(p.items) == 0 {
		p.body.all = []string{st.dim.Render("No evidence yet: ask a question.")}
		return
	}
	var all []string
	selStart, selEnd := 0, 0
	for i, e := range p.items {
		if i == p.selected {
			selStart = len(all)
		}
		all = append(all, p.renderItem(i, e, st)...)
		if i == p.selected {
			selEnd = len(all)
		}
	}
	p.body.all = all
	h := p.contentHeight()
	// Show the selected item from its first line; when it is taller than
	// the pane (an expanded chunk) the user scrolls within it with ↑/↓.
	if selStart < p.body.offset || selEnd > p.body.offset+h {
		p.body.offset = selStart
	}
	p.body.window(h)
}

func (p *evidencePane) renderItem(i int, e retrieval.Evidence, st *styles) []string {
	w := p.width
	mark := "  "
	titleStyle := st.label
	if i == p.selected {
		mark = st.selected.Render("▸ ")
		titleStyle = st.selected
	}
	head := mark + titleStyle.Render(fmt.Sprintf("%d %s", i+1, e.Title)) +
		st.dim.Render(fmt.Sprintf(" · %s · score %.2f", e.Category, e.Score))
	out := []string{head}
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
