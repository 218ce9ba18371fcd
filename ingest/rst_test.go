package ingest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/docent-sh/docent/knowledge"
)

// sphinxProject is a small Sphinx source folder in the conventions real
// projects use: conf.py with substitutions, a toctree-only index, labels
// and cross-references across pages, a shared fragment included from the
// source root, and the common directives and tables.
func sphinxProject() fstest.MapFS {
	return fstest.MapFS{
		"conf.py": {Data: []byte(`project = "Kilnforge"
version = '2.4'
release = "2.4.1"
extensions = ["sphinx_tabs.tabs"]
rst_epilog = """
.. |product| replace:: Kilnforge
"""
`)},
		"index.rst": {Data: []byte(`Kilnforge documentation
=======================

.. toctree::
   :maxdepth: 2

   user/retries
   admin/deploy
`)},
		"shared/limits.rst": {Data: []byte("The default retry limit is **5** attempts.\n")},
		"shared/notes.md":   {Data: []byte("## Release notes\n\n- Retries are *logged*.\n")},
		"admin/deploy.rst": {Data: []byte(`.. _deploying:

Deploying |product|
===================

Run the server with :command:` + "`kiln serve`" + `. Retried jobs are described in :ref:` + "`dead-letter`" + `.

.. tabs::

   .. tab:: Linux

      Run ` + "``systemctl restart kiln``" + `.

   .. tab:: macOS

      Run ` + "``brew services restart kiln``" + `.
`)},
		"user/retries.rst": {Data: []byte(`:orphan:

.. meta::
   :description: How retries work
   :keywords: retry, backoff

.. index:: failed jobs
   single: dead-letter queue; retention
   !DLQ

=====================
 Retries and backoff
=====================

|product| |version| retries failed jobs. See :ref:` + "`deploying`" + ` and :doc:` + "`../admin/deploy`" + `,
or :ref:` + "`the queue <dead-letter>`" + `.

.. contents::
   :local:

.. _dead-letter:

Dead-letter queue
-----------------

Jobs that fail too often go to the DLQ. Open :menuselection:` + "`Jobs --> Dead`" + ` and press :kbd:` + "`Ctrl+R`" + `.
Set :envvar:` + "`KILN_RETRIES`" + ` or call :py:func:` + "`~kilnforge.client.retry`" + `.

.. note:: The DLQ keeps jobs
   for 7 days.

.. include:: /shared/limits.rst

.. include:: ../missing.rst

.. include:: ../shared/notes.md
   :parser: myst_parser.sphinx_

Example::

    kiln retry --all

Backoff strategies
~~~~~~~~~~~~~~~~~~

.. list-table:: Backoff
   :header-rows: 1

   * - Strategy
     - Delay
   * - linear
     - 10 s

+--------+---------+
| Option | Default |
+========+=========+
| max    | 5       |
| tries  |         |
+--------+---------+

=====  ======
Name   Value
=====  ======
jitter 0.1
=====  ======

.. versionadded:: 2.1
   The ` + "``--all``" + ` flag.

.. autoclass:: kilnforge.Client

.. py:function:: retry(job_id, delay=None)

   Retries a job.

   :param job_id: the job

.. this comment is not shown
   on the page

See ` + "`the site <https://kiln.example>`_" + ` and Python_.

.. _Python: https://python.org
`)},
	}
}

func loadSphinx(t *testing.T, fsys fstest.MapFS) (map[string]knowledge.Doc, Result) {
	t.Helper()
	res, err := Load(context.Background(), fsys, "docs")
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]knowledge.Doc{}
	for _, d := range res.Docs {
		docs[d.Slug] = d
	}
	return docs, res
}

