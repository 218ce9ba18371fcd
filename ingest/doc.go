package ingest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docent-sh/docent/knowledge"
)

// rootCategory is the category of files at the top of the knowledge base.
const rootCategory = "docs"

// ParseDoc turns one markdown file into a Doc with its chunks. relPath is
// the file's slash-separated path relative to the knowledge base root; it
// gives the slug, the category and the fallback title. A file that cannot
// be ingested yields a Warning as the error (use errors.As), naming the
// file and, for front matter, the line.
func ParseDoc(relPath string, src []byte) (knowledge.Doc, error) {
	relPath = path.Clean(relPath)
	if !fs.ValidPath(relPath) || relPath == "." {
		return knowledge.Doc{}, Warning{Path: relPath, Msg: "invalid path: must be relative to the knowledge base, without .."}
	}
	if !isMarkdown(relPath) {
		return knowledge.Doc{}, Warning{Path: relPath, Msg: "not a markdown file (want " + strings.Join(markdownExts, ", ") + ")"}
	}
	name := strings.TrimSuffix(path.Base(relPath), path.Ext(relPath))
	if strings.TrimSpace(name) == "" {
		return knowledge.Doc{}, Warning{Path: relPath, Msg: "file name is empty"}
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		return knowledge.Doc{}, Warning{Path: relPath, Line: lineAt(src, i), Msg: "binary file (contains NUL bytes)"}
	}
	if i := invalidUTF8(src); i >= 0 {
		return knowledge.Doc{}, Warning{Path: relPath, Line: lineAt(src, i), Msg: "invalid UTF-8"}
	}

	lines := normalizeLines(string(src))
	source := trimBlankLines(lines)
	if len(source) == 0 {
		return knowledge.Doc{}, Warning{Path: relPath, Msg: "empty file"}
	}
	fm, bodyLines, fmErr := splitFrontMatter(lines)
	if fmErr != nil {
		return knowledge.Doc{}, Warning{Path: relPath, Line: fmErr.line, Msg: "broken front matter: " + fmErr.msg}
	}
	body := strings.Join(bodyLines, "\n")
	if strings.EqualFold(path.Ext(relPath), ".mdx") {
		// Stripping leaves trailing spaces and blank runs behind, so the
		// result is normalized again.
		body = strings.Join(normalizeLines(stripMDX(body)), "\n")
	}
	body = strings.Join(trimBlankLines(strings.Split(body, "\n")), "\n")
	if body == "" {
		return knowledge.Doc{}, Warning{Path: relPath, Msg: "empty document: no content after the front matter"}
	}

	slug := SlugFor(relPath)
	doc := knowledge.Doc{
		Slug:       slug,
		Category:   categoryFor(slug),
		Content:    body,
		SourcePath: relPath,
		// Hashing the whole normalized source, front matter included, makes
		// a title or keyword edit a new version even when the body is the
		// same, while whitespace-only edits are not.
		ContentHash: sha256Hex(strings.Join(source, "\n")),
	}
	md := parseMarkdown(body)
	doc.Title = fm.title
	if doc.Title == "" {
		doc.Title = firstHeading(md)
	}
	if doc.Title == "" {
		doc.Title = name
	}
	if kw := fm.keywords(); len(kw) > 0 {
		doc.Keywords = kw
	} else {
		doc.Keywords = extractKeywords(md, doc.Title)
	}
	doc.Chunks = chunkParsed(md, &doc)
	return doc, nil
}

// SlugFor maps "Guides/Getting Started.md" to "guides/getting-started".
// Control characters are dropped: slugs are shown in the terminal.
func SlugFor(relPath string) string {
	s := strings.TrimSuffix(relPath, path.Ext(relPath))
	s = strings.ToLower(s)
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return '-'
		case unicode.IsControl(r):
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
