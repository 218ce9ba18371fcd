package ingest

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func mustParse(t *testing.T, path, src string) (doc docView) {
	t.Helper()
	d, err := ParseDoc(path, []byte(src))
	if err != nil {
		t.Fatalf("ParseDoc(%q): %v", path, err)
	}
	return docView{Slug: d.Slug, Category: d.Category, Title: d.Title, Content: d.Content, Hash: d.ContentHash, Keywords: d.Keywords, Source: d.SourcePath}
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
		{"concepts/workspace.md", "---\ntitle: The Workspace\n---\n## Workspace\n\nText.", "concepts/workspace", "concepts", "The Workspace", "front matter"},
		{"Guides/Getting Started.md", "## Getting started\n\nText.", "guides/getting-started", "guides", "Getting started", "first ## heading"},
		{"faq.markdown", "Intro.\n\n# Frequently Asked\n\n## Billing\n\nText.", "faq", "docs", "Frequently Asked", "first # heading"},
		{"a/b/Deep Doc.mdx", "Just text, **no** heading.\n\n### Not a title\n\nMore.", "a/b/deep-doc", "a", "Deep Doc", "file name"},
		{"notes.MD", "---\ntitle: \"\"\n---\nText only.", "notes", "docs", "notes", "file name, empty front matter title"},
		{"./x/y.md", "## `docent` *setup*\n\nText.", "x/y", "x", "docent setup", "heading markup removed"},
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
			name: "front matter keywords, aliases and tags merged, lower-cased and deduped",
			src:  "---\nkeywords: [Home, \" Start Page \"]\naliases:\n  - start page\n  - Landing\ntags: home, Dashboard\n---\n## Home\n\n**Bold** is ignored here.",
			want: []string{"home", "start page", "landing", "dashboard"},
		},
		{
			name: "extracted: headings beyond the title, bold, inline code, link texts",
			src:  "## Home\n\nPress `Ctrl+H` or **Go > Home**. See [Quick Links](q.md) and [click here](x.md).\n\n### Customize Home\n\nA **very long bold phrase that is not a keyword at all**.",
			want: []string{"customize home", "go > home", "ctrl+h", "quick links"},
		},
		{
			name: "empty front matter keywords fall back to extraction",
			src:  "---\nkeywords: []\n---\n## Home\n\n## Widgets",
			want: []string{"widgets"},
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

func TestExtractedKeywordsAreCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("## Doc\n\n")
	for i := range 40 {
		fmt.Fprintf(&b, "### Topic %d\n\nUse `cmd-%d`.\n\n", i, i)
	}
	d := mustParse(t, "cap.md", b.String())
	if len(d.Keywords) != maxKeywords {
		t.Fatalf("got %d keywords, want the cap of %d", len(d.Keywords), maxKeywords)
	}
	if d.Keywords[0] != "topic 0" || d.Keywords[maxKeywords-1] != fmt.Sprintf("topic %d", maxKeywords-1) {
		t.Errorf("headings should fill the cap first, got %q", d.Keywords)
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
		{"front matter only", "f.md", []byte("---\ntitle: T\n---\n\n"), 0, "empty document"},
		{"unclosed front matter", "c.md", []byte("---\ntitle: T\n## T\n"), 1, "broken front matter: no closing --- line"},
		{"bad front matter line", "l.md", []byte("---\ntitle: T\nnot a key\n---\nText."), 3, "broken front matter: line is not `key: value`"},
		{"not markdown", "t.txt", []byte("text"), 0, "not a markdown file"},
		{"escaping path", "../x.md", []byte("text"), 0, "invalid path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseDoc(tt.path, tt.src)
			var w Warning
			if !errors.As(err, &w) {
				t.Fatalf("got error %v (%T), want a Warning", err, err)
			}
			if w.Line != tt.line || !strings.Contains(w.Msg, tt.msg) {
				t.Errorf("got %q, want line %d and message containing %q", w, tt.line, tt.msg)
			}
			if !strings.HasPrefix(w.String(), w.Path+":") {
				t.Errorf("%q does not start with the file name", w)
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
