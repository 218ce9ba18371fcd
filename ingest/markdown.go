package ingest

import (
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// mdParser is shared: goldmark keeps per-parse state in a fresh context,
// so one parser serves concurrent loads. Tables need the GFM extension,
// or a table would be a paragraph the chunker could split.
var mdParser parser.Parser = goldmark.New(goldmark.WithExtensions(extension.Table)).Parser()

// parsedBody is a body with its goldmark AST; segment positions in the
// AST are byte offsets into src.
type parsedBody struct {
	src  []byte
	root ast.Node
}

func parseMarkdown(body string) parsedBody {
	src := []byte(body)
	return parsedBody{src: src, root: mdParser.Parse(text.NewReader(src))}
}

// firstHeading returns the text of the first top-level # or ## heading.
func firstHeading(md parsedBody) string {
	for n := md.root.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok && h.Level <= 2 {
			if t := plainText(h, md.src); t != "" {
				return t
			}
		}
	}
	return ""
}

// plainText is the visible text of an inline container (heading, link,
// emphasis...), markup removed and whitespace collapsed.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	writePlainText(&b, n, src)
	return strings.Join(strings.Fields(b.String()), " ")
}

func writePlainText(b *strings.Builder, n ast.Node, src []byte) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.AutoLink:
			b.Write(c.Label(src))
		case *ast.RawHTML:
			// Inline HTML tags are markup, not text.
		default:
			writePlainText(b, c, src)
		}
	}
}
