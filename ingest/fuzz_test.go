package ingest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/docent-sh/docent/textsafe"
)

// fuzzSeeds are bodies in every convention ingest converts, plus the
// hostile shapes of the benchmark, so fuzzing starts from where the
// parsers branch.
func fuzzSeeds(f *testing.F) []string {
	seeds := []string{
		"---\ntitle: T\ntags: [a]\n---\n# T\n\nText with **bold**, `code` and a [link](x.md).\n\n## Section\n\n- one\n- two\n",
		"+++\ntitle = \"T\"\n+++\n{{< hint style=\"info\" >}}\nHint **text**.\n{{< /hint >}}\n\n{{< figure src=\"a.png\" caption=\"A caption\" >}}\n\nSee [x]({{< relref \"x.md\" >}}).",
		"{% raw %}{{ site.baseurl }}{% endraw %}\n\n{% highlight go %}\nfunc main() {}\n{% endhighlight %}\n\n{% include note.html %}",
		"```rust\n{{#include ../listings/main.rs:2:5}}\n```\n\n{{#playground example.rs}}",
		"[[Page|label]] and [[Other#Section]] and ![[image.png]]. %% a comment %% 100%\n\n> [!warning] Careful\n> Text.",
		"!!! note \"Title\"\n\n    Body with ++ctrl+alt+del++ and :material-home: and ==mark==.\n\n    === \"Tab\"\n\n        ```yaml\n        a: b\n        ```\n\n???+ question\n    Why?",
		"Term\n:   Definition\n\n    * nested\n\n<!-- md:option x -->\n\n:   !!! abstract\n\n        Body.\n\n[`site_url`][mkdocs.site_url] {++add++}{--del--}{~~a~>b~~}{>>c<<}",
		"--8<--\nfile.md\n--8<--\n\n--8<-- \"other.md\"\n\n/// caption\nCaption\n///\n\n:::note Title\nText\n:::",
		"<div class=\"grid\" markdown>\n\n**Card**\n\n</div>\n\n<script>alert(1)</script>\n\n&gt; &amp; &#42; \\* <kbd>Ctrl</kbd>",
		"| a | b |\n|---|---|\n| `x` | &lt;y&gt; |\n\nText[^1].\n\n[^1]: Note.",
		"import X from './x'\n\n<Tabs>\n  <Tab value=\"a\">\n    Text {/* comment */}\n  </Tab>\n</Tabs>",
		"(label)=\n# T\n\n```{note}\nSee {ref}`x <y>` and {doc}`../a/b-c`.\n```\n\n````{admonition} T\n:class: tip\n\n```python\nx\n```\n````\n\n:::{warning}\n---\nclass: x\n---\nText {kbd}`C`\n:::\n\n```{toctree}\na\n```\n```{code-block} go\n:linenos:\nx\n```",
		"{% tabs %}\n{% tab title=\"A\" %}\nText.\n{% endtab %}\n{% endtabs %}\n\n{% content-ref url=\"a.md\" %}\n[a.md](a.md)\n{% endcontent-ref %}\n\n{% hint style=\"info\" %}\nHint.\n{% endhint %}",
		"{% callout type=\"note\" title=\"T\" %}\nText.\n{% /callout %}\n{% tab label=\"L\" %}\nx\n{% /tab %}\n{% partial file=\"f.md\" /%}\n{% callout %}\ny\n{% /callout %}",
		"::: code-group\n```sh [npm]\nx\n```\n:::\n\n::: mermaid\ngraph LR; A-->B;\n:::\n\n:::: details\nText.\n::::",
		"<ParamField body=\"to\" type=\"string\" default='x' required>\nText.\n</ParamField>\n<ResponseField name={\"id\"} required={true} />",
		"```admonish warning \"T\"\nText.\n```\n````admonish info title=\"x\"\n```sh\nx\n```\n````\n```admonish\n",
		"**Bold heading**\n\n**Bold sentence.**\n\n__Other__\n\n**a** b\n",
		"[[toc]]\n\n?> Tip.\n\n!> Warn.\n\n<Accordion title=\"Q?\">\nA.\n</Accordion>\n<TabItem label={'L'}>x</TabItem><a title=\"t\">y</a>",
		"{::comment}\nx\n{:/}\n{::options a=\"b\" /}\n{% include note.html content=\"Text\" %} and {% include a.html content='x' %}\n\n::::{tab-set}\n:::{tab-item} A\nB\n:::\n::::",
		"<p>a</p><h2 id=\"x\">B <b>c</b></h2><p>d</p>\n<h3>E &amp; F</h3>\n<pre>\n<h2>G</h2>\n</pre>\n`<h4>h</h4>` <h5>i</h6>",
		"<h2 id=\"a\">\n  B\n</h2>\n<h3>\nC\n\n</h3>\n```\n<h2>\nD\n</h2>\n```\n<h4>\nE\n</h5>",
		"[block:callout]\n{\"type\": \"warning\", \"title\": \"T\", \"body\": \"**B**\\n[/block]\"}\n[/block]\n[block:code]\n{\"codes\": [{\"code\": \"```\\nx\", \"language\": \"sh\"}]}\n[/block]\n[block:parameters]\n{\"data\": {\"h-0\": \"A\", \"0-0\": \"a|b\"}, \"cols\": 1, \"rows\": 1}\n[/block]\n[block:x]\n{bad\n\n```\n[block:image]\n```\n[block:html]\n{\"html\": \"<p>\\n\\n    y</p>\"}",
		"Title\n=====\n{: .no_toc }\n\n1. TOC\n{:toc}\n\n<details>\n<summary>Q?</summary>\n\nA.\n\n</details>\n\n[ref][r]\n\n[r]: x.md",
		":::image type=\"complex\" source=\"a.png\" alt-text=\"Alt.\":::\nLong.\n:::image-end:::\n::: zone pivot=\"x\"\nT.\n::: zone-end\n# [A](#tab/a)\n\nx\n\n---\n> [!div class=\"checklist\"]\n> * y\n[!code-json[](~/a.json)]\n{start_tabs}\n{tab|x}\nText ^id\n{% term a b %} {% my x title=\"T\" %} {% octicon \"g\" aria-label=\"G\" %}.\n{% configuration %}\na:\n  keys:\n    b: {c: [\n{% endconfiguration %}\n{% configuration %}\nx: 1",
	}
	for _, in := range hostileInputs {
		seeds = append(seeds, in.gen(200))
	}
	files, _ := filepath.Glob("testdata/*/*.md*")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil && !strings.HasSuffix(p, ".golden") {
			seeds = append(seeds, string(b))
		}
	}
	return seeds
}

