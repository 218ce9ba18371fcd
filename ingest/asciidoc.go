package ingest

import (
	"encoding/csv"
	"path"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Antora sites (and Asciidoctor projects without Antora) write their docs
// in AsciiDoc. adocToMarkdown reads a .adoc file into the markdown the
// rest of ingestion reads, showing what the rendered page shows: the
// document title and section titles become headings; attribute
// references their value (from the page's header, the body and
// antora.yml); admonitions their label and text; listing and literal
// blocks code; tables tables; includes the included file (Antora's
// partial$ and example$ resources too, with tags and level offsets);
// cross references and links their text (an xref without text the title
// of the page it names, as Antora shows it); comments, conditionals for
// other environments and passthrough HTML go.
//
// It is one pass over the lines, with a stack of the delimited blocks
// open around the line, so it is linear in the size of the file.

// isAsciiDoc reports an AsciiDoc file.
func isAsciiDoc(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".adoc", ".asciidoc": // not ".asc": in a docs folder it is more often a PGP signature
		return true
	}
	return false
}

// antoraResource matches a file of an Antora module that is not a page:
// partials, examples, attachments and images are read where a page uses
// them, and the files directly in a module folder are its navigation.
var antoraResource = regexp.MustCompile(`(?i)(?:^|/)modules/[^/]+/(?:(partials|examples|attachments|images|assets)/|([^/]+)$)`)

// antoraNotPage says why an AsciiDoc file of an Antora module is not a
// page, or "".
func antoraNotPage(relPath string) string {
	m := antoraResource.FindStringSubmatch(relPath)
	switch {
	case m == nil:
		return ""
	case m[1] != "":
		return "Antora " + strings.ToLower(strings.TrimSuffix(m[1], "s")) + ": not a page of its own, read where a page includes it"
	}
	return "navigation: an Antora module's nav file, links to the pages and no text of its own"
}

type adocConverter struct {
	out      []string
	notes    []markupNote
	meta     docMeta
	attrs    map[string]string // attribute values; "\x00" for one unset
	ids      map[string]string // section ids of the page to their titles
	site     *adocSite
	from     string
	read     *siteFiles
	included []string
	texts    []string
	depth    int
	budget   int
	offset   int // level offset (":leveloffset:", include's leveloffset=)
	lineNo   int // source line being read, for notes

	inHeader   bool       // between the document title and the first blank line
	pending    blockAttrs // the attribute list and title lines above the next block
	verbatim   string     // the delimiter of the verbatim block open (listing, literal, comment, passthrough), or ""
	code       []string   // the lines of the open listing or literal block, nil for a comment or passthrough
	codeLang   string
	codeAttrs  bool       // the block's subs include attributes: its references are replaced
	compound   []string   // the delimiters of the example, sidebar, quote and open blocks open, innermost last
	conds      int        // conditionals open around the line
	skipping   int        // the depth of the outermost false conditional, 0 if none
	table      *adocTable // the table open, if any
	list       bool       // the last block was a list item: text lines continue it
	listGap    bool       // a blank line followed it: only another item (or a "+") keeps the list open
	para       []string   // the paragraph being read
	paraLabel  string     // its admonition label ("Note"), if it has one
	paraInList bool       // the paragraph continues a list item
}

// blockAttrs are the lines above a block that configure it: "[source,go]",
// "[NOTE]", "[cols="1,2",options="header"]", ".Title".
type blockAttrs struct {
	pos   []string          // positional attributes: the style (source, NOTE, quote…), the language
	named map[string]string // named attributes, and "%option"s as "option-option"
	title string            // the block title (".Title")
}

func (b blockAttrs) style() string {
	if len(b.pos) == 0 {
		return ""
	}
	return b.pos[0]
}

// adocTable is a table being read.
type adocTable struct {
	delim    string // "|===", ",===", ":===" or "!==="
	cols     int    // from the cols attribute, 0 if not given
	header   bool   // options="header" or %header
	noheader bool   // %noheader
	dsv      bool   // cells are comma- (or colon-) separated values
	cells    []string
	raw      []string // the lines of a CSV or DSV table
	lines    int      // lines holding cells read so far
	first    int      // cells on the first line
	implicit bool     // the first line was followed by a blank one: it is the header
	sawBlank bool
}

var (
	adocSection    = regexp.MustCompile(`^(={1,6})\s+(\S.*?)(?:\s+=+)?$`)
	adocMDSection  = regexp.MustCompile(`^(#{1,6})\s+(\S.*?)$`)
	adocAttrEntry  = regexp.MustCompile(`^:(!?)([\w][\w-]*)(!?):(?:\s+(.*))?$`)
	adocBlockAttr  = regexp.MustCompile(`^\[([^\[\]].*)?\]$`)
	adocAnchor     = regexp.MustCompile(`^\[\[([\w:.-]+)(?:,\s*(.*))?\]\]$`)
	adocBlockTitle = regexp.MustCompile(`^\.([^.\s].*)$`)
	adocAdmonition = regexp.MustCompile(`^(NOTE|TIP|IMPORTANT|WARNING|CAUTION):\s+(.*)$`)
	adocListItem   = regexp.MustCompile(`^(\*{1,5}|-|\.{1,5}|\d+\.)\s+(.*)$`)
	adocDescItem   = regexp.MustCompile(`^(.+?)(:{2,4}|;;)(?:\s+(.*))?$`)
	adocCallout    = regexp.MustCompile(`^<(\d+|\.)>\s+(.*)$`)
	adocInclude    = regexp.MustCompile(`^include::([^\[]+)\[(.*)\]$`)
	adocCond       = regexp.MustCompile(`^(ifdef|ifndef|ifeval|endif)::([^\[]*)\[(.*)\]$`)
	adocBlockMacro = regexp.MustCompile(`^(image|video|audio|toc)::([^\[]*)\[(.*)\]$`)
	adocDelimiter  = regexp.MustCompile(`^(-{4,}|\.{4,}|={4,}|\*{4,}|_{4,}|\+{4,}|/{4,}|--)$`)
	adocTableDelim = regexp.MustCompile(`^([|,:!])={3,}$`)
	adocCellSpec   = regexp.MustCompile(`^(?:\d+(?:\.\d+)?\+|\.\d+\+|\d+\*)?[<^>]?(?:\.[<^>])?[adehlmsv]?$`)
)

