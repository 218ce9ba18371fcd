package ingest

import "strings"

// goldmark's block parser does work proportional to the number of open
// containers (lists, block quotes) on every line, and opening many on one
// line ("- - - - … x", "> > > … x") costs the square of their number: 200
// KB of them takes minutes. No documentation nests lists or quotes dozens
// of levels deep, so a file that does is reported and skipped before it is
// parsed: its parse budget is its nesting depth. Below the limit the work
// per line is bounded, and parsing is linear in the file's size.

// maxNesting is the deepest container nesting read. Real docs stay under
// ten; the limit leaves a wide margin and keeps the worst case cheap.
const maxNesting = 64

// deepestNesting returns the deepest container nesting any line of a body
// can reach, and its line (1-based). A line's depth is bounded by the
// container markers it starts with plus one level per two columns of
// indentation (a nested list item is indented at least two columns past
// its parent's marker), so the estimate is never below goldmark's real
// depth. Fenced code is skipped: its indentation is not nesting.
func deepestNesting(lines []string) (line, depth int) {
	var fence codeFence
	for i, l := range lines {
		if fence.open() {
			fence.update(l)
			continue
		}
		if fence.update(l) {
			continue
		}
		if d := lineNesting(l); d > depth {
			line, depth = i+1, d
		}
	}
	return line, depth
}

// lineNesting estimates the container depth a line reaches: the
// containers its indentation can continue plus those its markers open.
func lineNesting(l string) int {
	lead, i := leadingColumns(l), len(l)-len(strings.TrimLeft(l, " \t"))
	if isThematicBreak(l[i:]) {
		return 0 // "* * * * *" is a rule, not nested lists
	}
	markers := 0
	for i < len(l) {
		switch c := l[i]; {
		case c == ' ' || c == '\t' || c == '>':
			if c == '>' {
				markers++
			}
			i++
		case (c == '-' || c == '*' || c == '+') && (i+1 == len(l) || l[i+1] == ' ' || l[i+1] == '\t'):
			markers++
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(l) && j-i < 9 && l[j] >= '0' && l[j] <= '9' {
				j++
			}
			if j < len(l) && (l[j] == '.' || l[j] == ')') && (j+1 == len(l) || l[j+1] == ' ' || l[j+1] == '\t') {
				markers++
				i = j + 1
				continue
			}
			return markers + lead/2
		default:
			return markers + lead/2
		}
	}
	return markers + lead/2
}

// isThematicBreak reports "---", "* * *" and the like: three or more of
// one of -, * or _ with only spaces between.
func isThematicBreak(s string) bool {
	var mark byte
	n := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || c == '\t':
		case (c == '-' || c == '*' || c == '_') && (mark == 0 || c == mark):
			mark = c
			n++
		default:
			return false
		}
	}
	return n >= 3
}
