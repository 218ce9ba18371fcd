package textsafe

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain text unchanged", "Open **Quick Links** from Home.", "Open **Quick Links** from Home."},
		{"unicode kept", "Workspace › Overview — café ✓", "Workspace › Overview — café ✓"},
		{"right-to-left text and its marks kept", "שלום \u200fעולם\u200e", "שלום \u200fעולם\u200e"},
		{"newline and tab kept", "a\n\tb", "a\n\tb"},
		{"structure kept around a sequence", "a\n\x1b[2Jb\tc", "a\nb\tc"},
		{"SGR colour removed", "a\x1b[31mred\x1b[0m b", "ared b"},
		{"CSI cursor move removed", "x\x1b[2J\x1b[1;1Hy", "xy"},
		{"CSI private mode removed", "\x1b[?1049hhidden", "hidden"},
		{"OSC title with BEL removed", "\x1b]0;pwned\x07text", "text"},
		{"OSC title mid-sentence removed", "title\x1b]0;pwned\x07 here", "title here"},
		{"OSC 52 clipboard with ST removed", "a\x1b]52;c;ZXZpbA==\x1b\\b", "ab"},
		{"OSC 8 hyperlink removed, label kept", "\x1b]8;;http://x\x1b\\label\x1b]8;;\x1b\\", "label"},
		{"DCS removed", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		{"APC removed", "a\x1b_Gf=24;AAAA\x1b\\b", "ab"},
		{"PM and SOS removed", "a\x1b^private\x1b\\b\x1bXstring\x07c", "abc"},
		{"new escape ends a payload", "a\x1b]0;title\x1b[31mb", "ab"},
		{"charset escape removed", "a\x1b(Bb", "ab"},
		{"two-byte escape removed", "a\x1bcb", "ab"},
		{"ESC before a line break drops only the ESC", "a\x1b\nb", "a\nb"},
		{"ESC before non-ASCII drops only the ESC", "a\x1béb", "aéb"},
		{"double ESC", "a\x1b\x1b[1mb", "ab"},
		{"lone ESC at end removed", "abc\x1b", "abc"},
		{"unterminated OSC dropped to end", "keep\x1b]0;title never ends", "keep"},
		{"unterminated CSI dropped to end", "unterminated \x1b[12", "unterminated "},
		{"C1 CSI removed with params", "a\u009b31mb", "ab"},
		{"C1 OSC removed to C1 ST", "a\u009d0;title\u009cb", "ab"},
		{"C1 DCS removed to BEL", "a\u0090payload\x07b", "ab"},
		{"other C1 controls removed", "a\u0085b\u008dc", "abc"},
		{"C0 controls and DEL removed", "a\x07b\x08c\x00d\x7fe\x0cf", "abcdef"},
		{"CRLF becomes LF", "line1\r\nline2", "line1\nline2"},
		{"lone CR becomes LF", "a\rb", "a\nb"},
		{"CR CR LF is two breaks", "a\r\r\nb", "a\n\nb"},
		{"bidi overrides and isolates removed", "bidi \u202eevil\u202c \u2066x\u2069", "bidi evil x"},
		{"invalid UTF-8 bytes replaced", "a\x9b31mb\xffc", "a\ufffd31mb\ufffdc"},
		{"cut-short character at end replaced", "caf\xc3", "caf\ufffd"},
		{"CSI aborted by control keeps following text", "a\x1b[12\nb", "a\nb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := String(tt.in); got != tt.want {
				t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestLine(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain", "plain"},
		{"red \x1b[31mtext\x1b[0m", "red text"},
		{"title\x1b]0;pwned\x07 ok", "title ok"},
		{"bell\x07 and\ttab\nnewline", "bell and tab newline"},
		{"c1 \u009b31m csi", "c1 csi"},
		{"bidi \u202eevil", "bidi evil"},
		{"  a\n\n b\t\x1b[1mc  d \u00a0", "a b c d"}, // runs collapsed, ends trimmed
		{"A\t>\rB", "A > B"},
		{"", ""},
		{" \n\t ", ""},
	} {
		if got := Line(tt.in); got != tt.want {
			t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCleanInputNotCopied(t *testing.T) {
	for _, in := range []string{"plain ascii and ünïcode", "two\nlines\tand a tab", ""} {
		if allocs := testing.AllocsPerRun(100, func() { _ = String(in) }); allocs != 0 {
			t.Errorf("String(%q) allocated %.0f times, want 0", in, allocs)
		}
	}
	in := "one line of ünïcode"
	if allocs := testing.AllocsPerRun(100, func() { _ = Line(in) }); allocs != 0 {
		t.Errorf("Line(%q) allocated %.0f times, want 0", in, allocs)
	}
}

// unsafeRune is the test's own account of what must never be in the
// output: controls other than newline and tab, and bidi overrides.
func unsafeRune(r rune) bool {
	if r == '\n' || r == '\t' {
		return false
	}
	return unicode.IsControl(r) || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// assertSafe checks the properties every output must have.
func assertSafe(t *testing.T, in, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("%q cleaned to %q: invalid UTF-8", in, out)
	}
	for _, r := range out {
		if unsafeRune(r) {
			t.Fatalf("%q cleaned to %q: %U left in", in, out, r)
		}
	}
}

// hasIntroducer reports whether s could open an escape sequence.
func hasIntroducer(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool {
		return r == 0x1b || r == 0x90 || r == 0x98 || r >= 0x9b && r <= 0x9f
	}) >= 0
}

// withoutSequences is what String must give for text that opens no
// escape sequence: a rune at a time, controls and bidi overrides out,
// line breaks unified, invalid bytes replaced.
func withoutSequences(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\r':
			b.WriteByte('\n')
			if strings.HasPrefix(s[i+size:], "\n") {
				size++
			}
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case !unsafeRune(r):
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

var fuzzSeeds = []string{
	"", "plain", "\x1b[31mx", "\x1b]52;c;AA\x07", "\u009b1m", "\xff\xfe", "a\x1bPq\x1b\\",
	"ünï\xffcode\r\n\u009b", "\x1b\x1b[[\x1b]", "a\r\nb\rc", "\u202eevil\u202c", "\x1b]0;t\u009cx\xc2",
}

// FuzzString checks String, and Line against it.
func FuzzString(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := String(in)
		assertSafe(t, in, out)
		if again := String(out); again != out {
			t.Fatalf("String not idempotent: %q -> %q -> %q", in, out, again)
		}
		if !hasIntroducer(in) {
			if want := withoutSequences(in); out != want {
				t.Fatalf("String(%q) = %q, want %q", in, out, want)
			}
		}
		if line, want := Line(in), strings.Join(strings.Fields(out), " "); line != want {
			t.Fatalf("Line(%q) = %q, want %q", in, line, want)
		}
	})
}

func TestClip(t *testing.T) {
	if got := Clip("a\nb\t\x1b[1mc  d", 100); got != "a b c d" {
		t.Errorf("Clip = %q", got)
	}
	if got := Clip(strings.Repeat("é", 50), 10); utf8.RuneCountInString(got) != 10 || !strings.HasSuffix(got, "…") {
		t.Errorf("Clip cut = %q", got)
	}
	if got := Clip("abc", 0); got != "" {
		t.Errorf("Clip(abc, 0) = %q", got)
	}
}
