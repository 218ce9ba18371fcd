package ingest

import (
	"crypto/md5"
	"encoding/hex"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/textsafe"
	"github.com/docent-sh/docent/tokens"
	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// MaxChunkTokens is the size (cl100k_base tokens) above which a section is
// split. It keeps a chunk small enough that several fit in a prompt next
// to the conversation, yet big enough to hold a whole procedure.
const MaxChunkTokens = 450

// chunkLimits are the sizes, in tokens as package tokens counts them, a
// chunker splits at. Docs and notes share one chunker and differ only in
// these: a doc's sections are written to be read whole, so they are cut
// only past MaxChunkTokens, while notes (see ChunkNote) aim for a target
// and allow some slack up to their max.
type chunkLimits struct {
	// target: a part of an oversized section that has reached it takes no
	// more blocks.
	target int
	// max: a section above it is split, and no part grows past it unless
	// one block alone is bigger.
	max int
}

// docLimits are the limits docs are chunked with: one size, so a part is
// filled up to it.
var docLimits = chunkLimits{target: MaxChunkTokens, max: MaxChunkTokens}

// headerPathSep joins the levels of a chunk's header path.
const headerPathSep = " > "

// Chunk rebuilds doc.Chunks from doc.Content, using the doc's Slug,
// Category, Title and Keywords. ParseDoc already does this; Chunk is for
// docs that come from elsewhere.
func Chunk(doc *knowledge.Doc) {
	doc.Chunks = chunkParsed(parseMarkdown(doc.Content), doc, docLimits)
}

// block is one top-level markdown block: the unit the chunker never cuts.
// Its span runs from the start of its first line to the start of the next
// block, so the chunks of a doc cover its whole body.
type block struct {
	start, end int
	level      int    // heading level; 0 for anything else
	heading    string // heading text
	node       ast.Node
	tokens     int
	text       string     // plain text, rendered once
	bodyChars  int        // runes of visible non-heading text and of code
	extra      []ast.Node // nodes written under this block but parsed elsewhere (footnotes)
	// term: an HTML <dt>, the term a definition list's next block
	// defines. Like a heading, it introduces what follows it.
	term bool
}

// introduces reports whether b introduces the block after it, so a part
// that ends with it gives it to the next part: a heading, a term.
func (b block) introduces() bool { return b.level > 0 || b.term }

// opensOnly reports an HTML block without text: a start tag on its own
// (a definition's <dd>), which belongs with what follows it.
func (b block) opensOnly() bool {
	return b.bodyChars == 0 && b.level == 0 && b.node.Kind() == ast.KindHTMLBlock
}

// carried is how many blocks at the end of a full part move on with the
// next block: the headings and terms that introduce it, and the start
// tags between them and it.
func carried(cur []block) int {
	k := len(cur)
	for k > 0 {
		j := k
		for j > 0 && cur[j-1].opensOnly() {
			j--
		}
		if j == 0 || !cur[j-1].introduces() {
			break
		}
		k = j - 1
	}
	return len(cur) - k
}

// htmlTermStart matches an HTML block that opens with a definition
// list's term (see blockLines, which starts each on a line of its own).
var htmlTermStart = regexp.MustCompile(`(?i)^\s*<dt\b`)

// chunkParsed splits a body into chunks: one per # or ## section (and one
// for text before the first), with oversized sections cut between blocks.
func chunkParsed(md parsedBody, doc *knowledge.Doc, lim chunkLimits) []knowledge.Chunk {
	counter := tokens.Default()
	blocks := topLevelBlocks(md)
	for i := range blocks {
		measure(&blocks[i], md.src, counter)
	}

	var chunks []knowledge.Chunk
	for _, sec := range splitSections(blocks) {
		base := []string{doc.Title}
		if h := sec[0]; h.level > 0 && h.level <= 2 && h.heading != "" && !strings.EqualFold(h.heading, doc.Title) {
			base = append(base, h.heading)
		}
		parts := [][]block{sec}
		if sumTokens(sec) > lim.max {
			parts = packParts(expandLists(sec, md, counter, lim.max), lim)
		}
		var stack subheadings
		for _, part := range parts {
			stack = stack.apply(part[0])
			path := append(slices.Clone(base), stack.texts()...)
			for _, b := range part[1:] {
				stack = stack.apply(b)
			}
			chunks = append(chunks, newChunk(doc, len(chunks), path, part, md.src))
		}
	}
	return chunks
}

func newChunk(doc *knowledge.Doc, index int, path []string, part []block, src []byte) knowledge.Chunk {
	content := trimBlock(string(src[part[0].start:part[len(part)-1].end]))
	body := 0
	var text strings.Builder
	for _, b := range part {
		body += b.bodyChars
		text.WriteString(b.text)
	}
	sum := md5.Sum([]byte(content))
	return knowledge.Chunk{
		DocSlug:    doc.Slug,
		Category:   doc.Category,
		Title:      doc.Title,
		HeaderPath: strings.Join(path, headerPathSep),
		Index:      index,
		Content:    content,
		// Rendered text is one clean line but for its last space: trimmed,
		// textsafe.Line returns it after one scan.
		Text:        textsafe.Line(strings.TrimSpace(text.String())),
		Keywords:    slices.Clone(doc.Keywords),
		Hash:        hex.EncodeToString(sum[:]),
		HeadingOnly: body == 0,
		BodyChars:   body,
	}
}

// topLevelBlocks lists the document's top-level blocks with their spans.
func topLevelBlocks(md parsedBody) []block {
	var blocks []block
	var footnotes []ast.Node
	for n := md.root.FirstChild(); n != nil; n = n.NextSibling() {
		if n.Kind() == extast.KindFootnoteList {
			// goldmark gathers footnotes at the end; each belongs with the
			// block it was written under.
			for f := n.FirstChild(); f != nil; f = f.NextSibling() {
				footnotes = append(footnotes, f)
			}
			continue
		}
		pos := blockStart(n)
		if pos < 0 {
			continue // no position: its text stays in the previous block's span
		}
		start := lineStart(md.src, pos)
		if len(blocks) == 0 {
			start = 0
		} else if start <= blocks[len(blocks)-1].start {
			last := &blocks[len(blocks)-1]
			last.extra = append(last.extra, n)
			continue
		}
		b := block{start: start, node: n}
		switch n := n.(type) {
		case *ast.Heading:
			b.level = n.Level
			b.heading = plainText(n, md.src)
		case *ast.HTMLBlock:
			b.term = htmlTermStart.Match(md.src[start:min(start+64, len(md.src))])
		}
		blocks = append(blocks, b)
	}
	for i := range blocks {
		if i+1 < len(blocks) {
			blocks[i].end = blocks[i+1].start
		} else {
			blocks[i].end = len(md.src)
		}
	}
	for _, f := range footnotes {
		if pos := blockStart(f); pos >= 0 && len(blocks) > 0 {
			i, _ := slices.BinarySearchFunc(blocks, pos, func(b block, p int) int {
				if b.end <= p {
					return -1
				}
				if b.start > p {
					return 1
				}
				return 0
			})
			i = min(i, len(blocks)-1)
			blocks[i].extra = append(blocks[i].extra, f)
		}
	}
	return blocks
}

// blockStart is the byte offset where a block begins, or -1.
func blockStart(n ast.Node) int {
	if n.Kind() == extast.KindTable && n.FirstChild() != nil && n.FirstChild().Pos() >= 0 {
		// A table split off a paragraph carries the paragraph's position;
		// its header row knows where the table really starts.
		return n.FirstChild().Pos()
	}
	if p := n.Pos(); p >= 0 {
		return p
	}
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		return n.Lines().At(0).Start
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if p := blockStart(c); p >= 0 {
			return p
		}
	}
	return -1
}