// FuzzParseDoc runs whole files through ingestion: front matter, markup
// conversion, parsing, chunking and the plain text. Whatever the input,
// a file gives a doc whose chunks cover its body, or a warning naming it.
func FuzzParseDoc(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, src string, mdx bool) {
		name := "guides/fuzz.md"
		if mdx {
			name = "guides/fuzz.mdx"
		}
		checkParsed(t, name, src)
	})
}

// checkParsed parses src as the file name and checks what any input must
// give: a doc in valid UTF-8 whose chunks cover its body in clean lines,
// under a clean title, or a warning naming the file.
func checkParsed(t *testing.T, name, src string) {
	t.Helper()
	doc, _, err := parseDoc(name, []byte(src))
	if err != nil {
		var w Warning
		if !errors.As(err, &w) || w.Path != name {
			t.Fatalf("error %v is not a Warning naming %s", err, name)
		}
		return
	}
	if !utf8.ValidString(doc.Content) {
		t.Errorf("invalid UTF-8 out: %q", doc.Content)
	}
	checkChunkInvariants(t, doc)
	for _, c := range doc.Chunks {
		if c.Text != textsafe.Line(c.Text) {
			t.Errorf("%s: text is not one clean line: %q", c.ID(), c.Text)
		}
	}
	if doc.Title == "" || doc.Title != textsafe.Line(doc.Title) {
		t.Errorf("title %q", doc.Title)
	}
}

