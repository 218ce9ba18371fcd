package ingest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"
	"unicode/utf8"
)

// writeTree creates files (slash paths) under a fresh temp dir.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadWalksTheTree(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"home.md":                        "## Home\n\nWelcome.",
		"concepts/workspace.md":          "---\ntitle: Workspace\n---\n## Workspace\n\nText.",
		"concepts/Big Ideas.markdown":    "## Big ideas\n\nText.",
		"guides/deep/setup.mdx":          "import X from 'x'\n\n## Setup\n\n<X>Run it.</X>",
		"concepts/image.png":             "\x89PNG\x00",
		"notes.txt":                      "not markdown",
		".git/HEAD.md":                   "## hidden dir",
		"concepts/.drafts/wip.md":        "## hidden dir",
		"concepts/.hidden.md":            "## hidden file",
		"node/readme.MD":                 "## Upper-case extension\n\nText.",
		"guides/deep/empty-folder/.keep": "",
	})
	res, err := Load(context.Background(), os.DirFS(dir), dir)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	var slugs, cats []string
	for _, d := range res.Docs {
		slugs = append(slugs, d.Slug)
		cats = append(cats, d.Category)
		checkChunkInvariants(t, d)
	}
	wantSlugs := "concepts/big-ideas concepts/workspace guides/deep/setup home node/readme"
	if got := strings.Join(slugs, " "); got != wantSlugs {
		t.Errorf("slugs %q, want %q", got, wantSlugs)
	}
	if got, want := strings.Join(cats, " "), "concepts concepts guides docs node"; got != want {
		t.Errorf("categories %q, want %q", got, want)
	}
	if res.Files != 5 || len(res.Warnings) != 0 {
		t.Errorf("Files %d warnings %v, want 5 files and no warnings", res.Files, res.Warnings)
	}
	if got := res.Docs[2].Content; got != "## Setup\n\nRun it." {
		t.Errorf("mdx content %q", got)
	}
}

// TestLoadSkipsBadFiles feeds each kind of bad file next to good ones: the
// bad one becomes a warning naming it, the good ones still load.
func TestLoadSkipsBadFiles(t *testing.T) {
	bad := []struct {
		path, content string
		line          int
		msg           string
	}{
		{"concepts/binary.md", "## Bin\n\x00\x01\x02", 2, "binary file"},
		{"concepts/latin1.md", "## Caf\xe9\n", 1, "invalid UTF-8"},
		{"concepts/empty.md", "", 0, "empty file"},
		{"concepts/blank.md", "\n  \n\t\n", 0, "empty file"},
		{"concepts/broken.md", "---\ntitle: Broken\nkeywords: [a, b\n---\n## Broken\n", 3, "broken front matter: did not find expected ',' or ']'"},
		{"concepts/unclosed.md", "---\ntitle: Broken\n## Broken\n", 1, "broken front matter: no closing --- line"},
		{"concepts/dup.mdx", "## Duplicate slug of dup.md\n", 0, "duplicate slug \"concepts/dup\" (already used by concepts/dup.md)"},
	}
	files := map[string]string{
		"concepts/good.md": "## Good\n\nText.",
		"concepts/dup.md":  "## Dup\n\nText.",
		"zeta.md":          "## Zeta\n\nText.",
	}
	for _, b := range bad {
		files[b.path] = b.content
	}
	dir := writeTree(t, files)
	res, err := Load(context.Background(), os.DirFS(dir), dir)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if len(res.Docs) != 3 || res.Files != len(files) {
		t.Errorf("loaded %d docs of %d files, want 3 of %d", len(res.Docs), res.Files, len(files))
	}
	byPath := map[string]Warning{}
	for _, w := range res.Warnings {
		byPath[w.Path] = w
	}
	for _, b := range bad {
		w, ok := byPath[b.path]
		if !ok {
			t.Errorf("%s: no warning (warnings: %v)", b.path, res.Warnings)
			continue
		}
		if w.Line != b.line || !strings.Contains(w.Msg, b.msg) {
			t.Errorf("%s: got %q, want line %d and %q", b.path, w, b.line, b.msg)
		}
	}
	if len(res.Warnings) != len(bad) {
		t.Errorf("got %d warnings, want %d: %v", len(res.Warnings), len(bad), res.Warnings)
	}
}