// adocBreaks are the lines that break the flow and show nothing: a page
// break and thematic breaks.
var adocBreaks = map[string]bool{"<<<": true, "'''": true, "***": true, "---": true}

// adocToMarkdown converts the lines of an AsciiDoc file. from is its
// path, read the files includes may read (nil reads none).
func adocToMarkdown(src []string, from string, read *siteFiles) rstResult {
	site := read.adoc()
	c := &adocConverter{attrs: map[string]string{}, site: site, from: from, read: read, budget: maxIncludedBytes}
	for k, v := range site.attrs {
		c.attrs[k] = v
	}
	c.ids = adocSectionIDs(src)
	for i, l := range src {
		c.lineNo = i + 1
		c.line(l)
	}
	c.endBlock()
	if c.verbatim != "" { // a listing never closed: its lines are still code
		c.closeVerbatim()
	}
	return rstResult{lines: c.out, meta: c.meta, notes: c.notes, included: c.included, texts: c.texts}
}

func (c *adocConverter) emit(ls ...string) { c.out = append(c.out, ls...) }

func (c *adocConverter) blank() {
	if n := len(c.out); n > 0 && c.out[n-1] != "" {
		c.out = append(c.out, "")
	}
}

// endPara writes the paragraph being read.
func (c *adocConverter) endPara() {
	if len(c.para) == 0 {
		return
	}
	text := c.inline(strings.Join(c.para, " "))
	if c.paraInList {
		c.emit("   " + text)
	} else {
		if c.paraLabel != "" {
			c.blank()
			c.emit(c.paraLabel, "")
		}
		c.blank()
		c.emit(text, "")
	}
	c.para, c.paraLabel, c.paraInList = nil, "", false
}

// endBlock ends the paragraph, the list and the table being read.
func (c *adocConverter) endBlock() {
	c.endPara()
	if c.list {
		c.list, c.listGap = false, false
		c.blank()
	}
	if c.table != nil {
		c.flushTable()
	}
}

// line reads one line. Conditionals and includes are read first, as
// Asciidoctor's preprocessor reads them, in any block.
func (c *adocConverter) line(l string) {
	l = strings.TrimRight(l, " \t")
	t := strings.TrimSpace(l)
	if m := adocCond.FindStringSubmatch(t); m != nil {
		c.conditional(m[1], m[2], m[3])
		return
	}
	if c.skipping > 0 {
		return
	}
	if m := adocInclude.FindStringSubmatch(t); m != nil && !strings.HasPrefix(l, "\\") {
		if c.verbatim == "" {
			c.endPara()
		}
		c.include(m[1], m[2])
		return
	}
	if c.verbatim != "" {
		switch {
		case t == c.verbatim:
			c.closeVerbatim()
		case c.code != nil && c.codeAttrs:
			c.code = append(c.code, c.subAttrs(l))
		case c.code != nil:
			c.code = append(c.code, l)
		}
		return
	}
	if c.table != nil {
		c.tableLine(l)
		return
	}
	if t == "" {
		c.inHeader = false
		c.endPara()
		c.listGap = c.list
		return
	}
	if strings.HasPrefix(t, "//") && !strings.HasPrefix(t, "////") {
		return // a comment line
	}
	if c.inHeader && !strings.HasPrefix(t, ":") {
		return // the author and revision lines under the title
	}
	if m := adocAttrEntry.FindStringSubmatch(t); m != nil && len(c.para) == 0 {
		c.attribute(m[2], m[1] != "" || m[3] != "", m[4])
		return
	}
	if c.blockLine(t) || c.listLine(t) {
		return
	}
	if c.listGap { // text after a blank line ends the list
		c.endBlock()
	}
	if len(c.para) == 0 {
		c.paraInList = c.list
		if !c.list {
			c.startPara()
		}
		if m := adocAdmonition.FindStringSubmatch(t); m != nil {
			c.paraLabel = adocLabel(m[1])
			t = m[2]
		}
	}
	c.para = append(c.para, strings.TrimSuffix(t, " +"))
}

