package ingest

import (
	"bytes"
	"errors"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/docent-sh/docent/knowledge"
)

// Site generators let a page pull in another file where a directive
// stands: VitePress' "<!-- @include: ./parts/x.md -->", mdBook's
// "{{#include x.md}}" (with an anchor or a line range), Quarto's
// "{{< include _x.qmd >}}", MkDocs' snippets
// "--8<-- "x.md"", Hugo's "{{% readfile file="x.md" %}}", docsify's
// "[x](x.md ':include')", Python-Markdown's markdown-include "{!x.md!}"
// (Zulip's help centre, MkDocs' markdown-include plugin) and Mintlify's
// "<Snippet file="x.mdx" />" (or a
// snippet an MDX page imports as a component, "import Warning from
// '/snippets/w.mdx'", then "<Warning />"). The reader of the page sees
// the file's text there, and often nowhere else: a shared warning, a
// requirements table, a config sample. So docent reads it there too. The
// included file is a fragment, not a page: Load leaves it out of the docs
// when a page includes it (see dropIncluded).

// siteFiles reads the files of the knowledge base pages pull text from:
// the files include directives name and the data files Liquid data tags
// name (see liquiddata.go).
type siteFiles struct {
	// keepNoindex reads HTML pages whatever their robots meta tag says:
	// the load found the tag on most of them (see LoadWithOptions).
	keepNoindex bool
	// read returns the text of a file, by its path from the root.
	read func(path string) (string, error)
	// data holds the data files parsed so far, by path; nil for a file
	// that is missing or not a mapping. Pages parse in parallel
	// (parseFiles): dataMu guards it.
	dataMu sync.Mutex
	data   map[string]map[string]any
	// byName lists the markdown files by their lower-cased file name,
	// for Obsidian's embeds, which name a note and not a path.
	byName map[string][]string
	// paths are the docs' files; rstSite is what a Sphinx project's
	// pages share, read from them on first use (see rst).
	paths    []string
	rstSite  *rstSite
	adocSite *adocSite
	// rstExts are the further extensions conf.py declares as
	// reStructuredText (see sphinxSuffixes).
	rstExts []string
}

// prepare reads what the site's pages share before they are parsed in
// parallel, so that parsing only reads it: a Sphinx project's and an
// Antora component's definitions, each made on first use otherwise.
func (s *siteFiles) prepare() {
	if slices.ContainsFunc(s.paths, func(p string) bool { return isRST(p) || hasExt(p, s.rstExts) }) {
		s.rst()
	}
	if slices.ContainsFunc(s.paths, isAsciiDoc) {
		s.adoc()
	}
}

// maxIncludeDepth bounds nested includes: a fragment including a fragment
// is common, deeper chains are not, and a cycle must end.
const maxIncludeDepth = 4

// maxIncludedBytes bounds the text a page pulls in, all includes
// together: the same limit as a file's own size.
const maxIncludedBytes = MaxFileSize