func TestLoadTooLargeFileIsNotRead(t *testing.T) {
	dir := writeTree(t, map[string]string{"ok.md": "## OK\n\nText."})
	big := filepath.Join(dir, "huge.md")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: the size is real but nothing is written.
	if err := f.Truncate(MaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	fsys := openSpy{FS: os.DirFS(dir), opened: map[string]bool{}}
	res, err := Load(context.Background(), fsys, dir)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if len(res.Warnings) != 1 || res.Warnings[0].Path != "huge.md" || !strings.Contains(res.Warnings[0].Msg, "file too large") {
		t.Fatalf("warnings %v, want one 'file too large' for huge.md", res.Warnings)
	}
	if fsys.opened["huge.md"] {
		t.Error("huge.md was opened: the size must be checked with fs.Stat before reading")
	}
	if len(res.Docs) != 1 {
		t.Errorf("got %d docs, want ok.md loaded", len(res.Docs))
	}
}

// openSpy records which files are opened; Stat does not open.
type openSpy struct {
	fs.FS
	opened map[string]bool
}

func (s openSpy) Open(name string) (fs.File, error) {
	s.opened[name] = true
	return s.FS.Open(name)
}

func (s openSpy) Stat(name string) (fs.FileInfo, error) { return fs.Stat(s.FS, name) }

func TestLoadMissingDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nope")
	_, err := Load(context.Background(), os.DirFS(dir), dir)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("got %v, want an error wrapping fs.ErrNotExist", err)
	}
	if !strings.Contains(err.Error(), dir) {
		t.Errorf("%q does not name the folder", err)
	}
}

func TestLoadNoDocs(t *testing.T) {
	tests := map[string]map[string]string{
		"empty folder":       {},
		"no markdown":        {"requirements.txt": "x", "img/logo.png": "png"},
		"only hidden":        {".git/notes.md": "## x\n\ntext"},
		"every file skipped": {"a.md": "", "b.md": "---\ntitle: x\n"},
	}
	for name, files := range tests {
		t.Run(name, func(t *testing.T) {
			dir := writeTree(t, files)
			res, err := Load(context.Background(), os.DirFS(dir), dir)
			if !errors.Is(err, ErrNoDocs) {
				t.Fatalf("got %v, want ErrNoDocs", err)
			}
			if !strings.Contains(err.Error(), dir) {
				t.Errorf("%q does not name the folder", err)
			}
			if name == "every file skipped" && len(res.Warnings) != 2 {
				t.Errorf("the warnings explaining the skips were lost: %v", res.Warnings)
			}
		})
	}
}

func TestLoadIsDeterministic(t *testing.T) {
	files := fstest.MapFS{}
	for name, src := range map[string]string{
		"b/two.md":   "## Two\n\n" + strings.Repeat("Some text about two. ", 200),
		"a/one.md":   "---\ntitle: One\ntags: [x]\n---\n## One\n\n### Sub\n\nText.",
		"c/three.md": "Intro.\n\n## Three\n\nText.",
	} {
		files[name] = &fstest.MapFile{Data: []byte(src)}
	}
	first, err := Load(context.Background(), files, "mem")
	if err != nil {
		t.Fatal(err)
	}
	second, err := Load(context.Background(), files, "mem")
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Docs) != 3 {
		t.Fatalf("got %d docs, want 3", len(first.Docs))
	}
	for i := range first.Docs {
		if renderDoc(first.Docs[i]) != renderDoc(second.Docs[i]) {
			t.Errorf("doc %s differs between two loads", first.Docs[i].Slug)
		}
	}
}

