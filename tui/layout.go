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

// layout places every part of the screen. Heights always add up to the
// terminal height and no two areas overlap, so nothing wraps into the next.
type layout struct {
	wide       bool
	transcript rect
	evidence   rect // zero when closed
	debug      rect // zero when closed
	info       rect // spinner, notice or pills
	rule       rect // the line above the input
	input      rect
	status     rect
}

// computeLayout lays out a width×height screen. infoLines and inputLines
// are what those areas would like; they get less when space is short.
func computeLayout(width, height int, evidenceOpen, debugOpen bool, infoLines, inputLines int) layout {
	width, height = max(width, 1), max(height, 1)
	var l layout

	l.status = rect{0, height - 1, width, 1}
	remaining := height - 1

	maxInput := min(max((height-12)/3+1, 1), 6)
	inputH := min(max(inputLines, 1), maxInput, max(remaining-1, 0))
	l.input = rect{0, remaining - inputH, width, inputH}
	remaining -= inputH

	if remaining > 0 {
		l.rule = rect{0, remaining - 1, width, 1}
		remaining--
	}

	// The body keeps room for a few transcript lines and a title plus a
	// line per open pane; the info area gets what is left, at least a line.
	panes := 0
	if evidenceOpen {
		panes++
	}
	if debugOpen {
		panes++
	}
	bodyNeed := minTranscript + 2*panes
	infoH := min(max(infoLines, 0), max(remaining-bodyNeed, min(infoLines, 1, remaining)))
	l.info = rect{0, remaining - infoH, width, infoH}
	remaining -= infoH

	body := rect{0, 0, width, remaining}
	l.wide = width >= wideWidth
	if panes == 0 {
		l.transcript = body
		return l
	}

	var column rect // where the panes go
	if l.wide {
		paneW := min(max(width*2/5, 36), 64)
		l.transcript = rect{0, 0, width - paneW - 1, body.h} // one column for the divider
		column = rect{width - paneW, 0, paneW, body.h}
	} else {
		transcriptH := max(body.h/(panes+1), min(minTranscript, body.h))
		l.transcript = rect{0, 0, width, transcriptH}
		column = rect{0, transcriptH, width, body.h - transcriptH}
	}

	first := column.h
	if panes == 2 {
		first = (column.h + 1) / 2
	}
	next := rect{column.x, column.y, column.w, first}
	if evidenceOpen {
		l.evidence = next
		next = rect{column.x, column.y + first, column.w, column.h - first}
	}
	if debugOpen {
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