var (
	// VitePress: <!-- @include: ./parts/x.md -->, "@/" for the source root.
	vitepressInclude = regexp.MustCompile(`^\s*<!--\s*@include:\s*(\S+?)\s*-->\s*$`)
	// mdBook: {{#include path}}, {{#include path:anchor}},
	// {{#include path:2:10}}, and {{#rustdoc_include …}} alike.
	mdbookInclude = regexp.MustCompile(`^\s*\{\{#(?:include|rustdoc_include)\s+([^}\s]+)\s*\}\}\s*$`)
	// MkDocs (pymdownx.snippets): --8<-- "path" (or 'path').
	snippetInclude = regexp.MustCompile(`^\s*-{1,2}8<-{1,2}\s+(?:"([^"]+)"|'([^']+)')\s*$`)
	// docsify: [label](path ':include') or [label](path ':include :type=code').
	docsifyInclude = regexp.MustCompile(`^\s*\[[^\]]*\]\(\s*(\S+)\s+(?:'([^']*:include[^']*)'|"([^"]*:include[^"]*)")\s*\)\s*$`)
	// Hugo (Docsy and others): {{% readfile file="/docs/x.md" %}}, or
	// {{< readfile file="x.md" markdown="true" >}}; code="true" fences it.
	hugoReadfile = regexp.MustCompile(`^\s*\{\{[<%]\s*readfile\s+(.*?)\s*[%>]\}\}\s*$`)
	// Quarto: {{< include _part.qmd >}}, from the page's folder or, with
	// a leading "/", the project's.
	quartoInclude = regexp.MustCompile(`^\s*\{\{<\s*include\s+(?:"([^"]+)"|'([^']+)'|(\S+?))\s*>\}\}\s*$`)
	// Python-Markdown's markdown-include: {!path!}, from a base folder the
	// site's configuration names (Zulip: the help's include/ folder).
	markdownInclude = regexp.MustCompile(`^\s*\{!\s*([^!{}\s]+)\s*!\}\s*$`)
	// Obsidian: ![[Note]], ![[Note#Heading]], ![[Note#^block-id]], with an
	// optional "|alias"; an image's ![[x.png]] too, which is not read.
	obsidianEmbed = regexp.MustCompile(`^\s*!\[\[([^\]|#]+)(?:#([^\]|]*))?(?:\|[^\]]*)?\]\]\s*$`)
	// Jekyll: {% include path %} and {% include_relative path %}.
	liquidInclude = regexp.MustCompile(`^\s*\{%-?\s*include(_relative)?\s+['"]?([^\s'"%]+)['"]?(.*?)\s*-?%\}\s*$`)
	// docfx (Microsoft Learn): [!INCLUDE [title](includes/x.md)], "~/"
	// for the repository's root.
	docfxInclude = regexp.MustCompile(`^\s*\[!INCLUDE\s*\[[^\]]*\]\(\s*<?([^)>]+?)>?\s*\)\]\s*$`)
	// docfxInlineInclude is one inside a sentence.
	docfxInlineInclude = regexp.MustCompile(`\[!INCLUDE\s*\[[^\]]*\]\(\s*<?([^)>\s]+)>?\s*\)\]`)
	// Mintlify: <Snippet file="name.mdx" />, from the snippets folder.
	mintlifySnippet = regexp.MustCompile(`^\s*<Snippet\s+file=(?:"([^"]+)"|'([^']+)')\s*/>\s*$`)
)

var (
	// An MDX page's import of a markdown file as a component, as
	// Mintlify's snippets are used: import Warning from '/snippets/w.mdx'.
	mdxImport = regexp.MustCompile(`^import\s+([A-Z]\w*)\s+from\s+['"]([^'"]+\.mdx?)['"];?\s*$`)
	// A component alone on its line, without props: <Warning />.
	mdxComponentLine = regexp.MustCompile(`^\s*<([A-Z]\w*)\s*/>\s*$`)
)

// mdxImports maps the components an MDX page imports from markdown files
// to those files' paths, as written; nil for any other page.
func mdxImports(lines []string, from string) map[string]string {
	if !strings.EqualFold(path.Ext(from), ".mdx") {
		return nil
	}
	var m map[string]string
	for _, l := range lines {
		if !strings.HasPrefix(l, "import") {
			continue
		}
		if g := mdxImport.FindStringSubmatch(l); g != nil {
			if m == nil {
				m = map[string]string{}
			}
			m[g[1]] = g[2]
		}
	}
	return m
}

// includeDirective is one include a line holds: the file, what part of it
// (an mdBook anchor or line range, "" for all), whether it is code to
// fence, and whether the generator reads it inside code fences too (a
// preprocessor, working on the page's source) or only in prose (a
// markdown link or a component).
type includeDirective struct {
	target   string
	part     string
	code     bool
	inFences bool
	root     bool // the path is from the root ("@/…", "/…", Mintlify's snippets)
	// nearby: the path is from a base folder the site's configuration
	// names, which docent does not read; an include/ or includes/ folder
	// beside the page or above it is where sites keep such files.
	nearby bool
	// note: the target is an Obsidian note's name, found anywhere in the
	// vault; section is the heading ("Limits") or block ("^id") it embeds,
	// "" for the whole note.
	note    bool
	section string
}

