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
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/docent-sh/docent/knowledge"
)

// MaxFileSize is the largest file ingested. Anything bigger is far beyond
// what a support doc page is and is more likely a misplaced export or log.
const MaxFileSize = 5 << 20

// ErrNoDocs reports a knowledge base folder without a single usable doc.
var ErrNoDocs = errors.New("no markdown docs found")

// Warning is a file that was skipped, with the reason.
type Warning struct {
	Path string // relative to the knowledge base root
	Line int    // 1-based; 0 when the problem is not on one line
	Msg  string
	// Slug is the doc the file would have become, "" when the warning is
	// not about one markdown file (an unreadable folder). A seed keeps the
	// stored version of that doc instead of deleting it.
	Slug string
}

// String formats the warning the way compilers do, so editors and
// terminals can jump to it: "concepts/x.md:3: broken front matter: ...".
func (w Warning) String() string {
	p := w.Path
	if strings.IndexFunc(p, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		p = strconv.Quote(p) // a file name must not smuggle escape sequences to the terminal
	}
	if w.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p, w.Line, w.Msg)
	}
	return fmt.Sprintf("%s: %s", p, w.Msg)
}

// Error lets ParseDoc return a Warning as its error.
func (w Warning) Error() string { return w.String() }

// Result is what Load found.
type Result struct {
	Docs     []knowledge.Doc // sorted by slug
	Warnings []Warning       // files skipped, in path order
	Files    int             // markdown files seen, loaded or skipped
}

// markdownExts are the file extensions ingested; everything else is ignored.
var markdownExts = []string{".md", ".markdown", ".mdx"}

func isMarkdown(name string) bool {
	return slices.Contains(markdownExts, strings.ToLower(path.Ext(name)))
}

// Load reads every markdown file under fsys (recursively, hidden folders
// skipped) and parses it into a Doc with chunks. root only names the
// folder in messages. A missing folder wraps fs.ErrNotExist; a folder
// without a usable doc wraps ErrNoDocs, and the Result still carries the
// warnings that explain why.
func Load(ctx context.Context, fsys fs.FS, root string) (Result, error) {
	var res Result
	info, err := fs.Stat(fsys, ".")
	if err != nil {
		return res, fmt.Errorf("knowledge base %s: %w", root, err)
	}
	if !info.IsDir() {
		return res, fmt.Errorf("knowledge base %s: not a directory", root)
	}
	paths, walkWarnings, err := findMarkdown(fsys)
	if err != nil {
		return res, fmt.Errorf("knowledge base %s: %w", root, err)
	}
	res.Files = len(paths)
	res.Warnings = walkWarnings

	bySlug := make(map[string]string, len(paths))
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return Result{}, fmt.Errorf("knowledge base %s: %w", root, err)
		}
		doc, warn := loadFile(fsys, p)
		if warn != nil {
			warn.Slug = SlugFor(p)
			res.Warnings = append(res.Warnings, *warn)
			continue
		}
		// Two files can map to one slug ("a.md" and "a.mdx", "My Doc.md" and
		// "my-doc.md"); a slug is a doc's identity, so the first in path
		// order wins and the other is reported rather than silently merged.
		if first, dup := bySlug[doc.Slug]; dup {
			res.Warnings = append(res.Warnings, Warning{Path: p, Slug: doc.Slug, Msg: fmt.Sprintf("duplicate slug %q (already used by %s)", doc.Slug, first)})
			continue
		}
		bySlug[doc.Slug] = p
		res.Docs = append(res.Docs, doc)
	}
	slices.SortFunc(res.Docs, func(a, b knowledge.Doc) int { return strings.Compare(a.Slug, b.Slug) })
	slices.SortStableFunc(res.Warnings, func(a, b Warning) int { return strings.Compare(a.Path, b.Path) })

	if len(res.Docs) == 0 {
		if len(res.Warnings) > 0 {
			return res, fmt.Errorf("knowledge base %s: %w (%d file(s) skipped with warnings)", root, ErrNoDocs, len(res.Warnings))
		}
		return res, fmt.Errorf("knowledge base %s: %w (looked for %s)", root, ErrNoDocs, strings.Join(markdownExts, ", "))
	}
	return res, nil
}

// findMarkdown lists the markdown files of fsys in lexical order, skipping
// hidden files and folders (.git, .drafts) and not following symlinks.
// Only an unreadable root is an error; an unreadable subfolder is a
// warning, so it cannot hide the rest of the docs.
func findMarkdown(fsys fs.FS) ([]string, []Warning, error) {
	var paths []string
	var warnings []Warning
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			warnings = append(warnings, Warning{Path: p, Msg: "cannot read: " + bareCause(err)})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if p != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && isMarkdown(p) && !isVocabularyFile(p) {
			paths = append(paths, p)
		}
		return nil
	})
	return paths, warnings, err
}

// loadFile never fails the whole load: an unreadable file is reported
// like any other bad file.
func loadFile(fsys fs.FS, p string) (knowledge.Doc, *Warning) {
	// Stat first so an oversized file is never read into memory.
	info, err := fs.Stat(fsys, p)
	if err != nil {
		return knowledge.Doc{}, &Warning{Path: p, Msg: "cannot read: " + bareCause(err)}
	}
	if info.Size() > MaxFileSize {
		return knowledge.Doc{}, &Warning{Path: p, Msg: fmt.Sprintf("file too large: %.1f MB, the limit is %d MB", float64(info.Size())/(1<<20), MaxFileSize>>20)}
	}
	src, err := fs.ReadFile(fsys, p)
	if err != nil {
		return knowledge.Doc{}, &Warning{Path: p, Msg: "cannot read: " + bareCause(err)}
	}
	doc, err := ParseDoc(p, src)
	if err != nil {
		var w Warning
		if errors.As(err, &w) {
			return knowledge.Doc{}, &w
		}
		return knowledge.Doc{}, &Warning{Path: p, Msg: err.Error()}
	}
	return doc, nil
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
