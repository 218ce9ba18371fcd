package retrieval

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docent-sh/docent/retrieval/retrievaltest"
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
		// A definition list's term names its definition: a setting, an
		// API's attribute, after the headings; one in code does not.
		{"## Memory\n<dl>\n<dt id=\"guc-work-mem\"><code>work_mem</code> (<code>integer</code>)\n<a class=\"indexterm\"></a>\n</dt><dd><p>Sets the memory.</p></dd></dl>", "Memory ; work_mem (integer)"},
		{"<dt class=\"sig\">\n<code>Field.</code><code>null</code></dt>\n<dd></dd>", "Field.null"},
		{"<DT>Term &amp; more<DD>its definition", "Term & more"},
		{"```html\n<dt>Code</dt>\n```\n", ""},
		{"<dt>" + strings.Repeat("word ", 30) + "</dt>", ""},
	} {
		if got := innerHeadings(tc.md); got != tc.want {
			t.Errorf("innerHeadings(%q) = %q, want %q", tc.md, got, tc.want)
		}
	}
}

// FuzzInnerHeadings: any markdown gives headings on one line, valid UTF-8
// from valid input, and no panic.
func FuzzInnerHeadings(f *testing.F) {
	for _, s := range []string{"", "# a\n## b {#c}", "<summary>x</summary>", "<summary>", "</summary><summary>", "<SUMMARY>é</summary>", "<dt>a\nb</dt>", "<dt><dd>", "<dt>x"} {
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

// A setting documented as a definition list's term is named there, as a
// heading would name it: "what does cache_size do" is the configuration
// reference's, not the guide's that mentions it.
func TestDefinitionTermNamesItsEntry(t *testing.T) {
	e := engineWith(t,
		retrievaltest.Doc("admin/server-config", "Server configuration", nil, "Settings the server reads at start.",
			retrievaltest.Section{Heading: "Resource consumption", Body: "<dl>\n<dt><code>cache_size</code> (<code>integer</code>)</dt>\n<dd><p>Sets how much memory the cache may use before it evicts entries. The default is 64 megabytes.</p></dd>\n<dt><code>worker_count</code> (<code>integer</code>)</dt>\n<dd><p>Sets how many workers run queries at once.</p></dd>\n</dl>"}),
		retrievaltest.Doc("guides/tuning", "Tuning guide", nil, "Make the server faster.",
			retrievaltest.Section{Heading: "Memory", Body: "Raise cache_size when the cache evicts entries too often, and watch the memory the server uses."}))
	checkFoundFrom(t, e, "what does cache_size do", "admin/server-config")
}
