package ingest

import (
	"path"
	"regexp"
	"slices"
	"strings"
)

// Some generators take their navigation from a markdown file that is not
// a page of the site: GitBook's and mdBook's SUMMARY.md (the table of
// contents), a GitHub wiki's _Sidebar.md and _Footer.md, docsify's
// _sidebar.md and _navbar.md. Read as a doc, such a file holds every
// page's title and nothing else, so it matches questions about anything
// while answering none of them. It is left out when it is what its name
// says: links, headings and labels only. A file with that name and prose
// in it (an executive summary) stays a doc.

// navigationNames are the file names (lower-cased, without extension)
// generators read as navigation.
var navigationNames = []string{"summary", "_sidebar", "_footer", "_navbar"}

var (
	// a list item or a line holding a markdown or wiki link:
	// "* [Title](page.md)", "- [[Page-Name]]", "[Home](README.md)"
	navLinkLine = regexp.MustCompile(`^(?:(?:[-*+]|\d+[.)])\s+)?(?:\[[^\]]*\]\([^)]*\)|\[\[[^\]]+\]\])\s*$`)
	// a section label: "# Heading", "**Label**", "*Label*", "Label:",
	// a rule, a list item without a link (mdBook's drafts, "- [Draft]()")
	// or a short list item of a few words that groups the items nested
	// under it (docsify's "- Scheduling")
	navLabelLine = regexp.MustCompile(`^(?:#{1,6}\s.*|\*\*[^*]+\*\*:?|\*[^*]+\*:?|_[^_]+_:?|[-*_]{3,}|[-*+]\s+\[[^\]]*\]\(\)|[-*+]\s+[^\s\[\]()][^\[\]()]{0,39}|[^\s\[].{0,40}:)$`)
)

// isNavigationFile reports a navigation file (see navigationNames) whose
// body holds only links, headings and labels.
func isNavigationFile(relPath string, body []string) bool {
	name := strings.ToLower(strings.TrimSuffix(path.Base(relPath), path.Ext(relPath)))
	if !slices.Contains(navigationNames, name) {
		return false
	}
	links := 0
	for _, l := range body {
		t := strings.TrimSpace(l)
		switch {
		case t == "":
		case navLinkLine.MatchString(t):
			links++
		case navLabelLine.MatchString(t):
		default:
			return false
		}
	}
	return links > 0
}
