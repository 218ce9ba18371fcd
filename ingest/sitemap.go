package ingest

import (
	"fmt"
	"math"
	"path"
	"regexp"
	"strings"

	"github.com/docent-sh/docent/knowledge"
)

// A built site often has a page that maps it: a book's index
// (DocBook's bookindex, "Index": every term of the book, each with the
// pages that use it), a site map, a reference's front page listing its
// chapters. Read as a doc it holds the name of every thing the site
// explains and explains none of them, and ranks first for questions the
// pages it links to answer. An HTML page is such a map when it links to
// a quarter of the site's pages at least (and to minSiteMapLinks), and
// half its words or more are the links' text: an article links to a few
// pages, and a page that names many, as a command's page lists its
// subcommands, says something of each.
const (
	minSiteMapShare = 0.25
	minSiteMapLinks = 10
	minSiteMapText  = 0.5
)

var htmlHref = regexp.MustCompile(`(?i)\bhref\s*=\s*["']?([^"'\s>#?]+)`)

// dropSiteMaps leaves out of docs the HTML pages that map the site (see
// minSiteMapShare), with a note each.
func dropSiteMaps(docs []knowledge.Doc, notices []Warning) ([]knowledge.Doc, []Warning) {
	paths := make(map[string]bool, len(docs))
	for _, d := range docs {
		paths[d.SourcePath] = true
	}
	need := max(minSiteMapLinks, int(math.Ceil(minSiteMapShare*float64(len(docs)))))
	out := docs[:0:0]
	for _, d := range docs {
		if isHTMLPage(d.SourcePath) {
			if n := linkedPages(d, paths); n >= need && linkShare(d.Content) >= minSiteMapText {
				notices = append(notices, Warning{Path: d.SourcePath, Slug: d.Slug, Kind: Excluded,
					Msg: fmt.Sprintf("a map of the site: it links to %d of its %d pages, and names what they explain without explaining it", n, len(docs))})
				continue
			}
		}
		out = append(out, d)
	}
	return out, notices
}

// linkedPages counts the other docs an HTML doc links to, by their
// files' paths.
func linkedPages(d knowledge.Doc, paths map[string]bool) int {
	dir := path.Dir(d.SourcePath)
	seen := map[string]bool{}
	for _, m := range htmlHref.FindAllStringSubmatch(d.Content, -1) {
		target := m[1]
		if strings.Contains(target, ":") || strings.HasPrefix(target, "/") {
			continue // another site's, or the site's root, which docent cannot place
		}
		p := path.Join(dir, target)
		if p != d.SourcePath && paths[p] {
			seen[p] = true
		}
	}
	return len(seen)
}