// parseInclude reports the include directive a line holds, if any.
func parseInclude(line string) (includeDirective, bool) {
	// Every directive is a line of its own starting with its sign: most
	// lines are ruled out by their first character, before any pattern.
	t := strings.TrimLeft(line, " \t")
	if t == "" || !strings.ContainsRune("<{-[!", rune(t[0])) {
		return includeDirective{}, false
	}
	if m := vitepressInclude.FindStringSubmatch(line); m != nil {
		t := m[1]
		if strings.ContainsAny(t, "{#") {
			return includeDirective{}, false // a region or a line range: not read
		}
		return includeDirective{target: strings.TrimPrefix(t, "@/"), root: strings.HasPrefix(t, "@/"), inFences: true}, true
	}
	if m := mdbookInclude.FindStringSubmatch(line); m != nil {
		target, part, _ := strings.Cut(m[1], ":")
		return includeDirective{target: target, part: part, inFences: true}, true
	}
	if m := snippetInclude.FindStringSubmatch(line); m != nil {
		t := m[1] + m[2]
		if strings.Contains(t, ":") {
			return includeDirective{}, false // a line range or a section: not read
		}
		return includeDirective{target: t, inFences: true}, true
	}
	if m := docsifyInclude.FindStringSubmatch(line); m != nil {
		opts := m[2] + m[3]
		return includeDirective{target: m[1], code: strings.Contains(opts, ":type=code")}, true
	}
	if m := hugoReadfile.FindStringSubmatch(line); m != nil {
		args := shortcodeArgs(m[1])
		f := args.first("file")
		if f == "" {
			f = args.positional(0)
		}
		if f == "" {
			return includeDirective{}, false
		}
		return includeDirective{target: strings.TrimPrefix(f, "/"), root: strings.HasPrefix(f, "/"), code: args.named["code"] == "true", inFences: true}, true
	}
	if m := quartoInclude.FindStringSubmatch(line); m != nil {
		t := m[1] + m[2] + m[3]
		return includeDirective{target: strings.TrimPrefix(t, "/"), root: strings.HasPrefix(t, "/"), inFences: true}, true
	}
	if d, ok := dataInclude(line); ok {
		return d, true
	}
	if m := liquidInclude.FindStringSubmatch(line); m != nil && isMarkdown(m[2]) && !strings.Contains(m[3], "=") {
		// Jekyll: {% include x.md %} from the site's _includes folder,
		// {% include_relative x.md %} from the page's. An include passing
		// parameters is a template (a callout), read by the converter.
		return includeDirective{target: m[2], nearby: m[1] == "", inFences: true}, true
	}
	if m := obsidianEmbed.FindStringSubmatch(line); m != nil {
		name := strings.TrimSpace(m[1])
		if ext := path.Ext(name); ext != "" && !isMarkdown(name) {
			return includeDirective{}, false // an image, a PDF: nothing to read
		}
		if !isMarkdown(name) {
			name += ".md"
		}
		return includeDirective{target: name, note: true, section: strings.TrimSpace(m[2])}, true
	}
	if m := docfxInclude.FindStringSubmatch(line); m != nil {
		t := strings.TrimSpace(m[1])
		return includeDirective{target: strings.TrimPrefix(t, "~/"), root: strings.HasPrefix(t, "~/")}, true
	}
	if m := markdownInclude.FindStringSubmatch(line); m != nil {
		return includeDirective{target: m[1], inFences: true, nearby: true}, true
	}
	if m := mintlifySnippet.FindStringSubmatch(line); m != nil {
		return includeDirective{target: path.Join("snippets", strings.TrimPrefix(m[1]+m[2], "/")), root: true}, true
	}
	return includeDirective{}, false
}

