package oneline

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	if got := Clip("a\nb\t\x1b[1mc  d", 100); got != "a b c d" {
		t.Errorf("Clip = %q", got)
	}
	if got := Clip(strings.Repeat("é", 50), 10); utf8.RuneCountInString(got) != 10 || !strings.HasSuffix(got, "…") {
		t.Errorf("Clip cut = %q", got)
	}
}
