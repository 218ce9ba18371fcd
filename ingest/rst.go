package ingest

import (
	"encoding/csv"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sphinx projects (Read the Docs, most Python projects, many others) and
// plain docutils write their docs in reStructuredText. rstToMarkdown
// reads a .rst file into the markdown the rest of ingestion reads, showing
// what the rendered page shows: section titles (underlined, or over- and
// underlined, their levels in the order the file first uses each style)
// become headings; directives become what they render (an admonition its
// title and text, a code block a fence, a list-table or a grid table a
// table, an include the included file); roles and links keep their text
// (":ref:`label`" the title of the section the label marks, as Sphinx
// shows it); comments, targets, toctrees and autodoc directives, which
// show no text of the page's own, go.
//
// The conversion is one pass over the lines per level of indentation: a
// block's body is converted on its own, dedented, and a body is never
// read twice, so it is linear in the size of the file.

// isRST reports a reStructuredText file.
func isRST(name string) bool { return strings.EqualFold(path.Ext(name), ".rst") }

// hasExt reports whether name ends in one of exts (lower-case, with the
// dot).
func hasExt(name string, exts []string) bool {
	return len(exts) > 0 && slices.Contains(exts, strings.ToLower(path.Ext(name)))
}

// sphinxConfs are where a Sphinx project's conf.py is looked for: at the
// top of the docs folder, or in the source/ or docs/ folder beside the
// build.
var sphinxConfs = []string{"conf.py", "source/conf.py", "docs/conf.py"}

// sphinxConf returns the text of the project's conf.py and its folder (""
// for the top), ok false without one.
func sphinxConf(fsys fs.FS) (dir, src string, ok bool) {
	for _, conf := range sphinxConfs {
		b, err := readSmallFile(fsys, conf)
		if err != nil {
			continue
		}
		if dir = path.Dir(conf); dir == "." {
			dir = ""
		}
		return dir, string(b), true
	}
	return "", "", false
}

// sourceSuffix matches conf.py's source_suffix assignment, up to the end
// of its value: a string, a list or a dict, which may span lines.
var sourceSuffix = regexp.MustCompile(`(?m)^source_suffix\s*=\s*(\{[^}]*\}|\[[^\]]*\]|\([^)]*\)|"[^"\n]*"|'[^'\n]*')`)

// suffixEntry is one suffix of source_suffix, with the parser a dict
// names for it.
var suffixEntry = regexp.MustCompile(`["'](\.[\w.-]+)["']\s*(?::\s*["']([\w-]+)["'])?`)

// excludePatterns matches conf.py's exclude_patterns list, which may span
// lines.
var excludePatterns = regexp.MustCompile(`(?m)^exclude_patterns\s*=\s*(\[[^\]]*\]|\([^)]*\))`)

// quotedString is one string literal of a Python list.
var quotedString = regexp.MustCompile(`"([^"\n]*)"|'([^'\n]*)'`)

// sphinxExclusion is a Sphinx project's exclude_patterns: the files and
// folders its build does not read as pages (a README, the build folder,
// fragments other pages include), by path from the folder conf.py is in.
type sphinxExclusion struct {
	dir      string // conf.py's folder, "" for the top
	patterns []string
	res      []*regexp.Regexp
}

// sphinxConfig is what the walk needs from a Sphinx project's conf.py,
// read once: the further extensions of its pages and the files it builds
// no page of.
type sphinxConfig struct {
	suffixes []string
	excluded *sphinxExclusion
}

// readSphinxConfig reads conf.py, if the docs have one (see sphinxConfs).
func readSphinxConfig(fsys fs.FS) sphinxConfig {
	dir, src, ok := sphinxConf(fsys)
	if !ok {
		return sphinxConfig{}
	}
	return sphinxConfig{suffixes: sphinxSuffixes(src), excluded: sphinxExcludes(dir, src)}
}

// sphinxExcludes reads the exclude_patterns of conf.py (src, in folder
// dir); nil without any.
func sphinxExcludes(dir, src string) *sphinxExclusion {
	m := excludePatterns.FindStringSubmatch(src)
	if m == nil {
		return nil
	}
	x := &sphinxExclusion{dir: dir}
	for _, q := range quotedString.FindAllStringSubmatch(m[1], -1) {
		if p := strings.Trim(q[1]+q[2], "/"); p != "" {
			x.patterns = append(x.patterns, p)
			x.res = append(x.res, sphinxPattern(p))
		}
	}
	if len(x.patterns) == 0 {
		return nil
	}
	return x
}

// sphinxPattern compiles an exclude pattern as Sphinx matches it: "**"
// any run of characters, "*" and "?" within one path segment, "[…]" a
// class, the rest literally; the whole path must match.
func sphinxPattern(p string) *regexp.Regexp {
	p = strings.ToValidUTF8(p, "\uFFFD") // paths are UTF-8: a stray byte matches none
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '*' && i+1 < len(p) && p[i+1] == '*':
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			j := strings.IndexByte(p[i+1:], ']')
			class := ""
			if j > 0 {
				class = p[i+1 : i+1+j]
			}
			if class == "" || strings.ContainsAny(class, "[\\") {
				b.WriteString(regexp.QuoteMeta("["))
				continue
			}
			if class[0] == '!' {
				class = "^" + class[1:]
			}
			b.WriteString("[" + class + "]")
			i += j + 1
		default:
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		// A class Go's syntax refuses ("[z-a]") is no pattern Sphinx
		// could match either: read it literally.
		return regexp.MustCompile("^" + regexp.QuoteMeta(p) + "$")
	}
	return re
}

// excludes returns the pattern that leaves the file at p out, "" when
// none does: a pattern naming the file, or a folder it is in.
func (x *sphinxExclusion) excludes(p string) string {
	if x == nil {
		return ""
	}
	rel := p
	if x.dir != "" {
		var ok bool
		if rel, ok = strings.CutPrefix(p, x.dir+"/"); !ok {
			return ""
		}
	}
	for i, re := range x.res {
		for sub := rel; ; {
			if re.MatchString(sub) {
				return x.patterns[i]
			}
			d := path.Dir(sub)
			if d == "." {
				break
			}
			sub = d
		}
	}
	return ""
}

// sphinxSuffixes returns the extensions beyond .rst a Sphinx project
// writes its pages in, as conf.py's source_suffix declares them: Django's
// docs are .txt files of reStructuredText ("source_suffix = '.txt'").
// A suffix a dict maps to another parser than reStructuredText (MyST's
// "markdown") is not one; nor is an extension docent reads otherwise.
// src is conf.py's text; without a suffix declared, nil.
func sphinxSuffixes(src string) []string {
	m := sourceSuffix.FindStringSubmatch(src)
	if m == nil {
		return nil
	}
	var out []string
	for _, e := range suffixEntry.FindAllStringSubmatch(m[1], -1) {
		ext, parser := strings.ToLower(e[1]), e[2]
		if parser != "" && parser != "restructuredtext" && parser != "rst" || isDocFile("x"+ext) || isHTMLPage("x"+ext) || strings.Count(ext, ".") > 1 {
			continue
		}
		if !slices.Contains(out, ext) {
			out = append(out, ext)
		}
	}
	return out
}

