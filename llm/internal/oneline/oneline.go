// Package oneline shortens untrusted text to one safe line for notices and
// citations. It is shared by llm and llm/extractive, which both quote text
// that came from a model, a server or a prompt.
package oneline

import (
	"strings"
	"unicode/utf8"

	"github.com/docent-sh/docent/textsafe"
)

// Clip makes s safe and short for one line: controls removed, white space
// folded into single spaces (textsafe.Line), and cut to at most max runes,
// the last being "…" when it was cut.
func Clip(s string, max int) string {
	s = textsafe.Line(s)
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:max-1])) + "…"
}
