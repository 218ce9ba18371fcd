package ingest

import (
	"regexp"
	"strings"
)

// stripMDX reduces an MDX body to plain markdown: ESM (import/export)
// statements are dropped, JSX tags are dropped while the text between them
// is kept, and {/* comments */} disappear. Fenced code is left untouched,
// since code samples routinely show JSX and imports.
func stripMDX(body string) string {
	var out mdxOutput
	var prose []string
	var blocks jsxBlocks
	flush := func() {
		if len(prose) > 0 {
			out.prose(stripJSX(strings.Join(blocks.dedent(prose), "\n")))
			prose = prose[:0]
		}
	}
	var fence codeFence
	esmDepth := 0
	for _, line := range strings.Split(body, "\n") {
		switch {
		case fence.open():
			out.code(line)
			fence.update(line)
		case esmDepth > 0:
			// Inside a multi-line import/export: keep dropping until its
			// brackets balance.
			esmDepth += bracketDelta(line)
			prose = append(prose, "")
		case isESM(line):
			esmDepth = max(bracketDelta(line), 0)
			// A blank line keeps the paragraphs around the statement apart.
			prose = append(prose, "")
		case fence.update(line):
			flush()
			out.code(line)
		default:
			prose = append(prose, line)
		}
	}
	flush()
	return strings.Join(out.lines, "\n")
}

// mdxOutput collects lines, collapsing the runs of blank lines that
// removed tags leave in prose (never inside code).
type mdxOutput struct {
	lines     []string
	lastBlank bool
}

func (o *mdxOutput) code(line string) {
	o.lines = append(o.lines, line)
	o.lastBlank = false
}

func (o *mdxOutput) prose(text string) {
	for _, line := range strings.Split(text, "\n") {
		blank := strings.TrimSpace(line) == ""
		if blank && o.lastBlank {
			continue
		}
		if blank {
			line = ""
		}
		o.lines = append(o.lines, line)
		o.lastBlank = blank
	}
}

// jsxBlocks tracks block-level JSX elements (a tag alone on its line)
// across prose runs. Their children are often indented for readability;
// MDX has no indented code blocks, but once the tags are gone markdown
// would read four spaces as one, so the children are dedented.
type jsxBlocks struct {
	depth int
}

// dedent removes, from each run of lines inside a JSX block, the
// indentation those lines share. lines is modified in place.
func (j *jsxBlocks) dedent(lines []string) []string {
	var run []int // indexes of the current run of lines inside a block
	finish := func() {
		common := -1
		for _, i := range run {
			if lines[i] != "" && (common < 0 || indent(lines[i]) < common) {
				common = indent(lines[i])
			}
		}
		for _, i := range run {
			if lines[i] != "" {
				lines[i] = lines[i][common:]
			}
		}
		run = run[:0]
	}
	for i, line := range lines {
		switch jsxBlockTag(line) {
		case +1:
			finish()
			j.depth++
		case -1:
			finish()
			j.depth = max(j.depth-1, 0)
		default:
			if j.depth > 0 {
				run = append(run, i)
			}
		}
	}
	finish()
	return lines
}

// jsxBlockTag classifies a line holding nothing but one JSX tag: +1 for
// an opening tag, -1 for a closing one, 0 otherwise (self-closing tags and
// any other line).
func jsxBlockTag(line string) int {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "<") {
		return 0
	}
	end, ok := jsxTagEnd(t, 0)
	switch {
	case !ok || end != len(t) || strings.HasSuffix(t, "/>"):
		return 0
	case strings.HasPrefix(t, "</"):
		return -1
	}
	return +1
}

// codeFence tracks whether a line is inside a fenced code block.
type codeFence struct {
	char   byte // '`' or '~' while open
	n      int  // length of the opening fence
	indent int  // columns before the opening fence
}

func (f *codeFence) open() bool { return f.char != 0 }