// docMeta is what a file declares about itself beyond its text: its
// description and keywords (a reStructuredText ".. meta::" directive,
// AsciiDoc's header attributes, an HTML page's meta tags).
type docMeta struct {
	description string
	keywords    []string
}

// set records a declaration named name; other names are not the page's
// metadata.
func (m *docMeta) set(name, value string) {
	switch name {
	case "description":
		m.description = value
	case "keywords":
		for _, k := range strings.Split(value, ",") {
			if k = strings.TrimSpace(k); k != "" {
				m.keywords = append(m.keywords, k)
			}
		}
	}
}

type rstConverter struct {
	out   []string
	notes []markupNote
	meta  docMeta
	// styles are the section title styles in the order the file first
	// uses them: the first is level 1. An overlined style differs from
	// the same underline alone.
	styles []string
	subs   map[string]string // substitution definitions, by name
	labels map[string]string // section labels (".. _label:") to their titles
	// docTitle returns the title of the doc a :doc: role names, from the
	// file at relPath; "" when unknown.
	docTitle func(target string) string
	from     string     // the file being converted, for includes and :doc:
	root     string     // the project's source folder (conf.py's), "" for the docs folder
	read     *siteFiles // reads included files; nil reads none
	included []string   // files read in
	texts    []string   // their text, which counts in the page's version
	depth    int        // include depth
	budget   int        // bytes includes may still pull in
}

// isAdornment reports a line of one punctuation character repeated, the
// underline or overline of a section title or a transition.
func isAdornment(l string) bool {
	if len(l) < 2 || !strings.ContainsRune(rstAdornmentChars, rune(l[0])) {
		return false
	}
	return strings.Count(l, l[:1]) == len(l)
}

// rstAdornmentChars are the characters docutils takes for adornments.
const rstAdornmentChars = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

var (
	rstBullet      = regexp.MustCompile(`^([-*+•‣⁃])( +|$)`)
	rstEnumerated  = regexp.MustCompile(`^(?:\(?(?:\d+|#|[a-zA-Z]|[ivxlcdmIVXLCDM]+)[.)])( +|$)`)
	rstField       = regexp.MustCompile(`^:([^:\s][^:]*?):(?: +(.*)|$)`)
	rstDirective   = regexp.MustCompile(`^\.\.\s+([\w:.+-]+)::(?:\s+(.*))?$`)
	rstSubstDef    = regexp.MustCompile(`^\.\.\s+\|([^|]+)\|\s+([\w:.-]+)::\s*(.*)$`)
	rstTarget      = regexp.MustCompile(`^\.\.\s+_([^:]+|` + "`[^`]+`" + `):\s*(.*)$`)
	rstFootnote    = regexp.MustCompile(`^\.\.\s+\[([^\]]+)\]\s*(.*)$`)
	rstGridBorder  = regexp.MustCompile(`^\+(?:[-=]+\+)+$`)
	rstSimpleTable = regexp.MustCompile(`^=+(?: +=+)+$|^=+$`)
)

// rstToMarkdown converts the lines of a .rst file. from is its path, read
// the files includes may read (nil reads none); through read come too the
// substitutions the project defines for every page (conf.py's rst_prolog
// and rst_epilog) and the sections every page's labels mark, for :ref:
// roles (see siteFiles.rst).
func rstToMarkdown(src []string, from string, read *siteFiles) rstResult {
	c := &rstConverter{from: from, read: read, subs: map[string]string{}, labels: map[string]string{}, budget: maxIncludedBytes}
	site := read.rst()
	for k, v := range site.subs {
		c.subs[k] = v
	}
	for k, v := range site.labels {
		c.labels[k] = v
	}
	c.root = site.root
	c.docTitle = func(target string) string { return site.titles[rstDocPath(site.root, from, target)] }
	// A page's own substitutions and labels hold from its first line:
	// "|product|" may be used above its definition.
	c.scanDefinitions(src)
	c.blocks(src, 1, true)
	return rstResult{lines: c.out, meta: c.meta, notes: oneAutodocNote(c.notes), included: c.included, texts: c.texts}
}

// autodocNote is said of a page's autodoc directives, which pull in the
// docstrings of Python source the docs folder does not hold.
const autodocNote = "autodoc directive left out: docent does not read the Python source it documents"

// oneAutodocNote keeps one note for a page's autodoc directives, on the
// first, with their number: an API page holds dozens.
func oneAutodocNote(notes []markupNote) []markupNote {
	n, first := 0, -1
	out := notes[:0:0]
	for _, nt := range notes {
		if nt.msg != autodocNote {
			out = append(out, nt)
			continue
		}
		if n++; first < 0 {
			first = len(out)
			out = append(out, nt)
		}
	}
	if n > 1 {
		out[first].msg = fmt.Sprintf("%d autodoc directives left out (the first here): docent does not read the Python source they document", n)
	}
	return out
}

// rstResult is a converted .rst file: its markdown lines, what it
// declares, what the conversion left out, and the files it read in with
// their text.
type rstResult struct {
	lines           []string
	meta            docMeta
	notes           []markupNote
	included, texts []string
}

// scanDefinitions reads a file's substitution definitions and section
// labels before it is converted.
func (c *rstConverter) scanDefinitions(src []string) {
	for k, v := range rstSubstitutions(src) {
		c.subs[k] = v
	}
	for k, v := range rstLabels(src) {
		c.labels[k] = v
	}
}

func (c *rstConverter) emit(ls ...string) { c.out = append(c.out, ls...) }

func (c *rstConverter) blank() {
	if n := len(c.out); n > 0 && c.out[n-1] != "" {
		c.emit("")
	}
}

// rstIndent returns the columns of leading whitespace, tabs to the next
// multiple of eight as docutils reads them.
func rstIndent(l string) int {
	n := 0
	for _, r := range l {
		switch r {
		case ' ':
			n++
		case '\t':
			n += 8 - n%8
		default:
			return n
		}
	}
	return n
}

// dedent removes n columns of indentation from each line (blank lines stay
// blank).
func dedent(ls []string, n int) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		l = strings.ReplaceAll(l, "\t", "        ")
		if len(l) >= n && strings.TrimSpace(l[:n]) == "" {
			out[i] = l[n:]
		} else {
			out[i] = strings.TrimLeft(l, " ")
		}
	}
	return out
}

