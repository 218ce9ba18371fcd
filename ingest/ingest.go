// Package ingest turns a folder of markdown documentation into
// knowledge.Docs split into header-aware chunks. A bad file never stops
// the load: it becomes a Warning naming the file (and line, when there is
// one) and the other files are still ingested.
package ingest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/textsafe"
)

// MaxFileSize is the largest file ingested. Anything bigger is far beyond
// what a support doc page is and is more likely a misplaced export or log.
const MaxFileSize = 5 << 20

// ErrNoDocs reports a knowledge base folder without a single usable doc.
var ErrNoDocs = errors.New("no docs found")

// Kind says what a Warning means for its file.
type Kind uint8

const (
	// Problem: the file could not be ingested (unreadable, broken front
	// matter, not text...). `seed --strict` fails on one.
	Problem Kind = iota
	// Excluded: the file was left out on purpose, as its site generator
	// would leave it out: a draft, a page with front matter and no body
	// (a Hugo section page), a fragment pages include. Not a problem.
	Excluded
	// Note: the file was ingested, but something in it could not be, such
	// as an mdBook {{#include}} whose text lives in another file.
	Note
)

// Warning is a file that was skipped or changed, with the reason.
type Warning struct {
	Path string // relative to the knowledge base root
	Line int    // 1-based; 0 when the problem is not on one line
	Msg  string
	// Slug is the doc the file would have become, "" when the warning is
	// not about one markdown file (an unreadable folder). A seed keeps the
	// stored version of that doc when the file has a Problem; an Excluded
	// file's doc is gone on purpose.
	Slug string
	Kind Kind
	// noindex marks an HTML page left out for its robots noindex, which
	// the load may take back (see LoadWithOptions).
	noindex bool
}

// String formats the warning the way compilers do, so editors and
// terminals can jump to it: "concepts/x.md:3: broken front matter: ...".
func (w Warning) String() string {
	p := w.Path
	if !utf8.ValidString(p) || strings.IndexFunc(p, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		// A file name must not smuggle escape sequences or stray bytes to
		// the terminal: Quote writes them as \x1b, \xff.
		p = strconv.Quote(p)
	}
	// Messages can quote the file (a front matter value, a parser's
	// complaint): they go to the terminal on one clean line.
	msg := textsafe.Line(w.Msg)
	if w.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p, w.Line, msg)
	}
	return fmt.Sprintf("%s: %s", p, msg)
}

// Error lets ParseDoc return a Warning as its error.
func (w Warning) Error() string { return w.String() }

// Result is what Load found.
type Result struct {
	Docs     []knowledge.Doc // sorted by slug
	Warnings []Warning       // files skipped for a Problem, in path order
	// Notices are the files left out on purpose (Excluded) and the
	// ingested files that lost something (Note), in path order. They are
	// not problems: --strict ignores them.
	Notices []Warning
	Files   int // markdown files seen, loaded or skipped
}

// markdownExts are the file extensions read as markdown: Quarto's and R
// Markdown's pages are markdown (pandoc's) with code chunks in fences,
// Markdoc's markdown with {% tags %}.
var markdownExts = []string{".md", ".markdown", ".mdx", ".mdoc", ".markdoc", ".qmd", ".rmd"}

func isMarkdown(name string) bool {
	return slices.Contains(markdownExts, strings.ToLower(path.Ext(name)))
}

// docExts are the extensions of the files read as docs: markdown,
// reStructuredText, which Sphinx projects write (see rst.go), AsciiDoc,
// which Antora sites write (see asciidoc.go), and Jupyter notebooks,
// which Jupyter Book, nbsphinx and Quarto publish (see notebook.go).
var docExts = append(slices.Clip(markdownExts), ".rst", ".adoc", ".asciidoc", ".ipynb")

func isDocFile(name string) bool {
	return slices.Contains(docExts, strings.ToLower(path.Ext(name)))
}

// Load reads every markdown file under fsys (recursively, hidden folders
// skipped, symbolic links followed inside the folder) and parses it into a
// Doc with chunks. root only names the folder in messages. A missing
// folder wraps fs.ErrNotExist; a folder without a usable doc wraps
// ErrNoDocs, and the Result still carries the warnings that explain why.
func Load(ctx context.Context, fsys fs.FS, root string) (Result, error) {
	return LoadWithOptions(ctx, fsys, root, LoadOptions{})
}