func lineStart(src []byte, pos int) int {
	pos = min(pos, len(src))
	for pos > 0 && src[pos-1] != '\n' {
		pos--
	}
	return pos
}

// measure counts a block's tokens and renders its plain text. A block
// that renders no text (a rule, a comment) adds no body characters, so a
// section holding only such blocks and a heading is heading-only.
func measure(b *block, src []byte, counter *tokens.Counter) {
	b.tokens = counter.Count(string(src[b.start:b.end]))
	text, code := plainBlock(b.node, src)
	for _, n := range b.extra {
		t, c := plainBlock(n, src)
		text += t
		code += c
	}
	b.text = text
	b.bodyChars = 0
	if b.level == 0 {
		b.bodyChars = utf8.RuneCountInString(strings.TrimSpace(text)) + code
	}
}

// splitSections groups blocks into sections, each starting at a # or ##
// heading; blocks before the first such heading form their own section.
func splitSections(blocks []block) [][]block {
	var sections [][]block
	for i, b := range blocks {
		if i == 0 || (b.level > 0 && b.level <= 2) {
			sections = append(sections, nil)
		}
		sections[len(sections)-1] = append(sections[len(sections)-1], b)
	}
	return sections
}

// expandLists replaces an oversized list by its items, so a long list can
// be split between items (never inside one). A list is oversized above max.
func expandLists(blocks []block, md parsedBody, counter *tokens.Counter, max int) []block {
	var out []block
	for _, b := range blocks {
		if b.tokens <= max || b.node.Kind() != ast.KindList || b.node.ChildCount() < 2 {
			out = append(out, b)
			continue
		}
		first := len(out)
		for item := b.node.FirstChild(); item != nil; item = item.NextSibling() {
			start := b.start
			if len(out) > first {
				pos := blockStart(item)
				if pos < 0 {
					continue
				}
				start = lineStart(md.src, pos)
				if start <= out[len(out)-1].start {
					continue
				}
				out[len(out)-1].end = start
			}
			out = append(out, block{start: start, end: b.end, node: item})
		}
		if len(out) > first {
			out[len(out)-1].extra = b.extra
		}
		for i := first; i < len(out); i++ {
			measure(&out[i], md.src, counter)
		}
	}
	return out
}