// indentedBlock returns the end of the block starting at i whose lines are
// blank or indented by more than base columns.
func indentedBlock(ls []string, i, base int) int {
	end := i
	for j := i; j < len(ls); j++ {
		if strings.TrimSpace(ls[j]) == "" {
			continue
		}
		if rstIndent(ls[j]) <= base {
			break
		}
		end = j + 1
	}
	return end
}

// minIndent is the least indentation of the non-blank lines.
func minIndent(ls []string) int {
	m := -1
	for _, l := range ls {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if n := rstIndent(l); m < 0 || n < m {
			m = n
		}
	}
	return max(m, 0)
}

// blocks converts the body elements of ls, whose first line is source
// line first; top is true for the document level, where section titles
// are.
func (c *rstConverter) blocks(ls []string, first int, top bool) {
	ls = dedent(ls, minIndent(ls))
	for i := 0; i < len(ls); {
		l := ls[i]
		n := first + i
		trimmed := strings.TrimSpace(l)
		if trimmed == "" {
			c.blank()
			i++
			continue
		}
		if rstIndent(l) > 0 { // a block quote: its text, dedented
			end := indentedBlock(ls, i, 0)
			c.blocks(ls[i:end], n, false)
			i = end
			continue
		}
		if top {
			if next, ok := c.section(ls, i); ok {
				i = next
				continue
			}
		}
		if isAdornment(trimmed) && len(trimmed) >= 4 && (i+1 == len(ls) || strings.TrimSpace(ls[i+1]) == "") {
			i++ // a transition
			continue
		}
		switch {
		case strings.HasPrefix(trimmed, ".. ") || trimmed == "..":
			i = c.explicit(ls, i, first)
		case rstGridBorder.MatchString(trimmed):
			i = c.gridTable(ls, i)
		case rstSimpleTable.MatchString(trimmed) && strings.Contains(trimmed, " ") && i+1 < len(ls):
			i = c.simpleTable(ls, i, first)
		case rstBullet.MatchString(l):
			i = c.listItem(ls, i, first, "- ", rstBullet.FindString(l))
		case rstEnumerated.MatchString(l) && (i+1 == len(ls) || !isAdornment(strings.TrimSpace(ls[i+1]))):
			i = c.listItem(ls, i, first, "1. ", rstEnumerated.FindString(l))
		case strings.HasPrefix(l, "| ") || l == "|":
			i = c.lineBlock(ls, i)
		case strings.HasPrefix(l, ">>>"):
			i = c.doctest(ls, i)
		case rstField.MatchString(l):
			i = c.fieldList(ls, i, top)
		default:
			i = c.paragraph(ls, i, first)
		}
	}
}

// section reads a section title at i: a line of text underlined, or over-
// and underlined, with one punctuation character.
func (c *rstConverter) section(ls []string, i int) (int, bool) {
	t := strings.TrimSpace(ls[i])
	style, title, next := "", "", 0
	switch {
	case isAdornment(t) && i+2 < len(ls) && strings.TrimSpace(ls[i+2]) == t && strings.TrimSpace(ls[i+1]) != "" && !isAdornment(strings.TrimSpace(ls[i+1])):
		style, title, next = "over"+t[:1], strings.TrimSpace(ls[i+1]), i+3
	case i+1 < len(ls) && !isAdornment(t) && (i == 0 || strings.TrimSpace(ls[i-1]) == ""):
		u := strings.TrimRight(ls[i+1], " \t")
		// docutils takes an underline shorter than its title for one,
		// with a warning, from four characters.
		if !isAdornment(u) || utf8.RuneCountInString(u) < min(utf8.RuneCountInString(t), 4) {
			return 0, false
		}
		style, title, next = u[:1], t, i+2
	default:
		return 0, false
	}
	level := -1
	for k, s := range c.styles {
		if s == style {
			level = k
		}
	}
	if level < 0 {
		c.styles = append(c.styles, style)
		level = len(c.styles) - 1
	}
	c.blank()
	c.emit(strings.Repeat("#", min(level+1, 6)) + " " + c.inline(title))
	c.emit("")
	return next, true
}

// paragraph reads lines up to a blank one; a paragraph ending in "::"
// introduces the literal block after it.
func (c *rstConverter) paragraph(ls []string, i, first int) int {
	end := i
	for end < len(ls) && strings.TrimSpace(ls[end]) != "" && (end == i || rstIndent(ls[end]) == 0) {
		end++
	}
	// A term and its definition: one line, then lines indented under it.
	if end == i+1 && end < len(ls) && strings.TrimSpace(ls[end]) != "" && rstIndent(ls[end]) > 0 {
		term := ls[i]
		if k := strings.Index(term, " : "); k > 0 { // "term : classifier"
			term = term[:k]
		}
		c.blank()
		c.emit("**"+c.inline(strings.TrimSpace(term))+"**", "")
		stop := indentedBlock(ls, end, 0)
		c.blocks(ls[end:stop], first+end, false)
		c.blank()
		return stop
	}
	text := strings.Join(trimAll(ls[i:end]), " ")
	literal := strings.HasSuffix(text, "::")
	if literal {
		switch {
		case text == "::":
			text = ""
		case strings.HasSuffix(text, " ::"):
			text = strings.TrimSuffix(text, " ::")
		default:
			text = strings.TrimSuffix(text, ":")
		}
	}
	if text != "" {
		c.blank()
		c.emit(c.inline(text), "")
	}
	if !literal {
		return end
	}
	// The literal block: the indented lines after blank ones.
	j := end
	for j < len(ls) && strings.TrimSpace(ls[j]) == "" {
		j++
	}
	if j < len(ls) && rstIndent(ls[j]) > 0 {
		stop := indentedBlock(ls, j, 0)
		c.code("", ls[j:stop])
		return stop
	}
	if j < len(ls) && (strings.HasPrefix(ls[j], ">") || strings.HasPrefix(ls[j], "|") || strings.HasPrefix(ls[j], "!")) {
		// A quoted literal block: unindented lines each starting with
		// the same quote character.
		q := ls[j][:1]
		stop := j
		for stop < len(ls) && strings.HasPrefix(ls[stop], q) {
			stop++
		}
		c.code("", ls[j:stop])
		return stop
	}
	return end
}

func trimAll(ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = strings.TrimSpace(l)
	}
	return out
}

// code writes lines as a fenced code block in a language, dedented.
func (c *rstConverter) code(lang string, ls []string) {
	if f := fencedCode(lang, dedent(ls, minIndent(ls))); f != nil {
		c.blank()
		c.emit(f...)
		c.emit("")
	}
}