// LoadOptions are Load's optional settings.
type LoadOptions struct {
	// Progress, when set, is called with how many of the markdown files
	// found have been read (loaded or skipped): once with 0 when the walk
	// is done, then after each file. It runs on Load's goroutine.
	Progress func(done, total int)
}

// LoadWithOptions is Load with optional settings.
func LoadWithOptions(ctx context.Context, fsys fs.FS, root string, opts LoadOptions) (Result, error) {
	var res Result
	info, err := fs.Stat(fsys, ".")
	if err != nil {
		return res, fmt.Errorf("knowledge base %s: %w", root, err)
	}
	if !info.IsDir() {
		return res, fmt.Errorf("knowledge base %s: not a directory", root)
	}
	sphinx := readSphinxConfig(fsys)
	rstExts := sphinx.suffixes
	files, walkWarnings, err := findMarkdown(ctx, fsys, rstExts)
	if err != nil {
		return res, fmt.Errorf("knowledge base %s: %w", root, err)
	}
	// Sphinx builds no page of a file its exclude_patterns name; pages may
	// still include it, so it stays readable (read below).
	if x := sphinx.excluded; x != nil {
		kept := files[:0:0]
		for _, f := range files {
			if pat := x.excludes(f.path); pat != "" {
				walkWarnings = append(walkWarnings, Warning{Path: f.path, Slug: SlugFor(f.path), Kind: Excluded, Msg: fmt.Sprintf("left out by conf.py's exclude_patterns (%q), as Sphinx leaves it out", pat)})
				continue
			}
			kept = append(kept, f)
		}
		files = kept
	}
	res.Files = len(files)
	for _, w := range walkWarnings {
		if w.Kind == Problem {
			res.Warnings = append(res.Warnings, w)
		} else {
			res.Notices = append(res.Notices, w)
		}
	}

	progress := opts.Progress
	if progress == nil {
		progress = func(int, int) {}
	}
	progress(0, len(files))
	bySlug := make(map[string]string, len(files))
	includedBy := map[string]string{} // an included file's path → the first page including it
	read := siteFilesOf(fsys, files)
	read.rstExts = rstExts
	// HTML pages left out for their robots noindex, with the notice
	// saying so, held until the load knows whether the tag is the site's.
	type noindexedPage struct {
		f      mdFile
		notice Warning
	}
	var noindexed []noindexedPage
	pages := 0
	take := func(f mdFile, p parsedFile) {
		doc, notes, warn, included := p.doc, p.notes, p.warn, p.included
		res.Notices = append(res.Notices, notes...)
		if warn != nil {
			warn.Slug = SlugFor(f.path)
			switch {
			case warn.noindex:
				noindexed = append(noindexed, noindexedPage{f, *warn})
			case warn.Kind == Problem:
				res.Warnings = append(res.Warnings, *warn)
			default:
				res.Notices = append(res.Notices, *warn)
			}
			return
		}
		// Two files can map to one slug ("a.md" and "a.mdx", "My Doc.md" and
		// "my-doc.md"); a slug is a doc's identity, so the first in path
		// order wins and the other is reported rather than silently merged.
		if first, dup := bySlug[doc.Slug]; dup {
			res.Warnings = append(res.Warnings, Warning{Path: f.path, Slug: doc.Slug, Msg: fmt.Sprintf("duplicate slug %q (already used by %s)", doc.Slug, first)})
			return
		}
		bySlug[doc.Slug] = f.path
		res.Docs = append(res.Docs, doc)
		// Only a page that is a doc shows what it includes.
		for _, p := range included {
			if _, ok := includedBy[p]; !ok {
				includedBy[p] = f.path
			}
		}
	}
	parsed, err := parseFiles(ctx, fsys, files, read, progress)
	if err != nil {
		return Result{}, fmt.Errorf("knowledge base %s: %w", root, err)
	}
	for i, f := range files {
		if isHTMLPage(f.path) {
			pages++
		}
		take(f, parsed[i])
	}
	// A robots noindex on most pages is the site's (a staging copy kept
	// out of search engines), not a mark of the few pages that are no
	// content: then every page is read.
	if 2*len(noindexed) > pages {
		read.keepNoindex = true
		for _, p := range noindexed {
			take(p.f, parseFile(fsys, p.f, read))
		}
	} else {
		for _, p := range noindexed {
			res.Notices = append(res.Notices, p.notice)
		}
	}
	res.Docs, res.Notices = dropSiteMaps(res.Docs, res.Notices)
	res.Docs, res.Notices = dropIncluded(res.Docs, res.Notices, includedBy)
	fillAutotitles(res.Docs) // before the frame is sought: "see AUTOTITLE" ends many pages
	stripSiteTitles(res.Docs)
	// Copies before the frame: three versions of a page open the same way,
	// and that is no frame.
	res.Docs, res.Notices = dropCopies(res.Docs, res.Notices)
	res.Docs, res.Notices = dropTranslations(res.Docs, res.Notices)
	stripSiteChrome(res.Docs)
	slices.SortFunc(res.Docs, func(a, b knowledge.Doc) int { return strings.Compare(a.Slug, b.Slug) })
	byPath := func(a, b Warning) int { return strings.Compare(a.Path, b.Path) }
	slices.SortStableFunc(res.Warnings, byPath)
	slices.SortStableFunc(res.Notices, byPath)

	if len(res.Docs) == 0 {
		if n := len(res.Warnings) + len(res.Notices); n > 0 {
			return res, fmt.Errorf("knowledge base %s: %w (%d file(s) skipped or left out)", root, ErrNoDocs, n)
		}
		return res, fmt.Errorf("knowledge base %s: %w (looked for %s, HTML pages, or .txt files)", root, ErrNoDocs, strings.Join(docExts, ", "))
	}
	return res, nil
}

