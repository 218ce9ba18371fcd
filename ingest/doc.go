package ingest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/textsafe"
)

// rootCategory is the category of files at the top of the knowledge base.
const rootCategory = "docs"

// ParseDoc turns one markdown file into a Doc with its chunks. relPath is
// the file's slash-separated path relative to the knowledge base root; it
// gives the slug, the category and the fallback title. A file that cannot
// be ingested yields a Warning as the error (use errors.As), naming the
// file and, for front matter, the line; its Kind is Excluded when the file
// is left out on purpose (a draft, a page without a body).
func ParseDoc(relPath string, src []byte) (knowledge.Doc, error) {
	doc, _, err := parseDoc(relPath, src)
	return doc, err
}

// parseDoc is ParseDoc that also returns the notes about an ingested
// file: what its markup referred to and docent could not include.
func parseDoc(relPath string, src []byte) (knowledge.Doc, []Warning, error) {
	return parseDocIncluding(relPath, src, nil, nil)
}

// parseDocIncluding is parseDoc reading in the files the page's include
// directives name, through read (see expandIncludes; nil reads none), and
// adding their paths to included. Their text counts in the doc's content
// hash: a change to a shared fragment is a new version of each page that
// shows it.
func parseDocIncluding(relPath string, src []byte, read *siteFiles, included *[]string) (knowledge.Doc, []Warning, error) {
	relPath = path.Clean(relPath)
	fail := func(line int, kind Kind, format string, args ...any) (knowledge.Doc, []Warning, error) {
		return knowledge.Doc{}, nil, Warning{Path: relPath, Line: line, Kind: kind, Msg: fmt.Sprintf(format, args...)}
	}
	if !utf8.ValidString(relPath) {
		return fail(0, Problem, "file name is not valid UTF-8: rename the file")
	}
	if !fs.ValidPath(relPath) || relPath == "." {
		return fail(0, Problem, "invalid path: must be relative to the knowledge base, without ..")
	}
	declaredRST := read != nil && hasExt(relPath, read.rstExts)
	if !isDocFile(relPath) && !isHTMLPage(relPath) && !declaredRST && !isTextDoc(relPath) {
		return fail(0, Problem, "not a markdown, reStructuredText, AsciiDoc, notebook, HTML or text file (want %s, .html, .txt)", strings.Join(docExts, ", "))
	}
	var notes []Warning
	if msg := fileNameProblem(relPath); msg != "" {
		return fail(0, Problem, "%s", msg)
	}
	if strings.ContainsFunc(relPath, unicode.IsControl) {
		notes = append(notes, Warning{Path: relPath, Kind: Note, Msg: "control characters in the file name were left out of its slug"})
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		return fail(lineAt(src, i), Problem, "binary file (contains NUL bytes)")
	}
	if i := invalidUTF8(src); i >= 0 {
		if !isHTMLPage(relPath) {
			return fail(lineAt(src, i), Problem, "invalid UTF-8")
		}
		// A page saved from the web before UTF-8 was the rule is
		// Windows-1252 (which covers Latin-1), whatever its head says.
		src = fromWindows1252(src)
		notes = append(notes, Warning{Path: relPath, Line: lineAt(src, i), Kind: Note, Msg: "not UTF-8: read as Windows-1252"})
	}

	if isNotebook(relPath) {
		text, err := notebookMarkdown(src)
		if err != nil {
			var ne notebookError
			if errors.As(err, &ne) {
				return fail(ne.line, Problem, "%s", ne.msg)
			}
			return fail(0, Problem, "%v", err)
		}
		// The version is the page's: a notebook run again, with new
		// outputs and execution counts, shows the same page.
		src = []byte(text)
	}
	lines := normalizeLines(string(src))
	if isTextDoc(relPath) {
		lines = textMarkdown(lines)
	}
	source := trimBlankLines(lines)
	if len(source) == 0 {
		return fail(0, Problem, "empty file")
	}
	if isRST(relPath) || declaredRST || isAsciiDoc(relPath) {
		var r rstResult
		if isRST(relPath) || declaredRST {
			// The reader recurses once per level of indentation, and the
			// markdown it writes nests as deep: both are bounded.
			if line, depth := deepestNesting(lines); depth > maxNesting {
				return fail(line, Problem, "reStructuredText nested %d levels deep (lists, quotes or indented blocks), over the limit of %d: not read, it would take too long to parse", depth, maxNesting)
			}
			r = rstToMarkdown(lines, relPath, read)
		} else {
			if why := antoraNotPage(relPath); why != "" {
				return fail(0, Excluded, "%s", why)
			}
			r = adocToMarkdown(lines, relPath, read)
		}
		if _, depth := deepestNesting(r.lines); depth > maxNesting {
			return fail(0, Problem, "nested %d levels deep once read (lists, quotes or indented blocks), over the limit of %d: not read, it would take too long to parse", depth, maxNesting)
		}
		for _, n := range r.notes {
			notes = append(notes, Warning{Path: relPath, Line: n.line, Kind: Note, Msg: n.msg})
		}
		if included != nil {
			*included = append(*included, r.included...)
		}
		fm := frontMatter{description: r.meta.description, keywords: r.meta.keywords}
		doc, err := finishDoc(relPath, strings.Join(r.lines, "\n"), fm, append(slices.Clip(source), r.texts...), false)
		return doc, notes, err
	}
	var page htmlPage
	if isHTMLPage(relPath) {
		page = readHTMLPage(strings.Join(lines, "\n"))
		lines = normalizeLines(page.body)
	}
	if page.noindex && (read == nil || !read.keepNoindex) {
		return knowledge.Doc{}, nil, Warning{Path: relPath, Kind: Excluded, noindex: true,
			Msg: "robots noindex: the site keeps the page out of search, as it does a table of contents, a print version or a search page"}
	}
	if page.redirect != "" {
		return fail(0, Excluded, "redirect to %s: the site sends readers on at once, and the page shows nothing of its own", textsafe.Line(page.redirect))
	}
	if page.links >= minContentsLinkShare {
		return fail(0, Excluded, "a table of contents: %.0f%% of its words are links to other pages", 100*page.links)
	}
	fm, bodyLines, fmErr := splitFrontMatter(lines)
	if fmErr != nil {
		return fail(fmErr.line, Problem, "broken front matter: %s", fmErr.msg)
	}
	if fm.redirectTo != "" {
		return fail(0, Excluded, "redirect to %s (redirect_to): the site sends readers on, and builds no page of it", textsafe.Line(fm.redirectTo))
	}
	if page.title != "" || page.description != "" || len(page.keywords) > 0 {
		fm.title, fm.description, fm.keywords = page.title, page.description, page.keywords
	}
	if fm.draft {
		return fail(0, Excluded, "draft: left out, as the site generator leaves it out")
	}
	if isNavigationFile(relPath, bodyLines) {
		return fail(0, Excluded, "navigation: the site's table of contents or sidebar, links to the pages and no text of its own")
	}
	bodyStart := len(lines) - len(bodyLines) // lines before the body, for notes' line numbers
	if bodyStart == 0 {
		var tags []string
		if bodyLines, tags = notionProperties(bodyLines); len(tags) > 0 {
			fm.tags = append(fm.tags, tags...)
		}
		var title string
		if bodyLines, title = readerHeader(bodyLines); title != "" {
			fm.title = title
		}
	}
	// origin maps a line of the body, as the converter numbers it, to the
	// file's: an included file's lines are the directive's.
	origin := func(line int) int { return line }
	// A title is not converted: a data tag naming no value goes.
	var data []string
	fm.title = read.substituteData(fm.title, false, &data)
	fm.linkTitle = read.substituteData(fm.linkTitle, false, &data)
	fm.description = read.substituteData(fm.description, false, &data)
	if read != nil {
		x := expandIncludes(bodyLines, relPath, read)
		if len(x.data) > 0 {
			bodyLines = x.lines
		}
		if data = append(data, x.data...); len(data) > 0 {
			source = append(slices.Clip(source), dataTexts(read, data)...)
			if included != nil {
				for _, p := range data {
					if isMarkdown(p) { // a reusable read inline is a fragment too
						*included = append(*included, p)
					}
				}
			}
		}
		if len(x.texts) > 0 { // files read in, whole or in part
			bodyLines = x.lines
			origin = func(line int) int {
				if line >= 1 && line <= len(x.origin) {
					return x.origin[line-1]
				}
				return line
			}
			source = append(slices.Clip(source), x.texts...)
			if included != nil {
				*included = append(*included, x.files...)
			}
		}
	}
	if line, depth := deepestNesting(bodyLines); depth > maxNesting {
		return fail(bodyStart+origin(line), Problem, "markdown nested %d levels deep (lists or quotes), over the limit of %d: not read, it would take too long to parse", depth, maxNesting)
	}
	body, markupNotes := convertMarkup(strings.Join(bodyLines, "\n"))
	for _, n := range markupNotes {
		notes = append(notes, Warning{Path: relPath, Line: bodyStart + origin(n.line), Kind: Note, Msg: n.msg})
	}
	if strings.EqualFold(path.Ext(relPath), ".mdx") {
		body = stripMDX(body)
	}
	frontMatterOnly := len(bodyLines) < len(lines) && strings.TrimSpace(strings.Join(bodyLines, "")) == ""
	doc, err := finishDoc(relPath, body, fm, source, frontMatterOnly)
	return doc, notes, err
}

