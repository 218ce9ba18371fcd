package ingest

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/docent-sh/docent/knowledge"
)

func mustParse(t *testing.T, path, src string) (doc docView) {
	t.Helper()
	d := parsed(t, path, src)
	return docView{Slug: d.Slug, Category: d.Category, Title: d.Title, Content: d.Content, Hash: d.ContentHash, Keywords: d.Keywords, Source: d.SourcePath}
}

// parsed is the doc ParseDoc makes of src, failing the test on an error.
func parsed(t *testing.T, path, src string) knowledge.Doc {
	t.Helper()
	d, err := ParseDoc(path, []byte(src))
	if err != nil {
		t.Fatalf("ParseDoc(%q): %v", path, err)
	}
	return d
}

// docView is the part of a Doc these tests compare.
type docView struct {
	Slug, Category, Title, Content, Hash, Source string
	Keywords                                     []string
}

func TestSlugCategoryAndTitle(t *testing.T) {
	tests := []struct {
		path, src                   string
		slug, category, title, from string
	}{
		{"concepts/workspace.md", "---\ntitle: The Workspace\n---\n# Workspace\n\nText.", "concepts/workspace", "concepts", "The Workspace", "front matter"},
		{"concepts/short.md", "---\nlinkTitle: Short\n---\nText.", "concepts/short", "concepts", "Short", "front matter linkTitle"},
		{"guides/toml.md", "+++\ntitle = \"From TOML\"\n+++\nText.", "guides/toml", "guides", "From TOML", "TOML front matter"},
		{"Guides/Getting Started.md", "## Getting started\n\nText.", "guides/getting-started", "guides", "Getting Started", "file name: a ## heading is a section"},
		{"faq.markdown", "Intro.\n\n# Frequently Asked\n\n## Billing\n\nText.", "faq", "docs", "Frequently Asked", "first # heading"},
		{"setext.md", "Frequently Asked\n================\n\nText.", "setext", "docs", "Frequently Asked", "setext # heading"},
		{"a/b/Deep Doc.mdx", "Just text, **no** heading.\n\n### Not a title\n\nMore.", "a/b/deep-doc", "a", "Deep Doc", "file name"},
		{"notes/Manage notes.md", "Text.", "notes/manage-notes", "notes", "Manage notes", "file name with a space"},
		{"notes/manage_shared-notes.md", "Text.", "notes/manage_shared-notes", "notes", "manage shared notes", "dashes and underscores in the file name"},
		{"notes.MD", "---\ntitle: \"\"\n---\nText only.", "notes", "docs", "notes", "file name, empty front matter title"},
		{"./x/y.md", "# `docent` *setup* {#setup}\n\nText.", "x/y", "x", "docent setup", "heading markup and attributes removed"},
		{"user/_index.md", "Text.", "user/_index", "user", "user", "a folder's page: the folder name"},
		{"Getting-Started/index.md", "Text.", "getting-started/index", "getting-started", "Getting Started", "a folder's page: the folder name"},
		{"guides/README.md", "---\ntitle: All guides\n---\nText.", "guides/readme", "guides", "All guides", "a folder's page: front matter"},
		{"guides/sub/Readme.markdown", "# Sub guides\n\nText.", "guides/sub/readme", "guides", "Sub guides", "a folder's page: its # heading"},
		{"_index.md", "Text.", "_index", "docs", "index", "the root page keeps its file name"},
		{"bell\a name.md", "Text.", "bell-name", "docs", "bell name", "control characters dropped"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			d := mustParse(t, tt.path, tt.src)
			if d.Slug != tt.slug || d.Category != tt.category || d.Title != tt.title {
				t.Errorf("got slug %q category %q title %q, want %q %q %q (title from %s)", d.Slug, d.Category, d.Title, tt.slug, tt.category, tt.title, tt.from)
			}
			if want := strings.TrimPrefix(tt.path, "./"); d.Source != want {
				t.Errorf("SourcePath %q, want %q", d.Source, want)
			}
		})
	}
}

func TestContentNormalization(t *testing.T) {
	src := "\uFEFF---\r\ntitle: T\r\n---\r\n\r\n\r\n## T   \r\n\r\nLine one.\t \r\nLine two.\x1b[31m red\x1b[0m\r\n\r\n\r\n"
	d := mustParse(t, "n.md", src)
	want := "## T\n\nLine one.\nLine two.[31m red[0m"
	if d.Content != want {
		t.Errorf("content %q, want %q", d.Content, want)
	}
	lf := mustParse(t, "n.md", "---\ntitle: T\n---\n\n\n## T\n\nLine one.\nLine two.\x1b[31m red\x1b[0m\n")
	if lf.Hash != d.Hash {
		t.Error("CRLF, BOM and trailing spaces changed the content hash")
	}
}