// parsedFile is what loading one file gave: its doc, or the warning
// saying why it is none, the notes on it and the files it included.
type parsedFile struct {
	doc      knowledge.Doc
	notes    []Warning
	warn     *Warning
	included []string
}

func parseFile(fsys fs.FS, f mdFile, read *siteFiles) parsedFile {
	var p parsedFile
	p.doc, p.notes, p.warn = loadFile(fsys, f, read, &p.included)
	return p
}

// parseFiles parses the files on as many goroutines as the machine runs
// at once: a site's pages parse independently, and on a large one
// (Django's 700 pages) parsing and counting tokens is most of the load.
// The results are in the files' order, so what Load makes of them does
// not depend on which finished first. progress is called on the
// caller's goroutine. A cancelled ctx stops the workers before their
// next file; the wait for the files they are parsing is bounded by
// MaxFileSize.
func parseFiles(ctx context.Context, fsys fs.FS, files []mdFile, read *siteFiles, progress func(done, total int)) ([]parsedFile, error) {
	read.prepare()
	parsed := make([]parsedFile, len(files))
	jobs := make(chan int)
	done := make(chan struct{}, len(files))
	workers := min(runtime.GOMAXPROCS(0), len(files))
	for range workers {
		go func() {
			for i := range jobs {
				if ctx.Err() == nil {
					parsed[i] = parseFile(fsys, files[i], read)
				}
				done <- struct{}{}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range files {
			if ctx.Err() != nil {
				return
			}
			jobs <- i
		}
	}()
	for n := range len(files) {
		select {
		case <-done:
			progress(n+1, len(files))
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return parsed, ctx.Err()
}

// chunkEach chunks the docs at the indexes given again, in parallel as
// parseFiles parses: a site's title or frame taken off every page
// changes every page's chunks.
func chunkEach(docs []knowledge.Doc, which []int) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(which)) {
		wg.Go(func() {
			for i := range next {
				Chunk(&docs[i])
			}
		})
	}
	for _, i := range which {
		next <- i
	}
	close(next)
	wg.Wait()
}

// mdFile is a markdown file found in the knowledge base: path names the
// doc, real is where its bytes are (they differ behind a symbolic link).
type mdFile struct{ path, real string }

// maxEntries bounds a walk: folders linked into each other can name an
// exponential number of paths without ever forming a loop.
const maxEntries = 1_000_000

// maxLinkHops is how many symbolic links one path may go through, as
// operating systems bound it (Linux: 40).
const maxLinkHops = 40

// walker lists the markdown files of a knowledge base in lexical order,
// skipping hidden files and folders (.git, .drafts) and following
// symbolic links that stay inside it. Only an unreadable root is an error;
// an unreadable subfolder, a broken link, a link leaving the folder or
// making a loop is a warning, so it cannot hide the rest of the docs.
type walker struct {
	ctx      context.Context
	fsys     fs.FS
	files    []mdFile
	pages    []mdFile // HTML pages, the docs of a folder without other docs (see htmlpage.go)
	texts    []mdFile // plain-text files, the docs of a folder without any of those (see textdoc.go)
	warnings []Warning
	entries  int
	// rstExts are the further extensions a Sphinx project's conf.py
	// declares as reStructuredText (see sphinxSuffixes).
	rstExts []string
}

func findMarkdown(ctx context.Context, fsys fs.FS, rstExts []string) ([]mdFile, []Warning, error) {
	w := walker{ctx: ctx, fsys: fsys, rstExts: rstExts}
	if _, err := fs.ReadDir(fsys, "."); err != nil {
		return nil, nil, err
	}
	w.dir(".", ".", []string{"."})
	switch {
	case len(w.files) == 0 && len(w.pages) == 0:
		return w.texts, w.warnings, ctx.Err()
	case len(w.files) == 0:
		return w.pages, w.warnings, ctx.Err()
	case len(w.pages) > len(w.files) && !slices.ContainsFunc(w.files, func(f mdFile) bool { return !isRepositoryFile(f.path) }):
		// A built site whose only markdown is a README or licence: the
		// repository's (a gh-pages branch) or a bundled asset's (Sphinx's
		// _static/fontawesome/README.md). It describes its folder and is
		// no page of the site; read as the docs, it would hide every page.
		for _, f := range w.files {
			w.warnings = append(w.warnings, Warning{Path: f.path, Slug: SlugFor(f.path), Kind: Excluded,
				Msg: fmt.Sprintf("a repository file in a built site of %d HTML pages: the pages are the docs", len(w.pages))})
		}
		return w.pages, w.warnings, ctx.Err()
	}
	return w.files, w.warnings, ctx.Err()
}

// repositoryFiles are the names, without extension and case, of the
// files a repository or a package keeps beside its content to describe
// it: what it is, its licence, its history, how to contribute.
var repositoryFiles = []string{"readme", "license", "licence", "copying", "notice", "authors", "changelog", "changes", "history", "contributing", "code_of_conduct", "security", "support"}

// isRepositoryFile reports a file named as one of repositoryFiles.
func isRepositoryFile(p string) bool {
	base := path.Base(p)
	return slices.Contains(repositoryFiles, strings.ToLower(strings.TrimSuffix(base, path.Ext(base))))
}

func (w *walker) warn(p, msg string) {
	w.warnings = append(w.warnings, Warning{Path: p, Msg: msg})
}

// dir walks the folder whose bytes are at real and whose docs are named
// under name; ancestors are the real paths of the folders being walked,
// so a link back to one of them is a loop.
func (w *walker) dir(name, real string, ancestors []string) {
	entries, err := fs.ReadDir(w.fsys, real)
	if err != nil {
		w.warn(name, "cannot read: "+bareCause(err))
		return
	}
	sphinx := isSphinxBuild(entries)
	for _, e := range entries {
		if w.ctx.Err() != nil {
			return
		}
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if !utf8.ValidString(e.Name()) {
			// No fs.FS can open such a name; say why rather than "cannot read".
			switch {
			case e.IsDir():
				w.warn(path.Join(name, e.Name()), "folder name is not valid UTF-8: its files are not read; rename it")
			case isDocFile(e.Name()):
				w.warn(path.Join(name, e.Name()), "file name is not valid UTF-8: rename the file")
			}
			continue
		}
		if w.entries++; w.entries > maxEntries {
			w.warn(name, fmt.Sprintf("more than %d files and folders: the rest of this folder was not read", maxEntries))
			return
		}
		childName, childReal := path.Join(name, e.Name()), path.Join(real, e.Name())
		mode := e.Type()
		if mode&fs.ModeSymlink != 0 {
			hops := 0
			target, problem := realPath(w.fsys, childReal, &hops)
			if problem != "" {
				if isDocFile(childName) || !strings.Contains(path.Base(childName), ".") {
					w.warn(childName, "symbolic link not followed: "+problem)
				}
				continue
			}
			info, err := fs.Stat(w.fsys, target)
			if err != nil {
				w.warn(childName, "symbolic link not followed: "+bareCause(err))
				continue
			}
			childReal, mode = target, info.Mode().Type()
			if mode.IsDir() && (target == "." || slices.ContainsFunc(ancestors, func(a string) bool { return a == target || strings.HasPrefix(a, target+"/") })) {
				w.warn(childName, "symbolic link not followed: it loops back to "+displayDir(target))
				continue
			}
		}
		if name == "." && mode.IsRegular() && isNotFoundPage(e.Name()) {
			w.warnings = append(w.warnings, Warning{Path: childName, Slug: SlugFor(childName), Kind: Excluded,
				Msg: "the site's page-not-found page: it says a page is missing, and documents nothing"})
			continue
		}
		if sphinx {
			if why := sphinxGenerated(e.Name(), mode.IsDir()); why != "" {
				if mode.IsDir() || isHTMLPage(childName) {
					w.warnings = append(w.warnings, Warning{Path: childName, Slug: SlugFor(childName), Kind: Excluded, Msg: why})
				}
				continue
			}
		}
		switch {
		case mode.IsDir():
			if why := w.notDocs(real, e.Name()); why != "" {
				w.warnings = append(w.warnings, Warning{Path: childName, Kind: Excluded, Msg: why})
				continue
			}
			w.dir(childName, childReal, append(slices.Clip(ancestors), childReal))
		case mode.IsRegular() && (isDocFile(childName) || hasExt(childName, w.rstExts)) && !isVocabularyFile(childName):
			w.files = append(w.files, mdFile{path: childName, real: childReal})
		case mode.IsRegular() && isHTMLPage(childName):
			w.pages = append(w.pages, mdFile{path: childName, real: childReal})
		case mode.IsRegular() && isTextDoc(childName):
			w.texts = append(w.texts, mdFile{path: childName, real: childReal})
		}
	}
}

// notDocs says why the folder name inside the folder at real holds no
// docs of the site, "" when it may: installed packages (node_modules,
// whose every package has its README), a Sphinx build (_build, beside
// conf.py), Jekyll's built site and unpublished drafts (_site, _drafts,
// beside _config.yml). A docs folder is often a site's source folder,
// and these sit in it.
func (w *walker) notDocs(real, name string) string {
	has := func(file string) bool {
		info, err := fs.Stat(w.fsys, path.Join(real, file))
		return err == nil && info.Mode().IsRegular()
	}
	switch name {
	case "node_modules", "bower_components", "site-packages":
		return "installed packages (" + name + "): not the site's docs"
	case "_build":
		if has("conf.py") {
			return "Sphinx's build output: not the site's sources"
		}
	case "_site":
		if has("_config.yml") {
			return "Jekyll's built site: not the site's sources"
		}
	case "_drafts":
		if has("_config.yml") {
			return "Jekyll's drafts: left out, as Jekyll leaves them out"
		}
	}
	return ""
}

// isNotFoundPage reports, at the top of the docs, the page a site shows
// for an address it does not have: 404.html in every static host's
// convention (GitHub Pages, Netlify), built so by Hugo, MkDocs,
// Docusaurus and Jekyll, and written as 404.md in their sources. "Page
// not found" would answer any question about a missing page. Deeper, a
// page named 404 is an API's page about that status ("errors/404.md").
func isNotFoundPage(name string) bool {
	base, ext := strings.ToLower(strings.TrimSuffix(name, path.Ext(name))), name[len(name)-len(path.Ext(name)):]
	return base == "404" && (isDocFile("x"+ext) || isHTMLPage("x"+ext))
}

// isSphinxBuild reports the top folder of a Sphinx HTML build: Sphinx
// writes its inventory (objects.inv) and its search index
// (searchindex.js) there, beside the pages.
func isSphinxBuild(entries []fs.DirEntry) bool {
	has := func(name string) bool {
		return slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return e.Name() == name && !e.IsDir() })
	}
	return has("objects.inv") && has("searchindex.js")
}

