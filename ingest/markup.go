package ingest

import (
	"cmp"
	"gopkg.in/yaml.v3"
	"html"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Site generators extend markdown with syntax of their own that a reader
// of the rendered page never sees as written: Hugo shortcodes, Jekyll's
// Liquid, mdBook's includes, Obsidian's wiki links and callouts, MkDocs'
// admonitions, content tabs, attribute lists, icons and keys, Docusaurus'
// ::: blocks. convertMarkup turns a body into plain CommonMark that shows
// what the reader sees: containers become their title and their dedented
// text, decorations go, links keep their text. Code is code: nothing in a
// fenced block or an inline code span is touched, except the preprocessor
// directives (includes) that would have been replaced before rendering.
//
// The conversion is one pass over the lines, then one pass over each run
// of prose, and every search for a closing marker is cached (see finder),
// so it is linear in the size of the body.

// markupNote is something the conversion dropped that the author may want
// to know about, on a 1-based line of the body.
type markupNote struct {
	line int
	msg  string
}

// frame is an open container whose body is indented: an admonition, a
// content tab, a definition. stack[0] is the document itself.
type frame struct {
	need      int       // columns of indentation a line needs to stay inside
	outIndent int       // indentation of the container's text in the output
	fence     codeFence // a fence opened inside this container
	closer    string    // the line that closes a fence opened by a highlight tag
	// Enough block state to tell indented code from indented prose: an
	// indented line after a blank one is code, unless a list is open.
	afterText, inList, inCode bool
}

// highlightFence replaces a highlight tag ({% highlight %}, {{< highlight >}}):
// longer than the fences a code sample usually holds.
const highlightFence = "````"

type converter struct {
	out       []string
	notes     []markupNote
	stack     []frame
	prose     []string // pending prose lines, converted inline on flush
	proseLine int      // body line of prose[0]
	skipUntil string   // inside {% comment %} or a --8<-- block: the line that ends it
	// config holds the lines of a Home Assistant {% configuration %}
	// block while it is open (configEnd names the tag that ends it).
	config    []string
	configEnd string
	// docfxTabs: a docfx tab group ("# [Portal](#tab/portal)") is open;
	// the "---" line after its last tab closes it.
	docfxTabs bool
	// rawHTML is the end tag of an HTML element whose content is code,
	// not prose (<pre>, <script>, <style>, <textarea>), open around the
	// line: no heading is read inside it.
	rawHTML string
	// directives are the closing fences of the MyST directives open
	// around the line ("```", ":::"), innermost last; see directive.
	directives []string
	// skipOptions: the line before opened a MyST directive, whose
	// option lines (":class: tip") configure it and show no text.
	skipOptions bool
	labels      map[string]bool
	// readme is the ReadMe magic block being collected, if one is open;
	// readmeLiteral: the line being read may not open one (see readme.go).
	readme        *readmePending
	readmeLiteral bool
	// calloutType: a Quarto callout without a title attribute just
	// opened; its first line, when a heading, is its title, else it shows
	// this type ("Note").
	calloutType string
}

// labelDef matches a link reference definition, "[label]: url".
var labelDef = regexp.MustCompile(`^\s*\[([^\]^][^\]]*)\]:`)

func convertMarkup(body string) (string, []markupNote) {
	c := converter{stack: []frame{{}}, labels: map[string]bool{}}
	lines := strings.Split(body, "\n")
	for _, l := range lines {
		if strings.Contains(l, "]:") {
			if m := labelDef.FindStringSubmatch(l); m != nil {
				c.labels[normalizeLabel(m[1])] = true
			}
		}
	}
	joinHTMLHeadings(lines)
	for i, raw := range lines {
		c.line(i+1, raw)
	}
	c.readmeUnclosed()
	if c.configEnd != "" {
		// A configuration block that never closes: its lines are still
		// the page's, read as they stand.
		c.emit(configurationList(c.config, "")...)
	}
	c.flush()
	for len(c.stack) > 1 {
		c.pop()
	}
	return strings.Join(c.out, "\n"), c.notes
}

func (c *converter) note(line int, msg string) {
	c.notes = append(c.notes, markupNote{line: line, msg: msg})
}

func (c *converter) emit(lines ...string) {
	c.out = append(c.out, lines...)
}

func (c *converter) flush() {
	if len(c.prose) == 0 {
		return
	}
	if len(c.stack) == 1 {
		for i := range c.prose {
			if h, ok := boldHeading(c.prose, i); ok {
				c.prose[i] = "### " + h
			}
		}
	}
	text := c.inline(strings.Join(c.prose, "\n"), c.proseLine)
	c.emit(strings.Split(text, "\n")...)
	c.prose = c.prose[:0]
}

// boldLine matches a line that is one strong span and nothing else:
// "**How to add a service**", "__Refunds__".
var boldLine = regexp.MustCompile(`^ {0,3}(?:\*\*([^*]+)\*\*|__([^_]+)__)\s*$`)

// maxBoldHeadingWords is the longest bold paragraph read as a heading:
// a heading names a section in a few words; more is a sentence set in
// bold for emphasis.
const maxBoldHeadingWords = 10

// boldHeading reports whether prose line i is a heading written in bold,
// as help centres converted from HTML and documents exported from word
// processors write their section titles: a paragraph of its own (blank
// lines around it) that is one strong span of at most
// maxBoldHeadingWords words, not ending as a sentence does ("**Back up
// first.**" is emphasis). It returns the heading's text. A question
// ("**Can I change my plan?**") heads its answer, as a FAQ's headings do.
func boldHeading(prose []string, i int) (string, bool) {
	if i > 0 && strings.TrimSpace(prose[i-1]) != "" || i+1 < len(prose) && strings.TrimSpace(prose[i+1]) != "" {
		return "", false
	}
	m := boldLine.FindStringSubmatch(prose[i])
	if m == nil {
		return "", false
	}
	h := strings.TrimSpace(m[1] + m[2])
	if h == "" || strings.HasSuffix(h, ".") || strings.HasSuffix(h, "!") || len(strings.Fields(h)) > maxBoldHeadingWords {
		return "", false
	}
	return h, true
}

func (c *converter) push(f frame) {
	c.flush()
	c.stack = append(c.stack, f)
}

// pop closes the innermost container; a fence left open inside it ends
// with it, as it does when the page is rendered.
func (c *converter) pop() {
	c.flush()
	f := c.stack[len(c.stack)-1]
	if f.fence.open() {
		c.emit(strings.Repeat(" ", f.outIndent) + strings.Repeat(string(f.fence.char), f.fence.n))
	}
	c.stack = c.stack[:len(c.stack)-1]
}

func (c *converter) line(n int, raw string) {
	if c.readmeLine(n, raw) {
		return
	}
	cols := leadingColumns(raw)
	blank := strings.TrimSpace(raw) == ""
	if !blank {
		for len(c.stack) > 1 && cols < c.stack[len(c.stack)-1].need {
			c.pop()
		}
	}
	l := removeColumns(raw, 4*(len(c.stack)-1))
	f := &c.stack[len(c.stack)-1]
	trimmed := strings.TrimSpace(l)
	indent := strings.Repeat(" ", leadingColumns(l))

	if f.fence.open() {
		if c.skipOptions {
			if c.skipOptions = mystOption.MatchString(trimmed); c.skipOptions {
				return
			}
		}
		if f.closer != "" && blockTag(trimmed) == f.closer {
			c.emit(indent + highlightFence)
			f.fence, f.closer = codeFence{}, ""
			return
		}
		if f.closer == "" {
			if f.fence.update(l); !f.fence.open() {
				c.emit(l) // the closing fence
				return
			}
		}
		if kept, dropped := dropDirectives(l); dropped != "" {
			c.note(n, dropped)
			if strings.TrimSpace(kept) == "" {
				return
			}
			l = kept
		}
		c.emit(l)
		return
	}
	if c.configEnd != "" {
		if blockTag(trimmed) == c.configEnd {
			c.emit(configurationList(c.config, indent)...)
			c.config, c.configEnd = nil, ""
			return
		}
		c.config = append(c.config, l)
		return
	}
	if c.skipUntil != "" {
		if trimmed == c.skipUntil || blockTag(trimmed) == c.skipUntil || strings.HasPrefix(c.skipUntil, "{:/") && trimmed == "{:/}" {
			c.skipUntil = ""
		}
		return
	}
	if c.skipOptions {
		c.skipOptions = false
		switch {
		case trimmed == "---": // options written as YAML
			c.skipUntil = "---"
			return
		case mystOption.MatchString(trimmed):
			c.skipOptions = true
			return
		}
	}
	if blank {
		f.afterText = false
		c.addProse(n, "")
		return
	}
	if c.calloutType != "" {
		title := c.calloutType
		c.calloutType = ""
		if level, text := atxHeading(l); level > 0 {
			c.title(n, indent, text)
			return
		}
		c.title(n, indent, title)
	}
	if trimmed[0] == '#' && (strings.Contains(trimmed, ":id=") || strings.Contains(trimmed, "[#")) {
		// docsify's heading id, "## Rescheduling :id=reschedule", and
		// Nextra's, "## Retention [#retention]": an anchor, as kramdown's
		// {#id} is, not words of the heading.
		if m := headingID.FindStringSubmatchIndex(l); m != nil {
			l = l[:m[2]] + l[m[3]:]
			trimmed = strings.TrimSpace(l)
		}
	}
	if (trimmed == "%" || strings.HasPrefix(trimmed, "% ")) && len(indent) < 4 && !f.afterText {
		// A MyST comment (and a pandoc title block line): "% text" at the
		// start of a block. Not within a paragraph, where a wrapped line
		// may start with "% of".
		c.flush()
		return
	}
	afterText := f.afterText // indentedCode sets it for the next line
	if c.indentedCode(f, l, trimmed) {
		c.flush()
		c.emit(l)
		return
	}
	if c.docfx(n, trimmed, indent, afterText) {
		return
	}
	if c.directive(n, trimmed, indent) {
		return
	}
	if f.fence.update(l) {
		c.flush()
		c.emit(l)
		return
	}
	if c.readmeOpen(n, raw, trimmed) {
		return
	}
	if c.blockSyntax(n, l, trimmed, indent, cols) {
		return
	}
	if len(c.stack) == 1 && len(indent) < 4 && (strings.EqualFold(trimmed, "<aside>") || strings.EqualFold(trimmed, "</aside>")) {
		// Notion exports a callout as an <aside> around markdown: a box,
		// whose text is read like any paragraph's (an HTML block would
		// keep its ** and backticks as text).
		c.flush()
		c.emit("")
		return
	}
	if len(c.stack) == 1 && len(indent) < 4 && c.htmlHeadings(n, l) {
		return
	}
	c.addProse(n, docsifyHelper(calloutLine(l)))
}

var (
	// htmlHeadingRe matches an HTML heading element written on one line,
	// "<h2 id="x">Invite <b>someone</b></h2>"; the levels are compared
	// by the caller (RE2 has no back-references).
	htmlHeadingRe = regexp.MustCompile(`(?i)<h([1-6])(?:\s[^>]*)?>(.*?)</h([1-6])\s*>`)
	// rawHTMLRe matches the start or end tag of an element whose content
	// is code.
	rawHTMLRe = regexp.MustCompile(`(?i)<(/?)(pre|script|style|textarea)\b`)
	anyTagRe  = regexp.MustCompile(`<[^>]*>`)
)

// htmlHeadings writes the HTML headings of a line as ATX headings on
// lines of their own, its other text as prose around them, and reports
// whether the line had any. Help centres exported as HTML (Zendesk,
// Intercom, Help Scout) mark their sections with <h2> and <h3>: as
// headings they split the doc into sections and name them, as markdown
// headings do. A heading inside an inline code span or in an element
// whose content is code is left as written.
func (c *converter) htmlHeadings(n int, l string) bool {
	if !strings.Contains(l, "<") {
		return false
	}
	// from: where the prose not yet written starts; scanned: how far the
	// code elements have been followed (each stretch once).
	found, from, scanned := false, 0, 0
	for _, m := range htmlHeadingRe.FindAllStringSubmatchIndex(l, -1) {
		inCode := c.followRawHTML(l[scanned:m[0]]) != ""
		scanned = m[0]
		if inCode || l[m[2]:m[3]] != l[m[6]:m[7]] || strings.Count(l[:m[0]], "`")%2 == 1 {
			continue
		}
		text := strings.Join(strings.Fields(html.UnescapeString(anyTagRe.ReplaceAllString(l[m[4]:m[5]], " "))), " ")
		if text == "" {
			continue
		}
		if before := l[from:m[0]]; strings.TrimSpace(before) != "" {
			c.addProse(n, before)
		}
		c.flush()
		level, _ := strconv.Atoi(l[m[2]:m[3]])
		c.emit("", strings.Repeat("#", level)+" "+text, "")
		found, from, scanned = true, m[1], m[1]
	}
	c.followRawHTML(l[scanned:])
	rest := l[from:]
	if !found {
		return false
	}
	if strings.TrimSpace(rest) != "" {
		c.addProse(n, rest)
	}
	return true
}

// htmlHeadingOpen matches a line that opens an HTML heading element and
// does not close it: pretty-printed exports write "<h2 id=…>", the title
// and "</h2>" on lines of their own.
var (
	htmlHeadingOpen  = regexp.MustCompile(`(?i)^ {0,3}<h([1-6])(?:\s[^>]*)?>`)
	htmlHeadingClose = regexp.MustCompile(`(?i)</h([1-6])\s*>`)
)

// maxHeadingLines is the most lines one heading element may span to be
// read as a heading.
const maxHeadingLines = 5

// joinHTMLHeadings puts a heading element written over several lines
// onto its first line, and blanks the others (so line numbers stay), for
// htmlHeadings to read. Lines in code fences are left alone, and so is
// an element that a blank line interrupts, that runs past
// maxHeadingLines, or that closes with another level.
func joinHTMLHeadings(lines []string) {
	var fence codeFence
	for i := 0; i < len(lines); i++ {
		if fence.open() {
			fence.update(lines[i]) // closes it, or is code
			continue
		}
		if fence.update(lines[i]) {
			continue
		}
		m := htmlHeadingOpen.FindStringSubmatch(lines[i])
		if m == nil || htmlHeadingClose.MatchString(lines[i]) {
			continue
		}
		for j := i + 1; j < len(lines) && j < i+maxHeadingLines; j++ {
			if strings.TrimSpace(lines[j]) == "" {
				break
			}
			if c := htmlHeadingClose.FindStringSubmatch(lines[j]); c != nil {
				if c[1] == m[1] {
					parts := make([]string, 0, j-i+1)
					for _, l := range lines[i : j+1] {
						parts = append(parts, strings.TrimSpace(l))
					}
					lines[i] = strings.Join(parts, " ")
					for k := i + 1; k <= j; k++ {
						lines[k] = ""
					}
					i = j
				}
				break
			}
		}
	}
}

// followRawHTML moves c.rawHTML past the start and end tags of code
// elements in s and returns it: the end tag still awaited, or "".
func (c *converter) followRawHTML(s string) string {
	for _, m := range rawHTMLRe.FindAllStringSubmatch(s, -1) {
		switch name := strings.ToLower(m[2]); {
		case c.rawHTML == "" && m[1] == "":
			c.rawHTML = name
		case c.rawHTML == name && m[1] == "/":
			c.rawHTML = ""
		}
	}
	return c.rawHTML
}

// docsifyHelper drops the marker of docsify's tip and warning paragraphs,
// "?> text" and "!> text": the page shows the text in a box.
func docsifyHelper(l string) string {
	t := strings.TrimLeft(l, " \t")
	if len(t) > 3 && (t[0] == '?' || t[0] == '!') && t[1] == '>' && t[2] == ' ' {
		return l[:len(l)-len(t)] + strings.TrimLeft(t[3:], " ")
	}
	return l
}

// indentedCode reports whether a line is part of an indented code block,
// and follows the lists that make indented lines prose instead.
func (c *converter) indentedCode(f *frame, l, trimmed string) bool {
	defer func() { f.afterText = true }()
	if leadingColumns(l) >= 4 {
		f.inCode = f.inCode || !f.afterText && !f.inList
		return f.inCode
	}
	f.inCode = false
	switch {
	case isListMarker(trimmed):
		f.inList = true
	case !f.afterText:
		f.inList = false // a paragraph after a blank line ends the list
	}
	return false
}

// isListMarker reports a line opening a list item: "- ", "* ", "+ ",
// "1. ", "1) ".
func isListMarker(t string) bool {
	if len(t) >= 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && (t[1] == ' ' || t[1] == '\t') {
		return true
	}
	i := 0
	for i < len(t) && i < 9 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && (t[i+1] == ' ' || t[i+1] == '\t')
}

func (c *converter) addProse(n int, l string) {
	if len(c.prose) == 0 {
		c.proseLine = n
	}
	c.prose = append(c.prose, l)
}

// colonAdmonitions are the boxes Docusaurus, VitePress, Starlight and
// Azure DevOps open with ":::name" and title with their name when the
// author gives none: MyST's admonitions and the few names those add.
// Another name is a class or a widget ("::: code-group"), which shows no
// title of its own.
var colonAdmonitions = func() map[string]string {
	m := map[string]string{"info": "Info", "details": "Details", "success": "Success", "question": "Question",
		"example": "Example", "abstract": "Abstract", "quote": "Quote", "bug": "Bug", "failure": "Failure"}
	for k, v := range mystAdmonitions {
		m[k] = v
	}
	return m
}()

// headingID matches the id docsify or Nextra lets a heading set: the
// submatch is " :id=name" or " [#name]" at the end of an ATX heading line.
var headingID = regexp.MustCompile(`^ {0,3}#{1,6} .*?(\s+(?::id=[\w-]+|\[#[A-Za-z][\w-]*\]))\s*$`)

var (
	// !!! note "Title", ??? question, ???+ warning inline end "Title"
	admonitionRe = regexp.MustCompile(`^(?:!!!|\?\?\?\+?) *([A-Za-z][\w-]*(?: +[\w-]+)*)? *(?:"(.*)")? *$`)
	// === "Tab", ===! "Tab", ===+ "Tab"
	tabRe = regexp.MustCompile(`^===[!+]? +"(.*)" *$`)
	// /// caption, /// admonition | Title, ///
	blockRe = regexp.MustCompile(`^/{3,} *([\w-]+)?(?: *\| *(.*))?$`)
	// :::note Title, :::tip[Title], ::: {.class}, :::
	directiveRe = regexp.MustCompile(`^:{3,} *([A-Za-z][\w-]*)?(?:\[(.*)\]|(.*))$`)
	// : a definition
	definitionRe = regexp.MustCompile(`^: +(\S.*)$|^:\t(.*)$`)
)

// blockSyntax handles a line that opens, closes or is a block of
// generator syntax, and reports whether it did.
func (c *converter) blockSyntax(n int, l, trimmed, indent string, cols int) bool {
	f := &c.stack[len(c.stack)-1]
	switch {
	case strings.HasPrefix(trimmed, "!!!") || strings.HasPrefix(trimmed, "???"):
		m := admonitionRe.FindStringSubmatch(trimmed)
		if m == nil {
			return false
		}
		title := m[2]
		if !strings.Contains(trimmed, `"`) {
			title = capitalize(firstWord(m[1])) // no title: MkDocs shows the type
		}
		c.container(n, indent, title, cols)
	case strings.HasPrefix(trimmed, "==="):
		m := tabRe.FindStringSubmatch(trimmed)
		if m == nil {
			return false
		}
		c.container(n, indent, m[1], cols)
	case strings.HasPrefix(trimmed, "///"):
		m := blockRe.FindStringSubmatch(trimmed)
		if m == nil {
			return false
		}
		title := m[2]
		if m[1] == "html" || m[1] == "caption" {
			title = "" // "/// html | div" names a tag, not a title
		}
		c.title(n, indent, title)
	case strings.HasPrefix(trimmed, ":::"):
		m := directiveRe.FindStringSubmatch(trimmed)
		if m == nil {
			return false
		}
		name := strings.ToLower(m[1])
		if name == "mermaid" || name == "plantuml" || name == "graphviz" {
			// Azure DevOps' "::: mermaid": a diagram's source, code the
			// page draws, not words it shows.
			c.flush()
			c.skipUntil = trimmed[:len(trimmed)-len(strings.TrimLeft(trimmed, ":"))]
			return true
		}
		title := strings.TrimSpace(m[2])
		if rest := strings.TrimSpace(m[3]); title == "" && !strings.HasPrefix(rest, "{") {
			title = rest
		} else if title == "" {
			var typ string
			if title, typ = calloutTitle(rest); typ != "" {
				c.flush()
				c.calloutType = typ // shown unless a heading opens it (above)
				return true
			}
		}
		if title == "" {
			title = colonAdmonitions[name] // "::: code-group", "::: v-pre" show no title
		}
		c.title(n, indent, title)
	case trimmed[0] == ':' && len(indent) < 4:
		m := definitionRe.FindStringSubmatch(trimmed)
		if m == nil {
			return false
		}
		// The definition's text starts four columns in, like the lines
		// that continue it: read it as such a line, since it may open a
		// block of its own (":   !!! note").
		c.flush()
		c.emit("")
		c.push(frame{need: cols + 4, outIndent: len(indent)})
		if text := m[1] + m[2]; strings.HasPrefix(text, ":") {
			c.addProse(n, indent+text) // ": : x" is text, not definitions nested on one line
		} else {
			c.line(n, strings.Repeat(" ", cols+4)+text)
		}
	case strings.HasPrefix(trimmed, "--8<--"):
		c.flush()
		if trimmed == "--8<--" {
			c.skipUntil = "--8<--" // a block of file names, one a line
		}
		c.note(n, "snippet include (--8<--) left out: docent does not read included files")
	case strings.HasPrefix(trimmed, "{%") && strings.HasSuffix(trimmed, "%}") && strings.Count(trimmed, "%}") == 1:
		return c.liquidTag(n, trimmed, indent)
	case strings.HasPrefix(trimmed, "{{<") && strings.HasSuffix(trimmed, ">}}") && strings.Count(trimmed, ">}}") == 1:
		if name, lang := shortcodeHead(trimmed); name == "highlight" {
			c.flush()
			c.emit(indent + highlightFence + lang)
			f.fence, f.closer = codeFence{char: '`', n: len(highlightFence)}, "/highlight"
			return true
		}
		return false
	case strings.HasPrefix(trimmed, "{::") || strings.HasPrefix(trimmed, "{:/"):
		// kramdown's extensions: {::comment} hides its text up to
		// {:/comment} (or {:/}); {::options … /}, {::nomarkdown} and the
		// closing tags show nothing themselves.
		if !strings.HasSuffix(trimmed, "}") {
			return false
		}
		c.flush()
		if name := strings.TrimSuffix(strings.TrimPrefix(trimmed, "{::"), "}"); name == "comment" {
			c.skipUntil = "{:/comment}"
		}
	case isAttributeListLine(trimmed):
		if isTOCMarker(trimmed) && len(c.prose) > 0 && isListMarker(strings.TrimSpace(c.prose[len(c.prose)-1])) {
			// kramdown's "* TOC" + "{:toc}": the item is replaced by the
			// page's table of contents, its word is never shown.
			c.prose = c.prose[:len(c.prose)-1]
		}
		c.flush() // kramdown and attr_list: styling of the block above
	case trimmed[0] == '[' && (strings.EqualFold(trimmed, "[[toc]]") || strings.EqualFold(trimmed, "[[_toc_]]") || strings.EqualFold(trimmed, "[[_tosp_]]")):
		// VitePress' and VuePress' table of contents marker, and Azure
		// DevOps wiki's (of the page, and of its sub-pages).
		c.flush()
	case trimmed[0] == '{' && macroLine.MatchString(trimmed):
		// A template macro alone on its line, "{start_tabs}",
		// "{tab|desktop-web}", "{relative|gear|settings}" (Zulip's help
		// centre), "{toc}": the site renders it as widgets or boilerplate,
		// the words inside are its arguments, not the author's text.
		c.flush()
	case trimmed[0] == '(' && mystTarget.MatchString(trimmed):
		c.flush() // a MyST target, "(label)=": an anchor, no text
	default:
		return false
	}
	return true
}

// container opens an indented container (admonition, tab): its title
// becomes a paragraph and its body is dedented by four columns.
func (c *converter) container(n int, indent, title string, cols int) {
	c.title(n, indent, title)
	c.push(frame{need: cols + 4, outIndent: len(indent)})
}

// title ends the prose before a block and writes the block's title, if it
// has one, as a paragraph of its own.
func (c *converter) title(n int, indent, title string) {
	c.flush()
	c.emit("")
	if title = strings.TrimSpace(c.inline(title, n)); title != "" {
		c.emit(indent+title, "")
	}
}

// liquidTag handles a line holding one Liquid tag ({% … %}).
func (c *converter) liquidTag(n int, trimmed, indent string) bool {
	name, lang := liquidHead(trimmed)
	switch name {
	case "comment":
		c.flush()
		c.skipUntil = "endcomment"
	case "highlight":
		c.flush()
		c.emit(indent + highlightFence + lang)
		f := &c.stack[len(c.stack)-1]
		f.fence, f.closer = codeFence{char: '`', n: len(highlightFence)}, "endhighlight"
	case "tab":
		// GitBook's {% tab title="…" %} and Markdoc's {% tab
		// label="…" %}: the tab's label, then its text.
		args := shortcodeArgs(lang)
		c.title(n, indent, cmp.Or(args.named["title"], args.named["label"]))
	case "callout", "admonition", "note", "hint", "aside":
		// Markdoc's {% callout title="…" %} (and the names other sites
		// give the tag): its title, then its text; without one, the text.
		if title := shortcodeArgs(lang).named["title"]; title != "" {
			c.title(n, indent, title)
			return true
		}
		c.flush()
	case "configuration", "configuration_basic":
		// Home Assistant documents configuration variables in YAML
		// between these tags: read as text, keys and all ("required: false
		// type: map keys:"); see configurationList.
		c.flush()
		c.emit("")
		c.configEnd = "end" + name
	case "details":
		// Home Assistant's {% details "Show the YAML" %}: a disclosure
		// whose summary the reader clicks, then its text.
		c.title(n, indent, shortcodeArgs(lang).positional(0))
	case "content-ref":
		// GitBook's card linking another page: it shows that page's title,
		// which the link inside does not hold (it repeats the URL).
		c.flush()
		c.skipUntil = "endcontent-ref"
	case "include", "include_relative", "render", "snippet":
		if text := includeContent(lang); text != "" {
			c.title(n, indent, text)
			return true
		}
		c.flush()
		c.note(n, "Liquid "+name+" left out: docent does not read included files")
	default: // raw, endraw, if, for, assign, capture...: logic, not text
		c.flush()
	}
	return true
}

// includeContent is the text a Liquid include passes its template,
// "{% include note.html content="Back up first." %}": documentation
// themes for Jekyll write their callouts so, and the text is the author's.
func includeContent(arg string) string {
	return strings.TrimSpace(shortcodeArgs(arg).named["content"])
}

// blockTag names the tag a line holding one Liquid tag or one Hugo
// shortcode is ("endhighlight", "/highlight"), or "".
func blockTag(trimmed string) string {
	switch {
	case strings.HasPrefix(trimmed, "{%") && strings.HasSuffix(trimmed, "%}"):
		name, _ := liquidHead(trimmed)
		return name
	case strings.HasPrefix(trimmed, "{{<") && strings.HasSuffix(trimmed, ">}}"):
		name, _ := shortcodeHead(trimmed)
		return name
	}
	return ""
}

func liquidHead(tag string) (name, arg string) {
	inner := strings.TrimSpace(strings.Trim(strings.TrimSuffix(strings.TrimPrefix(tag, "{%"), "%}"), "-"))
	// Markdoc closes a tag with no body in the tag itself: {% partial /%}.
	inner = strings.TrimSpace(strings.TrimSuffix(inner, "/"))
	name, arg, _ = strings.Cut(inner, " ")
	return name, strings.TrimSpace(arg)
}

func shortcodeHead(tag string) (name, arg string) {
	inner := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(tag, "{{<"), ">}}"))
	name, arg, _ = strings.Cut(inner, " ")
	if strings.HasPrefix(name, "/") {
		return name, ""
	}
	args := shortcodeArgs(arg)
	return name, args.positional(0)
}