// fencedCode writes lines as a fenced code block, blank lines around them
// dropped, with a fence longer than any backtick run inside; nil when
// there are none.
func fencedCode(lang string, ls []string) []string {
	ls = trimBlankLines(ls)
	if len(ls) == 0 {
		return nil
	}
	fence := "```"
	for _, l := range ls {
		for strings.Contains(l, fence) {
			fence += "`"
		}
	}
	out := make([]string, 0, len(ls)+2)
	out = append(out, fence+lang)
	out = append(out, ls...)
	return append(out, fence)
}

// listItem reads a list item opened by bullet (its marker and the spaces
// after it): its first line and the lines indented under its text.
func (c *rstConverter) listItem(ls []string, i, first int, marker, bullet string) int {
	col := utf8.RuneCountInString(bullet)
	end := i + 1
	for end < len(ls) {
		if strings.TrimSpace(ls[end]) != "" && rstIndent(ls[end]) < col {
			break
		}
		end++
	}
	for end > i+1 && strings.TrimSpace(ls[end-1]) == "" {
		end--
	}
	body := append([]string{strings.Repeat(" ", col) + ls[i][len(bullet):]}, ls[i+1:end]...)
	sub := &rstConverter{subs: c.subs, labels: c.labels, docTitle: c.docTitle, from: c.from, root: c.root, read: c.read, depth: c.depth, budget: c.budget}
	sub.blocks(body, first+i, false)
	c.notes = append(c.notes, sub.notes...)
	c.included = append(c.included, sub.included...)
	c.texts = append(c.texts, sub.texts...)
	c.budget = sub.budget
	out := trimBlankLines(sub.out)
	if len(out) == 0 {
		return end
	}
	pad := strings.Repeat(" ", len(marker))
	for k, l := range out {
		switch {
		case k == 0:
			l = marker + l
		case l != "":
			l = pad + l
		}
		c.emit(l)
	}
	return end
}

// lineBlock reads "| " lines, each a line of its own.
func (c *rstConverter) lineBlock(ls []string, i int) int {
	c.blank()
	for ; i < len(ls) && (strings.HasPrefix(ls[i], "|") || strings.TrimSpace(ls[i]) != "" && rstIndent(ls[i]) > 0); i++ {
		if t := strings.TrimSpace(strings.TrimPrefix(ls[i], "|")); t != "" {
			c.emit(c.inline(t) + "  ")
		}
	}
	c.emit("")
	return i
}

// doctest reads an interactive Python session, up to a blank line.
func (c *rstConverter) doctest(ls []string, i int) int {
	end := i
	for end < len(ls) && strings.TrimSpace(ls[end]) != "" {
		end++
	}
	c.code("pycon", ls[i:end])
	return end
}

// rstDocFields are the fields a file opens with to set Sphinx's options
// for it (":orphan:", ":tocdepth: 2"), which the page does not show.
var rstDocFields = map[string]bool{"orphan": true, "tocdepth": true, "nocomments": true, "nosearch": true}

// fieldList reads ":name: value" lines (with values continued on indented
// lines) as "**name**: value" items.
func (c *rstConverter) fieldList(ls []string, i int, top bool) int {
	for i < len(ls) {
		m := rstField.FindStringSubmatch(ls[i])
		if m == nil {
			break
		}
		end := indentedBlock(ls, i+1, 0)
		value := strings.TrimSpace(m[2] + " " + strings.Join(trimAll(ls[i+1:end]), " "))
		name := strings.TrimSpace(m[1])
		if !(top && rstDocFields[strings.ToLower(name)]) && !rstDropField(name) {
			line := "- **" + c.inline(name) + "**"
			if value != "" {
				line += ": " + c.inline(value)
			}
			c.emit(line)
		}
		i = end
		for i < len(ls) && strings.TrimSpace(ls[i]) == "" && i+1 < len(ls) && rstField.MatchString(ls[i+1]) {
			i++
		}
	}
	c.emit("")
	return i
}

// rstDropField reports the fields of a description that only tell tools
// about it (":meta private:", ":rtype:" is kept: it says what comes back).
func rstDropField(name string) bool {
	return strings.HasPrefix(name, "meta ")
}

// explicit reads an explicit markup block: a directive, a target, a
// substitution definition, a footnote or a comment.
func (c *rstConverter) explicit(ls []string, i, first int) int {
	end := indentedBlock(ls, i+1, 0)
	head := strings.TrimSpace(ls[i])
	switch {
	case rstSubstDef.MatchString(head), rstTarget.MatchString(head):
		return end // read by scanDefinitions; shows nothing
	case rstDirective.MatchString(head):
		m := rstDirective.FindStringSubmatch(head)
		c.directive(strings.ToLower(m[1]), m[2], ls[i+1:end], first+i+1)
		return end
	case rstFootnote.MatchString(head):
		m := rstFootnote.FindStringSubmatch(head)
		c.blank()
		text := strings.TrimSpace(m[2] + " " + strings.Join(trimAll(ls[i+1:end]), " "))
		if text != "" {
			c.emit(c.inline(text), "")
		}
		return end
	}
	return end // a comment
}

// directiveParts splits a directive's body into its option fields (the
// ":name: value" lines right under it) and its content, with the source
// line of the content's first line.
func directiveParts(body []string, line int) (opts map[string]string, content []string, contentLine int) {
	opts = map[string]string{}
	i := 0
	for i < len(body) && strings.TrimSpace(body[i]) == "" {
		i++
	}
	lead := i
	for i < len(body) {
		t := strings.TrimSpace(body[i])
		m := rstField.FindStringSubmatch(t)
		if t == "" || m == nil {
			break
		}
		opts[strings.ToLower(strings.TrimSpace(m[1]))] = strings.TrimSpace(m[2])
		i++
	}
	if i == lead { // no options: the arguments may go on over lines
		i = 0
	}
	return opts, body[i:], line + i
}

// rstAdmonitions title the boxes Sphinx draws, by directive name.
var rstAdmonitions = map[string]string{
	"note": "Note", "warning": "Warning", "tip": "Tip", "important": "Important", "caution": "Caution",
	"danger": "Danger", "attention": "Attention", "hint": "Hint", "error": "Error", "seealso": "See also",
	"todo": "To do",
}

// rstVersionNotes lead the paragraphs Sphinx writes for version changes.
var rstVersionNotes = map[string]string{
	"versionadded": "New in version", "versionchanged": "Changed in version",
	"deprecated": "Deprecated since version", "versionremoved": "Removed in version",
}

// rstSilent are directives that show no text of the page: navigation,
// page settings, and the autodoc family, which reads Python source docent
// does not have.
var rstSilent = map[string]bool{
	"toctree": true, "contents": true, "sectnum": true, "highlight": true, "default-role": true,
	"role": true, "raw": true, "currentmodule": true, "module": true, "py:module": true,
	"py:currentmodule": true, "tabularcolumns": true, "rst-class": true, "cssclass": true, "class": true,
	"title": true, "header": true, "footer": true, "target-notes": true, "include-raw": true,
	"literalinclude": true, "graphviz": true, "mermaid": true, "plot": true, "autosummary": true,
	"program": true, "codeauthor": true, "sectionauthor": true, "moduleauthor": true,
}