// sphinxGenerated says why an entry at the top of a Sphinx HTML build is
// no page of the docs, "" when it may be: the pages Sphinx makes itself
// (the general index, the search page, the module indexes) list every
// name of the docs and explain none; viewcode's highlighted source
// (_modules) is the project's code, and it quotes every error message
// the docs explain; _sources holds the pages' sources again, _static,
// _images and _downloads the site's files.
func sphinxGenerated(name string, dir bool) string {
	if dir {
		switch name {
		case "_modules":
			return "Sphinx's highlighted source code (viewcode): the project's code, not its docs"
		case "_sources", "_static", "_images", "_downloads":
			return "Sphinx's copy of the sources and files (" + name + "): not pages of the docs"
		}
		return ""
	}
	base := strings.ToLower(strings.TrimSuffix(name, path.Ext(name)))
	switch {
	case base == "search", base == "genindex", strings.HasPrefix(base, "genindex-"), strings.HasSuffix(base, "modindex"):
		return "a page Sphinx generates (" + name + "): an index of the docs' names, or the search form"
	}
	return ""
}

func displayDir(p string) string {
	if p == "." {
		return "the top of the docs folder"
	}
	return p
}

// realPath resolves every symbolic link in p, a path inside the knowledge
// base, and returns the path of what it names, or why it cannot: a link
// that leaves the folder (absolute, or climbing above it), a broken link,
// or too many links (a loop). hops counts the links followed so far.
func realPath(fsys fs.FS, p string, hops *int) (string, string) {
	cur := "."
	for _, comp := range strings.Split(p, "/") {
		switch comp {
		case "", ".":
			continue
		case "..":
			if cur == "." {
				return "", "it points outside the docs folder"
			}
			cur = path.Dir(cur)
			continue
		}
		next := path.Join(cur, comp)
		info, err := fs.Lstat(fsys, next)
		if err != nil {
			return "", "it points to nothing (" + bareCause(err) + ")"
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if *hops++; *hops > maxLinkHops {
			return "", "too many levels of symbolic links (a loop)"
		}
		target, err := fs.ReadLink(fsys, next)
		if err != nil {
			return "", "cannot read the link: " + bareCause(err)
		}
		target = filepath.ToSlash(target)
		if path.IsAbs(target) || filepath.IsAbs(target) || filepath.VolumeName(target) != "" {
			return "", "it points outside the docs folder (to an absolute path)"
		}
		resolved, problem := realPath(fsys, cur+"/"+target, hops)
		if problem != "" {
			return "", problem
		}
		cur = resolved
	}
	return cur, ""
}

// loadFile never fails the whole load: an unreadable file is reported
// like any other bad file.
func loadFile(fsys fs.FS, f mdFile, read *siteFiles, included *[]string) (knowledge.Doc, []Warning, *Warning) {
	// Stat first so an oversized file is never read into memory.
	info, err := fs.Stat(fsys, f.real)
	if err != nil {
		return knowledge.Doc{}, nil, &Warning{Path: f.path, Msg: "cannot read: " + bareCause(err)}
	}
	if info.Size() > MaxFileSize {
		return knowledge.Doc{}, nil, &Warning{Path: f.path, Msg: fmt.Sprintf("file too large: %.1f MB, the limit is %d MB", float64(info.Size())/(1<<20), MaxFileSize>>20)}
	}
	src, err := fs.ReadFile(fsys, f.real)
	if err != nil {
		return knowledge.Doc{}, nil, &Warning{Path: f.path, Msg: "cannot read: " + bareCause(err)}
	}
	doc, notes, err := parseDocIncluding(f.path, src, read, included)
	if err != nil {
		var w Warning
		if errors.As(err, &w) {
			return knowledge.Doc{}, notes, &w
		}
		return knowledge.Doc{}, notes, &Warning{Path: f.path, Msg: err.Error()}
	}
	return doc, notes, nil
}

// bareCause drops the path a *fs.PathError repeats, since a Warning
// already names the file.
func bareCause(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