// packParts fills parts greedily: a part takes blocks until it has
// reached lim.target or the next block would take it past lim.max. A block
// bigger than lim.max gets a part of its own (with any headings just
// before it). With target == max (docs) a part is filled up to max: a
// block has at least one token, so a part at max never takes another.
func packParts(blocks []block, lim chunkLimits) [][]block {
	var parts [][]block
	var cur []block
	size := 0
	for _, b := range blocks {
		if len(cur) > 0 && (size+b.tokens > lim.max || size >= lim.target) {
			// A heading introduces what follows it, and a term its
			// definition, so those at the end of a full part move on with
			// the next block.
			k := len(cur) - carried(cur)
			if k == 0 && b.tokens <= lim.max {
				// A full part of terms alone (a contents list written as
				// a definition list, each term a link): cut anyway. A
				// heading above a block too big for any part stays with
				// it.
				k = len(cur)
			}
			if k > 0 {
				parts = append(parts, cur[:k])
				cur = slices.Clone(cur[k:])
				size = sumTokens(cur)
			}
		}
		cur = append(cur, b)
		size += b.tokens
	}
	if len(cur) > 0 {
		parts = append(parts, cur)
	}
	return parts
}

func sumTokens(blocks []block) int {
	n := 0
	for _, b := range blocks {
		n += b.tokens
	}
	return n
}

// subheadings is the stack of ### and deeper headings in effect at a
// point of a section.
type subheadings []block

func (s subheadings) apply(b block) subheadings {
	if b.level < 3 {
		return s
	}
	for len(s) > 0 && s[len(s)-1].level >= b.level {
		s = s[:len(s)-1]
	}
	if b.heading == "" {
		return s
	}
	return append(slices.Clip(s), b)
}

func (s subheadings) texts() []string {
	out := make([]string, len(s))
	for i, h := range s {
		out[i] = h.heading
	}
	return out
}

// trimBlock drops blank lines before a block's first line (keeping its
// indentation) and whitespace after its last.
func trimBlock(s string) string {
	s = strings.TrimRightFunc(s, unicode.IsSpace)
	for {
		line, rest, ok := strings.Cut(s, "\n")
		if !ok || strings.TrimSpace(line) != "" {
			return s
		}
		s = rest
	}
}