// expansion is a body with its includes read in.
type expansion struct {
	lines []string
	// origin holds, for each line, the line of the including file it
	// comes from (1-based): its own, or the directive's.
	origin []int
	// files are the files read in, by path from the root, in order.
	files []string
	// texts are their texts, for the doc's content hash.
	texts []string
	bytes int
	// data are the data files whose values were read in (see
	// liquiddata.go), by path from the root, in order, with repeats.
	data []string
}

// expandIncludes reads into lines (the body of the file at from) the
// files its include directives name, recursively. A directive whose file
// cannot be read is left as it is, for the converter to note.
func expandIncludes(lines []string, from string, read *siteFiles) expansion {
	var x expansion
	x.expand(lines, from, read, nil, nil)
	return x
}

func (x *expansion) expand(lines []string, from string, read *siteFiles, stack []string, origin []int) {
	imported := mdxImports(lines, from)
	var fence codeFence
	for i, l := range lines {
		at := i + 1
		if origin != nil {
			at = origin[0]
		}
		inFence := fence.open()
		if inFence {
			fence.update(l)
		}
		d, ok := parseInclude(l)
		if !ok && imported != nil {
			if m := mdxComponentLine.FindStringSubmatch(l); m != nil && imported[m[1]] != "" {
				t := imported[m[1]]
				d, ok = includeDirective{target: strings.TrimPrefix(t, "/"), root: strings.HasPrefix(t, "/")}, true
			}
		}
		if ok && (!inFence || d.inFences) && len(stack) < maxIncludeDepth {
			if p, text, ok := x.read(d, from, read, stack); ok {
				body := includedLines(text, d, p, inFence)
				if d.section == "" {
					x.files = append(x.files, p) // a note a part of which is shown is still a page
				}
				x.texts = append(x.texts, text)
				x.expand(body, p, read, append(stack, from), []int{at})
				continue
			}
		}
		if !inFence {
			fence.update(l)
		}
		// Liquid renders a page before markdown does: its data tags are
		// values in code too.
		l = read.substituteData(l, true, &x.data)
		l = x.inlineIncludes(l, from, read, stack)
		x.lines = append(x.lines, l)
		x.origin = append(x.origin, at)
	}
}

// inlineIncludes reads docfx includes inside a sentence: a fragment of
// one paragraph reads where it stands; any other stays for the converter.
func (x *expansion) inlineIncludes(l, from string, read *siteFiles, stack []string) string {
	if !strings.Contains(l, "[!INCLUDE") && !strings.Contains(l, "[!include") {
		return l
	}
	return docfxInlineInclude.ReplaceAllStringFunc(l, func(tag string) string {
		t := docfxInlineInclude.FindStringSubmatch(tag)[1]
		d := includeDirective{target: strings.TrimPrefix(t, "~/"), root: strings.HasPrefix(t, "~/")}
		p, text, ok := x.read(d, from, read, stack)
		if !ok {
			return tag
		}
		lines := trimBlankLines(includedLines(text, d, p, false))
		if len(lines) != 1 {
			return tag
		}
		x.data = append(x.data, p) // in the hash, and a fragment
		return strings.TrimSpace(lines[0])
	})
}