// update feeds one line and reports whether it opened a fence. A closing
// fence is indented less than four columns past the opening one: an
// indented fence is code inside the block (a sample showing a sample).
func (f *codeFence) update(line string) bool {
	t := strings.TrimLeft(line, " \t")
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return false
	}
	c := t[0]
	n := len(t) - len(strings.TrimLeft(t, string(c)))
	if n < 3 {
		return false
	}
	cols := leadingColumns(line)
	if f.open() {
		if c == f.char && n >= f.n && strings.TrimSpace(t[n:]) == "" && cols < f.indent+4 {
			*f = codeFence{}
		}
		return false
	}
	if c == '`' && strings.Contains(t[n:], "`") {
		return false // an info string cannot hold a backtick: this is inline code
	}
	*f = codeFence{char: c, n: n, indent: cols}
	return true
}

// isESM reports an MDX import/export statement. MDX itself treats every
// line starting with these words as ESM, so prose cannot start that way.
func isESM(line string) bool {
	for _, kw := range []string{"import", "export"} {
		if rest, ok := strings.CutPrefix(line, kw); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t' || rest[0] == '{') {
			return true
		}
	}
	return false
}

// bracketDelta counts opening minus closing brackets outside string
// literals, to find where a multi-line statement ends.
func bracketDelta(line string) int {
	d := 0
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '{' || c == '(' || c == '[':
			d++
		case c == '}' || c == ')' || c == ']':
			d--
		}
	}
	return d
}