func TestContentHashCoversFrontMatter(t *testing.T) {
	base := mustParse(t, "h.md", "---\ntitle: Home\nkeywords: [a]\n---\n## Home\n\nText.")
	for name, src := range map[string]string{
		"title":    "---\ntitle: Start\nkeywords: [a]\n---\n## Home\n\nText.",
		"keywords": "---\ntitle: Home\nkeywords: [a, b]\n---\n## Home\n\nText.",
		"body":     "---\ntitle: Home\nkeywords: [a]\n---\n## Home\n\nText!",
	} {
		if d := mustParse(t, "h.md", src); d.Hash == base.Hash {
			t.Errorf("editing the %s left the content hash unchanged", name)
		}
	}
	if len(base.Hash) != 64 {
		t.Errorf("hash %q is not hex sha256", base.Hash)
	}
	if d := mustParse(t, "h.md", "---\ntitle: Home   \nkeywords: [a]\n---\n## Home  \n\nText.\n\n"); d.Hash != base.Hash {
		t.Error("trailing whitespace changed the content hash")
	}
}

func TestKeywords(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{
			name: "front matter keywords and tags merged, lower-cased and deduped; aliases that are names count, URLs do not",
			src:  "---\nkeywords: [Home, \" Start Page \"]\naliases:\n  - /start-page\n  - old/home.html\n  - Landing\ntags: home, Dashboard\n---\n## Home\n\n**Bold** is ignored here.",
			want: []string{"home", "start page", "dashboard", "landing"},
		},
		{
			// A page that mentions **X** must not compete with X's own page,
			// and headings are already indexed through header paths.
			name: "nothing is guessed from the body",
			src:  "## Home\n\nPress `Ctrl+H` or **Go > Home**. See [Quick Links](q.md).\n\n### Customize Home\n\nText.",
			want: nil,
		},
		{
			name: "empty front matter keywords",
			src:  "---\nkeywords: []\n---\n## Home\n\n## Widgets",
			want: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := mustParse(t, "k.md", tt.src)
			if fmt.Sprint(d.Keywords) != fmt.Sprint(tt.want) {
				t.Errorf("keywords %q, want %q", d.Keywords, tt.want)
			}
		})
	}
}

func TestParseDocRejectsBadInput(t *testing.T) {
	tests := []struct {
		name, path string
		src        []byte
		line       int
		msg        string
	}{
		{"binary", "b.md", []byte("# T\n\nabc\x00def"), 3, "binary file"},
		{"invalid utf-8", "u.md", []byte("# T\n\nline\n\xff\xfe broken"), 4, "invalid UTF-8"},
		{"empty", "e.md", []byte(""), 0, "empty file"},
		{"whitespace only", "w.md", []byte(" \n\t\r\n  \n"), 0, "empty file"},
		{"unclosed front matter", "c.md", []byte("---\ntitle: T\n## T\n"), 1, "broken front matter: no closing --- line"},
		{"bad front matter line", "l.md", []byte("---\ntitle: T\nnot a key\n---\nText."), 3, "broken front matter: could not find expected ':'"},
		{"file name of control characters", "dir/\x1b\x07.md", []byte("Text."), 0, "file name has no printable characters"},
		{"folder name of control characters", "\x1b/a.md", []byte("Text."), 0, "folder name has no printable characters"},
		{"file name not UTF-8", "caf\xe9.md", []byte("Text."), 0, "not valid UTF-8"},
		{"not markdown", "t.csv", []byte("text"), 0, "not a markdown, reStructuredText, AsciiDoc, notebook, HTML or text file"},
		{"escaping path", "../x.md", []byte("text"), 0, "invalid path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseDoc(tt.path, tt.src)
			var w Warning
			if !errors.As(err, &w) {
				t.Fatalf("got error %v (%T), want a Warning", err, err)
			}
			if w.Line != tt.line || !strings.Contains(w.Msg, tt.msg) || w.Kind != Problem {
				t.Errorf("got %q (kind %d), want line %d and message containing %q", w, w.Kind, tt.line, tt.msg)
			}
			if !strings.HasPrefix(w.String(), w.Path+":") && !strings.HasPrefix(w.String(), strconv.Quote(w.Path)+":") {
				t.Errorf("%q does not start with the file name", w)
			}
			if strings.ContainsFunc(w.String(), func(r rune) bool { return unicode.IsControl(r) || r == utf8.RuneError }) {
				t.Errorf("%q carries a control character or a stray byte", w)
			}
		})
	}
}

