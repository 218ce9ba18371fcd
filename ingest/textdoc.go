package ingest

import (
	"path"
	"slices"
	"strings"
)

// Some teams keep their knowledge base as plain text files: notes and
// procedures typed in an editor, a wiki or a ticket system exported as
// .txt, a manual written before markdown. A folder without markdown,
// reStructuredText, AsciiDoc, notebooks or HTML pages is read as its .txt
// files. A line in capitals is a section heading, as in a plain-text note
// (see noteMarkdown), and so is a line underlined with = or -, which
// markdown reads as one. Text that looks like markup is text: "<" and
// "&" are escaped, so "<filename>" stays on the page.
//
// Beside other docs, .txt files are the project's other files (a
// requirements list, robots.txt, a build's CMakeLists.txt, Sphinx's
// copies of its sources): they are not read.

// notDocTexts are the names, without extension and case, of .txt files
// that are a tool's input, never a doc: a site's robots.txt, CMake's
// build file, Python's constraints (and any requirements file:
// requirements-dev.txt, docs/requirements.txt).
var notDocTexts = []string{"constraints", "robots", "cmakelists"}

// isTextDoc reports a plain-text file that may be a doc.
func isTextDoc(name string) bool {
	stem, ok := strings.CutSuffix(strings.ToLower(path.Base(name)), ".txt")
	return ok && stem != "" && !slices.Contains(notDocTexts, stem) && !strings.Contains(stem, "requirements")
}

// textMarkdown returns the lines of a plain-text doc as markdown: markup
// characters escaped, capitals lines made headings.
func textMarkdown(lines []string) []string {
	esc := strings.NewReplacer("&", "&amp;", "<", "&lt;")
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = esc.Replace(l)
	}
	return strings.Split(noteMarkdown(strings.Join(out, "\n")), "\n")
}
