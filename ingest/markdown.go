package ingest

import (
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// mdParser is shared: goldmark keeps per-parse state in a fresh context,
// so one parser serves concurrent loads. Tables need the GFM extension, or
// a table would be a paragraph the chunker could split; footnotes,
// strikethrough and task lists ("- [ ] step", as Notion and GitHub write
// checklists) are there so their markers are not taken for text, and
// heading attributes ("## Title {#id}") so the id is not in the title.
var mdParser parser.Parser = goldmark.New(
	goldmark.WithExtensions(extension.Table, extension.Footnote, extension.Strikethrough, extension.TaskList),
	goldmark.WithParserOptions(parser.WithAttribute()),
).Parser()

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

// firstHeading returns the text of the first top-level # heading: the
// title of a page written without front matter. A ## heading is a section,
// never the page's title.
func firstHeading(md parsedBody) string {
	for n := md.root.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok && h.Level == 1 {
			if t := plainText(h, md.src); t != "" {
				return t
			}
		}
	}
	return ""
}
