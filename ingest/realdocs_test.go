package ingest

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"

	"github.com/docent-sh/docent/internal/evaldata"
	"github.com/docent-sh/docent/knowledge"
)

// Real documentation sets (../shared/eval/README.md) show whether the
// conventions of site generators go in whole and come out as prose. The
// data stays outside the repository.

// requireEvalDocs returns the docs folder of an evaluation data set or,
// when it is not there, skips the test (locally) or fails it (under
// CI=true, and whenever DOCENT_EVAL_DIR was set explicitly): see
// evaldata.Dir.
func requireEvalDocs(tb testing.TB, name string) string {
	tb.Helper()
	return filepath.Join(evaldata.Dir(tb, name), "docs")
}

// htmlTag matches what looks like an HTML tag in plain text.
var htmlTag = regexp.MustCompile(`</?[A-Za-z][A-Za-z0-9-]*(\s+[A-Za-z_:][-A-Za-z0-9_:.]*(\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>` + "`" + `]+))?)*\s*/?>`)

// leakedMarkup returns the markup left in a chunk's Text: any of the
// given strings, or an HTML tag written as such in the chunk. What the
// author wrote as inline code is text, whatever it looks like ("use the
// `--8<--` notation"), and so is what they escaped ("\<object path\>").
func leakedMarkup(c knowledge.Chunk, forbidden []string) []string {
	md := parseMarkdown(c.Content)
	var codes []string
	_ = ast.Walk(md.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if cs, ok := n.(*ast.CodeSpan); entering && ok {
			var code strings.Builder
			for t := cs.FirstChild(); t != nil; t = t.NextSibling() {
				if tn, ok := t.(*ast.Text); ok {
					code.Write(tn.Segment.Value(md.src))
				}
			}
			if s := strings.TrimSpace(code.String()); s != "" {
				codes = append(codes, s)
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	// Longest first, so "cache_id" does not break "${{ env.cache_id }}".
	slices.SortFunc(codes, func(a, b string) int { return len(b) - len(a) })
	text := c.Text
	for _, s := range codes {
		text = strings.ReplaceAll(text, s, " ")
	}
	var leaks []string
	for _, f := range forbidden {
		if i := strings.Index(text, f); i >= 0 {
			leaks = append(leaks, excerpt(text, i))
		}
	}
	for _, m := range htmlTag.FindAllStringIndex(text, -1) {
		if strings.Contains(c.Content, text[m[0]:m[1]]) {
			leaks = append(leaks, excerpt(text, m[0]))
		}
	}
	return leaks
}

func excerpt(s string, i int) string {
	lo, hi := max(0, i-40), min(len(s), i+40)
	for lo > 0 && !utfStart(s[lo]) {
		lo--
	}
	for hi < len(s) && !utfStart(s[hi]) {
		hi++
	}
	return "…" + s[lo:hi] + "…"
}

func utfStart(b byte) bool { return b&0xC0 != 0x80 }

// loadEvalDocs ingests a data set's docs and checks what every real
// folder must give: no problem, each chunk's Text free of markup.
func loadEvalDocs(t *testing.T, name string, forbidden []string) Result {
	t.Helper()
	dir := requireEvalDocs(t, name)
	res, err := Load(context.Background(), os.DirFS(dir), dir)
	if err != nil {
		t.Fatalf("Load %s: %v", name, err)
	}
	for _, w := range res.Warnings {
		t.Errorf("%s: %s", name, w)
	}
	leaks := 0
	for _, d := range res.Docs {
		checkChunkInvariants(t, d)
		for _, c := range d.Chunks {
			for _, l := range leakedMarkup(c, forbidden) {
				if leaks++; leaks <= 20 {
					t.Errorf("%s: markup in the plain text: %q", c.ID(), l)
				}
			}
		}
	}
	if leaks > 20 {
		t.Errorf("%d leaks in all", leaks)
	}
	return res
}

// wantExcluded checks the notices name exactly these files as left out.
func wantExcluded(t *testing.T, res Result, want map[string]string) {
	t.Helper()
	got := map[string]string{}
	for _, n := range res.Notices {
		if n.Kind == Excluded {
			got[n.Path] = n.Msg
		}
	}
	for p, msg := range want {
		if !strings.Contains(got[p], msg) {
			t.Errorf("%s: notice %q, want one saying %q", p, got[p], msg)
		}
	}
	if len(got) != len(want) {
		t.Errorf("left out %v, want only %v", got, want)
	}
}

// TestMastodonDocs ingests the Mastodon documentation (Hugo): YAML front
// matter with multi-line lists, shortcodes, heading ids, entities.
func TestMastodonDocs(t *testing.T) {
	res := loadEvalDocs(t, "mastodon-docs", []string{"{{<", "{{%", "{%", "[[", "&gt;", "&lt;", "&amp;"})
	if res.Files != 193 {
		t.Errorf("%d files, the README describes 193", res.Files)
	}
	if len(res.Docs) < 190 {
		t.Errorf("%d docs ingested, want at least 190", len(res.Docs))
	}
	wantExcluded(t, res, map[string]string{"methods/admin/_index.md": "no body"})
}

// TestMkDocsMaterialDocs ingests the Material for MkDocs documentation:
// admonitions, content tabs, attribute lists, icons, keys, snippets.
func TestMkDocsMaterialDocs(t *testing.T) {
	res := loadEvalDocs(t, "mkdocs-material", []string{
		"!!!", "???", "===", ":material-", ":fontawesome-", ":octicons-", "{ .", "{: ", "--8<--", "++ctrl", "{{", "{%",
		"[[", "&gt;", "&lt;", "&amp;",
	})
	if res.Files != 96 {
		t.Errorf("%d files, the README describes 96", res.Files)
	}
	// insiders/index.md is only front matter: a redirect to another page.
	if len(res.Docs) != 95 {
		t.Errorf("%d docs ingested, want 95", len(res.Docs))
	}
	wantExcluded(t, res, map[string]string{"insiders/index.md": "no body"})
}
