package ingest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

// jupyterBookPage is a notebook as Jupyter Book publishes it: markdown
// cells of prose, code cells with outputs, a cell the site hides.
const jupyterBookPage = `{
 "cells": [
  {"cell_type": "markdown", "metadata": {}, "source": ["# Exporting a dataset\n", "\n", "Exports run in the background and land in **Downloads**."]},
  {"cell_type": "code", "execution_count": 3, "metadata": {}, "outputs": [{"output_type": "stream", "name": "stdout", "text": ["job 42 queued\n"]}],
   "source": ["job = client.export(\"sales\")\n", "print(job.id)"]},
  {"cell_type": "markdown", "metadata": {"tags": ["remove-cell"]}, "source": "Internal: the export worker is flaky on Mondays."},
  {"cell_type": "markdown", "metadata": {}, "source": "## Export limits\n\nAn export holds at most 2 million rows."},
  {"cell_type": "raw", "metadata": {}, "source": "\\newpage"}
 ],
 "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
 "nbformat": 4, "nbformat_minor": 5
}`

func TestNotebookReadsTheCellsAPageShows(t *testing.T) {
	doc, _, err := parseDoc("guides/exporting.ipynb", []byte(jupyterBookPage))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Title != "Exporting a dataset" || doc.Slug != "guides/exporting" {
		t.Errorf("title %q, slug %q", doc.Title, doc.Slug)
	}
	var text, content strings.Builder
	var paths []string
	for _, c := range doc.Chunks {
		text.WriteString(c.Text + "\n")
		content.WriteString(c.Content + "\n")
		paths = append(paths, c.HeaderPath)
	}
	for _, want := range []string{"Exports run in the background and land in Downloads.", "An export holds at most 2 million rows."} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	if !strings.Contains(content.String(), "```python\njob = client.export(\"sales\")\nprint(job.id)\n```") {
		t.Errorf("the code cell is not a python block of the page:\n%s", content.String())
	}
	for _, gone := range []string{"job 42 queued", "flaky on Mondays", "newpage", "client.export"} {
		if strings.Contains(text.String(), gone) {
			t.Errorf("text keeps %q (an output, a hidden cell, a raw cell or code):\n%s", gone, text.String())
		}
	}
	if !strings.Contains(strings.Join(paths, "|"), "Exporting a dataset > Export limits") {
		t.Errorf("header paths %q: want the markdown cell's heading as a section", paths)
	}
}

// nbformat 3 keeps cells in worksheets, code in "input" and headings in
// cells of their own; Quarto writes front matter as a first raw cell.
func TestNotebookOlderFormatAndFrontMatter(t *testing.T) {
	v3 := `{"worksheets": [{"cells": [
		{"cell_type": "heading", "level": 1, "metadata": {}, "source": ["Backups"]},
		{"cell_type": "markdown", "metadata": {}, "source": ["Backups run nightly."]},
		{"cell_type": "code", "language": "r", "metadata": {}, "input": ["backup()"], "outputs": []}]}],
		"metadata": {}, "nbformat": 3, "nbformat_minor": 0}`
	doc, _, err := parseDoc("backups.ipynb", []byte(v3))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Title != "Backups" || !strings.Contains(doc.Content, "```r\nbackup()\n```") || !strings.Contains(doc.Chunks[0].Text, "Backups run nightly.") {
		t.Errorf("title %q, content:\n%s", doc.Title, doc.Content)
	}
	quarto := `{"cells": [
		{"cell_type": "raw", "metadata": {}, "source": ["---\n", "title: \"Restoring a backup\"\n", "description: \"Bring back a night's state\"\n", "---"]},
		{"cell_type": "markdown", "metadata": {}, "source": ["Pick a night, then **Restore**."]}],
		"metadata": {}, "nbformat": 4, "nbformat_minor": 4}`
	doc, _, err = parseDoc("restore.ipynb", []byte(quarto))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Title != "Restoring a backup" || strings.Contains(doc.Content, "title:") {
		t.Errorf("title %q, content:\n%s", doc.Title, doc.Content)
	}
}