// FuzzConvertMarkup feeds arbitrary prose to the markup conversion (and
// to the MDX stripping after it): it never panics, keeps valid UTF-8
// valid, and leaves fenced code as it was.
func FuzzConvertMarkup(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		out, notes := convertMarkup(body)
		mdx := stripMDX(out)
		if utf8.ValidString(body) && (!utf8.ValidString(out) || !utf8.ValidString(mdx)) {
			t.Errorf("valid UTF-8 in, invalid out: %q", out)
		}
		lines := strings.Count(body, "\n") + 1
		for _, n := range notes {
			if n.line < 1 || n.line > lines {
				t.Errorf("note on line %d of %d: %s", n.line, lines, n.msg)
			}
		}
		// A fence at the start of the body, whose every line is plain code,
		// comes out whole.
		if strings.HasPrefix(body, "```\n") {
			if end := strings.Index(body[4:], "\n```\n"); end >= 0 {
				block := body[:4+end+5]
				if !strings.ContainsAny(block[4:4+end], "`~{") && !strings.Contains(block, "--8<--") && !strings.HasPrefix(out, block) {
					t.Errorf("fenced code changed:\n in %q\nout %q", block, out)
				}
			}
		}
	})
}

// FuzzSlugFor checks the names files can have: a slug never carries a
// control character, a space or an upper-case letter; a file is either
// a doc under the slug SlugFor gives, or a warning that can be printed.
func FuzzSlugFor(f *testing.F) {
	for _, p := range []string{
		"concepts/workspace.md", "Guides/Getting Started.md", "a/b/Deep Doc.mdx", "user/_index.md", "README.md",
		"evil\x1b[2J name.md", "dir/\x1b\x07.md", "caf\xe9.md", "\x9b31m.md", "  .md", "a/../b.md", "tab\there.markdown",
		"ÉCOLE/Ça va.md", "z$({touch,pwned}).md",
	} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		slug := SlugFor(p)
		if strings.ContainsFunc(slug, func(r rune) bool { return unicode.IsControl(r) || unicode.IsSpace(r) || r == utf8.RuneError }) {
			t.Errorf("SlugFor(%q) = %q", p, slug)
		}
		if slug != strings.ToLower(slug) {
			t.Errorf("SlugFor(%q) = %q is not lower-case", p, slug)
		}
		doc, _, err := parseDoc(p, []byte("# Title\n\nText."))
		if err != nil {
			var w Warning
			if !errors.As(err, &w) {
				t.Fatalf("%q: %v", p, err)
			}
			if s := w.String(); !utf8.ValidString(s) || strings.ContainsFunc(s, unicode.IsControl) {
				t.Errorf("warning %q carries a control character or a stray byte", s)
			}
			return
		}
		if doc.Slug != SlugFor(doc.SourcePath) || doc.Slug == "" || strings.HasSuffix(doc.Slug, "/") {
			t.Errorf("%q: slug %q, SlugFor gives %q", p, doc.Slug, SlugFor(doc.SourcePath))
		}
		if title := titleFromPath(doc.SourcePath); title == "" || title != textsafe.Line(title) {
			t.Errorf("%q: title from the name %q", p, title)
		}
	})
}

func FuzzReaderHeader(f *testing.F) {
	f.Add("Title: A | Site\n\nURL Source: https://x\n\nMarkdown Content:\nText.")
	f.Add("Title: A\nURL Source: x\nPublished Time: y\nWarning: z\nTitle: B\nMarkdown Content:")
	f.Add("\n\nTitle:\nURL Source:")
	f.Fuzz(func(t *testing.T, body string) {
		lines := strings.Split(body, "\n")
		out, title := readerHeader(lines)
		if len(out) != len(lines) {
			t.Fatalf("%d lines out of %d: line numbers must stay", len(out), len(lines))
		}
		if strings.Contains(title, "\n") {
			t.Errorf("title %q spans lines", title)
		}
		changed := 0
		for i := range lines {
			if out[i] != lines[i] {
				changed++
				if out[i] != "" {
					t.Errorf("line %d rewritten to %q, want blanked", i, out[i])
				}
			}
		}
		if title != "" && changed == 0 {
			t.Errorf("title %q read from a header left in the body", title)
		}
	})
}
