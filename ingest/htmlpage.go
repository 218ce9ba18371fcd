package ingest

import (
	"html"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Some teams' docs are a folder of HTML pages: a Confluence space exported
// as HTML, a help centre's export, a site saved with its pages. Such a
// page holds far more than its article (the head, scripts, the site's
// menus, breadcrumbs and footer), so docent reads what a reader reads:
// the page's title and description from its head, and from its body the
// main content (the <main> element, the element marked role="main", the
// <article>, or an export's content container), without scripts, styles,
// forms and navigation. What is left is HTML, which the markdown path
// already reads (help centres export their bodies as HTML): headings
// are sections, paragraphs, list items and table rows sentences.
//
// HTML pages are read only from a folder without markdown,
// reStructuredText or AsciiDoc docs: in a site's source folder, HTML files
// are its templates, layouts and static pages, not its docs.

// isHTMLPage reports an HTML page.
func isHTMLPage(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".html", ".htm", ".xhtml":
		return true
	}
	return false
}

var (
	htmlTitle    = regexp.MustCompile(`(?is)<title\b[^>]*>(.*?)</title\s*>`)
	htmlMeta     = regexp.MustCompile(`(?is)<meta\b[^>]*>`)
	htmlAttr     = regexp.MustCompile(`(?is)\b([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))`)
	htmlComment  = regexp.MustCompile(`(?s)<!--.*?-->`)
	htmlBodyOpen = regexp.MustCompile(`(?is)<body\b[^>]*>`)
	// htmlBlockTag is the start of an element that begins a block: it is
	// put on a line of its own so headings, paragraphs and rows are read
	// apart even on a page written on one line.
	htmlBlockTag = regexp.MustCompile(`(?i)<(?:h[1-6]|p|div|section|article|ul|ol|li|table|thead|tbody|tr|pre|blockquote|dl|dt|dd|hr|figure|figcaption|details|summary)\b`)
)

// htmlDropped are the elements whose content no reader of the article
// reads: code the browser runs, styles, forms, the site's navigation and
// frame.
var htmlDropped = []string{"script", "style", "noscript", "template", "svg", "iframe", "form", "button", "select", "nav", "header", "footer", "aside", "object", "canvas"}

// htmlMainMarkers find the element holding a page's article, most
// telling first: HTML's own <main> and role="main", an <article>, and
// the content containers of exports that have neither (Confluence's
// "main-content", a generic "content").
var htmlMainMarkers = []*regexp.Regexp{
	regexp.MustCompile(`(?is)<main\b[^>]*>`),
	regexp.MustCompile(`(?is)<(\w+)\b[^>]*\brole\s*=\s*["']?main\b[^>]*>`),
	regexp.MustCompile(`(?is)<article\b[^>]*>`),
	regexp.MustCompile(`(?is)<(\w+)\b[^>]*\bid\s*=\s*["']?main-content\b[^>]*>`),
	regexp.MustCompile(`(?is)<(\w+)\b[^>]*\bid\s*=\s*["']?content["'\s>][^>]*>`),
}

// htmlPage is what docent reads of an HTML page.
type htmlPage struct {
	title, description string
	keywords           []string
	body               string // the main content, as HTML
	// redirect is where a <meta http-equiv="refresh"> sends the reader
	// on, "" for a page that stays: the stub a generator writes at a
	// moved page's old address ("Redirecting..."), shown for a moment
	// if at all.
	redirect string
	// links is the share of the words of the main content that are the
	// text of links (see minContentsLinkShare).
	links float64
	// noindex: a robots meta tag keeps the page out of search engines,
	// as generators mark pages that are no content of their own
	// (mdBook's table of contents and print version, a search page).
	noindex bool
}

// refreshTarget is the address a meta refresh's content sends the reader
// to, "5; url=new.html" or "0;URL='new.html'", or "" for one that only
// reloads the page ("300").
func refreshTarget(content string) string {
	_, rest, ok := strings.Cut(content, ";")
	if !ok {
		_, rest, ok = strings.Cut(content, ",")
	}
	rest = strings.TrimSpace(rest)
	if !ok || len(rest) < 4 || !strings.EqualFold(rest[:3], "url") {
		return ""
	}
	rest = strings.TrimSpace(rest[3:])
	rest, ok = strings.CutPrefix(rest, "=")
	if !ok {
		return ""
	}
	return strings.Trim(strings.TrimSpace(rest), `"'`)
}