// A code cell holding a fence of its own stays one block.
func TestNotebookFencesCodeHoldingFences(t *testing.T) {
	got := fenced("s = \"\"\"\n```\nnot the end\n```\n\"\"\"", "python`` 3")
	if !strings.HasPrefix(got, "````python\n") || !strings.HasSuffix(got, "\n````") {
		t.Errorf("fenced = %q", got)
	}
}

// What is not a notebook is a problem named with where it went wrong;
// nothing of it is stored.
func TestNotebookErrorsNameTheProblem(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"{\n \"cells\": [\n  {\"cell_type\": \"markdown\" \"source\": \"x\"}\n ]\n}", "invalid JSON"},
		{`{"cells": "none"}`, "cells holds a JSON string"},
		{`{"cells": []}`, "no cells"},
		{`[1, 2]`, "not a Jupyter notebook"},
	} {
		_, _, err := parseDoc("bad.ipynb", []byte(tc.src))
		var w Warning
		if !errors.As(err, &w) || w.Kind != Problem || !strings.Contains(w.Msg, tc.want) || w.Path != "bad.ipynb" {
			t.Errorf("%q: error %v, want a problem of bad.ipynb saying %q", tc.src, err, tc.want)
		}
	}
	_, _, err := parseDoc("bad.ipynb", []byte("{\n \"cells\": [\n  {\"cell_type\": \"markdown\" \"source\": \"x\"}\n ]\n}"))
	if w := (Warning{}); errors.As(err, &w) && w.Line != 3 {
		t.Errorf("invalid JSON reported at line %d, want 3", w.Line)
	}
}

// Quarto's pages are markdown: a .qmd is read with its front matter and
// the partials it includes, which are not pages of their own.
func TestQuartoPagesAndIncludes(t *testing.T) {
	fsys := fstest.MapFS{
		"guide/exports.qmd": {Data: []byte("---\ntitle: \"Exports\"\n---\n\nExports run nightly.\n\n{{< include _limits.qmd >}}\n\n```{python}\n#| echo: false\nexport()\n```\n")},
		"guide/_limits.qmd": {Data: []byte("An export holds at most 2 million rows.\n")},
		"analysis.Rmd":      {Data: []byte("# Analysis\n\nCharts refresh hourly.\n")},
		"nb/intro.ipynb":    {Data: []byte(`{"cells": [{"cell_type": "markdown", "metadata": {}, "source": "# Intro\n\nStart here."}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)},
		"nb/broken.ipynb":   {Data: []byte(`{"cells": [`)},
	}
	res, err := Load(context.Background(), fsys, "docs")
	if err != nil {
		t.Fatal(err)
	}
	slugs := map[string]string{}
	for _, d := range res.Docs {
		slugs[d.Slug] = d.Content
	}
	if len(slugs) != 3 || !strings.Contains(slugs["guide/exports"], "at most 2 million rows") || slugs["analysis"] == "" || slugs["nb/intro"] == "" {
		t.Errorf("docs %v", slugs)
	}
	if len(res.Warnings) != 1 || res.Warnings[0].Path != "nb/broken.ipynb" {
		t.Errorf("warnings %v: want the broken notebook's alone", res.Warnings)
	}
}

func FuzzNotebook(f *testing.F) {
	f.Add(jupyterBookPage)
	for _, s := range []string{
		`{"cells": [{"cell_type": "code", "source": "` + "```" + `"}]}`,
		`{"cells": [{"cell_type": "heading", "level": 99, "source": "x"}]}`,
		`{"cells": [{"cell_type": "raw", "source": "---\ntitle: [\n---"}]}`,
		`{"worksheets": [{"cells": [{"cell_type": "markdown", "source": null}]}]}`,
		`{"cells": [{"cell_type": "markdown", "source": ["\u001b[31mred"]}]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) { checkParsed(t, "guides/fuzz.ipynb", src) })
}
