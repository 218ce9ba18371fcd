package retrieval

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestInnerHeadings(t *testing.T) {
	for _, tc := range []struct{ md, want string }{
		{"## Invite {#invite}\ntext\n### Roles ##\n", "Invite ; Roles"},
		{"#hashtag\n```\n# not a heading\n```\n", ""},
		// A FAQ's question names its answer, folded or not.
		{"<details>\n<summary>Do you track <b>expiry</b> dates?</summary>\n\nYes, on Pro.\n</details>\n", "Do you track expiry dates?"},
		{"<details><SUMMARY class=\"q\">Can I pause a count?</SUMMARY>\nYes.</details>", "Can I pause a count?"},
		// A summary over several lines, and one in code, are left out.
		{"<summary>\nLong\n</summary>\n", ""},
		{"```html\n<summary>Code</summary>\n```\n", ""},
	} {
		if got := innerHeadings(tc.md); got != tc.want {
			t.Errorf("innerHeadings(%q) = %q, want %q", tc.md, got, tc.want)
		}
	}
}

// FuzzInnerHeadings: any markdown gives headings on one line, valid UTF-8
// from valid input, and no panic.
func FuzzInnerHeadings(f *testing.F) {
	for _, s := range []string{"", "# a\n## b {#c}", "<summary>x</summary>", "<summary>", "</summary><summary>", "<SUMMARY>é</summary>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		got := innerHeadings(md)
		if strings.ContainsAny(got, "\n") {
			t.Errorf("innerHeadings(%q) = %q: a heading spans lines", md, got)
		}
		if utf8.ValidString(md) && !utf8.ValidString(got) {
			t.Errorf("innerHeadings(%q) = %q: invalid UTF-8 from valid input", md, got)
		}
	})
}
