package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

const (
	// wideWidth is the width from which panes sit to the right of the
	// transcript instead of under it.
	wideWidth = 100
	// minTranscript keeps a few lines of conversation visible whatever
	// else is open.
	minTranscript = 3
)

// rect is a screen area; y counts rows from the top.
type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool {
	return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h
}

// layout places every part of the screen. Heights always add up to the
// terminal height and no two areas overlap, so nothing wraps into the next.
type layout struct {
	wide       bool
	body       rect // transcript and panes; an overlay (help) covers all of it
	transcript rect // zero while a pane is zoomed
	evidence   rect // zero when closed
	debug      rect // zero when closed
	info       rect // spinner, notice, queued messages or pills
	rule       rect // the line above the input
	input      rect
	status     rect
}

// layoutSpec is what the screen holds, for computeLayout.
type layoutSpec struct {
	evidence, debug bool
	zoom            focus // focusEvidence or focusDebug: that pane takes the whole body
	infoLines       int   // what the info area would like
	inputLines      int   // what the input would like
}

// maxInputLines is how tall the input may grow before it scrolls: five
// lines, fewer on a short terminal so the conversation stays in view.
func maxInputLines(height int) int {
	return min(max((height-12)/3+1, 1), 5)
}

// computeLayout lays out a width×height screen. The info and input areas
// get less than they would like when space is short.
func computeLayout(width, height int, s layoutSpec) layout {
	width, height = max(width, 1), max(height, 1)
	var l layout

	l.status = rect{0, height - 1, width, 1}
	remaining := height - 1

	inputH := min(max(s.inputLines, 1), maxInputLines(height), max(remaining-1, 0))
	l.input = rect{0, remaining - inputH, width, inputH}
	remaining -= inputH

	if remaining > 0 {
		l.rule = rect{0, remaining - 1, width, 1}
		remaining--
	}

	zoomed := (s.zoom == focusEvidence && s.evidence) || (s.zoom == focusDebug && s.debug)
	panes := 0
	switch {
	case zoomed:
		panes = 1
	case s.evidence && s.debug:
		panes = 2
	case s.evidence || s.debug:
		panes = 1
	}
	// The body keeps room for a few transcript lines and a title plus a
	// line per open pane; the info area gets what is left, at least a line.
	bodyNeed := minTranscript + 2*panes
	infoH := min(max(s.infoLines, 0), max(remaining-bodyNeed, min(s.infoLines, 1, remaining)))
	l.info = rect{0, remaining - infoH, width, infoH}
	remaining -= infoH

	l.body = rect{0, 0, width, remaining}
	l.wide = width >= wideWidth
	switch {
	case zoomed && s.zoom == focusEvidence:
		l.evidence = l.body
		return l
	case zoomed:
		l.debug = l.body
		return l
	case panes == 0:
		l.transcript = l.body
		return l
	}

	var column rect // where the panes go
	if l.wide {
		paneW := min(max(width*2/5, 36), 64)
		l.transcript = rect{0, 0, width - paneW - 1, l.body.h} // one column for the divider
		column = rect{width - paneW, 0, paneW, l.body.h}
	} else {
		transcriptH := max(l.body.h/(panes+1), min(minTranscript, l.body.h))
		l.transcript = rect{0, 0, width, transcriptH}
		column = rect{0, transcriptH, width, l.body.h - transcriptH}
	}

	first := column.h
	if panes == 2 {
		first = (column.h + 1) / 2
	}
	next := rect{column.x, column.y, column.w, first}
	if s.evidence {
		l.evidence = next
		next = rect{column.x, column.y + first, column.w, column.h - first}
	}
	if s.debug {
		l.debug = next
	}
	return l
}

// fitLine cuts s to width cells and pads it with spaces to exactly width.
func fitLine(s string, width int) string {
	w := ansi.StringWidth(s)
	if w > width {
		s = ansi.Truncate(s, width, "")
		w = ansi.StringWidth(s)
	}
	if w < width {
		s += strings.Repeat(" ", width-w)
	}
	return s
}

// fitBlock returns exactly height lines of exactly width cells.
func fitBlock(lines []string, width, height int) []string {
	out := make([]string, height)
	for i := range out {
		line := ""
		if i < len(lines) {
			line = lines[i]
		}
		out[i] = fitLine(line, width)
	}
	return out
}