// readHTMLPage reads an HTML page's head and main content.
func readHTMLPage(src string) htmlPage {
	var p htmlPage
	src = htmlComment.ReplaceAllString(src, "")
	head, body := src, src
	if loc := htmlBodyOpen.FindStringIndex(src); loc != nil {
		head, body = src[:loc[0]], src[loc[1]:]
		if end := lastIndexFold(body, "</body"); end >= 0 {
			body = body[:end]
		}
	}
	if m := htmlTitle.FindStringSubmatch(head); m != nil {
		p.title = htmlText(m[1])
	}
	for _, tag := range htmlMeta.FindAllString(head, -1) {
		attrs := htmlAttrs(tag)
		if strings.EqualFold(attrs["http-equiv"], "refresh") {
			p.redirect = refreshTarget(attrs["content"])
		}
		switch strings.ToLower(firstNonEmpty(attrs["name"], attrs["property"])) {
		case "robots":
			p.noindex = p.noindex || slices.Contains(strings.FieldsFunc(strings.ToLower(attrs["content"]), func(r rune) bool { return r == ',' || r == ' ' }), "noindex")
		case "description", "og:description":
			if p.description == "" {
				p.description = htmlText(attrs["content"])
			}
		case "keywords":
			for _, k := range strings.Split(attrs["content"], ",") {
				if k = htmlText(k); k != "" {
					p.keywords = append(p.keywords, k)
				}
			}
		}
	}
	for _, marker := range htmlMainMarkers {
		if inner, ok := elementContent(body, marker); ok && strings.TrimSpace(htmlText(inner)) != "" {
			body = inner
			break
		}
	}
	for _, tag := range htmlDropped {
		body = dropElements(body, tag)
	}
	body = htmlSelfAnchor.ReplaceAllStringFunc(body, func(a string) string {
		if strings.IndexFunc(htmlText(a), func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			return a
		}
		return ""
	})
	p.body = preFences(blockLines(boxTitles(body)))
	p.links = linkShare(p.body)
	return p
}

// boxTitle matches a heading that opens an admonition box: DocBook
// writes a note as <div class="note"><h3 class="title">Note</h3>…, at the
// level of the section around it.
var boxTitle = regexp.MustCompile(`(?is)(<(?:div|aside|section|blockquote)\b[^>]*\bclass\s*=\s*["']?[^"'>]*\b(?:note|tip|hint|warning|caution|important|attention|danger|admonition|callout)\b[^>]*>\s*)<h[1-6]\b[^>]*>(.*?)</h[1-6]\s*>`)

// boxTitles makes the heading of each admonition box a paragraph. As a
// heading it named a section that ran on past the box: every chunk after
// a note had "Note" for its section and lost the one it is in, whose
// words the policy reads as what the chunk is about.
func boxTitles(s string) string {
	return boxTitle.ReplaceAllString(s, "${1}<p>${2}</p>")
}

// minContentsLinkShare is the share of a page's words that are links'
// text from which the page is a table of contents: a book's part or
// chapter page built as the list of its sections (DocBook's, a
// generator's section index), a help centre's category page. Its
// title names the topic, and its text is the names of the pages that
// explain it: it ranks first for questions they answer. Eight words in
// ten: an article links words here and there, a list of related pages
// below, and stays far under it.
const minContentsLinkShare = 0.8

var htmlLink = regexp.MustCompile(`(?is)<a\b[^>]*>(.*?)</a\s*>`)

// minContentsLinks is how many links a table of contents has at least:
// a list of them (Cargo's "Report Commands" lists two). A page of one
// link is a pointer, not a contents.
const minContentsLinks = 2

