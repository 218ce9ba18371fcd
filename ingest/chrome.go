package ingest

import (
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docent-sh/docent/knowledge"
)

// Pages crawled from a help centre or a docs site carry the site around
// the article: a skip link, the logo, the top menu, a search box and a
// sidebar above it; "Was this page helpful?", previous and next links,
// the footer menu and the copyright below. The same blocks open or close
// page after page. Left in, they are most of what a page's first chunk
// says, the start of every snippet and quote, and words ("contact",
// "status", the name of every section) every page seems to cover.
// Nothing in them is the page's.

// A block is site chrome when it opens or closes many docs: at least
// minChromeShare of them, and at least minChromeDocs. A share, so it
// means the same for ten pages and for ten thousand. A fifth, because a
// site's frame is on every page of it, or on every page of a section
// (the sidebar lists the section's pages on each of them), and one site
// is often crawled by more than one tool, each writing the frame its
// own way; while what an author writes at the start or the end of a page
// is that page's, or at most a few pages'.
const (
	minChromeDocs  = 3
	minChromeShare = 0.2
)

// chromeEdge is how many blocks at each end of a doc are counted for
// chrome: a site's header, sidebar and footer fit in it, and the middle
// of a long page costs no memory.
const chromeEdge = 120

// chromeBlock is a paragraph, a list item, a heading or a fenced block
// of a doc's content, lines [start, end).
type chromeBlock struct {
	start, end int
	// key identifies what the block shows (a hash of its chromeKey, a
	// heading's apart from other blocks'), 0 when it shows nothing; words
	// counts its words. A hash, so that counting the blocks of ten
	// thousand pages holds numbers, not their text.
	key     uint64
	words   int
	heading bool
	fence   bool
	link    bool // it holds a link
}

// stripSiteChrome removes from each doc the blocks at its start and at its
// end that are site chrome (see minChromeShare), up to the article: its
// own text, a heading of its own, a fence. Links and menu words only some
// pages have (a section's pages in the sidebar, the breadcrumb) go with
// the frame they sit in. A block in the middle of a page stays whatever
// it says: there it is the author's. A doc that would be left empty is
// left as it is, and the chunks of a doc that changed are rebuilt.
func stripSiteChrome(docs []knowledge.Doc) {
	if len(docs) < minChromeDocs {
		return
	}
	blocks := make([][]chromeBlock, len(docs))
	counts := map[uint64]int32{}
	seen := map[uint64]bool{}
	for i, d := range docs {
		blocks[i] = chromeBlocks(strings.Split(d.Content, "\n"))
		clear(seen)
		countEdge(blocks[i], seen, false)
		countEdge(blocks[i], seen, true)
		for k := range seen {
			counts[k]++
		}
	}
	need := max(minChromeDocs, int(math.Ceil(minChromeShare*float64(len(docs)))))
	common := func(k uint64) bool { return k != 0 && int(counts[k]) >= need }
	var stripped []int
	for i := range docs {
		lines := strings.Split(docs[i].Content, "\n")
		bs := blocks[i]
		lo := chromeRun(bs, common, false)
		if lo > 0 {
			lo += toTitle(bs[lo:])
		}
		hi := len(bs) - chromeRun(bs[lo:], common, true)
		// The byline under the title ("Maya Okafor", "2 months ago",
		// "Updated", "Follow") is the frame's as much as the header is.
		by := 0
		if lo < hi && bs[lo].heading {
			if by = chromeRun(bs[lo+1:hi], common, false); lo+1+by == hi {
				by = 0 // a title with nothing of its own under it keeps all
			}
		}
		if lo == 0 && hi == len(bs) && by == 0 || lo == hi {
			continue
		}
		rest := trimBlankLines(lines[bs[lo].start:bs[hi-1].end])
		if by > 0 {
			rest = slices.Concat(lines[bs[lo].start:bs[lo].end], []string{""}, trimBlankLines(lines[bs[lo+1+by].start:bs[hi-1].end]))
		}
		if len(rest) == 0 {
			continue
		}
		title := docs[i].Title
		docs[i].Content = strings.Join(rest, "\n")
		if strippedHeading(bs[:lo], title) || strippedHeading(bs[hi:], title) {
			// The page's title was the site's heading: the article's own
			// first heading, or its file name, names it.
			md := parseMarkdown(docs[i].Content)
			docs[i].Title = firstNonEmpty(firstHeading(md), titleFromPath(docs[i].SourcePath))
		}
		stripped = append(stripped, i)
	}
	chunkEach(docs, stripped)
}

