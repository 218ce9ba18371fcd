package ingest

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docent-sh/docent/knowledge"
)

// Pages crawled from a help centre or a docs site carry the site around
// the article: a skip link, the logo, the top menu and a search box above
// it; "Was this article helpful?", the footer menu and the copyright
// below. The same lines open or close page after page. Left in, they are
// most of what a page's first chunk says, the start of every snippet and
// quote, and words ("contact", "status", "help") every page seems to
// cover. Nothing in them is the page's.

// A line is site chrome when it opens or closes many docs: at least
// minChromeShare of them, and at least minChromeDocs. A share, so it
// means the same for ten pages and for ten thousand; half, because a
// site's frame is on every page of it, while no sentence an author writes
// opens or closes half of the pages.
const (
	minChromeDocs  = 3
	minChromeShare = 0.5
)

// chromeEdge is how many non-blank lines at each end of a doc are counted
// for chrome: a site's header and footer fit in it, and the middle of a
// long page costs no memory.
const chromeEdge = 60

// stripSiteChrome removes from each doc the lines at its start and at its
// end that are site chrome (see minChromeShare), up to the first line that
// is not: the article's own text, a heading of its own, a fence. A line in
// the middle of a page stays whatever it says: there it is the author's.
// A doc that would be left empty is left as it is, and the chunks of a
// doc that changed are rebuilt.
func stripSiteChrome(docs []knowledge.Doc) {
	if len(docs) < minChromeDocs {
		return
	}
	counts := map[string]int{}
	seen := map[string]bool{}
	for _, d := range docs {
		clear(seen)
		lines := strings.Split(d.Content, "\n")
		countEdge(lines, seen, false)
		countEdge(lines, seen, true)
		for k := range seen {
			counts[k]++
		}
	}
	need := max(minChromeDocs, int(math.Ceil(minChromeShare*float64(len(docs)))))
	common := func(k string) bool { return k != "" && k != fenceKey && counts[k] >= need }
	for i := range docs {
		lines := strings.Split(docs[i].Content, "\n")
		lo := chromeRun(lines, common, false)
		hi := len(lines) - chromeRun(lines[lo:], common, true)
		rest := trimBlankLines(lines[lo:hi])
		if lo == 0 && hi == len(lines) || len(rest) == 0 {
			continue
		}
		title := docs[i].Title
		docs[i].Content = strings.Join(rest, "\n")
		if strippedHeading(lines[:lo], title) || strippedHeading(lines[hi:], title) {
			// The page's title was the site's heading: the article's own
			// first heading, or its file name, names it.
			md := parseMarkdown(docs[i].Content)
			docs[i].Title = firstNonEmpty(firstHeading(md), titleFromPath(docs[i].SourcePath))
		}
		Chunk(&docs[i])
	}
}

// chromeGap is how many lines that are not chrome a run of chrome may
// hold, if they are navigational: a page's own breadcrumb or an item only
// some pages' menus have sits between lines every page has.
const chromeGap = 2

// chromeRun returns how many lines at the start of lines (at the end,
// when fromEnd) are the site's frame: up to the last chrome line before
// the text begins, which is a heading that is not chrome, a fence, or
// more than chromeGap lines in a row that are not chrome. A run of fewer
// than minChromeRun chrome lines (headings aside) is none.
func chromeRun(lines []string, common func(key string) bool, fromEnd bool) int {
	cut, gap, n := 0, 0, 0
	for j := range lines {
		l := lines[j]
		if fromEnd {
			l = lines[len(lines)-1-j]
		}
		k := chromeKey(l)
		switch {
		case k == "":
			continue
		case k == fenceKey || strings.HasPrefix(strings.TrimSpace(l), "#") && !common(k):
			return runCut(cut, n)
		case common(k):
			cut, gap = j+1, 0
			if !strings.HasPrefix(strings.TrimSpace(l), "#") {
				n++
			}
			continue
		}
		if gap++; gap > chromeGap || !navigational(l) {
			return runCut(cut, n)
		}
	}
	return runCut(cut, n)
}