// stripJSX removes JSX tags and {/* */} comments from prose, keeping the
// text children and leaving inline code spans alone.
func stripJSX(s string) string {
	if !strings.ContainsAny(s, "<{") {
		return s
	}
	f := newFinder(s)
	spans := newCodeSpans(s)
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '`':
			end := spans.end(i, f.paragraphEnd(i))
			b.WriteString(s[i:end])
			i = end
		case c == '\\' && i+1 < len(s):
			b.WriteString(s[i : i+2])
			i += 2
		case c == '<':
			if end, ok := jsxTagEnd(s[:min(len(s), i+maxJSXTag)], i); ok {
				if text := jsxTitle(s[i:end]); text != "" {
					b.WriteString(text)
					switch {
					case (i == 0 || s[i-1] == '\n') && (end == len(s) || s[end] == '\n'):
						b.WriteByte('\n') // a tag on its own line: its title is a paragraph
					case !strings.ContainsAny(text[len(text)-1:], ".!?:"):
						b.WriteString(". ") // inline: a sentence of its own before the text
					default:
						b.WriteByte(' ')
					}
				}
				i = end
				continue
			}
			b.WriteByte(c)
			i++
		case c == '{' && strings.HasPrefix(s[i:], "{/*"):
			if end := f.next("*/}", i); end >= 0 {
				i = end + len("*/}")
				continue
			}
			b.WriteByte(c)
			i++
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// jsxTitleAttr finds the attribute a component shows as its heading or
// label: Mintlify's <Accordion title="…">, <Card title>, <Step title>,
// <Tab title>; Docusaurus' and Starlight's <TabItem label="…">.
var jsxTitleAttr = regexp.MustCompile(`\s(?:title|label)=(?:"([^"]*)"|'([^']*)'|\{\s*["'\x60]([^"'\x60]*)["'\x60]\s*\})`)

// jsxTitle returns the title or label a component's opening tag shows
// (see jsxTitleAttr), or "". HTML elements (lower-case) are left out:
// their title attribute is a tooltip, not text on the page.
func jsxTitle(tag string) string {
	if len(tag) < 2 || tag[1] < 'A' || tag[1] > 'Z' {
		return ""
	}
	if f := jsxField(tag); f != "" {
		return f
	}
	m := jsxTitleAttr.FindStringSubmatch(tag)
	if m == nil {
		return ""
	}
	return strings.TrimSpace(m[1] + m[2] + m[3])
}

// maxJSXTag bounds the search for a tag's end: a JSX tag in a doc is a
// line or a few, and an unbounded search from every "<" of a text that
// never closes one would be quadratic.
const maxJSXTag = 4096

// jsxTagEnd reports whether a JSX tag (<Name ...>, </Name>, <Name />, <>,
// </>) starts at s[i] and where it ends. Attributes may hold quoted
// strings and {expressions}, and the tag may span lines but not a blank
// line. Anything else, like "a < b" or an autolink, is not a tag.
func jsxTagEnd(s string, i int) (int, bool) {
	j := i + 1
	if j < len(s) && s[j] == '/' {
		j++
	}
	if j < len(s) && s[j] == '>' {
		return j + 1, true // fragment
	}
	if j >= len(s) || !isASCIILetter(s[j]) {
		return 0, false
	}
	for j < len(s) && (isASCIILetter(s[j]) || s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == '_' || s[j] == '-') {
		j++
	}
	if j >= len(s) || !(s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '/' || s[j] == '>') {
		return 0, false
	}
	for j < len(s) {
		switch c := s[j]; {
		case c == '>':
			return j + 1, true
		case c == '/' && j+1 < len(s) && s[j+1] == '>':
			return j + 2, true
		case c == '"' || c == '\'':
			k := strings.IndexByte(s[j+1:], c)
			if k < 0 {
				return 0, false
			}
			j += k + 2
		case c == '{':
			end := braceEnd(s, j)
			if end < 0 {
				return 0, false
			}
			j = end
		case c == '<':
			return 0, false
		case c == '\n' && j+1 < len(s) && s[j+1] == '\n':
			return 0, false
		default:
			j++
		}
	}
	return 0, false
}

// braceEnd returns the index after the brace closing s[i], or -1.
func braceEnd(s string, i int) int {
	depth := 0
	var quote byte
	for j := i; j < len(s); j++ {
		c := s[j]
		switch {
		case quote != 0:
			if c == '\\' {
				j++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return -1
}

func indent(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// jsxFieldAttr finds one attribute of an API field component (see
// jsxField): its name and its quoted or braced string value.
var jsxFieldAttr = regexp.MustCompile(`\s(body|path|query|header|name|type|default)=(?:"([^"]*)"|'([^']*)'|\{\s*["'\x60]([^"'\x60]*)["'\x60]\s*\})`)

// jsxRequired finds a field's required flag, "required" or
// "required={true}".
var jsxRequired = regexp.MustCompile(`\srequired(?:=\{\s*true\s*\})?(?:[\s/>]|$)`)

// jsxField returns what Mintlify's API field components show above their
// description: <ParamField body="to" type="string" required> reads "to
// (string, required)", <ResponseField name="id" type="string"> "id
// (string)". The field's name is in an attribute, and it is the word a
// developer asks about ("the validity_period of an SMS"). "" for any
// other tag.
func jsxField(tag string) string {
	name := tag[1:]
	if i := strings.IndexFunc(name, func(r rune) bool { return !isASCIILetter(byte(r)) }); i >= 0 {
		name = name[:i]
	}
	if name != "ParamField" && name != "ResponseField" {
		return ""
	}
	var field, typ, def string
	for _, m := range jsxFieldAttr.FindAllStringSubmatch(tag, -1) {
		v := strings.TrimSpace(m[2] + m[3] + m[4])
		switch m[1] {
		case "type":
			typ = v
		case "default":
			def = v
		default:
			field = v
		}
	}
	if field == "" {
		return ""
	}
	var about []string
	if typ != "" {
		about = append(about, typ)
	}
	if def != "" {
		about = append(about, "default "+def)
	}
	if jsxRequired.MatchString(tag) {
		about = append(about, "required")
	}
	if len(about) == 0 {
		return field
	}
	return field + " (" + strings.Join(about, ", ") + ")"
}