// A pandoc fenced div's attributes: "{.callout-tip title="Good to know"
// collapse="true"}".
var (
	divCallout = regexp.MustCompile(`(?:^|[\s{])\.callout-(note|tip|warning|caution|important)\b`)
	divTitle   = regexp.MustCompile(`\btitle\s*=\s*(?:"([^"]*)"|'([^']*)')`)
)

// calloutTitle reads a Quarto callout's fenced div attributes: its title
// attribute, else (typ) its type ("Warning"), which it shows unless its
// first line is a heading; both "" for a div that is no callout (a
// panel-tabset, a column layout).
func calloutTitle(attrs string) (title, typ string) {
	m := divCallout.FindStringSubmatch(attrs)
	if m == nil {
		return "", ""
	}
	if t := divTitle.FindStringSubmatch(attrs); t != nil {
		return t[1] + t[2], ""
	}
	return "", capitalize(m[1])
}

// calloutLine rewrites an Obsidian or GitHub callout's first line,
// "> [!note] Title" or "> [!WARNING]", to the title a reader sees.
func calloutLine(l string) string {
	i := 0
	for i < len(l) && (l[i] == ' ' || l[i] == '\t' || l[i] == '>') {
		i++
	}
	if i == 0 || !strings.Contains(l[:i], ">") || !strings.HasPrefix(l[i:], "[!") {
		return l
	}
	if strings.HasPrefix(l[i:], "[!div") && strings.HasSuffix(strings.TrimSpace(l), "]") {
		// docfx's "> [!div class="nextstepaction"]": the quote's styling.
		return strings.TrimRight(l[:i], " \t")
	}
	end := strings.IndexByte(l[i:], ']')
	if end < 0 {
		return l
	}
	kind := l[i+2 : i+end]
	if kind == "" || strings.IndexFunc(kind, func(r rune) bool { return !(r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) }) >= 0 {
		return l
	}
	title := strings.TrimSpace(strings.TrimLeft(l[i+end+1:], "+-"))
	if title == "" {
		title = capitalize(strings.ToLower(kind))
	}
	// An empty quoted line after the title makes it a paragraph of its
	// own, as the callout shows it, not the start of the text.
	return l[:i] + title + "\n" + strings.TrimRight(l[:i], " \t")
}