// read finds and reads a directive's file: from the including file's
// folder, else from the root (generators differ, and so do sites), never
// outside the knowledge base, never a file already being read.
func (x *expansion) read(d includeDirective, from string, read *siteFiles, stack []string) (string, string, bool) {
	var candidates []string
	if !d.root {
		candidates = append(candidates, path.Join(path.Dir(from), d.target))
	}
	root := path.Clean(strings.TrimPrefix(d.target, "/"))
	candidates = append(candidates, root)
	// A path from the site's root may name folders above the knowledge
	// base ("/docs/includes/ports.md" with the docs folder as the root):
	// its tails are tried too, shortest last.
	for p := root; strings.Contains(p, "/"); {
		_, p, _ = strings.Cut(p, "/")
		candidates = append(candidates, p)
	}
	if d.note {
		// Obsidian finds a note by its name wherever it is in the vault
		// (by a path when the name is not unique).
		candidates = append(candidates, read.byName[strings.ToLower(path.Base(d.target))]...)
	}
	if d.nearby {
		for dir := path.Dir(from); ; dir = path.Dir(dir) {
			for _, sub := range includeFolders {
				candidates = append(candidates, path.Join(dir, sub, d.target))
			}
			if dir == "." || dir == "/" {
				break
			}
		}
	}
	for _, p := range candidates {
		if !fs.ValidPath(p) || p == "." || p == from || slices.Contains(stack, p) {
			continue
		}
		text, err := read.read(p)
		if err != nil || x.bytes+len(text) > maxIncludedBytes {
			continue
		}
		x.bytes += len(text)
		return p, text, true
	}
	return "", "", false
}

// noteSection is the part of a note an Obsidian embed names: the block
// whose last line ends with " ^id" for "^id" (a paragraph, or a list item
// alone), else the heading whose text is section, with what follows up
// to a heading of its level or above. Nothing when the note has neither.
func noteSection(lines []string, section string) []string {
	if id, ok := strings.CutPrefix(section, "^"); ok {
		for i, l := range lines {
			if !strings.HasSuffix(strings.TrimRight(l, " \t"), " ^"+id) {
				continue
			}
			start := i
			for start > 0 && strings.TrimSpace(lines[start-1]) != "" && !isListMarker(strings.TrimSpace(lines[start])) {
				start--
			}
			return lines[start : i+1]
		}
		return nil
	}
	want := strings.ToLower(strings.Join(strings.Fields(section), " "))
	var fence codeFence
	for i, l := range lines {
		inFence := fence.open()
		fence.update(l)
		level, text := atxHeading(l)
		if inFence || level == 0 || strings.ToLower(text) != want {
			continue
		}
		end := len(lines)
		var inner codeFence
		for j := i + 1; j < len(lines); j++ {
			in := inner.open()
			inner.update(lines[j])
			if lv, _ := atxHeading(lines[j]); !in && lv > 0 && lv <= level {
				end = j
				break
			}
		}
		return lines[i:end]
	}
	return nil
}

// boxedHeadings writes the headings of an embedded note as paragraphs:
// Obsidian shows an embed in a box of its own, and its headings must not
// become sections of the page around it, taking the page's next
// paragraphs under them.
func boxedHeadings(lines []string) []string {
	out := make([]string, len(lines))
	var fence codeFence
	for i, l := range lines {
		inFence := fence.open()
		fence.update(l)
		if level, text := atxHeading(l); !inFence && level > 0 && text != "" {
			l = text
		}
		out[i] = l
	}
	return out
}

// atxHeading returns an ATX heading line's level and text, 0 for any
// other line.
func atxHeading(l string) (int, string) {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 {
		return 0, ""
	}
	n := 0
	for n < len(t) && n < 7 && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n < len(t) && t[n] != ' ' && t[n] != '\t' {
		return 0, ""
	}
	text := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(t[n:]), "#"))
	return n, strings.Join(strings.Fields(text), " ")
}

// includeFolders are the folders, beside a page or above it, where a site
// keeps the files its pages include from a configured base folder.
var includeFolders = []string{"include", "includes", "_includes"}

// includedLines are the lines a directive puts in the page: the file's
// body (its front matter left out), the part the directive names, fenced
// as code when the directive says so or the file is no markdown and the
// directive stands outside a fence.
func includedLines(text string, d includeDirective, p string, inFence bool) []string {
	lines := normalizeLines(text)
	if isMarkdown(p) {
		if _, body, err := splitFrontMatter(lines); err == nil {
			lines = body
		}
	}
	if d.part != "" {
		lines = mdbookPart(lines, d.part)
	}
	if d.section != "" {
		lines = noteSection(lines, d.section)
	}
	if d.note {
		lines = boxedHeadings(lines)
	}
	lines = trimBlankLines(lines)
	if !inFence && (d.code || !isMarkdown(p)) {
		lang := strings.TrimPrefix(path.Ext(p), ".")
		fenced := append([]string{"```" + lang}, lines...)
		return append(fenced, "```")
	}
	return lines
}