func TestLoadHonoursContext(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.md": "## A\n\nText."})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Load(ctx, os.DirFS(dir), dir); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

// A load cancelled while its pages are being parsed stops and says so,
// with no docs, though its files parse on several goroutines.
func TestLoadCancelledWhileParsing(t *testing.T) {
	site := fstest.MapFS{}
	for i := range 50 {
		site[fmt.Sprintf("p%02d.md", i)] = &fstest.MapFile{Data: []byte(fmt.Sprintf("## Page %d\n\nText.", i))}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := LoadWithOptions(ctx, site, "site", LoadOptions{Progress: func(done, total int) {
		if done == 3 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || len(res.Docs) != 0 {
		t.Errorf("got %d docs, error %v; want none and context.Canceled", len(res.Docs), err)
	}
}

// failFS fails to open the listed paths, like a file or folder the user
// may not read.
type failFS struct {
	fstest.MapFS
	fail map[string]bool
}

func (f failFS) Open(name string) (fs.File, error) {
	if f.fail[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return f.MapFS.Open(name)
}

func (f failFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if f.fail[name] {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrPermission}
	}
	return f.MapFS.ReadDir(name)
}

func (f failFS) ReadFile(name string) ([]byte, error) {
	if f.fail[name] {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrPermission}
	}
	return f.MapFS.ReadFile(name)
}

func TestLoadUnreadableFilesAreWarnings(t *testing.T) {
	fsys := failFS{
		MapFS: fstest.MapFS{
			"ok.md":            {Data: []byte("## OK\n\nText.")},
			"secret.md":        {Data: []byte("## Secret\n\nText.")},
			"locked/inside.md": {Data: []byte("## Inside\n\nText.")},
			"open/readable.md": {Data: []byte("## Readable\n\nText.")},
		},
		fail: map[string]bool{"secret.md": true, "locked": true},
	}
	res, err := Load(context.Background(), fsys, "mem")
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if len(res.Docs) != 2 {
		t.Errorf("got %d docs, want ok and open/readable", len(res.Docs))
	}
	want := []string{"locked: cannot read: permission denied", "secret.md: cannot read: permission denied"}
	var got []string
	for _, w := range res.Warnings {
		got = append(got, w.String())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings %q, want %q", got, want)
	}
}

func TestLoadNotADirectory(t *testing.T) {
	_, err := Load(context.Background(), fstest.MapFS{".": {Data: []byte("x"), Mode: 0o644}}, "file.md")
	if err == nil || !strings.Contains(err.Error(), "file.md: not a directory") {
		t.Errorf("got %v, want a not-a-directory error naming the path", err)
	}
}

// TestLoadFollowsSymlinksInside follows links to files and folders that
// stay inside the docs folder, and reports the others without failing.
func TestLoadFollowsSymlinksInside(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	docs := filepath.Join(base, "docs")
	for _, d := range []string{outside, filepath.Join(docs, "real", "deep"), filepath.Join(docs, "shared")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, content string) {
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(outside, "secret.md"), "# Secret\n\nNot part of the docs.")
	write(filepath.Join(docs, "real", "page.md"), "# Page\n\nText.")
	write(filepath.Join(docs, "real", "deep", "inner.md"), "# Inner\n\nText.")
	write(filepath.Join(docs, "shared", "common.md"), "# Common\n\nText.")
	links := map[string]string{
		"docs/alias.md":            "real/page.md",         // a file
		"docs/chain.md":            "alias.md",             // a link to a link
		"docs/mirror":              "real",                 // a folder
		"docs/real/deep/up":        "..",                   // a loop
		"docs/real/root":           "..",                   // a loop to the top
		"docs/escape.md":           "../outside/secret.md", // leaves the folder
		"docs/absolute.md":         filepath.Join(outside, "secret.md"),
		"docs/gone.md":             "nowhere.md",
		"docs/out":                 "../outside", // a folder outside
		"docs/shared/via-outside":  "../out",     // inside, but through a link that leaves
		"docs/shared/relative.md":  "../real/page.md",
		"docs/shared/self.md":      "self.md", // a link to itself
		"docs/real/deep/image.png": "nowhere.png",
	}
	for link, target := range links {
		if err := os.Symlink(target, filepath.Join(base, filepath.FromSlash(link))); err != nil {
			t.Skipf("symbolic links not supported here: %v", err)
		}
	}
	res, err := Load(context.Background(), os.DirFS(docs), docs)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	var slugs []string
	for _, d := range res.Docs {
		slugs = append(slugs, d.Slug)
		if d.Title == "Secret" {
			t.Errorf("%s: read a file outside the docs folder", d.Slug)
		}
	}
	// A linked file is read, then left out as a copy of the page it shows
	// (see dropCopies): either way it was followed.
	for _, n := range res.Notices {
		if strings.Contains(n.Msg, "a copy of") {
			slugs = append(slugs, n.Slug)
		}
	}
	slices.Sort(slugs)
	want := "alias chain mirror/deep/inner mirror/page real/deep/inner real/page shared/common shared/relative"
	if got := strings.Join(slugs, " "); got != want {
		t.Errorf("slugs\n got %s\nwant %s", got, want)
	}
	wantWarnings := map[string]string{
		"absolute.md":        "points outside the docs folder",
		"escape.md":          "points outside the docs folder",
		"gone.md":            "points to nothing",
		"out":                "points outside the docs folder",
		"real/deep/up":       "loops back to real",
		"real/root":          "loops back to the top of the docs folder",
		"mirror/deep/up":     "loops back to real",
		"mirror/root":        "loops back to the top of the docs folder",
		"shared/via-outside": "points outside the docs folder",
		"shared/self.md":     "too many levels of symbolic links",
	}
	got := map[string]string{}
	for _, w := range res.Warnings {
		got[w.Path] = w.Msg
	}
	for p, msg := range wantWarnings {
		if !strings.Contains(got[p], msg) {
			t.Errorf("%s: warning %q, want %q", p, got[p], msg)
		}
	}
	if len(res.Warnings) != len(wantWarnings) {
		t.Errorf("got %d warnings, want %d: %v", len(res.Warnings), len(wantWarnings), res.Warnings)
	}
}

// TestLoadOddFileNames loads files whose names carry control characters
// or bytes that are not UTF-8: each is slugged without them or skipped
// with a printable warning, and the rest of the folder still loads.
func TestLoadOddFileNames(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"ok.md":                 "# OK\n\nText.",
		"\x1b[31mred\x1b[0m.md": "Text in red.",
		"\x1b\x07.md":           "# Only control characters\n\nText.",
		"caf\xe9.md":            "# Latin-1 name\n\nText.",
		"latin\xe9/inside.md":   "# Inside\n\nText.",
		"esc.md":                "---\ntitle: \"\\e[2JClear \\x07 bell\"\nkeywords: [\"\\e]0;pwned\\a key\"]\n---\nText.",
	})
	res, err := Load(context.Background(), os.DirFS(dir), dir)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	var got []string
	for _, d := range res.Docs {
		got = append(got, fmt.Sprintf("%s|%s|%s", d.Slug, d.Title, strings.Join(d.Keywords, ",")))
	}
	want := []string{"[31mred[0m|red|", "esc|Clear bell|key", "ok|OK|"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("docs %q, want %q", got, want)
	}
	var warnings []string
	for _, w := range append(res.Warnings, res.Notices...) {
		s := w.String()
		if !utf8.ValidString(s) || strings.ContainsFunc(s, unicode.IsControl) {
			t.Errorf("warning %q carries a control character or a stray byte", s)
		}
		warnings = append(warnings, s)
	}
	wantWarnings := []string{
		`"\x1b\a.md": file name has no printable characters: rename the file`,
		`"caf\xe9.md": file name is not valid UTF-8: rename the file`,
		`"latin\xe9": folder name is not valid UTF-8: its files are not read; rename it`,
		`"\x1b[31mred\x1b[0m.md": control characters in the file name were left out of its slug`,
	}
	slices.Sort(warnings)
	slices.Sort(wantWarnings)
	if fmt.Sprint(warnings) != fmt.Sprint(wantWarnings) {
		t.Errorf("warnings\n got %q\nwant %q", warnings, wantWarnings)
	}
}

// TestLoadReportsProgress: every markdown file found counts once, loaded
// or skipped, in order, against the same total.
func TestLoadReportsProgress(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"a.md":        "## A\n\nText.",
		"b/broken.md": "---\ntitle: [unclosed\n---\n## B",
		"b/c.md":      "## C\n\nText.",
		"notes.txt":   "not markdown",
	})
	var got [][2]int
	res, err := LoadWithOptions(context.Background(), os.DirFS(dir), dir, LoadOptions{
		Progress: func(done, total int) { got = append(got, [2]int{done, total}) },
	})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	want := [][2]int{{0, 3}, {1, 3}, {2, 3}, {3, 3}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("progress %v, want %v", got, want)
	}
	if res.Files != 3 || len(res.Warnings) != 1 {
		t.Errorf("Files %d, warnings %v; want 3 files, the broken one skipped", res.Files, res.Warnings)
	}
}

