package sanitize

import (
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain text unchanged", "Open **Quick Links** from Home.", "Open **Quick Links** from Home."},
		{"unicode kept", "Workspace › Overview — café ✓", "Workspace › Overview — café ✓"},
		{"newline and tab kept", "a\n\tb", "a\n\tb"},
		{"SGR colour removed", "a\x1b[31mred\x1b[0m b", "ared b"},
		{"CSI cursor move removed", "x\x1b[2J\x1b[1;1Hy", "xy"},
		{"CSI private mode removed", "\x1b[?1049hhidden", "hidden"},
		{"OSC title with BEL removed", "\x1b]0;pwned\x07text", "text"},
		{"OSC 52 clipboard with ST removed", "a\x1b]52;c;ZXZpbA==\x1b\\b", "ab"},
		{"OSC 8 hyperlink removed, label kept", "\x1b]8;;http://x\x1b\\label\x1b]8;;\x1b\\", "label"},
		{"DCS removed", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		{"APC removed", "a\x1b_Gf=24;AAAA\x1b\\b", "ab"},
		{"charset escape removed", "a\x1b(Bb", "ab"},
		{"two-byte escape removed", "a\x1bcb", "ab"},
		{"lone ESC at end removed", "abc\x1b", "abc"},
		{"unterminated OSC dropped to end", "keep\x1b]0;title never ends", "keep"},
		{"C1 CSI removed with params", "a\u009b31mb", "ab"},
		{"C1 OSC removed to ST", "a\u009d0;title\u009cb", "ab"},
		{"other C1 controls removed", "a\u0085b\u008dc", "abc"},
		{"C0 controls removed", "a\rb\x07c\x08d\x00e\x7ff", "abcdef"},
		{"CRLF becomes LF", "line1\r\nline2", "line1\nline2"},
		{"invalid UTF-8 byte removed", "a\x9b31mb\xffc", "a31mbc"},
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

func TestStringCleanInputNotCopied(t *testing.T) {
	in := "plain ascii and ünïcode"
	allocs := testing.AllocsPerRun(100, func() { _ = String(in) })
	if allocs != 0 {
		t.Errorf("clean input allocated %.0f times, want 0", allocs)
	}
}

// assertSafe checks the properties every output must have.
func assertSafe(t *testing.T, in, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("String(%q) = %q: invalid UTF-8", in, out)
	}
	for _, r := range out {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			t.Fatalf("String(%q) = %q: control %U left in", in, out, r)
		}
	}
	if again := String(out); again != out {
		t.Fatalf("String not idempotent: %q -> %q -> %q", in, out, again)
	}
}

func FuzzString(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[31mx", "\x1b]52;c;AA\x07", "\u009b1m", "\xff\xfe", "a\x1bPq\x1b\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		assertSafe(t, in, String(in))
	})
}

func BenchmarkStringClean(b *testing.B) {
	s := "Open the navigator, pick a workspace and its notes appear in the panel on the right."
	for b.Loop() {
		_ = String(s)
	}
}