// chromeBlocks splits lines into blocks: a blank line ends one, a list
// item, a heading, a table row and a fence start one, and any other line
// continues the block before it (a paragraph or a list item wrapped over
// several lines, as converters wrap them). A fenced block runs to its
// closing fence. Blank lines and lines that show nothing belong to no
// block.
func chromeBlocks(lines []string) []chromeBlock {
	var out []chromeBlock
	var cur []string
	open := false
	flush := func(end int) {
		if open {
			b := &out[len(out)-1]
			b.end = end
			text := strings.Join(cur, " ")
			key := chromeKey(text, !b.heading)
			b.words, b.link = strings.Count(key, " ")+1, strings.Contains(text, "](")
			if b.heading && key != "" {
				// A heading is the same chrome as a heading only: a page
				// titled as the sidebar's item for it is that page.
				key = "#" + key
			}
			b.key = keyHash(key)
		}
		open, cur = false, cur[:0]
	}
	for j := 0; j < len(lines); j++ {
		l := lines[j]
		t := strings.TrimSpace(l)
		var f codeFence
		switch {
		case t == "":
			flush(j)
			continue
		case f.update(l):
			flush(j)
			k := j + 1
			for k < len(lines) && f.open() {
				f.update(lines[k])
				k++
			}
			out = append(out, chromeBlock{start: j, end: k, fence: true})
			j = k - 1
			continue
		case open && len(cur) == 1 && isSetextUnderline(l):
			out[len(out)-1].heading = true
			cur = append(cur, "")
			continue
		case open && !startsBlock(t):
			cur = append(cur, t)
			continue
		}
		flush(j)
		out = append(out, chromeBlock{start: j, heading: strings.HasPrefix(t, "#")})
		open, cur = true, append(cur, t)
	}
	flush(len(lines))
	// A block that shows nothing (a rule, a quote's or a table's markup)
	// is none.
	kept := out[:0]
	for _, b := range out {
		if b.fence || b.key != 0 {
			kept = append(kept, b)
		}
	}
	return kept
}

// startsBlock reports whether a trimmed line starts a block of its own
// rather than continuing the one before it.
func startsBlock(t string) bool {
	return strings.HasPrefix(t, "#") || strings.HasPrefix(t, "|") || strings.HasPrefix(t, ">") ||
		isListMarker(t)
}

// chromeRun returns how many blocks at the start of bs (at the end, when
// fromEnd) are the site's frame: up to the last chrome block before the
// article begins, which is a heading that is not chrome, a fence, or a
// block that is neither chrome nor navigational. A run is none unless it
// holds minChromeRun chrome blocks that are not headings, one of which
// says something besides links: a site's frame has a search box, a
// "Was this page helpful?", a copyright line, while a list of links
// under a heading many pages end with ("## Related") is the author's,
// though the pages it links are linked from others too.
func chromeRun(bs []chromeBlock, common func(key uint64) bool, fromEnd bool) int {
	cut, n, text := 0, 0, false
	end := func() int {
		if n < minChromeRun || !text {
			return 0
		}
		return cut
	}
	for j := range bs {
		b := bs[j]
		if fromEnd {
			b = bs[len(bs)-1-j]
		}
		switch {
		case b.fence, b.heading && !common(b.key):
			return end()
		case common(b.key):
			cut = j + 1
			if !b.heading {
				n++
				text = text || !b.link
			}
		case !b.navigational():
			return end()
		}
	}
	return end()
}

// toTitle returns how many blocks at the start of bs, after a site's
// header, lead to the article's first heading when they are all
// navigational and at most maxBreadcrumb: the page's breadcrumb ("All
// Collections > Payments > Refunding a payment"), which links its own
// way on every page and would be a chunk of its own, matching the
// title's words with none of the article's. 0 when the article starts
// otherwise.
func toTitle(bs []chromeBlock) int {
	for j, b := range bs {
		switch {
		case b.heading:
			return j
		case j == maxBreadcrumb || b.fence || !b.navigational():
			return 0
		}
	}
	return 0
}

