package llm

import (
	"testing"
	"unicode"
	"unicode/utf8"
)

// assertPrintable fails on text a terminal could interpret: invalid UTF-8,
// controls other than newline and tab, and bidi overrides.
func assertPrintable(t *testing.T, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("output is not valid UTF-8: %q", s)
	}
	for _, r := range s {
		if r == '\n' || r == '\t' {
			continue
		}
		if unicode.IsControl(r) || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			t.Fatalf("output holds control character %U: %q", r, s)
		}
	}
}