// minChromeRun is how many chrome lines other than headings a run holds
// at least: a site's frame is a menu, a search box, a footer, while a
// heading many pages end with ("## Related", "## See also") heads the
// page's own list, which may well share a link with others.
const minChromeRun = 2

func runCut(cut, n int) int {
	if n < minChromeRun {
		return 0
	}
	return cut
}

// countEdge adds to seen the chrome keys of the first chromeEdge non-blank
// lines of lines, or of the last ones when fromEnd, stopping at a fence:
// what follows it is code, not the page's frame.
func countEdge(lines []string, seen map[string]bool, fromEnd bool) {
	n := 0
	for j := range lines {
		l := lines[j]
		if fromEnd {
			l = lines[len(lines)-1-j]
		}
		k := chromeKey(l)
		if k == "" {
			continue
		}
		if k == fenceKey || n == chromeEdge {
			return
		}
		seen[k] = true
		n++
	}
}

// chromeKey is what two docs' lines must share to be the same chrome:
// what the line shows, lower-cased, without its list marker, link
// targets, escapes and attribute blocks. Pages of one site are often
// crawled at different times or by different tools, which write the same
// menu item as "* [Home](https://help.example.com/)" and
// "-   [Home](../../index.html)". It is "" for a line that shows nothing
// (a blank line, a rule, a quote's or a table's markup), which neither
// is chrome nor ends it, and fenceKey for a fence, which ends it: what
// follows is code.
func chromeKey(line string) string {
	t := strings.TrimSpace(line)
	if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		return fenceKey
	}
	t = trimListMarker(t)
	var b strings.Builder
	b.Grow(len(t))
	space, shown := false, false
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c == '!' && i+1 < len(t) && t[i+1] == '[', c == '[':
			continue // a link's or an image's text shows, not its brackets
		case c == ']' && i+1 < len(t) && t[i+1] == '(':
			if j := strings.IndexByte(t[i:], ')'); j > 0 {
				i += j // nor its target
			}
			continue
		case c == ']':
			continue
		case c == '{':
			if j := strings.IndexByte(t[i:], '}'); j > 0 {
				i += j // an attribute block: "{.note}", "{#id}"
				continue
			}
		case c == '\\' && i+1 < len(t) && t[i+1] < utf8.RuneSelf && unicode.IsPunct(rune(t[i+1])):
			continue // an escape shows the character after it
		case c == ' ' || c == '\t':
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		shown = shown || c >= utf8.RuneSelf || !unicode.IsPunct(rune(c)) && !unicode.IsSymbol(rune(c))
		b.WriteByte(c)
	}
	if !shown {
		return ""
	}
	return b.String()
}

// trimListMarker removes a list item's marker ("* ", "-   ", "12. ").
func trimListMarker(t string) string {
	i := 0
	for i < len(t) && i < 9 && '0' <= t[i] && t[i] <= '9' {
		i++
	}
	switch {
	case i > 0 && i < len(t) && (t[i] == '.' || t[i] == ')'):
		i++
	case i == 0 && len(t) > 0 && (t[0] == '-' || t[0] == '*' || t[0] == '+'):
		i = 1
	default:
		return t
	}
	if i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		return strings.TrimLeft(t[i:], " \t")
	}
	return t
}

// navigational reports whether a line may be part of a site's frame
// though other pages lack it: it links somewhere, or it is a few words
// (a menu item, "English"). A sentence of the page's own ends the frame.
func navigational(line string) bool {
	return strings.Contains(line, "](") || len(strings.Fields(line)) <= maxMenuWords
}

// maxMenuWords is the most words a menu item has.
const maxMenuWords = 3

// fenceKey is chromeKey's key of a fence line: no line that shows text
// is only a NUL.
const fenceKey = "\x00"

// strippedHeading reports whether lines hold a heading whose text is
// title: the doc was titled from a heading that was chrome.
func strippedHeading(lines []string, title string) bool {
	for _, l := range lines {
		if t := strings.TrimLeft(strings.TrimSpace(l), "#"); t != strings.TrimSpace(l) && strings.TrimSpace(t) == title {
			return true
		}
	}
	return false
}
