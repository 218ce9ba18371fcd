package tui

import (
	"strings"

	"charm.land/glamour/v2"
	glamourstyles "charm.land/glamour/v2/styles"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// markdown renders sanitized markdown into terminal lines of at most
// width cells (code lines glamour cannot wrap are cut by the layout).
type markdown struct {
	width int
	tr    *glamour.TermRenderer // nil when glamour refused the options
}

func newMarkdown(dark bool, width int) *markdown {
	style := glamourstyles.LightStyle
	if dark {
		style = glamourstyles.DarkStyle
	}
	tr, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(width))
	if err != nil {
		// Only a broken built-in style gets here; plain wrapping still
		// shows the answer.
		tr = nil
	}
	return &markdown{width: width, tr: tr}
}

// render returns the lines of src with glamour's blank margin lines above
// and below removed, so messages can be spaced by the transcript.
func (md *markdown) render(src string) []string {
	if strings.TrimSpace(src) == "" {
		return nil
	}
	out := ""
	if md.tr != nil {
		if r, err := md.tr.Render(src); err == nil {
			out = r
		}
	}
	if out == "" {
		out = lipgloss.Wrap(src, max(md.width-2, 1), "")
		out = indent(out, "  ")
	}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		lines[i] = trimTrailingBlank(l)
	}
	return trimBlankLines(lines)
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// trimTrailingBlank drops the styled padding glamour adds to fill every
// line to the wrap width. It is invisible, but it multiplies the bytes of
// each line several times over, and every frame measures and draws them.
func trimTrailingBlank(line string) string {
	end := 0
	for i := 0; i < len(line); {
		if line[i] == 0x1b {
			i = skipEscape(line, i)
			continue
		}
		if line[i] == ' ' {
			i++
			continue
		}
		// Any other byte, including UTF-8 continuation bytes, is visible text.
		i++
		end = i
	}
	if end == len(line) {
		return line
	}
	cut := line[end:]
	line = line[:end]
	if end > 0 && strings.Contains(line, "\x1b") {
		if strings.Contains(cut, "\x1b]8;") {
			line += ansi.ResetHyperlink()
		}
		line += ansi.ResetStyle
	}
	return line
}

// skipEscape returns the index after the escape sequence at i. The text it
// reads is glamour's output, built from sanitized input, so only CSI and
// OSC sequences occur.
func skipEscape(s string, i int) int {
	i++
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		i++
		for i < len(s) && (s[i] < 0x40 || s[i] > 0x7e) {
			i++
		}
		return i + 1
	case ']':
		for i < len(s) {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			i++
		}
		return i
	}
	return i + 1
}

func trimBlankLines(lines []string) []string {
	start, end := 0, len(lines)
	for start < end && isBlank(lines[start]) {
		start++
	}
	for end > start && isBlank(lines[end-1]) {
		end--
	}
	return lines[start:end]
}

func isBlank(line string) bool {
	return strings.TrimSpace(ansi.Strip(line)) == ""
}

// streamRender renders a growing markdown text without re-rendering what
// is settled: once a block (paragraph, list, fenced code...) is followed
// by a blank line outside a code fence it cannot change any more, so its
// lines are kept and each new chunk only re-renders the open tail block.
// Rendering the whole answer costs milliseconds once it is a few
// kilobytes; the open tail costs a fraction of that.
type streamRender struct {
	settledEnd   int      // bytes of text whose blocks are settled
	settledLines []string // their rendered lines
}

func (s *streamRender) render(md *markdown, text string) []string {
	if end := settledPrefix(text, s.settledEnd); end > s.settledEnd {
		block := md.render(text[s.settledEnd:end])
		if len(block) > 0 {
			if len(s.settledLines) > 0 {
				s.settledLines = append(s.settledLines, "")
			}
			s.settledLines = append(s.settledLines, block...)
		}
		s.settledEnd = end
	}
	tail := md.render(text[s.settledEnd:])
	lines := make([]string, 0, len(s.settledLines)+1+len(tail))
	lines = append(lines, s.settledLines...)
	if len(tail) > 0 && len(lines) > 0 {
		lines = append(lines, "")
	}
	return append(lines, tail...)
}

// settledPrefix returns the end of the last blank line outside a fenced
// code block in text, scanning from 'from' (which is always outside a
// fence), or 'from' when there is none.
func settledPrefix(text string, from int) int {
	settled := from
	inFence := false
	fence := ""
	for i := from; i < len(text); {
		nl := strings.IndexByte(text[i:], '\n')
		if nl < 0 {
			break // the last line is still being written
		}
		line := text[i : i+nl]
		next := i + nl + 1
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case inFence:
			if strings.HasPrefix(trimmed, fence) && strings.TrimSpace(trimmed[len(fence):]) == "" {
				inFence = false
			}
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			inFence = true
			fence = trimmed[:3]
		case strings.TrimSpace(line) == "":
			settled = next
		}
		i = next
	}
	return settled
}
