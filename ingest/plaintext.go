package ingest

import (
	"bytes"
	"html"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	nethtml "golang.org/x/net/html"

	"github.com/docent-sh/docent/textsafe"
)

// The plain text of a chunk (knowledge.Chunk.Text) is rendered here, once,
// from the goldmark tree, so that ranking, snippets and answers all read
// the same words a reader of the rendered page reads. The walk visits each
// node once: nothing is re-rendered per nesting level, so the cost is
// linear in the size of the document whatever its shape.
//
// Code blocks are left out: they are shown with the chunk's markdown, and
// quoted in a one-line answer they read as noise. Their size still counts
// as body (BodyChars), so a section holding only an example is not
// "heading only".

// plainWriter accumulates the plain text of one or more blocks.
type plainWriter struct {
	src  []byte
	out  []byte
	code int // runes of code blocks left out
	// skipTo is the closing tag ("</script") that ends inline HTML whose
	// content is not text, "" outside one.
	skipTo string
}

// plainBlock renders one block (top-level block or list item): its text
// and the runes of code it left out.
func plainBlock(n ast.Node, src []byte) (string, int) {
	w := plainWriter{src: src}
	w.block(n)
	return string(w.out), w.code
}

// plainText is the visible text of an inline container (a heading, link
// or emphasis), on one line.
func plainText(n ast.Node, src []byte) string {
	w := plainWriter{src: src}
	w.inlines(n)
	return textsafe.Line(string(w.out))
}

func (w *plainWriter) block(n ast.Node) {
	start := len(w.out)
	switch n := n.(type) {
	case *ast.Heading, *ast.Paragraph, *ast.TextBlock, *extast.DefinitionTerm:
		w.inlines(n)
		w.endSentence(start)
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		lines := n.Lines()
		for i := range lines.Len() {
			seg := lines.At(i)
			w.code += utf8.RuneCount(bytes.TrimSpace(seg.Value(w.src)))
		}
	case *ast.HTMLBlock:
		w.htmlBlock(n)
		w.endSentence(start)
	case *ast.ThematicBreak:
	case *extast.TableHeader, *extast.TableRow:
		for cell := n.FirstChild(); cell != nil; cell = cell.NextSibling() {
			before := len(w.out)
			w.inlines(cell)
			if len(bytes.TrimSpace(w.out[before:])) > 0 && cell.NextSibling() != nil {
				w.out = append(w.out, ", "...)
			}
		}
		// Empty last cells leave the separator behind: the row still
		// ends as a sentence, not a list running into the next row.
		if bytes.HasSuffix(w.out[start:], []byte(", ")) {
			w.out = w.out[:len(w.out)-2]
		}
		w.endSentence(start)
	case *extast.FootnoteList:
		// Footnotes are attached to the block they were written under; see
		// topLevelBlocks.
	default:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			w.block(c)
		}
		w.endSentence(start)
	}
}

func (w *plainWriter) inlines(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		w.inline(c)
	}
}

func (w *plainWriter) inline(n ast.Node) {
	if w.skipTo != "" {
		if raw, ok := n.(*ast.RawHTML); ok && bytes.HasPrefix(bytes.ToLower(raw.Segments.Value(w.src)), []byte(w.skipTo)) {
			w.skipTo = ""
		}
		return
	}
	switch n := n.(type) {
	case *ast.Text:
		w.text(n.Segment.Value(w.src))
		if n.SoftLineBreak() || n.HardLineBreak() {
			w.out = append(w.out, ' ')
		}
	case *ast.String:
		w.out = append(w.out, n.Value...)
	case *ast.CodeSpan:
		// Code keeps its backslashes and ampersands. MkDocs' inline
		// highlighting prefix ("#!python range()") is not shown.
		before := len(w.out)
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				w.out = append(w.out, t.Segment.Value(w.src)...)
			}
		}
		if code := w.out[before:]; bytes.HasPrefix(code, []byte("#!")) {
			if sp := bytes.IndexByte(code, ' '); sp > 0 {
				w.out = append(w.out[:before], code[sp+1:]...)
			}
		}
	case *ast.AutoLink:
		w.out = append(w.out, n.Label(w.src)...)
	case *ast.RawHTML:
		w.inlineHTML(n.Segments.Value(w.src))
	case *extast.FootnoteLink, *extast.FootnoteBacklink:
	case *ast.Link:
		before := len(w.out)
		w.inlines(n)
		if bytes.HasPrefix(n.Destination, []byte("#")) && !bytes.ContainsFunc(w.out[before:], func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			// A heading's permalink ("[​](#install)", "[¶](#install)",
			// "[#](#install)", as crawled docs sites write it) shows no
			// text of the page's.
			w.out = w.out[:before]
		}
	default: // emphasis, links and images (their alt text), strikethrough
		w.inlines(n)
	}
}