// directive converts one directive by name.
func (c *rstConverter) directive(name, args string, body []string, line int) {
	opts, content, cl := directiveParts(body, line)
	args = strings.TrimSpace(args)
	switch {
	case rstAdmonitions[name] != "":
		if name == "todo" {
			return // Sphinx hides todos unless asked to show them
		}
		c.box(rstAdmonitions[name], args, content, line, cl)
	case name == "admonition", name == "topic", name == "sidebar", name == "dropdown",
		name == "tab", name == "group-tab", name == "tab-item", name == "card", name == "grid-item-card":
		title := args
		if title == "" {
			title = opts["title"]
		}
		c.box(title, "", content, line, cl)
	case rstVersionNotes[name] != "":
		version, rest, _ := strings.Cut(args, " ")
		lead := rstVersionNotes[name] + " " + version
		text := strings.TrimSpace(rest + " " + strings.Join(trimAll(content), " "))
		c.blank()
		if text != "" {
			lead += ": " + c.inline(text)
		}
		c.emit(lead, "")
	case name == "code-block" || name == "code" || name == "sourcecode" || name == "parsed-literal" ||
		name == "code-tab" || name == "testcode" || name == "testoutput" || name == "doctest" ||
		name == "productionlist" || name == "math" || name == "prompt":
		lang := strings.Fields(args)
		if caption := opts["caption"]; caption != "" {
			c.blank()
			c.emit(c.inline(caption), "")
		}
		if name == "math" && args != "" {
			content = append([]string{args}, content...)
		}
		l := ""
		if len(lang) > 0 && name != "math" && name != "productionlist" {
			l = lang[0]
		}
		c.code(l, content)
	case name == "image":
		if alt := opts["alt"]; alt != "" {
			c.blank()
			c.emit(c.inline(alt), "")
		}
	case name == "figure":
		if alt := opts["alt"]; alt != "" {
			c.blank()
			c.emit(c.inline(alt), "")
		}
		c.blocks(content, cl, false)
	case name == "include":
		c.include(args, opts, line)
	case name == "list-table":
		c.caption(args)
		c.listTable(content, opts)
	case name == "csv-table":
		c.caption(args)
		c.csvTable(content, cl, opts)
	case name == "table":
		c.caption(args)
		c.blocks(content, cl, false)
	case name == "meta":
		for k, v := range opts {
			c.meta.set(k, v)
		}
	case name == "index":
		c.meta.keywords = append(c.meta.keywords, indexEntries(args, content)...)
	case name == "rubric", name == "centered":
		c.blank()
		c.emit("**"+c.inline(args)+"**", "")
	case name == "glossary", name == "hlist", name == "only", name == "ifconfig", name == "container",
		name == "tabs", name == "tab-set", name == "grid", name == "compound", name == "epigraph",
		name == "highlights", name == "pull-quote", name == "line-block", name == "versionremoved":
		c.blocks(content, cl, false)
	case rstSilent[name]:
		if name == "literalinclude" {
			c.notes = append(c.notes, markupNote{line: line - 1, msg: "literalinclude left out: docent does not read code samples from other files"})
		}
	case strings.HasPrefix(name, "auto") && !strings.Contains(name, ":"),
		strings.Contains(name, ":auto"):
		c.notes = append(c.notes, markupNote{line: line - 1, msg: autodocNote})
	case strings.Contains(name, ":") || rstObjects[name]:
		// An object description (".. py:function:: name(args)",
		// ".. confval:: name"): its signature, then its text.
		c.blank()
		if args != "" {
			c.emit(codeSpan(args), "")
		}
		c.blocks(content, cl, false)
	default:
		// A directive docent does not know (an extension's): its text,
		// without its options.
		if args != "" {
			c.blank()
			c.emit(c.inline(args), "")
		}
		c.blocks(content, cl, false)
	}
}

// indexEntries reads the terms of an ".. index::" directive: the terms
// its argument lists ("retries, backoff") and those its entries name
// ("single: log format; JSON", "pair: queue; pause", "see: DLQ;
// dead-letter queue", "!main"). Sphinx puts them in the site's index,
// pointing at the page: they are the words its author expects readers to
// look it up by, which is what a doc's keywords are.
func indexEntries(args string, content []string) []string {
	var out []string
	add := func(s string, sep string) {
		for _, t := range strings.Split(s, sep) {
			if t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t), "!")); t != "" {
				out = append(out, t)
			}
		}
	}
	add(args, ",")
	for _, l := range content {
		l = strings.TrimSpace(l)
		if kind, rest, ok := strings.Cut(l, ":"); ok && rstIndexKinds[strings.TrimSpace(kind)] {
			l = rest
		}
		add(l, ";")
	}
	return out
}

// rstIndexKinds are the entry types of an index directive's lines.
var rstIndexKinds = map[string]bool{"single": true, "pair": true, "triple": true, "see": true, "seealso": true, "module": true, "keyword": true, "operator": true, "object": true, "exception": true, "statement": true, "builtin": true}

// rstObjects are the standard domain's object directives, written
// without a domain.
var rstObjects = map[string]bool{
	"function": true, "class": true, "method": true, "attribute": true, "data": true,
	"exception": true, "option": true, "envvar": true, "confval": true, "describe": true,
	"object": true, "cmdoption": true, "decorator": true, "staticmethod": true, "classmethod": true,
}

// box writes an admonition-like block: its title as a paragraph of its
// own (with the text on the directive's line after it), then its content.
func (c *rstConverter) box(title, inlineText string, content []string, line, cl int) {
	c.blank()
	if title = strings.TrimSpace(title); title != "" {
		c.emit(c.inline(title), "")
	}
	if inlineText != "" {
		content = append([]string{inlineText}, dedent(content, minIndent(content))...)
		cl = line
	}
	c.blocks(content, cl, false)
	c.blank()
}

// caption writes a table's title.
func (c *rstConverter) caption(title string) {
	if title = strings.TrimSpace(title); title != "" {
		c.blank()
		c.emit(c.inline(title), "")
	}
}

// table writes rows as a markdown table.
func (c *rstConverter) table(rows [][]string, header bool) {
	if t := markdownTable(rows, header, c.inline); t != nil {
		c.blank()
		c.emit(t...)
		c.emit("")
	}
}

