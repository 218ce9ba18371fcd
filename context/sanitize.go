package promptctx

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// cleanText strips control characters from text that enters the prompt,
// keeping newlines and tabs. Terminal escape sequences (CSI and OSC) are
// removed whole, not just their ESC byte, so no "[31m" debris is left for
// the model to echo. CRLF and lone CR become LF; invalid UTF-8 becomes
// U+FFFD. Bidirectional overrides go too: they can make text read
// differently on screen than in the prompt.
func cleanText(s string) string {
	if isClean(s, true) {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			sb.WriteRune(utf8.RuneError)
		case r == '\x1b':
			size = escapeSequenceLen(s[i:])
		case r == '\r':
			if !strings.HasPrefix(s[i+size:], "\n") {
				sb.WriteByte('\n')
			}
		case r == '\n' || r == '\t':
			sb.WriteRune(r)
		case dropped(r):
		default:
			sb.WriteString(s[i : i+size])
		}
		i += size
	}
	return sb.String()
}

// cleanLine is cleanText for one-line values (attributes, session fields):
// every kind of line break or tab becomes a space and the ends are trimmed.
func cleanLine(s string) string {
	if isClean(s, false) {
		return strings.TrimSpace(s)
	}
	s = cleanText(s)
	if strings.ContainsAny(s, "\n\t") {
		s = strings.Map(func(r rune) rune {
			if r == '\n' || r == '\t' {
				return ' '
			}
			return r
		}, s)
	}
	return strings.TrimSpace(s)
}

// isClean reports whether s has nothing cleanText would change.
func isClean(s string, keepBreaks bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			// Multi-byte text needs the full rune-level check.
			return cleanRunes(s[i:], keepBreaks)
		}
		if c < 0x20 || c == 0x7f {
			if !keepBreaks || (c != '\n' && c != '\t') {
				return false
			}
		}
	}
	return true
}

func cleanRunes(s string, keepBreaks bool) bool {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size <= 1 {
				return false
			}
		}
		if r == '\n' || r == '\t' {
			if !keepBreaks {
				return false
			}
			continue
		}
		if r == '\r' || r == '\x1b' || dropped(r) {
			return false
		}
	}
	return true
}

// dropped reports runes that never enter the prompt: C0/C1 controls and
// DEL (line breaks and tabs are handled by the callers) and the bidi
// embedding, override and isolate marks.
func dropped(r rune) bool {
	if unicode.IsControl(r) {
		return true
	}
	switch {
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// escapeSequenceLen returns the length of the terminal escape sequence at
// the start of s (which begins with ESC): CSI up to its final byte, OSC up
// to BEL or ST, otherwise ESC and the one byte after it.
func escapeSequenceLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if c := s[i]; c >= 0x40 && c <= 0x7e {
				return i + 1
			} else if c < 0x20 || c > 0x7e {
				// Not a well-formed CSI; drop only what was read.
				return i
			}
		}
		return len(s)
	case ']':
		for i := 2; i < len(s); i++ {
			switch {
			case s[i] == '\a':
				return i + 1
			case s[i] == '\x1b' && i+1 < len(s) && s[i+1] == '\\':
				return i + 2
			}
		}
		return len(s)
	}
	if s[1] >= utf8.RuneSelf {
		return 1
	}
	return 2
}