// linkShare is the share of the words of an HTML fragment that are the
// text of its links, 0 for a fragment without words or with fewer than
// minContentsLinks links.
func linkShare(body string) float64 {
	words := len(strings.Fields(htmlText(body)))
	links := htmlLink.FindAllStringSubmatch(body, -1)
	if words == 0 || len(links) < minContentsLinks {
		return 0
	}
	linked := 0
	for _, m := range links {
		linked += len(strings.Fields(htmlText(m[1])))
	}
	return float64(linked) / float64(words)
}

// htmlSelfAnchor matches a link to a place on the page itself. One whose
// text is a sign, no word ("¶", "#", "§", "🔗"), is the permalink a
// generator puts beside each heading (Sphinx, MkDocs, Hugo, Docusaurus):
// left in, every heading and section path would end with it.
var htmlSelfAnchor = regexp.MustCompile(`(?is)<a\b[^>]*\bhref\s*=\s*["']?#[^>]*>[^<]{0,16}</a\s*>`)

var (
	htmlPreOpen  = regexp.MustCompile(`(?is)<pre\b[^>]*>`)
	htmlBreak    = regexp.MustCompile(`(?i)<br\s*/?>`)
	htmlLanguage = regexp.MustCompile(`\blang(?:uage)?-([\w+#-]+)`)
)

// preFences turns each <pre> element into a fenced code block of its
// text, in the language its class names, if any ("language-toml",
// "lang-sh"). Left as HTML, a highlighted block is a <pre> inside a <div>
// whose lines carry a <span> per token: markdown's HTML block around it
// ends at the first blank line of the code, and every line after is read
// as a paragraph, so the code became the page's prose. As a code block it
// is what a reader sees: shown with the chunk, left out of the text that
// is ranked and quoted, as in a markdown page. A <pre> never closed ends
// with the page.
func preFences(s string) string {
	var b strings.Builder
	for {
		loc := htmlPreOpen.FindStringIndex(s)
		if loc == nil {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:loc[0]])
		open := s[loc[0]:loc[1]]
		s = s[loc[1]:]
		inner, rest := s, ""
		if end := matchingEnd(s, "pre"); end >= 0 {
			inner, rest = s[:end], s[end:]
			if gt := strings.IndexByte(rest, '>'); gt >= 0 {
				rest = rest[gt+1:]
			}
		}
		lang := ""
		if m := htmlLanguage.FindStringSubmatch(open + firstTag(inner)); m != nil {
			lang = m[1]
		}
		code := html.UnescapeString(anyTagRe.ReplaceAllString(htmlBreak.ReplaceAllString(inner, "\n"), ""))
		code = strings.TrimRight(strings.TrimPrefix(strings.TrimPrefix(code, "\r"), "\n"), " \t\r\n")
		if strings.TrimSpace(code) != "" {
			b.WriteString("\n\n" + fenced(code, lang) + "\n\n")
		}
		s = rest
	}
}

// firstTag is the start tag s opens with, after white space, "" when it
// opens with text: the <code> inside a <pre> often names the language.
func firstTag(s string) string {
	t := strings.TrimLeft(s, " \t\r\n")
	if !strings.HasPrefix(t, "<") {
		return ""
	}
	if gt := strings.IndexByte(t, '>'); gt >= 0 {
		return t[:gt+1]
	}
	return ""
}

// htmlAttrs reads a tag's attributes, names lower-cased, values unescaped.
func htmlAttrs(tag string) map[string]string {
	attrs := map[string]string{}
	for _, m := range htmlAttr.FindAllStringSubmatch(tag, -1) {
		attrs[strings.ToLower(m[1])] = html.UnescapeString(m[2] + m[3] + m[4])
	}
	return attrs
}

// htmlText is the text of an HTML fragment on one line: tags gone,
// entities unescaped, whitespace collapsed.
func htmlText(s string) string {
	return strings.Join(strings.Fields(html.UnescapeString(anyTagRe.ReplaceAllString(s, " "))), " ")
}

// lastIndexFold is strings.LastIndex ignoring ASCII case.
func lastIndexFold(s, sub string) int {
	return strings.LastIndex(strings.ToLower(s), strings.ToLower(sub))
}