// blockLine reads a line that opens or configures a block, reporting
// whether it was one.
func (c *adocConverter) blockLine(t string) bool {
	if len(c.para) > 0 && !adocDelimiter.MatchString(t) && !adocTableDelim.MatchString(t) {
		return false // inside a paragraph only a delimiter ends it
	}
	switch {
	case adocTableDelim.MatchString(t):
		c.endBlock()
		c.openTable(t)
	case adocDelimiter.MatchString(t):
		c.endPara()
		c.delimited(t)
	case adocAnchor.MatchString(t):
		// An anchor: read by adocSectionIDs.
	case adocBlockAttr.MatchString(t):
		c.pending.parse(adocBlockAttr.FindStringSubmatch(t)[1])
	case adocBlockTitle.MatchString(t):
		c.pending.title = adocBlockTitle.FindStringSubmatch(t)[1]
	case adocSection.MatchString(t):
		m := adocSection.FindStringSubmatch(t)
		c.section(len(m[1]), m[2])
	case adocMDSection.MatchString(t) && !c.list:
		m := adocMDSection.FindStringSubmatch(t)
		c.section(len(m[1]), m[2])
	case adocBreaks[t]:
		c.endBlock()
	case adocBlockMacro.MatchString(t):
		m := adocBlockMacro.FindStringSubmatch(t)
		c.endBlock()
		if alt := firstPositional(m[3]); m[1] == "image" && alt != "" {
			c.blank()
			c.emit(c.inline(alt), "")
		}
		c.pending = blockAttrs{}
	default:
		return false
	}
	return true
}

// listLine reads a list item, a list continuation or a description list
// entry, reporting whether the line was one.
func (c *adocConverter) listLine(t string) bool {
	if t == "+" && c.list { // the next block belongs to the item
		c.endPara()
		c.listGap = false
		return true
	}
	if len(c.para) > 0 && !c.paraInList {
		return false // a marker inside a paragraph is text
	}
	if m := adocCallout.FindStringSubmatch(t); m != nil {
		c.endPara()
		c.item(1, "1. ", m[2])
		return true
	}
	if m := adocListItem.FindStringSubmatch(t); m != nil {
		c.endPara()
		marker := m[1]
		depth, bullet := len(marker), "- "
		switch {
		case marker == "-":
			depth = 1
		case marker[0] == '.':
			bullet = "1. "
		case marker[0] >= '0' && marker[0] <= '9':
			depth, bullet = 1, "1. "
		}
		text := m[2]
		for _, box := range []string{"[x] ", "[*] ", "[ ] "} {
			text = strings.TrimPrefix(text, box)
		}
		c.item(depth, bullet, c.inline(text))
		return true
	}
	if m := adocDescItem.FindStringSubmatch(t); m != nil && !strings.Contains(m[1], "://") && !strings.HasSuffix(m[1], ":") {
		c.endPara()
		term := "**" + c.inline(strings.TrimSpace(m[1])) + "**"
		if m[3] != "" {
			term += ": " + c.inline(m[3])
		}
		c.item(1, "- ", term)
		return true
	}
	return false
}

// item writes a list item, nested by depth, its text already converted.
func (c *adocConverter) item(depth int, bullet, text string) {
	if !c.list {
		c.blank()
	}
	if p := c.pending; p.title != "" {
		c.emit(c.inline(p.title), "")
	}
	c.pending = blockAttrs{}
	c.emit(strings.Repeat("   ", depth-1) + bullet + text)
	c.list, c.listGap = true, false
}

// startPara begins a paragraph, writing the block title and admonition
// style set above it.
func (c *adocConverter) startPara() {
	p := c.pending
	c.pending = blockAttrs{}
	if p.title != "" {
		c.blank()
		c.emit(c.inline(p.title), "")
	}
	if label := adocLabel(p.style()); label != "" {
		c.paraLabel = label
	}
}

// adocLabel is the label Asciidoctor shows for an admonition style, or "".
func adocLabel(style string) string {
	switch strings.ToUpper(style) {
	case "NOTE":
		return "Note"
	case "TIP":
		return "Tip"
	case "IMPORTANT":
		return "Important"
	case "WARNING":
		return "Warning"
	case "CAUTION":
		return "Caution"
	}
	return ""
}

// parse reads an attribute list: positional attributes, name=value pairs
// and %options.
func (b *blockAttrs) parse(list string) {
	if b.named == nil {
		b.named = map[string]string{}
	}
	for k, part := range splitAttrList(list) {
		part = strings.TrimSpace(part)
		if name, value, ok := strings.Cut(part, "="); ok {
			b.named[strings.TrimSpace(name)] = strings.Trim(strings.TrimSpace(value), `"'`)
			continue
		}
		if k == 0 {
			if i := strings.IndexAny(part, "%#."); i >= 0 {
				for _, opt := range strings.Split(part[i:], "%")[1:] {
					if j := strings.IndexAny(opt, "#."); j >= 0 {
						opt = opt[:j]
					}
					b.named[opt+"-option"] = ""
				}
				part = part[:i]
			}
		}
		b.pos = append(b.pos, strings.Trim(part, `"`))
	}
}

// splitAttrList splits an attribute list at commas outside quotes.
func splitAttrList(s string) []string {
	var out []string
	var cur strings.Builder
	quote := rune(0)
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote = r
			cur.WriteRune(r)
		case r == ',':
			out = append(out, cur.String())
			cur.Reset()
		default:
			cur.WriteRune(r)
		}
	}
	return append(out, cur.String())
}

