package ingest

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestFrontMatterAccepts(t *testing.T) {
	tests := []struct {
		name string
		src  string // the whole file: front matter, then a body
		want frontMatter
	}{
		{"plain", "---\ntitle: Home\nkeywords: home\n---\n", frontMatter{title: "Home", keywords: []string{"home"}}},
		{"double quoted with escapes", "---\ntitle: \"Say \\\"hi\\\" \\\\ now\"\n---\n", frontMatter{title: `Say "hi" \ now`}},
		{"single quoted", "---\ntitle: 'It''s: here'\n---\n", frontMatter{title: "It's: here"}},
		{"comments", "---\n# leading comment\ntitle: Home # trailing comment\n\nkeywords: [a] # c\n---\n", frontMatter{title: "Home", keywords: []string{"a"}}},
		{"flow list", "---\nkeywords: [a, \"b, c\", 'd', e f ]\n---\n", frontMatter{keywords: []string{"a", "b, c", "d", "e f"}}},
		{
			// How 123 Mastodon docs write their aliases.
			"flow list over several lines",
			"---\ntitle: Account\naliases: [\n  \"/entities/account\",\n  \"/entities/Account\",\n]\n---\n",
			frontMatter{title: "Account", aliases: []string{"/entities/account", "/entities/Account"}},
		},
		{"block list indented", "---\ntags:\n  - one\n  - \"two\"\n---\n", frontMatter{tags: []string{"one", "two"}}},
		{"block list unindented", "---\naliases:\n- one\n- two\ntitle: T\n---\n", frontMatter{title: "T", aliases: []string{"one", "two"}}},
		{"comma separated scalar", "---\nkeywords: a, b ,c\n---\n", frontMatter{keywords: []string{"a", " b ", "c"}}},
		{"keywords and tags", "---\ntags: [t]\nkeywords: [k]\n---\n", frontMatter{keywords: []string{"k"}, tags: []string{"t"}}},
		{"folded title", "---\ntitle: >\n  A long\n  title\n---\n", frontMatter{title: "A long title"}},
		{"block scalar description", "---\ndescription: |\n  Line one.\n\n  Line: two.\ntitle: T\n---\n", frontMatter{title: "T", description: "Line one. Line: two."}},
		{
			"unknown keys of every shape are ignored",
			"---\ntitle: T\nmenu:\n  docs:\n    weight: -99\nhide: [navigation, toc]\nsearch:\n  boost: 2\ndate: 2024-01-31\nauthors:\n  - name: Ann\n    url: https://example.com\nicon: material/home\n---\n",
			frontMatter{title: "T"},
		},
		{"null title", "---\ntitle: ~\n---\n", frontMatter{}},
		{"number title", "---\ntitle: 2024\n---\n", frontMatter{title: "2024"}},
		{"help desk labels are tags", "---\nlabels: [macros, canned]\nlabel_names: refunds\n---\n", frontMatter{tags: []string{"macros", "canned", "refunds"}}},
		{"keys are case-insensitive", "---\nTitle: Home\nTags: [x]\n---\n", frontMatter{title: "Home", tags: []string{"x"}}},
		{"hugo fields", "---\nlinkTitle: Short\nweight: 30\ndraft: false\n---\n", frontMatter{linkTitle: "Short", weight: 30}},
		{"draft", "---\ntitle: WIP\ndraft: true\n---\n", frontMatter{title: "WIP", draft: true}},
		{"jekyll unpublished", "---\npublished: false\n---\n", frontMatter{draft: true}},
		{"published is a date elsewhere", "---\npublished: 2024-01-31\n---\n", frontMatter{}},
		{"empty front matter", "---\n---\n", frontMatter{}},
		{"only comments", "---\n# nothing yet\n---\n", frontMatter{}},
		{"yaml document end marker", "---\ntitle: T\n...\n", frontMatter{title: "T"}},
		{"anchors and aliases", "---\nbase: &k [a, b]\nkeywords: *k\n---\n", frontMatter{keywords: []string{"a", "b"}}},
		{
			"toml",
			"+++\ntitle = \"Home\"\ndescription = 'The start'\ntags = [\"a\", \"b\"]\nweight = 3\ndraft = false\ndate = 2024-01-31\n[menu.main]\nparent = \"x\"\n+++\n",
			frontMatter{title: "Home", description: "The start", tags: []string{"a", "b"}, weight: 3},
		},
		{"toml draft", "+++\ndraft = true\n+++\n", frontMatter{draft: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fm, body, err := splitFrontMatter(normalizeLines(tt.src + "Body."))
			if err != nil {
				t.Fatalf("line %d: %s", err.line, err.msg)
			}
			if got, want := fmt.Sprintf("%+v", fm), fmt.Sprintf("%+v", tt.want); got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
			if strings.Join(body, "\n") != "Body." {
				t.Errorf("body %q", body)
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
		{"no closing toml delimiter", "+++\ntitle = \"T\"\n", 1, "no closing +++ line"},
		{"not key value", "---\ntitle: T\njust some words\n---\nText.", 3, "could not find expected ':'"},
		{"unclosed flow list", "---\ntitle: T\nkeywords: [a, b\n---\nText.", 3, "did not find expected ',' or ']'"},
		{"unclosed flow list on the first line", "---\nkeywords: [a, b\n---\nText.", 2, "did not find expected ',' or ']'"},
		{"unclosed double quote", "---\n\ntitle: \"Home\n---\nText.", 3, "found unexpected end of stream"},
		{"unquoted colon", "---\ntitle: Billing: Refunds\n---\nText.", 2, "mapping values are not allowed"},
		{"unquoted colon later", "---\ntitle: T\n\ndescription: Billing: Refunds\n---\nText.", 4, "mapping values are not allowed"},
		{"tab indentation", "---\ntags:\n\t- a\n---\nText.", 3, "tabs for indentation"},
		{"duplicate key", "---\ntitle: A\nkeywords: [x]\nTitle: B\n---\nText.", 4, "duplicate key \"Title\" (first on line 2)"},
		{"title is a list", "---\ntitle: [a, b]\n---\nText.", 2, "title must be a string, not a list"},
		{"keywords is a mapping", "---\nkeywords:\n  a: b\n---\nText.", 2, "keywords must be a list of strings, not a mapping"},
		{"tags hold lists", "---\ntags: [a, [b]]\n---\nText.", 2, "tags must be a list of strings"},
		{"draft is not a boolean", "---\ndraft: maybe\n---\nText.", 2, "draft must be true or false, got \"maybe\""},
		{"weight is not a number", "---\nweight: heavy\n---\nText.", 2, "weight must be a whole number"},
		{"not a mapping", "---\n- a\n- b\n---\nText.", 2, "front matter must be a mapping"},
		{"toml syntax", "+++\ntitle = \"T\"\ntags = [\"a\"\n+++\nText.", 3, "toml"},
		{"toml title is a table", "+++\n[title]\nx = 1\n+++\nText.", 2, "title must be a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseDoc("concepts/x.md", []byte(tt.src))
			var w Warning
			if !errors.As(err, &w) {
				t.Fatalf("got %v, want a Warning", err)
			}
			wantPrefix := fmt.Sprintf("concepts/x.md:%d: broken front matter: ", tt.line)
			if !strings.HasPrefix(w.String(), wantPrefix) || !strings.Contains(w.Msg, tt.msg) || w.Kind != Problem {
				t.Errorf("got %q (kind %d), want prefix %q and %q in the message", w, w.Kind, wantPrefix, tt.msg)
			}
		})
	}
}

func TestNoFrontMatter(t *testing.T) {
	d := mustParse(t, "n.md", "# Title\n\ntitle: not front matter\n\n---\n\nAfter a rule.")
	if d.Title != "Title" {
		t.Errorf("title %q, want the heading", d.Title)
	}
	if !strings.Contains(d.Content, "title: not front matter") {
		t.Errorf("body lost text: %q", d.Content)
	}
}

// FuzzFrontMatter feeds arbitrary front matter to both parsers: any input
// gives a front matter or an error on a line of the file, never a panic.
func FuzzFrontMatter(f *testing.F) {
	for _, seed := range []string{
		"---\ntitle: Home\nkeywords: [a, b]\n---\nBody.",
		"---\naliases: [\n  \"/a\",\n]\ntags:\n  - x\ndraft: false\n---\n",
		"---\ndescription: |\n  One.\n\n  Two.\nmenu:\n  docs:\n    weight: -99\n---\n",
		"---\na: &x [1, 2]\nb: *x\nc: {d: [e, {f: g}]}\n---\n",
		"---\ntitle: \"unclosed\n---\n",
		"+++\ntitle = \"Home\"\ntags = [\"a\"]\n[menu.main]\nweight = 3\n+++\nBody.",
		"+++\ntitle = \n+++\n",
		"---\nredirect_to:\n  - /a\n  - /b\n---\n",
		"---\nredirect_to: {a: b}\n---\nBody.",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		lines := normalizeLines(src)
		fm, body, err := splitFrontMatter(lines)
		if err != nil {
			if err.line < 1 || err.line > len(lines) {
				t.Errorf("error on line %d of a %d-line file: %s", err.line, len(lines), err.msg)
			}
			return
		}
		if len(body) > len(lines) {
			t.Errorf("body of %d lines from %d", len(body), len(lines))
		}
		for _, k := range fm.keywordList() {
			if k == "" || k != strings.ToLower(k) {
				t.Errorf("keyword %q", k)
			}
		}
	})
}