func TestRSTReadsWhatSphinxShows(t *testing.T) {
	docs, res := loadSphinx(t, sphinxProject())
	r, ok := docs["user/retries"]
	if !ok {
		t.Fatalf("no user/retries doc; got %v", res.Docs)
	}
	if r.Title != "Retries and backoff" || r.Description != "How retries work" || strings.Join(r.Keywords, ",") != "retry,backoff,failed jobs,dead-letter queue,retention,dlq" {
		t.Errorf("title %q, description %q, keywords %v", r.Title, r.Description, r.Keywords)
	}
	for _, want := range []string{
		"# Retries and backoff\n",
		"## Dead-letter queue\n",                                         // the second style is the second level
		"### Backoff strategies\n",                                       // and the third the third
		"Kilnforge 2.4 retries failed jobs",                              // conf.py's rst_epilog and version
		"See Deploying Kilnforge and Deploying Kilnforge, or the queue.", // :ref: and :doc: show titles
		"Open **Jobs > Dead** and press Ctrl+R.",
		"Set `KILN_RETRIES` or call `retry()`.",
		"Note\n\nThe DLQ keeps jobs for 7 days.",
		"The default retry limit is **5** attempts.",  // the included fragment
		"## Release notes\n\n- Retries are *logged*.", // markdown included as it is
		"Example:\n\n```\nkiln retry --all\n```",
		"| Strategy | Delay |\n| --- | --- |\n| linear | 10 s |",
		"| Option | Default |\n| --- | --- |\n| max tries | 5 |",
		"| Name | Value |\n| --- | --- |\n| jitter | 0.1 |",
		"New in version 2.1: The `--all` flag.",
		"`retry(job_id, delay=None)`\n\nRetries a job.\n\n- **param job_id**: the job",
		"See the site and Python.",
	} {
		if !strings.Contains(r.Content, want) {
			t.Errorf("content lacks %q:\n%s", want, r.Content)
		}
	}
	for _, gone := range []string{"orphan", "toctree", "contents::", ":ref:", "|product|", "comment is not shown", "autoclass", "https://python.org", ".. _"} {
		if strings.Contains(r.Content, gone) {
			t.Errorf("content shows %q:\n%s", gone, r.Content)
		}
	}
	d := docs["admin/deploy"]
	for _, want := range []string{"# Deploying Kilnforge", "`kiln serve`", "described in Dead-letter queue.", "Linux\n\nRun `systemctl restart kiln`.", "macOS\n\nRun `brew services restart kiln`."} {
		if !strings.Contains(d.Content, want) {
			t.Errorf("admin/deploy lacks %q:\n%s", want, d.Content)
		}
	}
	if _, ok := docs["shared/limits"]; ok {
		t.Error("the included fragment is also a page of its own")
	}
	var notes []string
	for _, n := range res.Notices {
		notes = append(notes, n.String())
	}
	all := strings.Join(notes, "\n")
	for _, want := range []string{"user/retries.rst:34: include of ../missing.rst left out", "user/retries.rst:70: autodoc directive left out", "shared/limits.rst: included by user/retries.rst"} {
		if !strings.Contains(all, want) {
			t.Errorf("notices lack %q:\n%s", want, all)
		}
	}
}

// A fragment's text is part of the page's version: editing it is a new
// version of every page that includes it.
func TestRSTIncludedTextVersionsThePage(t *testing.T) {
	fsys := sphinxProject()
	before, _ := loadSphinx(t, fsys)
	fsys["shared/limits.rst"] = &fstest.MapFile{Data: []byte("The default retry limit is **3** attempts.\n")}
	after, _ := loadSphinx(t, fsys)
	if before["user/retries"].ContentHash == after["user/retries"].ContentHash {
		t.Error("editing an included fragment left the page's hash unchanged")
	}
	if before["admin/deploy"].ContentHash != after["admin/deploy"].ContentHash {
		t.Error("a page that does not include the fragment changed")
	}
}

// Includes that name each other end at the depth limit, with a note.
func TestRSTIncludeCycleEnds(t *testing.T) {
	docs, res := loadSphinx(t, fstest.MapFS{
		"a.rst": {Data: []byte("A\n=\n\nText of a.\n\n.. include:: b.inc\n")},
		"b.inc": {Data: []byte("Text of b.\n\n.. include:: c.inc\n")},
		"c.inc": {Data: []byte("Text of c.\n\n.. include:: b.inc\n")},
	})
	if got := strings.Count(docs["a"].Content, "Text of b."); got != maxIncludeDepth/2 {
		t.Errorf("b's text %d times, want %d:\n%s", got, maxIncludeDepth/2, docs["a"].Content)
	}
	if !strings.Contains(res.Notices[0].Msg, "nested too deep") {
		t.Errorf("notices %v", res.Notices)
	}
}