// firstPositional is the first positional attribute of a macro's list:
// an image's alt text, a link's text.
func firstPositional(list string) string {
	parts := splitAttrList(list)
	if len(parts) == 0 || strings.Contains(parts[0], "=") {
		return ""
	}
	return strings.Trim(strings.TrimSpace(parts[0]), `"`)
}

// attribute sets or unsets an attribute; the header's description and
// keywords are the page's.
func (c *adocConverter) attribute(name string, unset bool, value string) {
	name = strings.ToLower(name)
	value = c.subAttrs(strings.TrimSpace(value))
	if unset {
		c.attrs[name] = "\x00"
		return
	}
	c.attrs[name] = value
	c.meta.set(name, value)
	if name == "leveloffset" {
		if n, err := strconv.Atoi(strings.TrimPrefix(value, "+")); err == nil {
			if strings.HasPrefix(value, "+") || strings.HasPrefix(value, "-") {
				c.offset += n
			} else {
				c.offset = n
			}
		}
	}
}

// conditional handles ifdef, ifndef, ifeval and endif: text whose
// condition names an attribute that is not set (env-github, on the site
// Antora builds) is left out; ifeval's expressions are taken to hold.
func (c *adocConverter) conditional(kind, names, content string) {
	if kind == "endif" {
		if c.conds > 0 {
			if c.skipping == c.conds {
				c.skipping = 0
			}
			c.conds--
		}
		return
	}
	holds := true
	if kind != "ifeval" {
		holds = c.defined(names)
		if kind == "ifndef" {
			holds = !holds
		}
		if content != "" { // the one-line form
			if holds && c.skipping == 0 && !adocCond.MatchString(strings.TrimSpace(content)) {
				c.line(content)
			}
			return
		}
	}
	c.conds++
	if !holds && c.skipping == 0 {
		c.skipping = c.conds
	}
}

// defined evaluates an ifdef list: "a,b" holds when any is set, "a+b"
// when all are.
func (c *adocConverter) defined(names string) bool {
	set := func(n string) bool {
		v, ok := c.attrs[strings.ToLower(strings.TrimSpace(n))]
		return ok && v != "\x00"
	}
	if strings.Contains(names, "+") {
		for _, n := range strings.Split(names, "+") {
			if !set(n) {
				return false
			}
		}
		return true
	}
	for _, n := range strings.Split(names, ",") {
		if set(n) {
			return true
		}
	}
	return false
}

// section writes a section title as a heading: "=" is the document's
// title, "==" a section of it.
func (c *adocConverter) section(level int, title string) {
	c.endBlock()
	c.pending = blockAttrs{}
	if level == 1 && c.depth == 0 && len(c.out) == 0 {
		c.inHeader = true
	}
	level = max(1, min(level+c.offset, 6))
	c.blank()
	c.emit(strings.Repeat("#", level)+" "+c.inline(title), "")
}

// delimited opens (or closes) a delimited block: verbatim ones (listing,
// literal, passthrough, comment) are read to their closing line; the
// others (example, sidebar, quote, open) show their title and text.
func (c *adocConverter) delimited(d string) {
	if n := len(c.compound); n > 0 && c.compound[n-1] == d {
		c.compound = c.compound[:n-1]
		c.endBlock()
		return
	}
	p := c.pending
	c.pending = blockAttrs{}
	c.endBlock()
	switch {
	case d[0] == '-' && d != "--", d[0] == '.':
		c.verbatim, c.code = d, []string{}
		if p.title != "" {
			c.blank()
			c.emit(c.inline(p.title), "")
		}
		// A listing shows its text as written, unless its subs say
		// otherwise ([source,bash,subs="attributes+"]).
		c.codeAttrs = strings.Contains(p.named["subs"], "attributes")
		c.codeLang = p.named["language"]
		if len(p.pos) > 1 && (p.style() == "source" || p.style() == "") {
			c.codeLang = strings.TrimSpace(p.pos[1])
		}
		return
	case d[0] == '+', d[0] == '/':
		c.verbatim, c.code = d, nil
		return
	}
	c.blank()
	if label := adocLabel(p.style()); label != "" {
		c.emit(label, "")
	}
	if p.title != "" {
		c.emit(c.inline(p.title), "")
	}
	if len(c.compound) < maxNesting {
		c.compound = append(c.compound, d)
	}
}

// closeVerbatim ends the verbatim block open, writing a listing or
// literal block as code.
func (c *adocConverter) closeVerbatim() {
	if c.code != nil {
		if f := fencedCode(c.codeLang, c.code); f != nil {
			c.blank()
			c.emit(f...)
			c.emit("")
		}
	}
	c.verbatim, c.code, c.codeLang, c.codeAttrs = "", nil, "", false
}