// markdownTable writes rows as the lines of a markdown table, each cell's
// text through inline; header says the first row is the header (markdown
// has no table without one: an empty header then). nil for no cells.
func markdownTable(rows [][]string, header bool, inline func(string) string) []string {
	width := 0
	for _, r := range rows {
		width = max(width, len(r))
	}
	if width == 0 {
		return nil
	}
	cell := func(s string) string {
		return strings.ReplaceAll(inline(strings.Join(strings.Fields(s), " ")), "|", `\|`)
	}
	row := func(r []string) string {
		cells := make([]string, width)
		for k := range cells {
			if k < len(r) {
				cells[k] = cell(r[k])
			}
		}
		return "| " + strings.Join(cells, " | ") + " |"
	}
	var out []string
	if header {
		out = append(out, row(rows[0]))
		rows = rows[1:]
	} else {
		out = append(out, row(nil))
	}
	out = append(out, "|"+strings.Repeat(" --- |", width))
	for _, r := range rows {
		out = append(out, row(r))
	}
	return out
}

// listTable reads a list-table: a bullet list of rows, each a bullet list
// of cells.
func (c *rstConverter) listTable(content []string, opts map[string]string) {
	ls := dedent(content, minIndent(content))
	var rows [][]string
	var cur *[]string
	cellStart := -1
	var cellLines []string
	endCell := func() {
		if cur != nil && cellStart >= 0 {
			*cur = append(*cur, strings.Join(trimAll(cellLines), " "))
		}
		cellStart, cellLines = -1, nil
	}
	for k, l := range ls {
		t := strings.TrimSpace(l)
		switch {
		case rstIndent(l) == 0 && rstBullet.MatchString(l):
			endCell()
			rows = append(rows, nil)
			cur = &rows[len(rows)-1]
			rest := strings.TrimSpace(l[len(rstBullet.FindString(l)):])
			if m := rstBullet.FindString(rest); m != "" {
				cellStart, cellLines = k, []string{rest[len(m):]}
			}
		case rstIndent(l) > 0 && rstBullet.MatchString(t) && cur != nil:
			endCell()
			cellStart, cellLines = k, []string{t[len(rstBullet.FindString(t)):]}
		case t != "" && cellStart >= 0:
			cellLines = append(cellLines, t)
		}
	}
	endCell()
	c.table(rows, opts["header-rows"] != "" && opts["header-rows"] != "0")
}

// csvTable reads a csv-table: its header option and its lines of
// comma-separated values.
func (c *rstConverter) csvTable(content []string, line int, opts map[string]string) {
	if opts["file"] != "" || opts["url"] != "" {
		c.notes = append(c.notes, markupNote{line: line - 1, msg: "csv-table from a file left out: docent reads only the table written in the page"})
		return
	}
	parse := func(s string) [][]string {
		r := csv.NewReader(strings.NewReader(s))
		r.TrimLeadingSpace = true
		r.FieldsPerRecord = -1
		r.LazyQuotes = true
		recs, _ := r.ReadAll() // what parsed before a broken row is still the table
		return recs
	}
	var rows [][]string
	header := false
	if h := opts["header"]; h != "" {
		rows = append(rows, parse(h)...)
		header = len(rows) > 0
	}
	rows = append(rows, parse(strings.Join(trimAll(content), "\n"))...)
	if !header && opts["header-rows"] != "" && opts["header-rows"] != "0" {
		header = true
	}
	c.table(rows, header)
}

// gridTable reads a table drawn with +, - and |: each row's cells are the
// text between the column bars, over the row's lines. A cell spanning
// columns is read as the cells it spans.
func (c *rstConverter) gridTable(ls []string, i int) int {
	end := i
	for end < len(ls) && (strings.HasPrefix(strings.TrimSpace(ls[end]), "+") || strings.HasPrefix(strings.TrimSpace(ls[end]), "|")) {
		end++
	}
	border := strings.TrimSpace(ls[i])
	var cols []int // column positions of the + in the top border
	for k, r := range []rune(border) {
		if r == '+' {
			cols = append(cols, k)
		}
	}
	var rows [][]string
	header := false
	var cur []string
	flush := func() {
		if cur != nil {
			rows = append(rows, cur)
			cur = nil
		}
	}
	for _, raw := range ls[i+1 : end] {
		l := strings.TrimSpace(raw)
		if strings.HasPrefix(l, "+") {
			if strings.Contains(l, "=") && len(rows) == 0 {
				header = true
			}
			flush()
			continue
		}
		if cur == nil {
			cur = make([]string, len(cols)-1)
		}
		// Columns are counted in characters, as the table is drawn.
		r := []rune(l)
		for k := 0; k+1 < len(cols); k++ {
			a, b := cols[k]+1, cols[k+1]
			if a >= len(r) {
				break
			}
			seg := string(r[a:min(b, len(r))])
			cur[k] = strings.TrimSpace(cur[k] + " " + strings.Trim(strings.TrimSpace(seg), "|"))
		}
	}
	flush()
	c.table(rows, header)
	return end
}

// simpleTable reads a table bounded by lines of "=" runs: the runs give
// the columns, a second such line closes the header, a third the table.
func (c *rstConverter) simpleTable(ls []string, i, first int) int {
	border := ls[i]
	var spans [][2]int
	for k := 0; k < len(border); {
		if border[k] != '=' {
			k++
			continue
		}
		s := k
		for k < len(border) && border[k] == '=' {
			k++
		}
		spans = append(spans, [2]int{s, k})
	}
	var rows [][]string
	borders := 1
	header := false
	end := i + 1
	for ; end < len(ls); end++ {
		l := []rune(ls[end]) // columns are characters, as the table is drawn
		t := strings.TrimSpace(ls[end])
		if rstSimpleTable.MatchString(t) {
			borders++
			if borders == 2 && end+1 < len(ls) && strings.TrimSpace(ls[end+1]) != "" {
				header = true
				continue
			}
			end++
			break
		}
		if t == "" || strings.Trim(t, "- ") == "" {
			continue
		}
		row := make([]string, len(spans))
		for k, sp := range spans {
			a := sp[0]
			b := len(l)
			if k+1 < len(spans) {
				b = min(spans[k+1][0], len(l))
			}
			if a < len(l) && a < b {
				row[k] = strings.TrimSpace(string(l[a:b]))
			}
		}
		// A line whose first column is blank continues the row above.
		if row[0] == "" && len(rows) > 0 {
			for k := range row {
				rows[len(rows)-1][k] = strings.TrimSpace(rows[len(rows)-1][k] + " " + row[k])
			}
			continue
		}
		rows = append(rows, row)
	}
	c.table(rows, header)
	return end
}