// configurationList writes a Home Assistant configuration block as the
// site shows it: a list of the variables, each with its type, whether it
// is required, its default and its description, nested variables (under
// "keys") in a list of their own. YAML that does not parse stays as a
// code block.
func configurationList(lines []string, indent string) []string {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(strings.Join(lines, "\n")), &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		out := append([]string{indent + "```yaml"}, lines...)
		return append(out, indent+"```", "")
	}
	var out []string
	var walk func(m *yaml.Node, depth int)
	walk = func(m *yaml.Node, depth int) {
		for i := 0; i+1 < len(m.Content); i += 2 {
			name, v := m.Content[i].Value, m.Content[i+1]
			fields := map[string]string{}
			var keys *yaml.Node
			if v.Kind == yaml.MappingNode {
				for j := 0; j+1 < len(v.Content); j += 2 {
					k, val := v.Content[j].Value, v.Content[j+1]
					if k == "keys" && val.Kind == yaml.MappingNode {
						keys = val
					} else if val.Kind == yaml.ScalarNode {
						fields[k] = strings.Join(strings.Fields(val.Value), " ")
					}
				}
			} else if v.Kind == yaml.ScalarNode {
				fields["description"] = v.Value
			}
			var about []string
			if t := fields["type"]; t != "" {
				about = append(about, t)
			}
			switch fields["required"] {
			case "true":
				about = append(about, "required")
			case "false":
				about = append(about, "optional")
			}
			if d, ok := fields["default"]; ok && d != "" {
				about = append(about, "default "+d)
			}
			item := "**" + name + "**"
			if len(about) > 0 {
				item += " (" + strings.Join(about, ", ") + ")"
			}
			if d := fields["description"]; d != "" {
				item += ": " + d
			}
			out = append(out, indent+strings.Repeat("  ", depth)+"- "+item)
			if keys != nil && depth < maxNesting/2 {
				walk(keys, depth+1)
			}
		}
	}
	walk(doc.Content[0], 0)
	return append(out, "")
}