// include reads the file an include directive names where it stands:
// an Antora resource ("partial$x.adoc", "ROOT:example$x.sh") or a path
// from the including file's folder; with tag= or tags= only the tagged
// regions, with lines= only those lines, and leveloffset= shifts its
// sections. In a listing block, or for a file that is not AsciiDoc, the
// text is code.
func (c *adocConverter) include(target, attrList string) {
	target = c.subAttrs(target)
	if c.read == nil {
		return
	}
	p, ok := c.resolve(target, "partial")
	if !ok {
		c.notes = append(c.notes, markupNote{line: c.lineNo, msg: "include of " + target + " left out: not a file in the docs folder"})
		return
	}
	if c.depth >= maxIncludeDepth {
		c.notes = append(c.notes, markupNote{line: c.lineNo, msg: "include of " + target + " left out: nested too deep"})
		return
	}
	text, err := c.read.read(p)
	if err != nil || len(text) > c.budget {
		c.notes = append(c.notes, markupNote{line: c.lineNo, msg: "include of " + target + " left out: the file cannot be read"})
		return
	}
	c.budget -= len(text)
	c.included = append(c.included, p)
	c.texts = append(c.texts, text)
	var b blockAttrs
	b.parse(attrList)
	ls := normalizeLines(text)
	if tags := firstNonEmpty(b.named["tag"], b.named["tags"]); tags != "" {
		ls = taggedRegions(ls, strings.FieldsFunc(tags, func(r rune) bool { return r == ';' || r == ',' }))
	} else {
		ls = untagged(ls)
	}
	if lines := b.named["lines"]; lines != "" {
		ls = lineRanges(ls, lines)
	}
	switch {
	case c.verbatim != "":
		if c.code != nil {
			c.code = append(c.code, ls...)
		}
		return
	case !isAsciiDoc(p):
		if f := fencedCode("", ls); f != nil {
			c.blank()
			c.emit(f...)
			c.emit("")
		}
		return
	}
	saveFrom, saveOffset, saveLine := c.from, c.offset, c.lineNo
	c.from, c.depth = p, c.depth+1
	if lo := b.named["leveloffset"]; lo != "" {
		c.attribute("leveloffset", false, lo)
	}
	for k, v := range adocSectionIDs(ls) {
		if _, ok := c.ids[k]; !ok {
			c.ids[k] = v
		}
	}
	for _, l := range ls {
		c.line(l)
	}
	c.endPara()
	c.from, c.depth, c.offset, c.lineNo = saveFrom, c.depth-1, saveOffset, saveLine
}

// taggedRegions keeps the lines between "tag::name[]" and "end::name[]"
// markers (in whatever comment the file's language writes) for the tags
// named; "*" keeps every tagged line and "**" every line.
func taggedRegions(ls []string, tags []string) []string {
	want := map[string]bool{}
	for _, t := range tags {
		want[strings.TrimSpace(t)] = true
	}
	if want["**"] {
		return untagged(ls)
	}
	var out []string
	open := map[string]bool{}
	for _, l := range ls {
		if m := tagMarker.FindStringSubmatch(l); m != nil {
			open[m[2]] = m[1] == "tag"
			continue
		}
		for t, on := range open {
			if on && (want[t] || want["*"]) {
				out = append(out, l)
				break
			}
		}
	}
	return out
}

var tagMarker = regexp.MustCompile(`\b(tag|end)::([\w-]+)\[\]`)

