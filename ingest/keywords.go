package ingest

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
)

// Limits for keywords extracted from the body: retrieval boosts keyword
// matches, so only short, specific phrases are worth keeping.
const (
	maxKeywords      = 20
	maxKeywordWords  = 4
	maxKeywordRunes  = 40
	minKeywordsRunes = 2
)

// genericLinkTexts name no topic, so they make useless keywords.
var genericLinkTexts = map[string]bool{
	"here": true, "click here": true, "this": true, "this page": true, "link": true,
	"learn more": true, "read more": true, "more": true, "see more": true, "docs": true,
}

// extractKeywords collects a doc's keywords from its markup when the
// front matter has none: headings other than the title, then bold text,
// inline code and link texts. Earlier sources win when the cap is reached,
// since a heading names a topic more reliably than a link does.
func extractKeywords(md parsedBody, title string) []string {
	var headings, bold, code, links []string
	_ = ast.Walk(md.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			if t := plainText(n, md.src); !strings.EqualFold(t, title) {
				headings = append(headings, t)
			}
			return ast.WalkSkipChildren, nil
		case *ast.Emphasis:
			if n.Level == 2 {
				bold = append(bold, plainText(n, md.src))
			}
		case *ast.CodeSpan:
			code = append(code, plainText(n, md.src))
		case *ast.Link:
			if t := plainText(n, md.src); !genericLinkTexts[cleanKeyword(t)] {
				links = append(links, t)
			}
		}
		return ast.WalkContinue, nil
	})

	var out []string
	seen := map[string]bool{}
	for _, group := range [][]string{headings, bold, code, links} {
		for _, k := range group {
			k = cleanKeyword(k)
			if seen[k] || !usefulKeyword(k) {
				continue
			}
			seen[k] = true
			out = append(out, k)
			if len(out) == maxKeywords {
				return out
			}
		}
	}
	return out
}

func cleanKeyword(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	return strings.Trim(s, ".,;:!?\"'")
}

func usefulKeyword(k string) bool {
	n := utf8.RuneCountInString(k)
	if n < minKeywordsRunes || n > maxKeywordRunes || len(strings.Fields(k)) > maxKeywordWords {
		return false
	}
	return strings.IndexFunc(k, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}