// finishDoc makes the doc of a body converted to plain markdown: its
// slug, title and chunks. source is the text the doc's version hashes;
// frontMatterOnly says why an empty body is empty.
func finishDoc(relPath, body string, fm frontMatter, source []string, frontMatterOnly bool) (knowledge.Doc, error) {
	fail := func(kind Kind, msg string) (knowledge.Doc, error) {
		return knowledge.Doc{}, Warning{Path: relPath, Kind: kind, Msg: msg}
	}
	// Stripping leaves trailing spaces and blank runs behind, so the
	// result is normalized again.
	body = strings.Join(trimBlankLines(collapseBlankRuns(normalizeLines(body))), "\n")
	if body == "" {
		if frontMatterOnly {
			return fail(Excluded, "no body: front matter only, like a section page, so nothing to answer from")
		}
		return fail(Excluded, "no text: only markup that shows none (comments, shortcodes)")
	}

	slug := SlugFor(relPath)
	doc := knowledge.Doc{
		Slug:        slug,
		Category:    categoryFor(slug),
		Content:     body,
		SourcePath:  relPath,
		Description: textsafe.Line(fm.description),
		Keywords:    fm.keywordList(),
		// Hashing the whole normalized source, front matter included, makes
		// a title or keyword edit a new version even when the body is the
		// same, while whitespace-only edits are not.
		ContentHash: sha256Hex(strings.Join(source, "\n")),
	}
	md := parseMarkdown(body)
	doc.Title = withoutSectionNumber(firstNonEmpty(textsafe.Line(fm.title), textsafe.Line(fm.linkTitle), firstHeading(md), titleFromPath(relPath)))
	doc.Chunks = chunkParsed(md, &doc, docLimits)
	if !slices.ContainsFunc(doc.Chunks, func(c knowledge.Chunk) bool { return c.Text != "" || c.BodyChars > 0 }) {
		return fail(Excluded, "no text: only markup that shows none (comments, shortcodes)")
	}
	if share := markdownLinkShare(md, doc.Chunks); share >= minContentsLinkShare {
		return fail(Excluded, fmt.Sprintf("a table of contents: %.0f%% of its words are links to other pages", 100*share))
	}
	return doc, nil
}

