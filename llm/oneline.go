package llm

import (
	"strings"
	"unicode/utf8"

	"github.com/docent-sh/docent/textsafe"
)

// oneLine makes s safe and short for a one-line notice: controls removed,
// white space folded into single spaces, and cut at max runes.
func oneLine(s string, max int) string {
	s = textsafe.Line(s)
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:max-1])) + "…"
}