// A docs folder is often a site's source folder: installed packages, a
// build's output and Jekyll's drafts sit in it and are no docs of the
// site. Each is left out with a notice, never as a problem; a folder of
// the same name where its generator does not put one is read.
func TestLoadLeavesOutPackagesAndBuilds(t *testing.T) {
	page := func(title string) *fstest.MapFile { return &fstest.MapFile{Data: []byte("# " + title + "\n\nText.\n")} }
	fsys := fstest.MapFS{
		"index.md":                             page("Home"),
		"node_modules/left-pad/README.md":      page("left-pad"),
		"website/node_modules/react/README.md": page("React"),
		"api/conf.py":                          {Data: []byte("project = 'x'\n")},
		"api/index.rst":                        {Data: []byte("API\n===\n\nText.\n")},
		"api/_build/html/_sources/index.rst":   {Data: []byte("API\n===\n\nOld text.\n")},
		"_config.yml":                          {Data: []byte("title: Site\n")},
		"_drafts/new-feature.md":               page("New feature"),
		"_site/index.md":                       page("Built"),
		"guides/_build/notes.md":               page("Build notes"),  // no conf.py beside it: a section
		"guides/_drafts/x.md":                  page("Drafts guide"), // no _config.yml beside it
	}
	res, err := Load(context.Background(), fsys, "docs")
	if err != nil {
		t.Fatal(err)
	}
	var slugs []string
	for _, d := range res.Docs {
		slugs = append(slugs, d.Slug)
	}
	if want := []string{"api/index", "guides/_build/notes", "guides/_drafts/x", "index"}; !slices.Equal(slugs, want) {
		t.Errorf("docs %v, want %v", slugs, want)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("problems %v, want none", res.Warnings)
	}
	var left []string
	for _, n := range res.Notices {
		if n.Kind == Excluded {
			left = append(left, n.Path)
		}
	}
	if want := []string{"_drafts", "_site", "api/_build", "node_modules", "website/node_modules"}; !slices.Equal(left, want) {
		t.Errorf("left out %v, want %v", left, want)
	}
}

