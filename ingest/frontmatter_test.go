package ingest

import (
	"fmt"
	"strings"
	"testing"
)

func TestFrontMatterAccepts(t *testing.T) {
	tests := []struct {
		name  string
		fm    string
		title string
		terms []string
	}{
		{"plain", "title: Home\nkeywords: home", "Home", []string{"home"}},
		{"double quoted with escapes", `title: "Say \"hi\" \\ now"`, `Say "hi" \ now`, nil},
		{"single quoted", "title: 'It''s: here'", "It's: here", nil},
		{"comments", "# leading comment\ntitle: Home # trailing comment\n\nkeywords: [a] # c", "Home", []string{"a"}},
		{"flow list", `keywords: [a, "b, c", 'd', e f ]`, "", []string{"a", "b, c", "d", "e f"}},
		{"empty flow list", "keywords: []", "", nil},
		{"block list indented", "tags:\n  - one\n  - \"two\"\n", "", []string{"one", "two"}},
		{"block list unindented", "aliases:\n- one\n- two\ntitle: T", "T", []string{"one", "two"}},
		{"comma separated scalar", "keywords: a, b ,c", "", []string{"a", " b ", "c"}},
		{"continued plain scalar", "title: A long\n  title", "A long title", nil},
		{"plain scalar below its key", "title:\n  A long\n  title\nkeywords:\n  a, b", "A long title", []string{"a", " b"}},
		{"ignored nested mapping", "sidebar:\n  position: 2\n  label: \"Start\"\n  items:\n    - a\ntitle: T", "T", nil},
		{"ignored block scalar", "description: |\n  Line one.\n\n  Line: two.\ntitle: T", "T", nil},
		{"ignored flow mapping", "meta: {a: 1, b: [2, 3]}\ntitle: T", "T", nil},
		{"null title", "title: ~", "", nil},
		{"url value", "link: https://example.com/a\ntitle: T", "T", nil},
		{"keys are case-insensitive", "Title: Home\nTags: [x]", "Home", []string{"x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := fmParser{lines: strings.Split(tt.fm, "\n"), firstLine: 2}
			fm, err := p.parse()
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if fm.title != tt.title || fmt.Sprintf("%q", fm.terms) != fmt.Sprintf("%q", tt.terms) {
				t.Errorf("got title %q terms %q, want %q %q", fm.title, fm.terms, tt.title, tt.terms)
			}
		})
	}
}

// TestFrontMatterRejects checks each broken form yields a warning naming
// the file and the line (counted in the file, the opening --- is line 1).
func TestFrontMatterRejects(t *testing.T) {
	tests := []struct {
		name string
		src  string
		line int
		msg  string
	}{
		{"no closing delimiter", "---\ntitle: T\n\n## T\n\nText.", 1, "no closing --- line"},
		{"no closing after blank lines", "\n\n---\ntitle: T\n", 3, "no closing --- line"},
		{"not key value", "---\ntitle: T\njust some words\n---\nText.", 3, "line is not `key: value`"},
		{"missing space after colon", "---\ntitle:Home\n---\nText.", 2, "line is not `key: value`"},
		{"unclosed flow list", "---\ntitle: T\nkeywords: [a, b\n---\nText.", 3, "unclosed ["},
		{"unclosed double quote", "---\n\ntitle: \"Home\n---\nText.", 3, "unclosed double quote"},
		{"unclosed single quote", "---\ntags: ['a, b]\n---\nText.", 2, "unclosed single quote"},
		{"unclosed quoted title", "---\ntitle: 'Home\n---\nText.", 2, "unclosed single quote"},
		{"text after quote", "---\ntitle: \"Home\" page\n---\nText.", 2, "unexpected text after the closing quote"},
		{"unquoted colon", "---\ntitle: Billing: Refunds\n---\nText.", 2, "put it in quotes"},
		{"list item without key", "---\n- a\n---\nText.", 2, "list item without a key"},
		{"indented line without key", "---\ntitle: \"T\"\n  more\n---\nText.", 3, "indented line without a key"},
		{"bad list indentation", "---\ntags:\n  - a\n - b\n---\nText.", 4, "bad indentation"},
		{"tab indentation", "---\ntags:\n\t- a\n---\nText.", 3, "tabs are not allowed"},
		{"duplicate key", "---\ntitle: A\nkeywords: [x]\nTitle: B\n---\nText.", 4, "duplicate key \"Title\" (first on line 2)"},
		{"title is a list", "---\ntitle: [a, b]\n---\nText.", 2, "title must be a string"},
		{"keywords is a mapping", "---\nkeywords:\n  a: b\n---\nText.", 2, "keywords must be a list of strings"},
		{"scalar mixed with keys", "---\ntitle:\n  Home\n  a: b\n---\nText.", 2, "title must be a string"},
		{"nested flow list", "---\ntags: [a, [b]]\n---\nText.", 2, "nested lists"},
		{"unclosed flow mapping", "---\nmeta: {a: 1\n---\nText.", 2, "unclosed {"},
		{"unknown escape", "---\ntitle: \"a\\qb\"\n---\nText.", 2, "unknown escape"},
		{"bad item in ignored list", "---\nauthors:\n  - \"ann\n---\nText.", 3, "unclosed double quote"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseDoc("concepts/x.md", []byte(tt.src))
			w, ok := err.(Warning)
			if !ok {
				t.Fatalf("got %v, want a Warning", err)
			}
			wantPrefix := fmt.Sprintf("concepts/x.md:%d: broken front matter: ", tt.line)
			if !strings.HasPrefix(w.String(), wantPrefix) || !strings.Contains(w.Msg, tt.msg) {
				t.Errorf("got %q, want prefix %q and %q in the message", w, wantPrefix, tt.msg)
			}
		})
	}
}

func TestNoFrontMatter(t *testing.T) {
	d := mustParse(t, "n.md", "## Title\n\ntitle: not front matter\n\n---\n\nAfter a rule.")
	if d.Title != "Title" {
		t.Errorf("title %q, want the heading", d.Title)
	}
	if !strings.Contains(d.Content, "title: not front matter") {
		t.Errorf("body lost text: %q", d.Content)
	}
}