// text writes a text segment, resolving backslash escapes and entities
// the way a browser shows them.
func (w *plainWriter) text(v []byte) {
	if bytes.IndexByte(v, '\\') < 0 && bytes.IndexByte(v, '&') < 0 {
		w.out = append(w.out, v...)
		return
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v) && isASCIIPunct(v[i+1]):
			w.out = append(w.out, v[i+1])
			i++
		case c == '&':
			// An entity is short: look for its ';' nearby only, so a text
			// full of '&' stays linear.
			end := bytes.IndexByte(v[i:min(i+34, len(v))], ';')
			if end > 1 {
				if s := html.UnescapeString(string(v[i : i+end+1])); s != string(v[i:i+end+1]) {
					w.out = append(w.out, s...)
					i += end
					continue
				}
			}
			w.out = append(w.out, c)
		default:
			w.out = append(w.out, c)
		}
	}
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// inlineHTML drops an inline tag or comment; a line break becomes a space
// and the content of <script> and <style> is skipped up to its closing tag.
func (w *plainWriter) inlineHTML(tag []byte) {
	name, closing := tagName(tag)
	switch {
	case closing:
	case name == "br":
		w.out = append(w.out, ' ')
	case name == "script" || name == "style":
		if !bytes.HasSuffix(bytes.TrimSpace(tag), []byte("/>")) {
			w.skipTo = "</" + name
		}
	}
}

// tagName returns the lower-cased name of an HTML tag and whether it is a
// closing tag; "" for a comment or anything else.
func tagName(tag []byte) (string, bool) {
	t := bytes.TrimPrefix(tag, []byte("<"))
	closing := bytes.HasPrefix(t, []byte("/"))
	t = bytes.TrimPrefix(t, []byte("/"))
	end := 0
	for end < len(t) && (isASCIILetter(t[end]) || end > 0 && (t[end] >= '0' && t[end] <= '9' || t[end] == '-')) {
		end++
	}
	return strings.ToLower(string(t[:end])), closing
}

// breakingTags are the HTML elements a browser shows on lines of their
// own: their text becomes separate sentences.
var breakingTags = map[string]bool{
	"p": true, "div": true, "br": true, "li": true, "tr": true, "td": true, "th": true, "dt": true, "dd": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "summary": true, "figcaption": true,
	"blockquote": true, "section": true, "article": true, "details": true, "table": true, "ul": true, "ol": true,
}

// htmlBlock writes the text of a block of raw HTML: tags and comments go,
// entities are decoded, and script, style, pre and textarea contents (code,
// not prose) are left out.
func (w *plainWriter) htmlBlock(n *ast.HTMLBlock) {
	switch n.HTMLBlockType {
	case ast.HTMLBlockType6, ast.HTMLBlockType7:
	default: // <script>/<style>/<pre>/<textarea>, comments, <?…?>, <!DOCTYPE>, CDATA
		return
	}
	var raw []byte
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		raw = append(raw, seg.Value(w.src)...)
	}
	if n.HasClosure() {
		raw = append(raw, n.ClosureLine.Value(w.src)...)
	}
	z := nethtml.NewTokenizer(bytes.NewReader(raw))
	skip := 0 // depth inside elements whose content is not prose
	// Where the sentence being written, and the table cell, began.
	sentence, cell := len(w.out), len(w.out)
	sep := -1 // where the text ends after a cell's separator, -1 for none
	for {
		switch z.Next() {
		case nethtml.ErrorToken:
			return
		case nethtml.TextToken:
			if skip == 0 {
				w.out = append(w.out, z.Text()...) // entities already decoded
			}
		case nethtml.StartTagToken, nethtml.EndTagToken, nethtml.SelfClosingTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "script", "style", "pre", "textarea", "template":
				if tt := z.Token().Type; tt == nethtml.StartTagToken {
					skip++
				} else if tt == nethtml.EndTagToken && skip > 0 {
					skip--
				}
			}
			switch tag := string(name); {
			case tag == "td" || tag == "th":
				// Cells of a row are listed, as a markdown table's are.
				if z.Token().Type == nethtml.EndTagToken && len(bytes.TrimSpace(w.out[cell:])) > 0 {
					w.out = append(bytes.TrimRight(w.out, " \t\n"), ", "...)
					sep = len(w.out)
				}
				cell = len(w.out)
			case tag == "br":
				w.out = append(w.out, ' ')
			case breakingTags[tag]:
				// A paragraph, list item, row or heading is a sentence of
				// its own, as in markdown, not a run into the next one;
				// the separator after a row's last cell goes.
				if len(w.out) == sep {
					w.out = w.out[:sep-2]
				}
				w.endSentence(sentence)
				sentence, cell, sep = len(w.out), len(w.out), -1
			}
		}
	}
}

// endSentence ends the text written since start as a sentence, so list
// items, table rows and headings do not run into what follows. Nothing is
// added when nothing was written.
func (w *plainWriter) endSentence(start int) {
	w.out = bytes.TrimRight(w.out, " \t\n")
	if len(w.out) <= start {
		w.out = w.out[:start]
		return
	}
	last := w.out
	for len(last) > 0 {
		r, size := utf8.DecodeLastRune(last)
		if !strings.ContainsRune(`)]"'”’»`, r) {
			break
		}
		last = last[:len(last)-size]
	}
	// A list item ending with a comma runs on into the next one, as
	// "enter: the name,", "the email,": a full stop after it would read ",.".
	if r, _ := utf8.DecodeLastRune(last); !strings.ContainsRune(".!?:;…,", r) {
		w.out = append(w.out, '.')
	}
	w.out = append(w.out, ' ')
}