// TestParseDocExcludes covers the files a site generator leaves out on
// purpose: they are reported, but not as problems.
func TestParseDocExcludes(t *testing.T) {
	tests := []struct{ name, src, msg string }{
		{"hugo draft", "---\ntitle: WIP\ndraft: true\n---\nText.", "draft"},
		{"toml draft", "+++\ndraft = true\n+++\nText.", "draft"},
		{"jekyll unpublished", "---\npublished: false\n---\nText.", "draft"},
		{"section page without a body", "---\ntitle: admin API methods\nmenu:\n  docs:\n    parent: methods\n---\n", "no body"},
		{"front matter and blank lines", "---\ntitle: T\n---\n\n\n", "no body"},
		{"nothing shown once markup is removed", "{{< toc >}}\n\n<!-- todo -->\n", "no text"},
		{"only a shortcode", "---\ntitle: Methods\n---\n{{% children %}}\n", "no text"},
		{"jekyll redirect_to", "---\ntitle: Old page\nredirect_to: /guide/new-page\n---\nThis page moved.\n", "redirect to /guide/new-page"},
		{"jekyll redirect_to list", "---\nredirect_to:\n  - https://example.com/new\n---\n", "redirect to https://example.com/new"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseDoc("methods/admin/_index.md", []byte(tt.src))
			var w Warning
			if !errors.As(err, &w) || w.Kind != Excluded || !strings.Contains(w.Msg, tt.msg) {
				t.Errorf("got %v (kind %d), want an Excluded warning saying %q", err, w.Kind, tt.msg)
			}
		})
	}
}

func TestWarningFormat(t *testing.T) {
	if got, want := (Warning{Path: "concepts/x.md", Line: 3, Msg: "broken front matter: unclosed ["}).String(), "concepts/x.md:3: broken front matter: unclosed ["; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := (Warning{Path: "big.md", Msg: "file too large"}).Error(), "big.md: file too large"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestFileNamesCannotCarryEscapes(t *testing.T) {
	d := mustParse(t, "evil\x1b[2J name.md", "## T\n\nText.")
	if strings.ContainsRune(d.Slug, 0x1b) || d.Slug != "evil[2j-name" {
		t.Errorf("slug %q", d.Slug)
	}
	w := Warning{Path: "bad\x1b[2J.md", Line: 1, Msg: "x"}
	if strings.ContainsRune(w.String(), 0x1b) {
		t.Errorf("warning %q carries an escape character", w)
	}
}

func TestWithoutSectionNumber(t *testing.T) {
	for title, want := range map[string]string{
		"22.6. Tablespaces":                "Tablespaces",
		"F.38. postgres_fdw":               "postgres_fdw",
		"Chapter 26. Backup and Restore":   "Backup and Restore",
		"Part III. Server Administration":  "Server Administration",
		"Appendix L. Acronyms":             "Acronyms",
		"1. Getting started":               "Getting started",
		"2024 roadmap":                     "2024 roadmap",
		"1.5 release notes":                "1.5 release notes",
		"2FA for admins":                   "2FA for admins",
		"A. Smith's guide to shipping":     "A. Smith's guide to shipping",
		"III. Setup":                       "III. Setup",
		"3.":                               "3.",
		"Chapters 1. and 2. of the manual": "Chapters 1. and 2. of the manual",
	} {
		if got := withoutSectionNumber(title); got != want {
			t.Errorf("withoutSectionNumber(%q) = %q, want %q", title, got, want)
		}
	}
}

// A markdown page that is a list of links to other pages is a table of
// contents, as an HTML one is (see TestHTMLTableOfContentsIsLeftOut); a
// page that links some of its words is an article.
func TestMarkdownTableOfContentsIsLeftOut(t *testing.T) {
	toc := "# Payments\n\n- [Take a card payment](card.md)\n- [Refund a payment](refund.md)\n- [Split a bill between guests](split.md)\n- [Payment methods we accept](methods.md)\n- [Payouts to your bank account](payouts.md)\n"
	if _, err := ParseDoc("payments/index.md", []byte(toc)); err == nil || !strings.Contains(err.Error(), "table of contents") {
		t.Errorf("error %v, want the list of links left out as a table of contents", err)
	}
	article := "# Refund a payment\n\nOpen the payment and tap **Refund**; see [payment methods](methods.md) for how long each takes. The refund goes back to the card the guest paid with.\n"
	if _, err := ParseDoc("payments/refund.md", []byte(article)); err != nil {
		t.Errorf("article: %v", err)
	}
}