// include reads the file an include directive names where it stands: a
// path from the including file's folder, or from the project's source
// folder when it starts with "/". With :literal: or :code: it is code.
func (c *rstConverter) include(arg string, opts map[string]string, line int) {
	p := strings.TrimSpace(arg)
	if strings.HasPrefix(p, "<") {
		c.notes = append(c.notes, markupNote{line: line - 1, msg: "include of " + p + " left out: docutils' standard files are not in the docs folder"})
		return
	}
	if strings.HasPrefix(p, "/") {
		p = path.Join(c.root, strings.TrimPrefix(p, "/"))
	} else {
		p = path.Join(path.Dir(c.from), p)
	}
	if c.read == nil {
		return
	}
	if c.depth >= maxIncludeDepth || !fsValid(p) {
		c.notes = append(c.notes, markupNote{line: line - 1, msg: "include of " + arg + " left out: outside the docs folder or nested too deep"})
		return
	}
	text, err := c.read.read(p)
	if err != nil || len(text) > c.budget {
		c.notes = append(c.notes, markupNote{line: line - 1, msg: "include of " + arg + " left out: the file cannot be read"})
		return
	}
	c.budget -= len(text)
	c.included = append(c.included, p)
	c.texts = append(c.texts, text)
	ls := normalizeLines(text)
	if s := opts["start-after"]; s != "" {
		if k := strings.Index(text, s); k >= 0 {
			ls = normalizeLines(text[k+len(s):])
		}
	}
	if s := opts["end-before"]; s != "" {
		joined := strings.Join(ls, "\n")
		if k := strings.Index(joined, s); k >= 0 {
			ls = strings.Split(joined[:k], "\n")
		}
	}
	_, lit := opts["literal"]
	if lang, code := opts["code"]; lit || code {
		c.code(lang, ls)
		return
	}
	if isMarkdown(p) {
		// A markdown file (a README pulled into the docs, with MyST's
		// parser option) is markdown already.
		c.blank()
		c.emit(ls...)
		c.blank()
		return
	}
	// The included text is the page's: its sections continue the page's
	// title styles. Its lines are numbered as the directive's.
	saveFrom := c.from
	c.from, c.depth = p, c.depth+1
	c.scanDefinitions(ls)
	c.blocks(ls, line-1, true)
	c.from, c.depth = saveFrom, c.depth-1
}

// fsValid reports a path inside the docs folder.
func fsValid(p string) bool {
	return p != "." && p != ".." && !strings.HasPrefix(p, "../") && !strings.HasPrefix(p, "/")
}

// Inline markup.
var (
	rstLiteral      = regexp.MustCompile("``(.+?)``")
	rstRole         = regexp.MustCompile("(?::([\\w:.+-]+):)?`([^`]+)`(?::([\\w:.+-]+):)?(__?)?")
	rstRefTitle     = regexp.MustCompile(`^(?s)(.*?)\s*<([^<>]+)>$`)
	rstSubstRef     = regexp.MustCompile(`\|([^|\s][^|]*?)\|(__?)?`)
	rstFootnoteRef  = regexp.MustCompile(`\s?\[(?:#[\w-]*|\*|\d+|[A-Za-z][\w.-]*)\]_`)
	rstNamedRef     = regexp.MustCompile(`\b([A-Za-z0-9][\w.-]*[A-Za-z0-9])__?(\W|$)`)
	rstEscape       = regexp.MustCompile(`\\(.)`)
	rstPlaceholder  = regexp.MustCompile("\x00[0-9]+\x00")
	rstCodeRoles    = map[string]bool{"code": true, "file": true, "command": true, "envvar": true, "option": true, "program": true, "samp": true, "makevar": true, "mimetype": true, "regexp": true, "literal": true}
	rstMenuRoles    = map[string]bool{"menuselection": true, "guilabel": true}
	rstRefRoles     = map[string]bool{"ref": true, "numref": true, "any": true}
	rstKeepAsIsRole = map[string]bool{"kbd": true, "abbr": true, "term": true, "dfn": true, "math": true, "sub": true, "sup": true, "emphasis": true, "strong": true, "title-reference": true, "t": true}
)

// inline converts a line's inline markup to markdown: literals stay code,
// roles and references keep the text the page shows.
func (c *rstConverter) inline(s string) string {
	// Literals first, set aside so nothing inside them is touched.
	var held heldCode
	code := held.hold
	s = rstLiteral.ReplaceAllStringFunc(s, func(m string) string { return code(m[2 : len(m)-2]) })
	s = rstFootnoteRef.ReplaceAllString(s, "")
	s = rstRole.ReplaceAllStringFunc(s, func(m string) string {
		sm := rstRole.FindStringSubmatch(m)
		role := sm[1]
		if role == "" {
			role = sm[3]
		}
		return c.role(role, sm[2], sm[4] != "", code)
	})
	// After the roles: a title a :ref: shows may hold a substitution.
	s = rstSubstRef.ReplaceAllStringFunc(s, func(m string) string {
		name := rstSubstRef.FindStringSubmatch(m)[1]
		if v, ok := c.subs[name]; ok {
			return v
		}
		return name
	})
	s = rstNamedRef.ReplaceAllString(s, "$1$2")
	s = rstEscape.ReplaceAllStringFunc(s, func(m string) string {
		if m[1] == ' ' {
			return ""
		}
		return m[1:]
	})
	return held.restore(s)
}

// heldCode is code set aside while the inline markup around it is
// converted: hold returns a placeholder (NUL bytes around its number,
// which no valid input holds) and restore puts each back as a code span.
type heldCode []string

func (cs *heldCode) hold(lit string) string {
	*cs = append(*cs, lit)
	return "\x00" + strconv.Itoa(len(*cs)-1) + "\x00"
}

func (cs heldCode) restore(s string) string {
	if len(cs) > 0 {
		s = rstPlaceholder.ReplaceAllStringFunc(s, func(m string) string {
			k, err := strconv.Atoi(m[1 : len(m)-1])
			if err != nil || k >= len(cs) {
				return ""
			}
			return codeSpan(cs[k])
		})
	}
	return strings.ReplaceAll(s, "\x00", "")
}

// role returns the text a role (or, with no role, interpreted text or a
// hyperlink reference) shows; code sets text aside as a code span, which
// no later step of inline touches.
func (c *rstConverter) role(role, text string, link bool, code func(string) string) string {
	title, target := text, ""
	if m := rstRefTitle.FindStringSubmatch(text); m != nil {
		title, target = m[1], m[2]
		if title == "" { // `<https://example.com>`_ shows the address
			title = target
		}
	}
	explicit := target != ""
	short := strings.TrimPrefix(role, "std:")
	if k := strings.LastIndex(short, ":"); k >= 0 && !rstRefRoles[short] {
		short = short[k+1:] // "py:func" reads as "func"
	}
	switch {
	case link || role == "":
		return title
	case rstRefRoles[short]:
		if explicit {
			return title
		}
		if t, ok := c.labels[strings.ToLower(text)]; ok {
			return t
		}
		return humanizeLabel(text)
	case short == "doc":
		if explicit {
			return title
		}
		if t := c.docTitle(text); t != "" {
			return t
		}
		return humanizeLabel(path.Base(text))
	case rstMenuRoles[short]:
		return "**" + strings.ReplaceAll(strings.ReplaceAll(title, "-->", ">"), "&", "") + "**"
	case rstCodeRoles[short]:
		return code(title)
	case rstKeepAsIsRole[short]:
		return title
	case short == "pep":
		return "PEP " + title
	case short == "rfc":
		return "RFC " + title
	}
	// A cross-reference to an object (:py:func:`~pkg.run`, :class:`Job`):
	// its name as code, "~" showing only the last part.
	name := title
	if !explicit {
		name = strings.TrimPrefix(name, "!")
		if strings.HasPrefix(name, "~") {
			name = name[1:]
			if k := strings.LastIndex(name, "."); k >= 0 {
				name = name[k+1:]
			}
		}
		if short == "func" || short == "meth" {
			name += "()"
		}
	}
	return code(name)
}

