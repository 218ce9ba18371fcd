package textsafe

import (
	"strings"
	"testing"
)

// streamed cleans chunks one after the other, checking each piece as it
// would be shown.
func streamed(t *testing.T, chunks []string) string {
	t.Helper()
	var st Stream
	var out strings.Builder
	for _, ch := range chunks {
		piece := st.Write(ch)
		assertSafe(t, ch, piece)
		out.WriteString(piece)
	}
	rest := st.Flush()
	assertSafe(t, "(flush)", rest)
	out.WriteString(rest)
	return out.String()
}

// A sequence or a character split across chunks is still removed or kept
// whole.
func TestStreamAcrossChunks(t *testing.T) {
	tests := []struct {
		chunks []string
		want   string
	}{
		{[]string{"before \x1b[3", "1mred\x1b", "[0m after"}, "before red after"},
		{[]string{"caf\xc3", "\xa9 open"}, "café open"},
		{[]string{"\x1b]0;ti", "tle\x07done"}, "done"},
		{[]string{"end with esc \x1b"}, "end with esc "},
		{[]string{"a\x1b]8;;http://x\x1b", "\\link"}, "alink"},
		{[]string{"a\u009d0;t\xc2", "\x9cb"}, "ab"},
		{[]string{"line\r", "\nnext\r", "x"}, "line\nnext\nx"},
		{[]string{"\u202e", "x", "\xe2\x80", "\xaey"}, "xy"},
		{[]string{"cut short \xe2\x80"}, "cut short \ufffd\ufffd"},
		{[]string{"", "plain", ""}, "plain"},
	}
	for _, tt := range tests {
		if got := streamed(t, tt.chunks); got != tt.want {
			t.Errorf("chunks %q cleaned to %q, want %q", tt.chunks, got, tt.want)
		}
	}
}

// Nothing is held back but a character cut short: text after a sequence
// shows as soon as it arrives, even while a payload is still open.
func TestStreamReturnsTextAtOnce(t *testing.T) {
	var st Stream
	if got := st.Write("answer \x1b]0;title"); got != "answer " {
		t.Errorf("first piece %q", got)
	}
	if got := st.Write(" still title\x07 and text"); got != " and text" {
		t.Errorf("second piece %q", got)
	}
	if got := st.Write("\r"); got != "\n" {
		t.Errorf("CR piece %q", got)
	}
	if got := st.Write("\nnext"); got != "next" {
		t.Errorf("piece after CR %q", got)
	}
	if got := st.Flush(); got != "" {
		t.Errorf("flush %q", got)
	}
}

func TestStreamFlushStartsANewText(t *testing.T) {
	var st Stream
	st.Write("open \x1b]0;never closed")
	st.Flush()
	if got := st.Write("fresh"); got != "fresh" {
		t.Errorf("after Flush: %q", got)
	}
}

// Every way to cut each sample into two or three pieces gives String's
// result.
func TestStreamEverySplit(t *testing.T) {
	for _, s := range append(fuzzSeeds,
		"x\x1b]8;;http://e\x1b\\link\x1b]8;;\x1b\\ é\r\n\u009b2Jz\u0090dcs\u009cq",
		"caf\xc3\xa9\r\r\n\x1b(B\x1b\x1b[1;2m\u202eok\x1b^pm\x1bcx") {
		want := String(s)
		for i := 0; i <= len(s); i++ {
			for j := i; j <= len(s); j++ {
				if got := streamed(t, []string{s[:i], s[i:j], s[j:]}); got != want {
					t.Fatalf("%q cut at %d and %d: %q, want %q", s, i, j, got, want)
				}
			}
		}
	}
}

func TestStreamCleanChunkNotCopied(t *testing.T) {
	var st Stream
	chunk := "a clean chunk of ünïcode\n"
	if allocs := testing.AllocsPerRun(100, func() { _ = st.Write(chunk) }); allocs != 0 {
		t.Errorf("clean chunk allocated %.0f times, want 0", allocs)
	}
}

// FuzzStream cuts the text where cuts says (each byte the length of the
// next piece, 0 to 15, cycling) and checks the joined pieces against String.
func FuzzStream(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(s, []byte{byte(i), 1, 2, 3})
	}
	f.Fuzz(func(t *testing.T, s string, cuts []byte) {
		var chunks []string
		rest := s
		for k := 0; rest != ""; k++ {
			n := len(rest)
			if len(cuts) > 0 {
				n = min(int(cuts[k%len(cuts)]%16), len(rest))
				if n == 0 && k >= len(cuts) {
					n = 1 // empty pieces, but only as many as cuts has bytes
				}
			}
			chunks = append(chunks, rest[:n])
			rest = rest[n:]
		}
		if got, want := streamed(t, chunks), String(s); got != want {
			t.Fatalf("chunks %q: %q, want String's %q", chunks, got, want)
		}
	})
}
