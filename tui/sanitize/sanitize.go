// Package sanitize makes untrusted text (docs, notes, model output, pasted
// input) safe to draw on a terminal. A doc or a model can carry escape
// sequences that move the cursor, retitle the window, rewrite the clipboard
// or hide text; the TUI must only ever emit its own styling, so every such
// sequence and every control character except newline and tab is removed
// before the text is rendered.
package sanitize

import (
	"strings"
	"unicode/utf8"
)

const (
	esc = 0x1b
	bel = 0x07
	del = 0x7f

	// C1 introducers (U+0080–U+009F). Some terminals honour them even in
	// UTF-8 mode, so they are parsed like their 7-bit ESC forms.
	c1DCS = 0x90
	c1SOS = 0x98
	c1CSI = 0x9b
	c1ST  = 0x9c
	c1OSC = 0x9d
	c1PM  = 0x9e
	c1APC = 0x9f
)

// String returns s without terminal control sequences: ESC sequences (CSI,
// OSC, DCS, SOS, PM, APC and two-byte escapes) are removed whole, with
// their parameters; other C0 controls (except '\n' and '\t'), DEL, C1
// controls and invalid UTF-8 bytes are dropped. Printable text is kept
// unchanged, so "a\x1b[31mred\x1b[0m" becomes "ared".
func String(s string) string {
	if isClean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			i++ // invalid byte: could be a raw 8-bit control
		case r == esc:
			i = skipEscape(s, i+1)
		case r == c1CSI:
			i = skipCSI(s, i+size)
		case r == c1OSC || r == c1DCS || r == c1SOS || r == c1PM || r == c1APC:
			i = skipString(s, i+size)
		case r == '\n' || r == '\t':
			b.WriteRune(r)
			i += size
		case r < 0x20 || r == del || (r >= 0x80 && r <= 0x9f):
			i += size
		default:
			b.WriteString(s[i : i+size])
			i += size
		}
	}
	return b.String()
}

// isClean reports whether s can be returned as is; most text is clean and
// this keeps the common path allocation-free.
func isClean(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\n' && c != '\t' || c == del {
			return false
		}
		if c >= 0x80 {
			return cleanUTF8(s[i:])
		}
	}
	return true
}

func cleanUTF8(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			return false
		}
		if r < 0x20 && r != '\n' && r != '\t' || r == del || (r >= 0x80 && r <= 0x9f) {
			return false
		}
		i += size
	}
	return true
}

// skipEscape returns the index just past the escape sequence whose ESC was
// at i-1.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipString(s, i+1)
	}
	// nF sequences: intermediate bytes then one final byte (e.g. ESC ( B).
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipCSI skips parameter and intermediate bytes and the final byte.
// A control character inside aborts the sequence, as terminals do.
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		switch {
		case c >= 0x20 && c <= 0x3f: // parameters and intermediates
			i++
		case c >= 0x40 && c <= 0x7e: // final byte
			return i + 1
		default:
			return i
		}
	}
	return i
}

// skipString skips a control string (OSC, DCS, SOS, PM, APC) up to and
// including its terminator: BEL, ESC \ or the C1 ST. An unterminated string
// runs to the end of the text: showing half a hyperlink or a stray payload
// is worse than dropping it.
func skipString(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == bel:
			return i + 1
		case s[i] == esc:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			// A new escape cancels the string; let the caller parse it.
			return i
		case strings.HasPrefix(s[i:], string(rune(c1ST))):
			return i + len(string(rune(c1ST)))
		}
		i++
	}
	return i
}