// maxBreadcrumb is how many blocks a breadcrumb takes at most: a line, or
// a list of its steps with the current page.
const maxBreadcrumb = 4

// minChromeRun is how many chrome blocks other than headings a run holds
// at least: a site's frame is a menu and a search box, a footer menu and
// a copyright line.
const minChromeRun = 2

// countEdge adds to seen the keys of the first chromeEdge blocks of bs, or
// of the last ones when fromEnd, stopping at a fence: what follows it is
// code, not the page's frame.
func countEdge(bs []chromeBlock, seen map[uint64]bool, fromEnd bool) {
	for j := range min(len(bs), chromeEdge) {
		b := bs[j]
		if fromEnd {
			b = bs[len(bs)-1-j]
		}
		if b.fence {
			return
		}
		seen[b.key] = true
	}
}

// chromeKey is what two docs' blocks must share to be the same chrome:
// what the block shows, lower-cased, without its list marker, link
// targets, escapes and attribute blocks, its words one space apart and,
// when anyNumber, each number written 0. A heading's numbers are its own:
// "Release 2.1" and "Release 2.2" are two pages.
// Pages of one site are often crawled at different times or by different
// tools, which write the same menu item as "* [Home](https://help.example.com/)"
// and "-   [Home](../../index.html){.menu__link}". It is "" for a block
// that shows nothing: a rule, a quote's or a table's markup.
func chromeKey(text string, anyNumber bool) string {
	t := trimListMarker(strings.TrimLeft(strings.TrimSpace(text), "#> "))
	var b strings.Builder
	b.Grow(len(t))
	space, shown := false, false
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c == '!' && i+1 < len(t) && t[i+1] == '[', c == '[':
			space = space || b.Len() > 0 && c == '['
			continue // a link's or an image's text shows, not its brackets
		case c == ']' && i+1 < len(t) && t[i+1] == '(':
			if j := strings.IndexByte(t[i:], ')'); j > 0 {
				i += j // nor its target
			}
			space = b.Len() > 0
			continue
		case c == ']':
			continue
		case c == '<' && i+1 < len(t) && (t[i+1] == '/' || t[i+1] == '!' || 'a' <= t[i+1]|0x20 && t[i+1]|0x20 <= 'z'):
			if j := strings.IndexByte(t[i:], '>'); j > 0 {
				// An HTML tag shows nothing, and its attributes (a link's
				// target, relative to the page's folder; a title naming
				// the page) differ from page to page around the same
				// shown words.
				i += j
				space = b.Len() > 0
				continue
			}
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
		if anyNumber && '0' <= c && c <= '9' {
			// A count or a date ("12 out of 15 found this helpful",
			// "Updated 3 months ago", "© 2025") is one number, whatever
			// its digits.
			for i+1 < len(t) && '0' <= t[i+1] && t[i+1] <= '9' {
				i++
			}
			c = '0'
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

// trimListMarker removes a list item's marker ("* ", "-   ", "12. "), as
// isListMarker reads one.
func trimListMarker(t string) string {
	if !isListMarker(t) {
		return t
	}
	return strings.TrimLeft(t[strings.IndexAny(t, " \t"):], " \t")
}

// navigational reports whether a block may be part of a site's frame
// though other pages lack it: it links somewhere (a breadcrumb, a
// section's pages in the sidebar, previous and next) or it is a few words
// ("English", "Yes No"). A sentence of the page's own
// ends the frame.
func (b chromeBlock) navigational() bool {
	return b.link || b.words <= maxMenuWords
}

// maxMenuWords is the most words a block of a site's frame that other
// pages lack and that links nowhere has: "English", "Yes No". More may
// be a sentence of the page's own ("Use the search box above.").
const maxMenuWords = 4

// strippedHeading reports whether bs hold a heading whose text is title:
// the doc was titled from a heading that was chrome.
func strippedHeading(bs []chromeBlock, title string) bool {
	for _, b := range bs {
		if b.heading && b.key == keyHash("#"+chromeKey(title, false)) {
			return true
		}
	}
	return false
}

// keyHash is a block's key: FNV-1a of what it shows, 0 for nothing.
func keyHash(key string) uint64 {
	if key == "" {
		return 0
	}
	h := uint64(14695981039346656037)
	for i := 0; i < len(key); i++ {
		h ^= uint64(key[i])
		h *= 1099511628211
	}
	return max(h, 1)
}
