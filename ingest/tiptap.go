package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docent-sh/docent/textsafe"
)

// TipTap (ProseMirror) documents are what web editors built on TipTap
// save: a tree of typed nodes, {"type":"doc","content":[...]}, whose leaves
// are text nodes carrying marks (bold, links...). A note written in one is
// turned into markdown here, so it is parsed, chunked and rendered to
// plain text by the same code as a markdown note or a doc.

// maxTipTapDepth is the deepest node nesting read. Editors nest lists a
// few levels deep (two nodes per level: list and item); a document nested
// this deep is not a note anyone wrote, and walking it would cost the
// square of its depth in prefixes.
const maxTipTapDepth = 100

// maxTipTapJSONDepth bounds the JSON itself before it is decoded: a node
// takes two levels (its object and its content array) and its attrs or
// marks two more, so any document within maxTipTapDepth fits.
const maxTipTapJSONDepth = 2*maxTipTapDepth + 4

// TipTapText turns a TipTap JSON document into markdown: headings as
// '#'s, bullet, ordered and task lists as "- ", "1. " and "- [ ] ", code
// blocks fenced with their language, blockquotes as "> ", rules as "---",
// hard breaks as a backslash line break and the marks bold, italic, code,
// strike and link as their markdown. Text is escaped so it never turns
// into markup it did not have, and terminal control sequences are
// removed from it (package textsafe). A node of a type it does not know keeps
// its text (a table's cells become paragraphs; a mention its label).
//
// Errors name what was wrong and where, as a path from the document
// ("tiptap: content[3].content[0]: text node without text"). Nesting
// deeper than 100 nodes is an error. JSON strings that are not valid
// UTF-8 are read with U+FFFD for the bad bytes, so the result always is.
func TipTapText(src []byte) (string, error) {
	if off, ok := jsonDepthWithin(src, maxTipTapJSONDepth); !ok {
		return "", fmt.Errorf("tiptap: JSON nested more than %d levels deep at byte %d", maxTipTapJSONDepth, off)
	}
	var root any
	if err := json.Unmarshal(src, &root); err != nil {
		return "", fmt.Errorf("tiptap: not a JSON document: %w", err)
	}
	obj, ok := root.(map[string]any)
	if !ok {
		return "", fmt.Errorf("tiptap: top level is %s, want an object {\"type\":\"doc\",...}", jsonKind(root))
	}
	w := tiptapWriter{}
	doc, err := w.node(obj, nil)
	if err != nil {
		return "", err
	}
	if doc.typ != "doc" {
		return "", fmt.Errorf("tiptap: top level is a %q node, want \"doc\"", doc.typ)
	}
	if err := w.blocks(doc, nil, 0); err != nil {
		return "", err
	}
	return strings.TrimRight(w.out.String(), "\n"), nil
}

