// Package textsafe removes terminal control sequences from untrusted text:
// docs, notes, pasted input and model output. Such text can carry escape
// sequences that move the cursor, retitle the window, rewrite the
// clipboard or hide text, and bidi overrides that make it read differently
// than it is stored. Every place that shows this text on a terminal, or
// hands it to a model that might echo it, cleans it with this one parser,
// so a sequence one path strips cannot slip through another.
//
// What goes:
//   - ESC-introduced sequences, whole: CSI with its parameters, the control
//     strings OSC, DCS, SOS, PM and APC with their payloads up to BEL, ST
//     or the end of the text, and the other escapes (ESC c, ESC ( B, …);
//   - the same sequences introduced by their C1 forms (U+009B, U+009D, …),
//     which some terminals honour even in UTF-8 mode;
//   - C0 controls other than newline and tab, DEL and the C1 controls;
//   - the bidi embedding, override and isolate characters (U+202A–U+202E,
//     U+2066–U+2069).
//
// What changes: CRLF and a lone CR become LF, so a line break in any
// convention stays one line break; each byte of invalid UTF-8 becomes
// U+FFFD. Everything else is kept as it is.
package textsafe

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// String returns s without terminal control sequences, as the package
// comment describes: "a\x1b[31mred\x1b[0m" becomes "ared". Text that is
// already clean, the common case, is returned as is without allocating.
func String(s string) string {
	if isClean(s) {
		return s
	}
	var p parser
	var b strings.Builder
	b.Grow(len(s))
	p.run(&b, s, false)
	return b.String()
}

// Line is String for text shown or quoted on one line (titles, labels,
// attributes, notices): every run of white space, line breaks and tabs
// included, becomes one space, and the ends are trimmed.
func Line(s string) string {
	if isLine(s) {
		return s
	}
	s = String(s)
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isClean reports whether String would return s unchanged.
func isClean(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return cleanRunes(s[i:])
		}
		if isDroppedASCII(c) {
			return false
		}
	}
	return true
}

func cleanRunes(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r < utf8.RuneSelf && isDroppedASCII(byte(r)) || isDropped(r) {
			return false
		}
		i += size
	}
	return true
}

// isLine reports whether Line would return s unchanged: clean, and its
// only white space single ASCII spaces between other characters.
func isLine(s string) bool {
	space := true // a space at the start is trimmed
	for i := 0; i < len(s); {
		c := s[i]
		if c == ' ' {
			if space {
				return false
			}
			space = true
			i++
			continue
		}
		space = false
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f { // newline and tab included
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || isDropped(r) || unicode.IsSpace(r) {
			return false
		}
		i += size
	}
	return !space || s == ""
}

// isDroppedASCII reports the ASCII bytes String does not copy as they are:
// C0 controls other than newline and tab (CR included: it becomes LF) and
// DEL.
func isDroppedASCII(c byte) bool {
	return c < 0x20 && c != '\n' && c != '\t' || c == 0x7f
}

// isDropped reports the non-ASCII runes String removes: the C1 controls
// and the bidi embedding, override and isolate characters.
func isDropped(r rune) bool {
	return r >= 0x80 && r <= 0x9f || isBidiControl(r)
}

// isBidiControl reports the characters that reorder the text around them.
// The plain marks (U+200E, U+200F) only set a direction and stay: real
// right-to-left text needs them.
func isBidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// Clip is Line cut to at most max runes, the last being "…" when it was
// cut: for quoting untrusted text in one-line notices and reports.
func Clip(s string, max int) string {
	s = Line(s)
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	if max < 1 {
		return ""
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:max-1])) + "…"
}