// Microsoft Learn writes its docs in docfx's markdown: images as
// ":::image type="content" source="…" alt-text="…":::", whose alt text is
// what a reader without the picture reads; zone pivots ("::: zone
// pivot="os-windows"" … "::: zone-end") around text for one platform,
// which is the page's text; tab groups as headings linking to "#tab/…"
// ("# [Portal](#tab/portal)"), which are labels, not sections, closed by
// a "---" line; and code includes ("[!code-json[](~/samples/x.json)]").
var (
	docfxImage   = regexp.MustCompile(`(?i)^:::\s*image\s(.*?)(:::)?$`)
	docfxZone    = regexp.MustCompile(`(?i)^:::\s*(zone\b.*|zone-end|image-end|column\b.*|row\b.*|column-end|row-end)\s*(:::)?$`)
	docfxTab     = regexp.MustCompile(`^#{1,6}\s+\[([^\]]+)\]\(#tab/[^)\s]*\)\s*$`)
	docfxCode    = regexp.MustCompile(`^\[!code-[\w-]*\[[^\]]*\]\([^)]*\)\]$`)
	docfxAltText = regexp.MustCompile(`alt-text\s*=\s*"([^"]*)"`)
)

// docfx converts a docfx line (see above) and reports whether it was one.
func (c *converter) docfx(n int, trimmed, indent string, afterText bool) bool {
	if trimmed == "" {
		return false
	}
	switch {
	case trimmed[0] == ':' && docfxZone.MatchString(trimmed):
		c.flush()
	case trimmed[0] == ':' && docfxImage.MatchString(trimmed):
		alt := ""
		if m := docfxAltText.FindStringSubmatch(trimmed); m != nil {
			alt = m[1]
		}
		c.title(n, indent, alt)
	case trimmed[0] == '#' && docfxTab.MatchString(trimmed):
		c.title(n, indent, docfxTab.FindStringSubmatch(trimmed)[1])
		c.docfxTabs = true
	case trimmed == "---" && c.docfxTabs && !afterText:
		c.flush()
		c.docfxTabs = false
	case trimmed[0] == '[' && docfxCode.MatchString(trimmed):
		c.flush()
		c.note(n, "docfx code include left out: docent does not read code samples from other files")
	default:
		return false
	}
	return true
}