// jsonDepthWithin reports whether src nests objects and arrays at most
// max deep, and where it first goes deeper. Strings are skipped, so
// brackets in text do not count; the JSON is not otherwise checked.
func jsonDepthWithin(src []byte, max int) (int, bool) {
	depth := 0
	inString := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > max {
				return i, false
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return 0, true
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// ttNode is a checked node: its type, text, attributes, marks and
// children, each still as decoded JSON.
type ttNode struct {
	typ     string
	text    *string
	attrs   map[string]any
	marks   []ttMark
	content []any
}

type ttMark struct {
	typ  string
	href string // links only
}

// ttPath is where a node is: the indexes of "content" from the document
// down, printed as content[3].content[0]. It is built only for errors.
type ttPath []int

func (p ttPath) String() string {
	if len(p) == 0 {
		return "top level"
	}
	var b strings.Builder
	for i, n := range p {
		if i > 0 {
			b.WriteByte('.')
		}
		fmt.Fprintf(&b, "content[%d]", n)
	}
	return b.String()
}

func (p ttPath) child(i int) ttPath {
	out := make(ttPath, len(p)+1)
	copy(out, p)
	out[len(p)] = i
	return out
}

// tiptapWriter writes markdown, one line at a time, under the prefixes
// of the containers (quotes, list items) the current block is in.
type tiptapWriter struct {
	out      strings.Builder
	prefixes []linePrefix
	needSep  bool // a block was written in this container: the next one is set off by a blank line
}

// linePrefix is what one container puts before its lines: first before
// its first line (a list marker), rest before every other.
type linePrefix struct {
	first, rest string
	used        bool
}

func (w *tiptapWriter) line(s string) {
	for i := range w.prefixes {
		p := &w.prefixes[i]
		if p.used {
			w.out.WriteString(p.rest)
		} else {
			w.out.WriteString(p.first)
			p.used = true
		}
	}
	w.out.WriteString(s)
	w.out.WriteByte('\n')
}

// blank writes the line between two blocks of a container.
func (w *tiptapWriter) blank() {
	var b strings.Builder
	for _, p := range w.prefixes {
		b.WriteString(p.rest)
	}
	w.out.WriteString(strings.TrimRight(b.String(), " "))
	w.out.WriteByte('\n')
}

func (w *tiptapWriter) startBlock() {
	if w.needSep {
		w.blank()
	}
	w.needSep = true
}

func (w *tiptapWriter) push(first, rest string) {
	w.prefixes = append(w.prefixes, linePrefix{first: first, rest: rest})
	w.needSep = false
}

func (w *tiptapWriter) pop() {
	w.prefixes = w.prefixes[:len(w.prefixes)-1]
	w.needSep = true
}

// node checks one node's shape.
func (w *tiptapWriter) node(obj map[string]any, path ttPath) (ttNode, error) {
	var n ttNode
	typ, ok := obj["type"].(string)
	if !ok {
		if _, present := obj["type"]; !present {
			return n, fmt.Errorf("tiptap: %s: node without a type", path)
		}
		return n, fmt.Errorf("tiptap: %s: type is %s, want a string", path, jsonKind(obj["type"]))
	}
	n.typ = typ
	switch v := obj["text"].(type) {
	case nil:
	case string:
		// Control sequences go before escaping, which would cut them
		// ("\x1b\\[31m") so that textsafe no longer knows them.
		v = textsafe.String(v)
		n.text = &v
	default:
		return n, fmt.Errorf("tiptap: %s: text is %s, want a string", path, jsonKind(v))
	}
	if typ == "text" && n.text == nil {
		return n, fmt.Errorf("tiptap: %s: text node without text", path)
	}
	switch v := obj["attrs"].(type) {
	case nil:
	case map[string]any:
		n.attrs = v
	default:
		return n, fmt.Errorf("tiptap: %s: attrs is %s, want an object", path, jsonKind(v))
	}
	switch v := obj["content"].(type) {
	case nil:
	case []any:
		n.content = v
	default:
		return n, fmt.Errorf("tiptap: %s: content is %s, want an array", path, jsonKind(v))
	}
	switch v := obj["marks"].(type) {
	case nil:
	case []any:
		for i, m := range v {
			mo, ok := m.(map[string]any)
			if !ok {
				return n, fmt.Errorf("tiptap: %s: marks[%d] is %s, want an object", path, i, jsonKind(m))
			}
			mt, ok := mo["type"].(string)
			if !ok {
				return n, fmt.Errorf("tiptap: %s: marks[%d] has no type", path, i)
			}
			mark := ttMark{typ: mt}
			if attrs, ok := mo["attrs"].(map[string]any); ok {
				mark.href = stringAttr(attrs, "href")
			}
			n.marks = append(n.marks, mark)
		}
	default:
		return n, fmt.Errorf("tiptap: %s: marks is %s, want an array", path, jsonKind(v))
	}
	return n, nil
}

// children checks a node's children, calling f with each and its path.
func (w *tiptapWriter) children(n ttNode, path ttPath, depth int, f func(c ttNode, path ttPath) error) error {
	if len(n.content) > 0 && depth >= maxTipTapDepth {
		return fmt.Errorf("tiptap: %s: nodes nested more than %d deep", path, maxTipTapDepth)
	}
	for i, raw := range n.content {
		cp := path.child(i)
		obj, ok := raw.(map[string]any)
		if !ok {
			return fmt.Errorf("tiptap: %s: node is %s, want an object", cp, jsonKind(raw))
		}
		c, err := w.node(obj, cp)
		if err != nil {
			return err
		}
		if err := f(c, cp); err != nil {
			return err
		}
	}
	return nil
}

// isInline reports the node types that live inside a paragraph.
func isInline(n ttNode) bool {
	switch n.typ {
	case "text", "hardBreak":
		return true
	}
	// A leaf of a type not known (a mention, an emoji) is part of a line.
	return n.text != nil || len(n.content) == 0 && !knownBlock(n.typ)
}

func knownBlock(typ string) bool {
	switch typ {
	case "doc", "paragraph", "heading", "bulletList", "orderedList", "taskList", "listItem", "taskItem",
		"codeBlock", "blockquote", "horizontalRule":
		return true
	}
	return false
}

// blocks writes a container's children as blocks; runs of inline nodes
// directly in it (which an unknown container may hold) become paragraphs.
func (w *tiptapWriter) blocks(n ttNode, path ttPath, depth int) error {
	var run []ttNode
	flush := func() {
		if len(run) > 0 {
			w.paragraph(inlineMarkdown(run, false))
			run = run[:0]
		}
	}
	err := w.children(n, path, depth, func(c ttNode, cp ttPath) error {
		if isInline(c) {
			run = append(run, c)
			return nil
		}
		flush()
		return w.block(c, cp, depth+1)
	})
	if err != nil {
		return err
	}
	flush()
	return nil
}

// paragraph writes lines of inline markdown as one block; an empty
// paragraph (an editor's blank line) writes nothing.
func (w *tiptapWriter) paragraph(md string) {
	if strings.TrimSpace(md) == "" {
		return
	}
	w.startBlock()
	for _, l := range strings.Split(md, "\n") {
		w.line(l)
	}
}

func (w *tiptapWriter) block(n ttNode, path ttPath, depth int) error {
	switch n.typ {
	case "paragraph":
		run, err := w.inlineChildren(n, path, depth)
		if err != nil {
			return err
		}
		w.paragraph(inlineMarkdown(run, false))
	case "heading":
		run, err := w.inlineChildren(n, path, depth)
		if err != nil {
			return err
		}
		text := inlineMarkdown(run, true)
		if strings.TrimSpace(text) == "" {
			return nil
		}
		level := min(max(intAttr(n.attrs, "level", 1), 1), 6)
		w.startBlock()
		w.line(strings.Repeat("#", level) + " " + text)
	case "codeBlock":
		var code strings.Builder
		if err := w.children(n, path, depth, func(c ttNode, _ ttPath) error {
			if c.text != nil {
				code.WriteString(*c.text)
			} else if c.typ == "hardBreak" {
				code.WriteByte('\n')
			}
			return nil
		}); err != nil {
			return err
		}
		w.codeBlock(code.String(), stringAttr(n.attrs, "language"))
	case "blockquote":
		w.startBlock()
		w.push("> ", "> ")
		err := w.blocks(n, path, depth)
		w.pop()
		return err
	case "horizontalRule":
		w.startBlock()
		w.line("---")
	case "bulletList", "orderedList", "taskList":
		return w.list(n, path, depth)
	default:
		// listItem outside a list, an unknown container: its text.
		return w.blocks(n, path, depth)
	}
	return nil
}

// list writes a list tight: its items follow each other without blank
// lines, while the blocks inside one item are set off by them.
func (w *tiptapWriter) list(n ttNode, path ttPath, depth int) error {
	num := min(max(intAttr(n.attrs, "start", 1), 0), 999_999_999) // CommonMark's longest number
	w.startBlock()
	first := true
	err := w.children(n, path, depth, func(c ttNode, cp ttPath) error {
		var marker string
		switch {
		case n.typ == "orderedList":
			marker = strconv.Itoa(num) + ". "
			num = min(num+1, 999_999_999)
		case c.typ == "taskItem" || n.typ == "taskList":
			marker = "- [ ] "
			if checked, _ := c.attrs["checked"].(bool); checked {
				marker = "- [x] "
			}
		default:
			marker = "- "
		}
		if !first {
			// Items follow each other directly.
			w.needSep = false
		}
		first = false
		w.push(marker, strings.Repeat(" ", len(marker)))
		var err error
		if isInline(c) {
			w.paragraph(inlineMarkdown([]ttNode{c}, false))
		} else {
			err = w.blocks(c, cp, depth+1)
		}
		if !w.prefixes[len(w.prefixes)-1].used {
			w.line("") // an empty item still shows its marker
		}
		w.pop()
		return err
	})
	return err
}

func (w *tiptapWriter) codeBlock(code, lang string) {
	fence, lang := fenceFor(code, lang)
	w.startBlock()
	w.line(fence + lang)
	if code != "" {
		for _, l := range strings.Split(strings.TrimSuffix(code, "\n"), "\n") {
			w.line(l)
		}
	}
	w.line(fence)
}

// inlineChildren checks the children of a paragraph or heading: the
// inline nodes, with the text of any block nested in them (which no
// editor writes, but JSON can) flattened into text.
func (w *tiptapWriter) inlineChildren(n ttNode, path ttPath, depth int) ([]ttNode, error) {
	var run []ttNode
	var walk func(n ttNode, path ttPath, depth int) error
	walk = func(n ttNode, path ttPath, depth int) error {
		return w.children(n, path, depth, func(c ttNode, cp ttPath) error {
			if isInline(c) {
				run = append(run, c)
				return nil
			}
			return walk(c, cp, depth+1)
		})
	}
	return run, walk(n, path, depth)
}

func intAttr(attrs map[string]any, key string, def int) int {
	switch v := attrs[key].(type) {
	case float64:
		if math.IsNaN(v) || v < -1e9 || v > 1e9 {
			return def
		}
		return int(v)
	case string:
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
			return n
		}
	}
	return def
}

// stringAttr returns a string attribute without control sequences.
func stringAttr(attrs map[string]any, key string) string {
	s, _ := attrs[key].(string)
	return textsafe.String(s)
}

// Marks are written in one order, outermost first, so a run of text
// nodes sharing a mark opens it once: "**a *b***", not "**a****b**".
var markOrder = []string{"link", "bold", "italic", "strike", "code"}

func markRank(typ string) int {
	for i, t := range markOrder {
		if t == typ {
			return i
		}
	}
	return -1
}

// inlineSegment is one text node's text with the marks it carries, in
// markOrder; unknown marks are dropped (their text stays).
type inlineSegment struct {
	text  string
	marks []ttMark
	brk   bool // a hard break
}

func segments(run []ttNode) []inlineSegment {
	var out []inlineSegment
	for _, n := range run {
		switch {
		case n.typ == "hardBreak":
			out = append(out, inlineSegment{brk: true})
			continue
		case n.text != nil:
		default:
			// An unknown inline node: a mention or an emoji keeps its label.
			label := firstNonEmpty(stringAttr(n.attrs, "label"), stringAttr(n.attrs, "text"), stringAttr(n.attrs, "alt"))
			if label == "" {
				continue
			}
			n.text = &label
		}
		var marks []ttMark
		for r := range markOrder {
			for _, m := range n.marks {
				if markRank(m.typ) == r && !containsMark(marks, m.typ) {
					marks = append(marks, m)
				}
			}
		}
		// A line break inside a text node is a hard break, as the editor
		// shows it.
		for i, part := range strings.Split(*n.text, "\n") {
			if i > 0 {
				out = append(out, inlineSegment{brk: true})
			}
			if part != "" {
				out = append(out, inlineSegment{text: part, marks: marks})
			}
		}
	}
	return out
}

func containsMark(marks []ttMark, typ string) bool {
	for _, m := range marks {
		if m.typ == typ {
			return true
		}
	}
	return false
}

// inlineMarkdown writes a run of inline nodes as markdown. In a heading
// (one line) a hard break is a space.
func inlineMarkdown(run []ttNode, heading bool) string {
	var b strings.Builder
	var open []ttMark // marks open, outermost first
	var code strings.Builder
	pendingSpace := "" // trailing white space of the last text, written after any closing marks
	lineStart := true
	pendingBreak := false

	closeTo := func(k int) {
		for i := len(open) - 1; i >= k; i-- {
			switch m := open[i]; m.typ {
			case "code":
				b.WriteString(codeSpan(code.String()))
				code.Reset()
			case "link":
				b.WriteString("](" + linkDestination(m.href) + ")")
			default:
				b.WriteString(markDelimiter(m.typ))
			}
		}
		open = open[:k]
	}
	for _, s := range segments(run) {
		if s.brk {
			closeTo(0)
			pendingSpace = ""
			if heading {
				pendingSpace = " "
			} else if !lineStart {
				pendingBreak = true
			}
			continue
		}
		// Keep the marks both share; close the rest.
		k := 0
		for k < len(open) && k < len(s.marks) && open[k] == s.marks[k] {
			k++
		}
		lead, core, trail := splitSpace(s.text)
		if core == "" {
			// White space only: it needs no marks of its own.
			pendingSpace += lead
			continue
		}
		closeTo(k)
		if pendingBreak {
			b.WriteString("\\\n")
			pendingBreak = false
			lineStart = true
			pendingSpace = ""
			lead = ""
		}
		if !lineStart {
			b.WriteString(pendingSpace)
			b.WriteString(lead)
		}
		pendingSpace = trail
		for _, m := range s.marks[k:] {
			switch m.typ {
			case "code":
			case "link":
				if s := b.String(); strings.HasSuffix(s, "!") && !strings.HasSuffix(s, "\\!") {
					// "!" then a link is an image: the "!" was text.
					b.Reset()
					b.WriteString(s[:len(s)-1] + "\\!")
				}
				b.WriteByte('[')
			default:
				b.WriteString(markDelimiter(m.typ))
			}
			open = append(open, m)
		}
		if len(open) > 0 && open[len(open)-1].typ == "code" {
			code.WriteString(core)
		} else {
			b.WriteString(escapeInline(core, lineStart && len(s.marks[k:]) == 0 && k == 0, heading))
		}
		lineStart = false
	}
	closeTo(0)
	return b.String()
}

func markDelimiter(typ string) string {
	switch typ {
	case "bold":
		return "**"
	case "italic":
		return "*"
	case "strike":
		return "~~"
	}
	return ""
}

func splitSpace(s string) (lead, core, trail string) {
	core = strings.TrimLeftFunc(s, unicode.IsSpace)
	lead = s[:len(s)-len(core)]
	trimmed := strings.TrimRightFunc(core, unicode.IsSpace)
	return lead, trimmed, core[len(trimmed):]
}

// codeSpan writes code between enough backticks that none inside ends it,
// padded when it starts or ends with one.
func codeSpan(s string) string {
	longest := longestRun(s, '`')
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// linkDestination writes a URL so that no character of it ends the link.
func linkDestination(href string) string {
	href = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, href)
	if href == "" {
		return "<>"
	}
	if !strings.ContainsAny(href, " ()<>\\") {
		return href
	}
	var b strings.Builder
	b.WriteByte('<')
	for _, r := range href {
		if r == '<' || r == '>' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('>')
	return b.String()
}

// escapeInline escapes what markdown would read as markup in plain text:
// emphasis, code, link and HTML characters anywhere, and at the start of
// a line what starts a block (a heading, a quote, a list item, a rule).
// Underscores inside a word are left alone: they never emphasize.
func escapeInline(s string, lineStart, heading bool) string {
	var b bytes.Buffer
	if lineStart {
		if d := leadingDigits(s); d > 0 && d < 10 && d < len(s) && (s[d] == '.' || s[d] == ')') {
			b.WriteString(s[:d])
			b.WriteByte('\\')
			s = s[d:]
		} else if s != "" && strings.IndexByte("-+=", s[0]) >= 0 || s != "" && s[0] == '#' && !heading {
			// ('>' is escaped wherever it is, and '#' everywhere in a heading.)
			b.WriteByte('\\')
		}
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		c := s[i]
		switch {
		case size > 1 || r >= utf8.RuneSelf:
		case strings.IndexByte("\\*`[]<>~|", c) >= 0:
			b.WriteByte('\\')
		case c == '#' && heading:
			b.WriteByte('\\')
		case c == '_' && !(i > 0 && isWordByte(s[i-1]) && i+1 < len(s) && isWordByte(s[i+1])):
			b.WriteByte('\\')
		case c == '&' && i+1 < len(s) && (isASCIILetter(s[i+1]) || s[i+1] == '#'):
			b.WriteByte('\\')
		}
		b.WriteString(s[i : i+size])
		i += size
	}
	return b.String()
}

func leadingDigits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

func isWordByte(c byte) bool { return isAlnum(c) || c >= utf8.RuneSelf }