// A page that is only a toctree, or only a comment, has no text: left
// out, with the reason.
func TestRSTWithoutTextIsLeftOut(t *testing.T) {
	_, err := ParseDoc("c.rst", []byte(".. a comment\n\n.. toctree::\n\n   a\n   b\n"))
	var w Warning
	if !errors.As(err, &w) || w.Kind != Excluded || !strings.Contains(w.Msg, "no text") {
		t.Fatalf("err %v", err)
	}
}

// Headings are in the order the file first uses each style, an overlined
// style apart from the same underline alone, as docutils reads them; an
// underline under four characters and shorter than its title is text.
func TestRSTSectionLevels(t *testing.T) {
	doc, err := ParseDoc("s.rst", []byte("####\nPart\n####\n\nIntro.\n\nChapter\n*******\n\nText.\n\nSection\n=======\n\nMore.\n\nOther chapter\n*************\n\nEnd.\n\nShort\n===\n\nUnder a short underline.\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Part\n", "## Chapter\n", "### Section\n", "## Other chapter\n", "Short ===\n\nUnder"} {
		if !strings.Contains(doc.Content, want) {
			t.Errorf("content lacks %q:\n%s", want, doc.Content)
		}
	}
}

// FuzzRST feeds arbitrary text to the reStructuredText reader: it never
// panics or hangs, gives valid UTF-8 and clean titles and chunk lines, or
// a warning naming the file.
func FuzzRST(f *testing.F) {
	for _, p := range []string{"user/retries.rst", "admin/deploy.rst", "index.rst"} {
		f.Add(string(sphinxProject()[p].Data))
	}
	for _, s := range []string{
		"T\n=\n\n+--+--+\n|é|ü|\n+==+==+\n|a b|\n+--+\n",
		"=== ===\nä   b\n=== ===\n\n.. list-table::\n\n   * - a\n   - b\n",
		"* a\n\n  * b\n\n    .. note:: x\n\n       - y\n",
		".. csv-table:: T\n   :header: \"a\", \"b\n\n   1, \"2\n",
		"``a`` ``b`` :ref:`x <` `y`_ |z| [#]_ \\ \\* :py:func:`~a.b`",
		"\t\tx\n  \ty\n        z\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) { checkParsed(t, "guides/fuzz.rst", src) })
}

// A Sphinx project's pages are in the extensions conf.py's source_suffix
// declares: Django's docs are .txt files of reStructuredText.
func TestSphinxSourceSuffix(t *testing.T) {
	page := "=========\nUser auth\n=========\n\nSee :doc:`/topics/sessions` for how long a login lasts.\n"
	sessions := "Sessions\n========\n\nA session lasts two weeks.\n"
	for _, tc := range []struct {
		conf  string
		slugs []string
	}{
		{"project = 'x'\nsource_suffix = '.txt'\n", []string{"index", "topics/sessions"}},
		{"source_suffix = {\n    '.rst': 'restructuredtext',\n    '.txt': 'restructuredtext',\n    '.md': 'markdown',\n}\n", []string{"index", "topics/sessions"}},
		{"source_suffix = ['.rst']\n", nil},
		{"source_suffix = {'.txt': 'markdown'}\n", nil}, // MyST's, not reStructuredText: not read as it
		{"project = 'x'\n", nil},
	} {
		fsys := fstest.MapFS{
			"conf.py":             {Data: []byte(tc.conf)},
			"index.txt":           {Data: []byte(page)},
			"topics/sessions.txt": {Data: []byte(sessions)},
			"other.md":            {Data: []byte("# Other\n\nA page.\n")},
		}
		res, err := Load(context.Background(), fsys, "docs")
		if err != nil {
			t.Fatal(err)
		}
		var slugs []string
		for _, d := range res.Docs {
			if d.Slug == "other" {
				continue
			}
			slugs = append(slugs, d.Slug)
			if d.Slug == "index" && (d.Title != "User auth" || !strings.Contains(d.Chunks[0].Text, "See Sessions for how long")) {
				t.Errorf("%q: index titled %q, text %q: want the :doc: role read as the page's title", tc.conf, d.Title, d.Chunks[0].Text)
			}
		}
		if !slices.Equal(slugs, tc.slugs) {
			t.Errorf("%q: docs %v, want %v", tc.conf, slugs, tc.slugs)
		}
	}
}

// FuzzSphinxSuffixes feeds conf.py text to sphinxSuffixes: every suffix
// it returns is one extension, lower-case, that no other reader claims.
func FuzzSphinxSuffixes(f *testing.F) {
	for _, s := range []string{"source_suffix = '.txt'", "source_suffix = {'.txt': 'restructuredtext', '.md': 'markdown'}", "source_suffix = ['.rst', '.TXT', \".rest\"]", "source_suffix = (\n'.a.b',\n)", "source_suffix = {"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, conf string) {
		for _, ext := range sphinxSuffixes(conf) {
			if !strings.HasPrefix(ext, ".") || strings.Count(ext, ".") != 1 || ext != strings.ToLower(ext) || isDocFile("x"+ext) || isHTMLPage("x"+ext) {
				t.Fatalf("sphinxSuffixes(%q) returned %q", conf, ext)
			}
		}
	})
}

// A file conf.py's exclude_patterns names is no page, as Sphinx builds
// none of it; a page still includes it.
func TestSphinxExcludePatterns(t *testing.T) {
	fsys := fstest.MapFS{
		"docs/conf.py":              {Data: []byte("project = 'x'\nexclude_patterns = [\n    'README.rst',\n    \"includes/*\",\n    '**/old-*.rst',\n    'drafts',\n]\n")},
		"docs/index.rst":            {Data: []byte("Home\n====\n\n.. include:: includes/warning.rst\n")},
		"docs/includes/warning.rst": {Data: []byte("Backups run nightly.\n")},
		"docs/README.rst":           {Data: []byte("Building the docs\n=================\n\nRun make html.\n")},
		"docs/guide/old-setup.rst":  {Data: []byte("Old setup\n=========\n\nGone.\n")},
		"docs/guide/setup.rst":      {Data: []byte("Setup\n=====\n\nInstall it.\n")},
		"docs/drafts/next.rst":      {Data: []byte("Next\n====\n\nSoon.\n")},
		"docs/sub/README.rst":       {Data: []byte("Sub readme\n==========\n\nKept: the pattern names the top one.\n")},
		"notes/README.rst":          {Data: []byte("Notes\n=====\n\nOutside conf.py's folder: kept.\n")},
	}
	res, err := Load(context.Background(), fsys, "root")
	if err != nil {
		t.Fatal(err)
	}
	var slugs []string
	for _, d := range res.Docs {
		slugs = append(slugs, d.Slug)
		if d.Slug == "docs/index" && !strings.Contains(d.Content, "Backups run nightly.") {
			t.Errorf("index lost its include: %q", d.Content)
		}
	}
	if want := []string{"docs/guide/setup", "docs/index", "docs/sub/readme", "notes/readme"}; !slices.Equal(slugs, want) {
		t.Errorf("docs %v, want %v", slugs, want)
	}
	var left []string
	for _, n := range res.Notices {
		if n.Kind == Excluded && strings.Contains(n.Msg, "exclude_patterns") {
			left = append(left, n.Path)
		}
	}
	if want := []string{"docs/README.rst", "docs/drafts/next.rst", "docs/guide/old-setup.rst", "docs/includes/warning.rst"}; !slices.Equal(left, want) {
		t.Errorf("left out %v, want %v", left, want)
	}
}

// FuzzSphinxPattern: any exclude pattern compiles, and one without
// special characters matches itself alone.
func FuzzSphinxPattern(f *testing.F) {
	for _, s := range []string{"_build", "**/old-*.rst", "a/[!b]?", "[", "[]]", "x[\\]"} {
		f.Add(s, "a/b")
	}
	f.Fuzz(func(t *testing.T, pat, p string) {
		re := sphinxPattern(pat)
		re.MatchString(p)
		if utf8.ValidString(pat) && !strings.ContainsAny(pat, "*?[") && !re.MatchString(pat) {
			t.Fatalf("%q does not match itself (%s)", pat, re)
		}
	})
}