// macroLine is a line holding one template macro: a lower-case name and
// "|"-separated arguments in single braces.
var macroLine = regexp.MustCompile(`^\{[a-z][a-z0-9_]*(\|[^{}\s|]+)*\}$`)

// isTOCMarker reports kramdown's table of contents marker, "{:toc}" or
// "{: toc}".
func isTOCMarker(trimmed string) bool {
	return strings.TrimSpace(strings.Trim(trimmed, "{}:")) == "toc"
}

func isAttributeListLine(trimmed string) bool {
	if !strings.HasPrefix(trimmed, "{") {
		return false
	}
	end, ok := attributeListEnd(trimmed, 0, len(trimmed))
	return ok && end == len(trimmed)
}

// dropDirectives removes the preprocessor directives a line of code may
// hold (mdBook's {{#include …}}), returning the rest and a note.
func dropDirectives(l string) (string, string) {
	if strings.HasPrefix(strings.TrimSpace(l), "--8<--") {
		return "", "snippet include (--8<--) left out: docent does not read included files"
	}
	i := strings.Index(l, "{{#")
	if i < 0 {
		return l, ""
	}
	end := strings.Index(l[i:], "}}")
	if end < 0 {
		return l, ""
	}
	name, include := mdBookDirective(l[i+3 : i+end])
	if !include {
		return l, ""
	}
	return l[:i] + l[i+end+2:], mdBookNote(name)
}