// A site's page-not-found page, built (404.html) or in its sources
// (404.md), is no doc; a page about HTTP 404 errors is one, and so is an
// API's page named for the status.
func TestNotFoundPageIsLeftOut(t *testing.T) {
	res, err := Load(context.Background(), fstest.MapFS{
		"404.html":              {Data: []byte("<html><head><title>Page not found</title></head><body><main><h1>Page not found</h1><p>The page you are looking for does not exist. Go back home.</p></main></body></html>")},
		"guide/index.html":      {Data: []byte("<html><head><title>Guide</title></head><body><main><h1>Guide</h1><p>Start here.</p></main></body></html>")},
		"guide/404-errors.html": {Data: []byte("<html><head><title>404 errors</title></head><body><main><h1>404 errors</h1><p>The API answers 404 for a deleted project.</p></main></body></html>")},
		"api/status/404.html":   {Data: []byte("<html><head><title>404 Not Found</title></head><body><main><h1>404 Not Found</h1><p>The project does not exist, or the token may not see it.</p></main></body></html>")},
	}, "site")
	if err != nil {
		t.Fatal(err)
	}
	if got := docSlugs(res.Docs); !slices.Equal(got, []string{"api/status/404", "guide/404-errors", "guide/index"}) {
		t.Errorf("docs %v, want the guide's pages without the site's 404 page", got)
	}
	if !slices.ContainsFunc(res.Notices, func(w Warning) bool { return w.Path == "404.html" && w.Kind == Excluded }) {
		t.Errorf("notices %v, want 404.html left out with a notice", res.Notices)
	}
}
