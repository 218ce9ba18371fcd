package cite

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

var given = []Source{
	{ID: "api/rate-limits#chunk-1", Title: "Rate limits", Path: "Rate limits > Limits", File: "api/rate-limits.md"},
	{ID: "api/rate-limits#chunk-0", Title: "Rate limits", Path: "Rate limits > Headers", File: "api/rate-limits.md"},
}

func TestFootnotes(t *testing.T) {
	answer := "Calls are limited to 300 in 5 minutes. [api/rate-limits#chunk-1] The headers say how many are left " +
		"[api/rate-limits#chunk-0; api/rate-limits#chunk-1]. Uploads have their own limit [made/up#chunk-9]. See [the docs] and [1]."
	f := Footnotes(answer, given)
	wantText := "Calls are limited to 300 in 5 minutes. [1] The headers say how many are left [2, 1]. " +
		"Uploads have their own limit [3]. See [the docs] and [1]."
	if f.Text != wantText {
		t.Errorf("text =\n%s\nwant\n%s", f.Text, wantText)
	}
	wantSources := "[1] Rate limits › Limits — api/rate-limits.md\n" +
		"[2] Rate limits › Headers — api/rate-limits.md\n" +
		"[3] made/up#chunk-9 — cited a source it was not given\n"
	if got := f.SourcesText(); got != wantSources {
		t.Errorf("sources =\n%s\nwant\n%s", got, wantSources)
	}
	if got := f.Unknown(); !slices.Equal(got, []string{"made/up#chunk-9"}) {
		t.Errorf("unknown = %v", got)
	}
	if got := f.WithSources(); got != wantText+"\n\nSources:\n"+wantSources {
		t.Errorf("with sources =\n%s", got)
	}
}

func TestFootnotesWithoutCitations(t *testing.T) {
	f := Footnotes("No citation here [not one].", given)
	if f.Text != "No citation here [not one]." || len(f.Notes) != 0 || f.WithSources() != f.Text {
		t.Errorf("footnoted = %+v", f)
	}
}

func TestStripAndIDs(t *testing.T) {
	answer := "One. [a/b#chunk-1] Two [a/b#chunk-2, c#chunk-0]. Three. [a/b#chunk-1]"
	if got, want := Strip(answer), "One. Two. Three."; got != want {
		t.Errorf("Strip = %q, want %q", got, want)
	}
	if got, want := IDs(answer), []string{"a/b#chunk-1", "a/b#chunk-2", "c#chunk-0"}; !slices.Equal(got, want) {
		t.Errorf("IDs = %v, want %v", got, want)
	}
}

// Streamed piece by piece, cut anywhere, the text renders as it does
// whole.
func TestRenumbererMatchesFootnotes(t *testing.T) {
	answer := "A [api/rate-limits#chunk-1] b [made/up#chunk-9] c [api/rate-limits#chunk-0, api/rate-limits#chunk-1] [open"
	whole := Footnotes(answer, given)
	for size := 1; size < len(answer); size++ {
		r := NewRenumberer(given)
		var b strings.Builder
		for i := 0; i < len(answer); i += size {
			b.WriteString(r.Write(answer[i:min(i+size, len(answer))]))
		}
		b.WriteString(r.Flush())
		if b.String() != whole.Text || len(r.Notes()) != len(whole.Notes) {
			t.Fatalf("pieces of %d: %q, want %q", size, b.String(), whole.Text)
		}
	}
}

func TestIsChunkID(t *testing.T) {
	for id, want := range map[string]bool{
		"a/b#chunk-0": true, "guides/setup#chunk-12": true, "#chunk-1": false, "a b#chunk-1": false,
		"a#chunk-": false, "a#chunk-1x": false, "a#section": false, "a#b#chunk-1": true, "a#chunk-+1": false,
	} {
		if got := IsChunkID(id); got != want {
			t.Errorf("IsChunkID(%q) = %v, want %v", id, got, want)
		}
	}
}

// FuzzFootnotes feeds model output of any shape: footnoting never panics,
// keeps the prose outside citations, numbers every distinct id once, and
// streams to the same text as it renders whole.
func FuzzFootnotes(f *testing.F) {
	for _, seed := range []string{
		"", "plain", "[a#chunk-1]", "x [a/b#chunk-2, c#chunk-3; d#chunk-4] y", "[[a#chunk-1]]", "[a#chunk-1",
		"[made/up#chunk-9] [a#chunk-99999999999999999999]", "[ a#chunk-1 ]", "[,]", "é[ü#chunk-1]ß", "[a#chunk-1]\x1b[31m",
	} {
		f.Add(seed, 3)
	}
	f.Fuzz(func(t *testing.T, text string, size int) {
		whole := Footnotes(text, given)
		if len(whole.Notes) != len(IDs(text)) {
			t.Fatalf("%d notes for %d ids", len(whole.Notes), len(IDs(text)))
		}
		for i, n := range whole.Notes {
			if n.N != i+1 {
				t.Fatalf("note %d numbered %d", i, n.N)
			}
		}
		if utf8.ValidString(text) && !utf8.ValidString(whole.Text) {
			t.Fatalf("valid text footnoted to invalid UTF-8: %q", whole.Text)
		}
		if strings.Contains(whole.SourcesText(), "\x1b") {
			t.Fatalf("sources hold an escape: %q", whole.SourcesText())
		}
		size = max(1, size%64+1)
		r := NewRenumberer(given)
		var b strings.Builder
		for i := 0; i < len(text); i += size {
			b.WriteString(r.Write(text[i:min(i+size, len(text))]))
		}
		b.WriteString(r.Flush())
		if b.String() != whole.Text {
			t.Fatalf("streamed %q, whole %q", b.String(), whole.Text)
		}
		_ = Strip(text)
	})
}