// markdownLinkShare is the share of a doc's words (its chunks' text) that
// are the text of its markdown links, as linkShare is an HTML page's.
func markdownLinkShare(md parsedBody, chunks []knowledge.Chunk) float64 {
	words := 0
	for _, c := range chunks {
		words += len(strings.Fields(c.Text))
	}
	linked, links := 0, 0
	_ = ast.Walk(md.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if l, ok := n.(*ast.Link); ok {
			links++
			_ = ast.Walk(l, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
				if t, ok := c.(*ast.Text); ok && entering {
					linked += len(strings.Fields(string(t.Segment.Value(md.src))))
				}
				return ast.WalkContinue, nil
			})
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	if words == 0 || links < minContentsLinks {
		return 0
	}
	return float64(linked) / float64(words)
}

// fileNameProblem says why a file's path cannot name a doc, or "": every
// folder and the file name (without its extension) must have something
// printable left once control characters are dropped from the slug.
func fileNameProblem(relPath string) string {
	parts := strings.Split(strings.TrimSuffix(relPath, path.Ext(relPath)), "/")
	for i, part := range parts {
		if strings.IndexFunc(part, func(r rune) bool { return !unicode.IsControl(r) && !unicode.IsSpace(r) }) < 0 {
			if i == len(parts)-1 {
				return "file name has no printable characters: rename the file"
			}
			return "folder name has no printable characters: rename the folder"
		}
	}
	return ""
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// indexNames are the file names site generators serve as their folder's
// page: Hugo's _index.md, MkDocs' and Hugo bundles' index.md, GitHub's
// README.md.
var indexNames = []string{"_index", "index", "readme"}

// isIndexPage reports a folder's page.
func isIndexPage(relPath string) bool {
	name := strings.TrimSuffix(path.Base(relPath), path.Ext(relPath))
	return slices.ContainsFunc(indexNames, func(n string) bool { return strings.EqualFold(n, name) })
}

// notionID is the page id Notion's markdown export appends to every file
// and folder name ("Getting Started 1a2b…6d.md"): not part of the title.
var notionID = regexp.MustCompile(` [0-9a-f]{32}$`)

// titleFromPath names a doc whose front matter and headings do not: the
// file name, or for a folder's page the folder's, with dashes and
// underscores as spaces ("Manage_notes.md" is "Manage notes").
func titleFromPath(relPath string) string {
	name := strings.TrimSuffix(path.Base(relPath), path.Ext(relPath))
	if dir := path.Dir(relPath); dir != "." && isIndexPage(relPath) {
		name = path.Base(dir)
	}
	name = notionID.ReplaceAllString(name, "")
	name = strings.Map(func(r rune) rune {
		if r == '-' || r == '_' {
			return ' '
		}
		return r
	}, name)
	if t := textsafe.Line(name); t != "" {
		return t
	}
	// What textsafe took for an escape sequence, or only dashes ("_.md"):
	// the name as the slug shows it.
	return textsafe.Line(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, path.Base(relPath)))
}

// SlugFor maps "Guides/Getting Started.md" to "guides/getting-started":
// the path without its extension, lower-cased, spaces as dashes. A
// folder's page keeps its file name ("user/_index"), which is how doc sets
// label them. Control characters are dropped: slugs are shown in the
// terminal.
func SlugFor(relPath string) string {
	return NormalizeSlug(strings.TrimSuffix(relPath, path.Ext(relPath)))
}

// NormalizeSlug maps a path without its extension to the slug SlugFor
// gives its file: "docs/api/Agent" to "docs/api/agent". Cases and links
// written from file names name their docs so.
func NormalizeSlug(s string) string {
	s = strings.ToLower(s)
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return '-'
		case unicode.IsControl(r), r == utf8.RuneError:
			return -1
		}
		return r
	}, s)
}

