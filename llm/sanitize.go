package llm

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxHeldEscape bounds how much text the stream cleaner holds back while an
// escape sequence is still open at the end of a chunk: real sequences are
// short, and an unterminated one must not swallow the rest of an answer.
const maxHeldEscape = 64

// streamCleaner strips terminal control sequences from streamed model text.
// A sequence or a multi-byte character can be split across two chunks, so
// an incomplete tail is held back until the next chunk (or Flush) decides.
type streamCleaner struct {
	pending string
}

// Clean returns the printable part of chunk that is safe to show now.
func (c *streamCleaner) Clean(chunk string) string {
	s := c.pending + chunk
	cut := incompleteTail(s)
	s, c.pending = s[:cut], s[cut:]
	return cleanText(s)
}

// Flush returns whatever was held back, cleaned, at the end of a stream.
func (c *streamCleaner) Flush() string {
	s := c.pending
	c.pending = ""
	return cleanText(s)
}

// incompleteTail returns where the incomplete end of s starts: an escape
// sequence still open or a multi-byte character cut short. len(s) when the
// whole of s is complete.
func incompleteTail(s string) int {
	cut := len(s)
	if i := strings.LastIndexByte(s, '\x1b'); i >= 0 && len(s)-i <= maxHeldEscape {
		if _, complete := escapeLen(s[i:]); !complete {
			cut = i
		}
	}
	// A rune's leading byte within the last 3 bytes whose rune is not whole.
	for i := cut - 1; i >= 0 && i >= cut-3; i-- {
		b := s[i]
		if b < utf8.RuneSelf {
			break
		}
		if utf8.RuneStart(b) {
			if !utf8.FullRuneInString(s[i:cut]) {
				cut = i
			}
			break
		}
	}
	return cut
}

// cleanText removes control characters from model or document text:
// terminal escape sequences go whole (CSI and OSC), carriage returns and
// other C0/C1 controls and the bidi override marks are dropped, and invalid
// UTF-8 becomes U+FFFD. Newlines and tabs stay.
func cleanText(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune(utf8.RuneError)
		case r == '\x1b':
			n, complete := escapeLen(s[i:])
			if !complete {
				// Drop only ESC and its introducer: the rest is printable.
				n = min(2, len(s)-i)
			}
			size = n
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case unicode.IsControl(r), isBidiControl(r):
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isPlain reports whether s is printable ASCII (plus newline and tab), the
// common case, which cleanText returns unchanged without allocating.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || c == 0x7f || (c < 0x20 && c != '\n' && c != '\t') {
			return false
		}
	}
	return true
}

func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// escapeLen returns the length of the escape sequence at the start of s
// (which begins with ESC) and whether it is complete: CSI ends at a final
// byte 0x40–0x7E, OSC at BEL or ESC \, other sequences after one byte.
func escapeLen(s string) (int, bool) {
	if len(s) < 2 {
		return len(s), false
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			c := s[i]
			if c >= 0x40 && c <= 0x7e {
				return i + 1, true
			}
			if c < 0x20 || c > 0x7e {
				// Malformed CSI: complete as far as it goes.
				return i, true
			}
		}
		return len(s), false
	case ']', 'P', '_', '^':
		for i := 2; i < len(s); i++ {
			switch {
			case s[i] == '\a':
				return i + 1, true
			case s[i] == '\x1b':
				if i+1 >= len(s) {
					return len(s), false
				}
				if s[i+1] == '\\' {
					return i + 2, true
				}
			}
		}
		return len(s), false
	}
	if s[1] >= utf8.RuneSelf {
		return 1, true
	}
	return 2, true
}

// oneLine makes s safe and short for a one-line notice: controls removed,
// line breaks and tabs turned into spaces, runs of spaces collapsed, and
// cut at max runes.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(cleanText(s)), " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:max-1])) + "…"
}