// elementContent returns the content of the first element whose start tag
// marker matches, up to its matching end tag (elements of the same name
// nest), or to the end of s when it never closes.
func elementContent(s string, marker *regexp.Regexp) (string, bool) {
	loc := marker.FindStringIndex(s)
	if loc == nil {
		return "", false
	}
	name := strings.ToLower(strings.TrimRight(strings.Fields(s[loc[0]+1 : loc[1]])[0], ">/"))
	rest := s[loc[1]:]
	if end := matchingEnd(rest, name); end >= 0 {
		return rest[:end], true
	}
	return rest, true
}

// matchingEnd returns where the end tag closing an element named name
// (lower case) starts in s, which begins inside it, or -1. Elements of
// the same name nest. It reads s up to that tag only.
func matchingEnd(s, name string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			return -1
		}
		i += j
		switch {
		case i+1 < len(s) && s[i+1] == '/' && hasTagName(s, i+2, name):
			if depth == 0 {
				return i
			}
			depth--
		case hasTagName(s, i+1, name):
			if k := strings.IndexByte(s[i:], '>'); k < 0 || s[i+k-1] != '/' {
				depth++
			}
		}
	}
	return -1
}

// hasTagName reports whether the tag name at s[i:] is name (ASCII case
// ignored), ending at a space, ">" or "/".
func hasTagName(s string, i int, name string) bool {
	end := i + len(name)
	return end < len(s) && strings.EqualFold(s[i:end], name) && strings.IndexByte(" \t\r\n>/", s[end]) >= 0
}

// htmlStartTags match the start tags of the dropped elements.
var htmlStartTags = func() map[string]*regexp.Regexp {
	m := make(map[string]*regexp.Regexp, len(htmlDropped))
	for _, name := range htmlDropped {
		m[name] = regexp.MustCompile(`(?i)<` + name + `\b[^>]*>`)
	}
	return m
}()

// dropElements removes every element named name with its content. A start
// tag never closed goes alone: the page's text after it stays.
func dropElements(s, name string) string {
	re := htmlStartTags[name]
	var b strings.Builder
	for {
		loc := re.FindStringIndex(s)
		if loc == nil {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:loc[0]])
		selfClosing := strings.HasSuffix(s[loc[0]:loc[1]], "/>")
		s = s[loc[1]:]
		if selfClosing {
			continue
		}
		end := matchingEnd(s, name)
		if end < 0 {
			continue
		}
		if gt := strings.IndexByte(s[end:], '>'); gt >= 0 {
			s = s[end+gt+1:]
		}
	}
}

// blockLines starts each block element on a line of its own, outside
// <pre>, so a page written on one line reads as one written over many.
func blockLines(s string) string {
	var b strings.Builder
	lower := strings.ToLower(s)
	i := 0
	for i < len(s) {
		p := strings.Index(lower[i:], "<pre")
		end := len(s)
		if p >= 0 {
			end = i + p
		}
		b.WriteString(htmlBlockTag.ReplaceAllStringFunc(s[i:end], func(m string) string { return "\n\n" + m }))
		if p < 0 {
			break
		}
		c := strings.Index(lower[end:], "</pre")
		if c < 0 {
			b.WriteString(s[end:])
			break
		}
		c += end
		b.WriteString("\n" + s[end:c])
		i = c
	}
	return b.String()
}

// windows1252 maps the bytes 0x80–0x9F of Windows-1252 to their runes;
// the other bytes above 0x7F are Latin-1's, the rune of the same number.
var windows1252 = [32]rune{
	'€', 0x81, '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', 0x8D, 'Ž', 0x8F,
	0x90, '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', 0x9D, 'ž', 'Ÿ',
}

// fromWindows1252 decodes bytes written in Windows-1252 (which Latin-1
// pages are, in practice) as UTF-8.
func fromWindows1252(src []byte) []byte {
	out := make([]byte, 0, len(src)+len(src)/8)
	for _, c := range src {
		switch {
		case c < 0x80:
			out = append(out, c)
		case c < 0xA0:
			out = utf8.AppendRune(out, windows1252[c-0x80])
		default:
			out = utf8.AppendRune(out, rune(c))
		}
	}
	return out
}
