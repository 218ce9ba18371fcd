package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
)

// Docs sites built with Jupyter Book, nbsphinx, mkdocs-jupyter or Quarto
// publish Jupyter notebooks as pages: a notebook is a JSON file of cells,
// markdown cells the page's text, code cells its examples. docent reads it
// as the markdown the site shows: the markdown cells in order, each code
// cell as a fenced block in the kernel's language (code stays out of a
// chunk's text, as in any doc), a leading raw cell of YAML front matter
// (Quarto's) as the page's front matter. Outputs are left out: they are
// the results of running the code, images and tables of numbers, not the
// page's prose. So are cells the site hides (Jupyter Book's remove-cell
// tag) and other raw cells, which the site shows only in one output
// format.

// isNotebook reports a Jupyter notebook.
func isNotebook(name string) bool { return strings.EqualFold(path.Ext(name), ".ipynb") }

// notebookJSON is the part of nbformat 4 (and 3, whose cells are in
// worksheets) docent reads.
type notebookJSON struct {
	Cells      []notebookCell `json:"cells"`
	Worksheets []struct {
		Cells []notebookCell `json:"cells"`
	} `json:"worksheets"`
	Metadata struct {
		Kernelspec struct {
			Language string `json:"language"`
		} `json:"kernelspec"`
		LanguageInfo struct {
			Name string `json:"name"`
		} `json:"language_info"`
	} `json:"metadata"`
}

type notebookCell struct {
	Type     string       `json:"cell_type"`
	Source   notebookText `json:"source"`
	Input    notebookText `json:"input"`    // nbformat 3's code cells
	Language string       `json:"language"` // nbformat 3's code cells
	Level    int          `json:"level"`    // nbformat 3's heading cells
	Metadata notebookMeta `json:"metadata"`
}

type notebookMeta struct {
	Tags []string `json:"tags"`
}

// notebookText is a cell's source: one string, or a list of lines each
// keeping its newline, as nbformat writes it.
type notebookText string

func (t *notebookText) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var parts []string
		if err := json.Unmarshal(b, &parts); err != nil {
			return err
		}
		*t = notebookText(strings.Join(parts, ""))
		return nil
	}
	if string(b) == "null" {
		*t = ""
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*t = notebookText(s)
	return nil
}

// hiddenCellTags are the cell tags with which a site leaves a whole cell
// off the page (Jupyter Book's, and nbsphinx's metadata written as tags).
var hiddenCellTags = []string{"remove-cell", "remove_cell", "nbsphinx-hidden"}

// notebookMarkdown returns the markdown a notebook's page shows, or an
// error saying what in the file is not a notebook and where.
func notebookMarkdown(src []byte) (string, error) {
	var nb notebookJSON
	if err := json.Unmarshal(src, &nb); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			return "", notebookError{line: lineAt(src, int(syn.Offset)), msg: "not a Jupyter notebook: invalid JSON: " + syn.Error()}
		case errors.As(err, &typ):
			return "", notebookError{line: lineAt(src, int(typ.Offset)), msg: fmt.Sprintf("not a Jupyter notebook: %s holds a JSON %s", typ.Field, typ.Value)}
		}
		return "", notebookError{msg: "not a Jupyter notebook: " + err.Error()}
	}
	cells := nb.Cells
	for _, ws := range nb.Worksheets {
		cells = append(cells, ws.Cells...)
	}
	if len(cells) == 0 {
		return "", notebookError{msg: "not a Jupyter notebook: no cells"}
	}
	lang := nb.Metadata.Kernelspec.Language
	if lang == "" {
		lang = nb.Metadata.LanguageInfo.Name
	}
	var b strings.Builder
	for i, c := range cells {
		if slices.ContainsFunc(c.Metadata.Tags, func(t string) bool { return slices.Contains(hiddenCellTags, t) }) {
			continue
		}
		text := strings.TrimRight(string(c.Source), "\n")
		switch c.Type {
		case "markdown":
		case "heading": // nbformat 3
			text = strings.Repeat("#", min(max(c.Level, 1), 6)) + " " + strings.TrimSpace(text)
		case "code":
			if c.Input != "" {
				text = strings.TrimRight(string(c.Input), "\n")
			}
			l := lang
			if c.Language != "" {
				l = c.Language
			}
			text = fenced(text, l)
		case "raw":
			// Quarto writes a notebook's front matter as its first cell,
			// raw; any other raw cell is for one output format only.
			if i == 0 && strings.HasPrefix(text, "---") {
				b.WriteString(text)
				b.WriteString("\n\n")
			}
			continue
		default:
			continue
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		b.WriteString(text)
		b.WriteString("\n\n")
	}
	return b.String(), nil
}

// fenced writes code as a fenced block in lang.
func fenced(code, lang string) string {
	fence, info := fenceFor(code, lang)
	return fence + info + "\n" + code + "\n" + fence
}

// fenceFor returns the fence of a code block holding code, longer than
// any run of backticks in it so that no line of it closes the block, and
// the info string naming lang: one word, without a backtick.
func fenceFor(code, lang string) (fence, info string) {
	if f := strings.Fields(strings.ReplaceAll(lang, "`", " ")); len(f) > 0 {
		info = f[0]
	}
	return strings.Repeat("`", max(3, longestRun(code, '`')+1)), info
}

// notebookError is a notebook that cannot be read, at a line of the file
// when the JSON says where.
type notebookError struct {
	line int
	msg  string
}

func (e notebookError) Error() string { return e.msg }