// untagged drops the tag markers.
func untagged(ls []string) []string {
	out := ls[:0:0]
	for _, l := range ls {
		if !tagMarker.MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

// lineRanges keeps the lines "1..5;8" names (1-based, -1 to the end).
func lineRanges(ls []string, spec string) []string {
	var out []string
	for _, r := range strings.FieldsFunc(spec, func(r rune) bool { return r == ';' || r == ',' }) {
		a, b, isRange := strings.Cut(strings.TrimSpace(r), "..")
		from, err := strconv.Atoi(a)
		if err != nil || from < 1 {
			continue
		}
		to := from
		if isRange {
			if to, err = strconv.Atoi(b); err != nil || to < 0 || to > len(ls) {
				to = len(ls)
			}
		}
		for i := from; i <= to && i <= len(ls); i++ {
			out = append(out, ls[i-1])
		}
	}
	return out
}

// resolve maps an include or xref target to a path in the docs folder:
// Antora's resource ids ("partial$x.adoc", "admin:partial$x.adoc",
// "admin:sso.adoc", "1.0@comp:mod:page.adoc") within the module of the
// file, and plain paths from the file's folder. family is the family a
// target without one is in: "partial" for includes, "page" for xrefs.
func (c *adocConverter) resolve(target, family string) (string, bool) {
	target = strings.TrimSpace(target)
	if strings.Contains(target, "://") || strings.Contains(target, "{") {
		return "", false
	}
	if at := strings.Index(target, "@"); at >= 0 && !strings.Contains(target[:at], "/") {
		target = target[at+1:]
	}
	modules, module := antoraModule(c.from)
	resource, fam := target, ""
	if d := strings.Index(target, "$"); d >= 0 {
		parts := strings.Split(target[:d], ":")
		resource, fam = target[d+1:], parts[len(parts)-1]
		if len(parts) >= 2 {
			module = parts[len(parts)-2]
		}
	} else if parts := strings.Split(target, ":"); len(parts) >= 2 && !strings.Contains(parts[0], "/") {
		module, resource, fam = parts[len(parts)-2], parts[len(parts)-1], "page"
	}
	var p string
	switch {
	case modules == "", fam == "" && family != "page",
		fam == "" && (strings.HasPrefix(resource, "./") || strings.HasPrefix(resource, "../")):
		// Outside Antora, an include by path, or a relative xref: from
		// the file's folder.
		p = path.Join(path.Dir(c.from), resource)
	default:
		if fam == "" {
			fam = family
		}
		p = path.Join(modules, module, fam+"s", resource)
	}
	if !fsValid(p) {
		return "", false
	}
	return p, true
}

// antoraModule returns the folder holding a file's module ("…/modules")
// and the module's name, or "" when the file is not in an Antora module.
func antoraModule(p string) (string, string) {
	parts := strings.Split(p, "/")
	for i := len(parts) - 3; i >= 0; i-- {
		if strings.EqualFold(parts[i], "modules") {
			return path.Join(parts[:i+1]...), parts[i+1]
		}
	}
	return "", ""
}

// openTable starts a table with the attributes set above it.
func (c *adocConverter) openTable(delim string) {
	p := c.pending
	c.pending = blockAttrs{}
	t := &adocTable{delim: delim}
	if p.title != "" {
		c.blank()
		c.emit(c.inline(p.title), "")
	}
	if cols := p.named["cols"]; cols != "" {
		t.cols = adocColumns(cols)
	}
	_, hdr := p.named["header-option"]
	_, t.noheader = p.named["noheader-option"]
	t.header = hdr || strings.Contains(p.named["options"], "header") && !strings.Contains(p.named["options"], "noheader")
	t.dsv = delim[0] == ',' || delim[0] == ':' || p.named["format"] == "csv" || p.named["format"] == "dsv"
	c.table = t
}

// adocColumns counts the columns a cols attribute gives: "1,2,3", "3*",
// "2*,1", or a count, "3".
func adocColumns(spec string) int {
	spec = strings.TrimSpace(spec)
	if m, err := strconv.Atoi(spec); err == nil && m > 0 && m < 100 {
		return m
	}
	n := 0
	for _, part := range strings.Split(spec, ",") {
		if k, _, ok := strings.Cut(strings.TrimSpace(part), "*"); ok {
			if m, err := strconv.Atoi(k); err == nil && m > 0 && m < 100 {
				n += m
				continue
			}
		}
		n++
	}
	return min(n, 100)
}

// tableLine reads a line of the open table.
func (c *adocConverter) tableLine(l string) {
	t := c.table
	if strings.TrimSpace(l) == t.delim {
		c.flushTable()
		return
	}
	if t.dsv {
		t.raw = append(t.raw, l)
		return
	}
	if strings.TrimSpace(l) == "" {
		if t.lines == 1 && !t.sawBlank {
			t.implicit = true
		}
		t.sawBlank = true
		return
	}
	cells, ok := splitCells(l, t.delim[0])
	if !ok { // text continuing the cell above
		if n := len(t.cells); n > 0 {
			t.cells[n-1] += " " + strings.TrimSpace(l)
		}
		return
	}
	if t.lines++; t.lines == 1 {
		t.first = len(cells)
	}
	t.cells = append(t.cells, cells...)
}

// splitCells splits a table line at its cell separators ("|", or "!" in
// a nested table), each with the optional spec before it ("a|", "2+|");
// ok is false for a line that does not start with one, which continues
// the cell above.
func splitCells(l string, sep byte) ([]string, bool) {
	type cut struct{ start, end int }
	var cuts []cut
	for i := 0; i < len(l); i++ {
		if l[i] != sep || i > 0 && l[i-1] == '\\' {
			continue
		}
		start := i
		j := i
		for j > 0 && strings.IndexByte("0123456789.+*<^>adehlmsv", l[j-1]) >= 0 {
			j--
		}
		if j < i && (j == 0 || l[j-1] == ' ' || l[j-1] == '\t') && adocCellSpec.MatchString(l[j:i]) {
			start = j
		}
		cuts = append(cuts, cut{start, i + 1})
	}
	if len(cuts) == 0 || strings.TrimSpace(l[:cuts[0].start]) != "" {
		return nil, false
	}
	out := make([]string, 0, len(cuts))
	for k, ct := range cuts {
		end := len(l)
		if k+1 < len(cuts) {
			end = cuts[k+1].start
		}
		out = append(out, strings.ReplaceAll(strings.TrimSpace(l[ct.end:end]), `\`+string(sep), string(sep)))
	}
	return out, true
}

// flushTable writes the table read.
func (c *adocConverter) flushTable() {
	t := c.table
	c.table = nil
	var rows [][]string
	header := t.header
	if t.dsv {
		r := csv.NewReader(strings.NewReader(strings.Join(t.raw, "\n")))
		if t.delim[0] == ':' {
			r.Comma = ':'
		}
		r.TrimLeadingSpace, r.FieldsPerRecord, r.LazyQuotes = true, -1, true
		rows, _ = r.ReadAll() // what parsed before a broken row is still the table
	} else {
		cols := t.cols
		if cols == 0 {
			cols = max(t.first, 1)
		}
		for i := 0; i < len(t.cells); i += cols {
			rows = append(rows, t.cells[i:min(i+cols, len(t.cells))])
		}
		// A first row alone on its line, followed by a blank line, is the
		// header, as Asciidoctor reads it.
		header = header || t.implicit && t.first == cols
	}
	if tbl := markdownTable(rows, header && !t.noheader, c.inline); tbl != nil {
		c.blank()
		c.emit(tbl...)
		c.emit("")
	}
}

// Inline markup.
var (
	adocAttrRef    = regexp.MustCompile(`\\?\{([\w][\w-]*)\}`)
	adocXref       = regexp.MustCompile(`xref:([^\[\s]+)\[([^\]]*)\]`)
	adocCrossRef   = regexp.MustCompile(`<<([^,>]+?)(?:,\s*([^>]*))?>>`)
	adocURL        = regexp.MustCompile(`(?:link:|mailto:)?((?:https?|ftp|irc|mailto)?:?[^\s\[\]]*)\[([^\]]*)\]`)
	adocMacro      = regexp.MustCompile(`\b(kbd|btn|menu|footnote|footnoteref|image|icon|pass|stem|latexmath|asciimath|indexterm|indexterm2|anchor):([^\[\s]*)\[([^\]]*)\]`)
	adocHiddenTerm = regexp.MustCompile(`\(\(\([^()]*\)\)\)`)
	adocShownTerm  = regexp.MustCompile(`\(\(([^()]+)\)\)`)
	adocInlineID   = regexp.MustCompile(`\[\[[\w:.-]+(?:,[^\]]*)?\]\]|\[#[\w:.-]+\]`)
	adocBacktick   = regexp.MustCompile("`\\+?([^`]+?)\\+?`")
	adocPlus       = regexp.MustCompile(`\+\+?([^+\s](?:[^+]*[^+\s])?)\+\+?`)
	adocStrong     = regexp.MustCompile(`\*\*?([^*\s](?:[^*]*[^*\s])?)\*\*?`)
	adocEmphasis   = regexp.MustCompile(`(^|[^\w])__?([^_\s](?:[^_]*[^_\s])?)__?([^\w]|$)`)
	adocHighlight  = regexp.MustCompile(`(?:\[[^\]]*\])?#([^#\s](?:[^#]*[^#\s])?)#`)
)

// subAttrs replaces attribute references with their values; an unknown
// one stays as written, as Asciidoctor (attribute-missing: skip) shows it.
func (c *adocConverter) subAttrs(s string) string {
	if !strings.Contains(s, "{") {
		return s
	}
	return adocAttrRef.ReplaceAllStringFunc(s, func(m string) string {
		if m[0] == '\\' {
			return m[1:]
		}
		name := strings.ToLower(m[1 : len(m)-1])
		if v, ok := c.attrs[name]; ok && v != "\x00" {
			return v
		}
		if v, ok := adocBuiltins[name]; ok {
			return v
		}
		return m
	})
}

// adocBuiltins are Asciidoctor's character replacement attributes.
var adocBuiltins = map[string]string{
	"nbsp": " ", "sp": " ", "empty": "", "zwsp": "", "amp": "&", "lt": "<", "gt": ">", "plus": "+",
	"startsb": "[", "endsb": "]", "vbar": "|", "caret": "^", "asterisk": "*", "tilde": "~", "apos": "'",
	"backslash": `\`, "backtick": "`", "two-colons": "::", "two-semicolons": ";;", "quot": `"`,
	"deg": "°", "brvbar": "¦", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "cpp": "C++",
}

// inline converts a line's inline markup to markdown text.
func (c *adocConverter) inline(s string) string {
	s = c.subAttrs(s)
	var held heldCode
	code := held.hold
	s = adocBacktick.ReplaceAllStringFunc(s, func(m string) string { return code(adocBacktick.FindStringSubmatch(m)[1]) })
	s = adocMacro.ReplaceAllStringFunc(s, func(m string) string {
		sm := adocMacro.FindStringSubmatch(m)
		switch sm[1] {
		case "kbd":
			return sm[3]
		case "btn":
			return "**" + sm[3] + "**"
		case "menu":
			items := append([]string{sm[2]}, strings.Split(sm[3], ">")...)
			for i := range items {
				items[i] = strings.TrimSpace(items[i])
			}
			return "**" + strings.Join(slicesCompact(items), " > ") + "**"
		case "footnote":
			if sm[3] == "" {
				return ""
			}
			return " (" + sm[3] + ")"
		case "image", "icon":
			return firstPositional(sm[3])
		case "pass", "stem", "latexmath", "asciimath":
			return sm[3]
		case "indexterm2":
			return sm[3]
		}
		return ""
	})
	s = adocXref.ReplaceAllStringFunc(s, func(m string) string {
		sm := adocXref.FindStringSubmatch(m)
		if text := strings.TrimSpace(sm[2]); text != "" {
			return text
		}
		return c.xrefTitle(sm[1])
	})
	s = adocCrossRef.ReplaceAllStringFunc(s, func(m string) string {
		sm := adocCrossRef.FindStringSubmatch(m)
		if text := strings.TrimSpace(sm[2]); text != "" {
			return text
		}
		target := strings.TrimSpace(sm[1])
		if strings.Contains(target, ".adoc") || strings.Contains(target, "#") && !strings.HasPrefix(target, "#") {
			return c.xrefTitle(target)
		}
		if t, ok := c.ids[strings.TrimPrefix(target, "#")]; ok {
			return c.inlineTitle(t)
		}
		return humanizeLabel(strings.TrimPrefix(strings.TrimPrefix(target, "#"), "_"))
	})
	s = adocURL.ReplaceAllStringFunc(s, func(m string) string {
		sm := adocURL.FindStringSubmatch(m)
		if !strings.Contains(sm[1], "://") && !strings.HasPrefix(m, "link:") && !strings.HasPrefix(m, "mailto:") {
			return m // not a link: a bracketed attribute list or text
		}
		if text := firstPositional(sm[2]); text != "" {
			return strings.TrimSuffix(text, "^")
		}
		return sm[1]
	})
	s = adocInlineID.ReplaceAllString(s, "")
	// Index terms: "(((a, b)))" is hidden, "((term))" shows its term.
	s = adocHiddenTerm.ReplaceAllString(s, "")
	s = adocShownTerm.ReplaceAllString(s, "$1")
	s = adocPlus.ReplaceAllStringFunc(s, func(m string) string { return code(adocPlus.FindStringSubmatch(m)[1]) })
	s = adocStrong.ReplaceAllString(s, "**$1**")
	s = adocEmphasis.ReplaceAllString(s, "$1*$2*$3")
	s = adocHighlight.ReplaceAllString(s, "$1")
	return held.restore(s)
}

// slicesCompact drops empty strings.
func slicesCompact(ss []string) []string {
	out := ss[:0]
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// inlineTitle is a title as text: its attributes replaced, its markup
// reduced, without following references (which could name it back).
func (c *adocConverter) inlineTitle(t string) string {
	t = c.subAttrs(t)
	t = adocStrong.ReplaceAllString(t, "$1")
	return adocBacktick.ReplaceAllString(t, "$1")
}

// xrefTitle is what an xref without text shows: the title of the page it
// names (or of the section its fragment names on this page).
func (c *adocConverter) xrefTitle(target string) string {
	page, frag, _ := strings.Cut(target, "#")
	if page == "" {
		if t, ok := c.ids[frag]; ok {
			return c.inlineTitle(t)
		}
		return humanizeLabel(frag)
	}
	if !strings.Contains(page, ".adoc") {
		page += ".adoc"
	}
	if p, ok := c.resolve(page, "page"); ok {
		if t := c.site.titles[p]; t != "" {
			return c.inlineTitle(t)
		}
	}
	base := path.Base(strings.TrimSuffix(page, path.Ext(page)))
	if i := strings.LastIndexAny(base, ":$"); i >= 0 {
		base = base[i+1:]
	}
	return humanizeLabel(base)
}

// adocSectionIDs reads a page's section ids: an anchor ("[[id]]",
// "[#id]") above a section title, and the id Asciidoctor generates from
// the title ("_set_up_sso") otherwise.
func adocSectionIDs(ls []string) map[string]string {
	ids := map[string]string{}
	var pending []string
	for _, l := range ls {
		t := strings.TrimSpace(l)
		if m := adocAnchor.FindStringSubmatch(t); m != nil {
			pending = append(pending, m[1])
			continue
		}
		if m := adocBlockAttr.FindStringSubmatch(t); m != nil && strings.HasPrefix(m[1], "#") {
			id := m[1][1:]
			if i := strings.IndexAny(id, ".%,"); i >= 0 {
				id = id[:i]
			}
			pending = append(pending, id)
			continue
		}
		if m := adocSection.FindStringSubmatch(t); m != nil {
			for _, id := range pending {
				ids[id] = m[2]
			}
			ids[autoID(m[2])] = m[2]
		}
		if t != "" && !strings.HasPrefix(t, "[") {
			pending = nil
		}
	}
	return ids
}

// autoID is the id Asciidoctor gives a section: "_" and the title in
// lower case, runs of other characters as one "_".
func autoID(title string) string {
	var b strings.Builder
	b.WriteByte('_')
	under := true
	for _, r := range strings.ToLower(title) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			under = false
		} else if !under {
			b.WriteByte('_')
			under = true
		}
	}
	return strings.TrimSuffix(b.String(), "_")
}

// adocSite is what an Antora component's pages share: the attributes its
// antora.yml sets and each page's title, for xrefs without text.
type adocSite struct {
	attrs  map[string]string
	titles map[string]string // by path
}

// adoc reads the site's shared AsciiDoc definitions once.
func (s *siteFiles) adoc() *adocSite {
	if s == nil {
		return &adocSite{}
	}
	if s.adocSite != nil {
		return s.adocSite
	}
	site := &adocSite{attrs: map[string]string{}, titles: map[string]string{}}
	s.adocSite = site
	for _, p := range s.paths {
		if !isAsciiDoc(p) {
			continue
		}
		text, err := s.read(p)
		if err != nil {
			continue
		}
		for _, l := range normalizeLines(text) {
			if m := adocSection.FindStringSubmatch(strings.TrimSpace(l)); m != nil && len(m[1]) == 1 {
				site.titles[p] = m[2]
				break
			}
		}
	}
	for _, name := range []string{"antora.yml", "docs/antora.yml"} {
		text, err := s.read(name)
		if err != nil {
			continue
		}
		var conf struct {
			AsciiDoc struct {
				Attributes map[string]any `yaml:"attributes"`
			} `yaml:"asciidoc"`
		}
		if yaml.Unmarshal([]byte(text), &conf) != nil {
			break
		}
		for k, v := range conf.AsciiDoc.Attributes {
			switch v := v.(type) {
			case string:
				site.attrs[strings.ToLower(k)] = strings.TrimSuffix(v, "@")
			case bool:
				if v {
					site.attrs[strings.ToLower(k)] = ""
				}
			case int, float64:
				site.attrs[strings.ToLower(k)] = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(yamlScalar(v), "\n"), "@"))
			}
		}
		break
	}
	return site
}

// yamlScalar writes a number as YAML wrote it.
func yamlScalar(v any) string {
	b, err := yaml.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}