// humanizeLabel writes a label ("install-linux", "api_tokens") as words.
func humanizeLabel(label string) string {
	return strings.Join(strings.FieldsFunc(label, func(r rune) bool {
		return r == '-' || r == '_' || r == '/' || unicode.IsSpace(r)
	}), " ")
}

// rstSubstitutions reads the ".. |name| replace:: text" definitions of
// lines (an image substitution shows its alt text, if any).
func rstSubstitutions(ls []string) map[string]string {
	subs := map[string]string{}
	for i, l := range ls {
		m := rstSubstDef.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil || rstIndent(l) > 0 {
			continue
		}
		body := ls[i+1 : indentedBlock(ls, i+1, 0)]
		switch m[2] {
		case "replace":
			subs[m[1]] = strings.TrimSpace(m[3] + " " + strings.Join(trimAll(body), " "))
		case "unicode":
			subs[m[1]] = ""
		default:
			opts, _, _ := directiveParts(body, 0)
			subs[m[1]] = opts["alt"]
		}
	}
	return subs
}

// rstLabels reads the section labels of lines: ".. _label:" followed,
// after blank lines and other labels, by a section title.
func rstLabels(ls []string) map[string]string {
	labels := map[string]string{}
	var pending []string
	for i := 0; i < len(ls); i++ {
		t := strings.TrimSpace(ls[i])
		if t == "" || rstIndent(ls[i]) > 0 {
			continue
		}
		if m := rstTarget.FindStringSubmatch(t); m != nil {
			if strings.TrimSpace(m[2]) == "" {
				pending = append(pending, strings.ToLower(strings.Trim(m[1], "`")))
			}
			continue
		}
		title := ""
		switch {
		case isAdornment(t) && i+2 < len(ls) && strings.TrimSpace(ls[i+2]) == t:
			title = strings.TrimSpace(ls[i+1])
		case i+1 < len(ls) && isAdornment(strings.TrimRight(ls[i+1], " \t")) && !isAdornment(t):
			title = t
		}
		for _, p := range pending {
			if title != "" {
				labels[p] = title
			}
		}
		pending = nil
	}
	return labels
}

// rstFirstTitle is the first section title of lines, for :doc: roles.
func rstFirstTitle(ls []string) string {
	for i := 0; i+1 < len(ls); i++ {
		t := strings.TrimSpace(ls[i])
		if t == "" || rstIndent(ls[i]) > 0 || strings.HasPrefix(t, "..") {
			continue
		}
		if isAdornment(t) && i+2 < len(ls) && strings.TrimSpace(ls[i+2]) == t {
			return strings.TrimSpace(ls[i+1])
		}
		if u := strings.TrimRight(ls[i+1], " \t"); !isAdornment(t) && isAdornment(u) && utf8.RuneCountInString(u) >= min(utf8.RuneCountInString(t), 4) {
			return t
		}
	}
	return ""
}

// rstDocPath resolves a :doc: target, a path without its extension: from
// the source folder when it starts with "/", else from the folder of the
// page naming it.
func rstDocPath(root, from, target string) string {
	target = strings.TrimSpace(target)
	if strings.HasPrefix(target, "/") {
		return path.Join(root, strings.TrimPrefix(target, "/"))
	}
	return path.Join(path.Dir(from), target)
}

// readSmallFile reads a regular file of fsys no larger than MaxFileSize,
// stat first so a larger one is never read into memory.
func readSmallFile(fsys fs.FS, name string) ([]byte, error) {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() || info.Size() > MaxFileSize {
		return nil, errNotText
	}
	return fs.ReadFile(fsys, name)
}

// rstSite is what every page of a Sphinx project shares: the substitutions
// conf.py's rst_prolog and rst_epilog define, |version| and |release|,
// the labels all pages set and each page's title.
type rstSite struct {
	root   string // the folder conf.py is in: "/" in includes and :doc: starts there
	subs   map[string]string
	labels map[string]string
	titles map[string]string // by path
}

// confString matches a Python assignment of a string in conf.py:
// name = "value", 'value', or a triple-quoted string.
var confString = regexp.MustCompile(`(?ms)^(\w+)\s*=\s*(?:[rRuU]?"""(.*?)"""|[rRuU]?'''(.*?)'''|[rRuU]?"([^"\n]*)"|[rRuU]?'([^'\n]*)')`)

// rst reads the project's shared definitions once: conf.py at the root of
// the docs (or in a source/ or docs/ folder) and every .rst file's labels
// and title. Without files it is empty.
func (s *siteFiles) rst() *rstSite {
	if s == nil {
		return &rstSite{}
	}
	if s.rstSite != nil {
		return s.rstSite
	}
	site := &rstSite{subs: map[string]string{}, labels: map[string]string{}, titles: map[string]string{}}
	s.rstSite = site
	for _, conf := range sphinxConfs {
		text, err := s.read(conf)
		if err != nil {
			continue
		}
		if site.root = path.Dir(conf); site.root == "." {
			site.root = ""
		}
		for _, m := range confString.FindAllStringSubmatch(text, -1) {
			value := m[2] + m[3] + m[4] + m[5]
			switch m[1] {
			case "version", "release":
				site.subs[m[1]] = value
			case "rst_prolog", "rst_epilog":
				for k, v := range rstSubstitutions(normalizeLines(value)) {
					site.subs[k] = v
				}
			}
		}
		break
	}
	for _, p := range s.paths {
		if !isRST(p) && !hasExt(p, s.rstExts) {
			continue
		}
		text, err := s.read(p)
		if err != nil {
			continue
		}
		ls := normalizeLines(text)
		for k, v := range rstLabels(ls) {
			if _, dup := site.labels[k]; !dup {
				site.labels[k] = v
			}
		}
		if t := rstFirstTitle(ls); t != "" {
			site.titles[strings.TrimSuffix(p, path.Ext(p))] = t
		}
	}
	return site
}