// mdBookDirective returns the name of an mdBook preprocessor directive
// given what follows "{{#", or "", and whether it includes another file
// (whose text docent does not read: worth a note).
func mdBookDirective(inner string) (string, bool) {
	name, _, _ := strings.Cut(strings.TrimSpace(inner), " ")
	switch name {
	case "include", "rustdoc_include", "playground", "playpen", "template":
		return name, true
	case "title":
		return name, false // the browser tab's title
	}
	return "", false
}

func mdBookNote(name string) string {
	return "mdBook {{#" + name + "}} left out: docent does not read included files"
}

func firstWord(s string) string {
	w, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	return w
}

func capitalize(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}

// nextColumn is the column after an indentation byte, a tab stopping at
// the next multiple of four as markdown counts it; ok is false for a byte
// that is not indentation.
func nextColumn(cols int, c byte) (int, bool) {
	switch c {
	case ' ':
		return cols + 1, true
	case '\t':
		return cols + 4 - cols%4, true
	}
	return cols, false
}

// leadingColumns is the width of a line's indentation.
func leadingColumns(l string) int {
	cols := 0
	for i := 0; i < len(l); i++ {
		next, ok := nextColumn(cols, l[i])
		if !ok {
			break
		}
		cols = next
	}
	return cols
}

// removeColumns removes n columns of indentation (all of it if the line
// has fewer). Indentation left after the cut is written as spaces, so a
// tab keeps its width from where the line now starts.
func removeColumns(l string, n int) string {
	if n <= 0 {
		return l
	}
	ws := len(l) - len(strings.TrimLeft(l, " \t"))
	cols := leadingColumns(l)
	switch {
	case cols <= n:
		return l[ws:]
	case !strings.Contains(l[:ws], "\t"):
		return l[n:]
	}
	return strings.Repeat(" ", cols-n) + l[ws:]
}