// mdbookAnchor matches mdBook's anchor comment lines, "// ANCHOR: name"
// and "# ANCHOR_END: name" in any comment syntax.
var mdbookAnchor = regexp.MustCompile(`ANCHOR(_END)?:\s*([\w-]+)`)

// mdbookPart returns the part of lines an mdBook include names: an
// anchor's lines ("server"), a line range ("2:10", "5:", ":8", "3"), with
// every anchor comment line left out, as mdBook leaves them out. An
// anchor the file lacks gives nothing.
func mdbookPart(lines []string, part string) []string {
	var out []string
	if a, b, isRange := strings.Cut(part, ":"); isRange || isNumber(part) {
		start, end := 1, len(lines)
		if n, err := strconv.Atoi(a); err == nil && n > 0 {
			start = n
		}
		if isRange && b != "" {
			if n, err := strconv.Atoi(b); err == nil {
				end = min(n, len(lines))
			}
		} else if !isRange {
			end = min(start, len(lines))
		}
		for i := start; i <= end && i <= len(lines); i++ {
			out = append(out, lines[i-1])
		}
		return withoutAnchors(out)
	}
	in := false
	for _, l := range lines {
		if m := mdbookAnchor.FindStringSubmatch(l); m != nil {
			if m[2] == part {
				in = m[1] == ""
			}
			continue
		}
		if in {
			out = append(out, l)
		}
	}
	return out
}

func withoutAnchors(lines []string) []string {
	out := lines[:0:0]
	for _, l := range lines {
		if !mdbookAnchor.MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// errNotText is a file an include names that is not text: binary, or
// not UTF-8.
var errNotText = errors.New("not a text file")

// siteFilesOf reads the files of fsys pages name, by their path from the
// root: markdown files as the walk found them (behind a symbolic link,
// the file it points to), any other file (a code sample, a JSON payload,
// a data file) directly. A file over MaxFileSize, binary or not UTF-8 is
// not read.
func siteFilesOf(fsys fs.FS, files []mdFile) *siteFiles {
	real := make(map[string]string, len(files))
	for _, f := range files {
		real[f.path] = f.real
	}
	byName := map[string][]string{}
	paths := make([]string, 0, len(files))
	for _, f := range files {
		name := strings.ToLower(path.Base(f.path))
		byName[name] = append(byName[name], f.path)
		paths = append(paths, f.path)
	}
	return &siteFiles{byName: byName, paths: paths, read: func(p string) (string, error) {
		if r, ok := real[p]; ok {
			p = r
		}
		src, err := readSmallFile(fsys, p)
		if err != nil {
			return "", err
		}
		if bytes.IndexByte(src, 0) >= 0 || invalidUTF8(src) >= 0 {
			return "", errNotText
		}
		return string(src), nil
	}}
}

// dropIncluded leaves out of docs the files a page includes, with a note
// each: a fragment is read where it is shown, and on its own it would
// compete with the page it belongs to. includedBy maps an included file
// to the first page including it.
func dropIncluded(docs []knowledge.Doc, notices []Warning, includedBy map[string]string) ([]knowledge.Doc, []Warning) {
	if len(includedBy) == 0 {
		return docs, notices
	}
	kept := docs[:0]
	for _, d := range docs {
		by, ok := includedBy[d.SourcePath]
		if !ok || by == d.SourcePath {
			kept = append(kept, d)
			continue
		}
		notices = append(notices, Warning{Path: d.SourcePath, Slug: d.Slug, Kind: Excluded, Msg: "included by " + by + ": read where it is included, not as a page of its own"})
	}
	return kept, notices
}
