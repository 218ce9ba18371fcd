package llm

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestCleanText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text\nwith\ttab", "plain text\nwith\ttab"},
		{"\x1b[31mred\x1b[0m", "red"},
		{"title\x1b]0;pwned\x07 here", "title here"},
		{"osc st \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "osc st link"},
		{"cr\r\nlf", "cr\nlf"},
		{"bell\a and nul\x00", "bell and nul"},
		{"c1 \u009b31m csi", "c1 31m csi"},
		{"bidi \u202eevil\u202c", "bidi evil"},
		{"bad \xff utf8", "bad \ufffd utf8"},
		{"unterminated \x1b[12", "unterminated 12"},
		{"lone esc at end \x1b", "lone esc at end "},
		{"café ünïcode", "café ünïcode"},
	}
	for _, tt := range tests {
		if got := cleanText(tt.in); got != tt.want {
			t.Errorf("cleanText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// A sequence or a character split across chunks is still removed or kept
// whole.
func TestStreamCleanerAcrossChunks(t *testing.T) {
	tests := []struct {
		chunks []string
		want   string
	}{
		{[]string{"before \x1b[3", "1mred\x1b", "[0m after"}, "before red after"},
		{[]string{"caf\xc3", "\xa9 open"}, "café open"},
		{[]string{"\x1b]0;ti", "tle\x07done"}, "done"},
		{[]string{"end with esc \x1b"}, "end with esc "},
	}
	for _, tt := range tests {
		var c streamCleaner
		var got strings.Builder
		for _, ch := range tt.chunks {
			got.WriteString(c.Clean(ch))
		}
		got.WriteString(c.Flush())
		if got.String() != tt.want {
			t.Errorf("chunks %q cleaned to %q, want %q", tt.chunks, got.String(), tt.want)
		}
	}
}

func assertPrintable(t *testing.T, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("output is not valid UTF-8: %q", s)
	}
	for _, r := range s {
		if r == '\n' || r == '\t' {
			continue
		}
		if unicode.IsControl(r) || isBidiControl(r) {
			t.Fatalf("output holds control character %U: %q", r, s)
		}
	}
}

func FuzzStreamCleaner(f *testing.F) {
	f.Add("hello \x1b[31mworld\x1b[0m", uint8(3))
	f.Add("\x1b]0;title\x07text", uint8(1))
	f.Add("ünï\xffcode\r\n\u009b", uint8(2))
	f.Add("\x1b\x1b[[\x1b]", uint8(1))
	f.Fuzz(func(t *testing.T, s string, step uint8) {
		n := int(step%16) + 1
		var c streamCleaner
		var out strings.Builder
		for i := 0; i < len(s); i += n {
			piece := c.Clean(s[i:min(i+n, len(s))])
			assertPrintable(t, piece)
			out.WriteString(piece)
		}
		rest := c.Flush()
		assertPrintable(t, rest)
		out.WriteString(rest)
		if isPlain(s) && out.String() != s {
			t.Fatalf("plain text changed: %q → %q", s, out.String())
		}
	})
}

func TestOneLine(t *testing.T) {
	if got := oneLine("a\nb\t\x1b[1mc  d", 100); got != "a b c d" {
		t.Errorf("oneLine = %q", got)
	}
	if got := oneLine(strings.Repeat("é", 50), 10); utf8.RuneCountInString(got) != 10 || !strings.HasSuffix(got, "…") {
		t.Errorf("oneLine cut = %q", got)
	}
}