func categoryFor(slug string) string {
	if dir, _, ok := strings.Cut(slug, "/"); ok {
		return dir
	}
	return rootCategory
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// normalizeLines removes a BOM, unifies line endings, drops control
// characters (an escape sequence in a doc must never reach a terminal) and
// trims trailing whitespace. Line numbers are preserved, so front matter
// errors point at the line the author sees.
func normalizeLines(s string) []string {
	s = strings.TrimPrefix(s, "\uFEFF")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.Map(func(r rune) rune {
		if r != '\n' && r != '\t' && unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRightFunc(l, unicode.IsSpace)
	}
	return lines
}

// collapseBlankRuns keeps at most one blank line in a row outside fenced
// code: removed markup leaves runs of them behind.
func collapseBlankRuns(lines []string) []string {
	out := lines[:0]
	var fence codeFence
	for _, l := range lines {
		inCode := fence.open()
		fence.update(l)
		if !inCode && l == "" && len(out) > 0 && out[len(out)-1] == "" {
			continue
		}
		out = append(out, l)
	}
	return out
}

// trimBlankLines drops leading and trailing empty lines; lines are
// expected to be normalized already (no trailing whitespace).
func trimBlankLines(lines []string) []string {
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// invalidUTF8 returns the offset of the first invalid byte, or -1.
func invalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// lineAt returns the 1-based line of byte offset i.
func lineAt(b []byte, i int) int {
	return bytes.Count(b[:i], []byte{'\n'}) + 1
}

// sectionNumber matches the number a generator puts before a title it
// numbers: DocBook's "22.6. ", "F.38. ", "Chapter 26. ", "Part III. ",
// "Appendix L. ", Sphinx's numbered "1.2. ". A number that ends with no
// full stop ("2024 roadmap", "1.5 release notes", "2FA") is the title's.
// A letter is a number only after its word or before a dot and digits
// ("A. Smith's guide" is a name).
var sectionNumber = regexp.MustCompile(`^(?:(?:Chapter|Part|Appendix|Section) (?:[0-9]+|[A-Z]|[IVXLC]+)(?:\.[0-9]+)*|[0-9]+(?:\.[0-9]+)*|[A-Z](?:\.[0-9]+)+)\. +`)

// withoutSectionNumber drops a title's section number: the number says
// where the page sits in the book, and a question never writes it; left
// in, "what is a tablespace" finds no page titled "Tablespaces", only
// "22.6. Tablespaces". A title that is nothing but a number keeps it.
func withoutSectionNumber(title string) string {
	if loc := sectionNumber.FindStringIndex(title); loc != nil && loc[1] < len(title) {
		return title[loc[1]:]
	}
	return title
}
