package ingest

import (
	"path"
	"regexp"
	"strings"
)

// MyST (Sphinx's markdown, Jupyter Book) writes its directives as fences
// whose info string is a name in braces, "```{note}" or ":::{warning}",
// and its roles as a name in braces before a code span, "{ref}`label`".
// Read as CommonMark, a directive is a code block: the note's text would
// be left out of the plain text, and a role would leave "{ref}" in it. So
// a directive that holds prose becomes its title and its text, one that
// holds code stays a fenced block, and one that shows no text of its own
// (a toctree, an include) goes; a role becomes the words the reader sees.

// mystAdmonitions are the directives Sphinx renders as a box titled with
// the directive's name when it has no title of its own.
var mystAdmonitions = map[string]string{
	"attention": "Attention", "caution": "Caution", "danger": "Danger", "error": "Error", "hint": "Hint",
	"important": "Important", "note": "Note", "seealso": "See also", "tip": "Tip", "warning": "Warning",
	"todo": "To do", "versionadded": "New", "versionchanged": "Changed", "deprecated": "Deprecated",
}

// mystCode are the directives whose body is code or data, not prose:
// their fence stays a code block, with the language the argument names.
var mystCode = map[string]bool{
	"code": true, "code-block": true, "sourcecode": true, "code-cell": true, "math": true,
	"mermaid": true, "graphviz": true, "raw": true, "eval-rst": true, "csv-table": true,
	"literalinclude": true, "jupyter-execute": true, "ipython": true, "plantuml": true,
}

// mystSilent are the directives that show no text written in them: a
// table of contents, an index entry, an image or an included file.
var mystSilent = map[string]bool{
	"toctree": true, "tableofcontents": true, "contents": true, "index": true, "image": true,
	"include": true, "bibliography": true,
}

// mystProse are the other directives whose body is markdown a reader
// sees. A backtick fence with a name not listed stays code: R Markdown and
// Quarto write their executable cells as "```{r}" and "```{python}".
var mystProse = map[string]bool{
	"admonition": true, "dropdown": true, "card": true, "tab-item": true, "tab-set": true, "grid": true,
	"grid-item": true, "grid-item-card": true, "figure": true, "margin": true, "sidebar": true, "topic": true,
	"epigraph": true, "pull-quote": true, "highlights": true, "rubric": true, "div": true, "container": true,
	"glossary": true, "list-table": true, "table": true, "exercise": true, "solution": true, "aside": true,
	"only": true, "centered": true, "hlist": true,
}

// mystUntitled are the directives whose argument is not a title: a
// figure's image path, a div's or grid's classes and sizes.
var mystUntitled = map[string]bool{
	"figure": true, "div": true, "container": true, "grid": true, "grid-item": true, "tab-set": true,
	"only": true, "highlight": true, "cssclass": true, "rst-class": true,
}

// mystOpener matches a directive's opening fence: "```{note}",
// "````{admonition} Title", ":::{tip} Title", "~~~{code-block} python".
var mystOpener = regexp.MustCompile("^(`{3,}|~{3,}|:{3,}) *\\{([A-Za-z][\\w:.-]*)\\} *(.*)$")

// admonishOpener matches an mdbook-admonish block's opening fence:
// "```admonish", then maybe a kind, a quoted title and options.
var admonishOpener = regexp.MustCompile("^(`{3,}|~{3,}) *admonish(?:[ \t]+(.*))?$")

// admonishTitleOption finds a title given as an option, title="…".
var admonishTitleOption = regexp.MustCompile(`\btitle="([^"]*)"`)

// admonishTitle is the title an mdbook-admonish block shows, given what
// follows "admonish": "warning "Data loss"", "info title="Read me"
// collapsible=true", "tip" or nothing.
func admonishTitle(rest string) string {
	kind, args, _ := strings.Cut(strings.TrimSpace(rest), " ")
	if strings.ContainsAny(kind, "=\"") {
		kind, args = "", rest
	}
	args = strings.TrimSpace(args)
	if t, _, ok := strings.Cut(strings.TrimPrefix(args, `"`), `"`); ok && strings.HasPrefix(args, `"`) {
		return t
	}
	if m := admonishTitleOption.FindStringSubmatch(args); m != nil {
		return m[1]
	}
	if t := colonAdmonitions[strings.ToLower(kind)]; t != "" {
		return t
	}
	return "Note"
}

// mystTarget matches a MyST target line, "(label)=": an anchor for
// cross-references, nothing a reader sees.
var mystTarget = regexp.MustCompile(`^\([^()\s]+\)=$`)

// mystOption matches a directive option line, ":class: tip".
var mystOption = regexp.MustCompile(`^:[\w-]+:(?:\s.*)?$`)

// directive handles a line that opens or closes a MyST directive, and
// reports whether it did. Directives that hold prose are tracked on
// c.directives: their body is not indented, so they cannot be a frame.
func (c *converter) directive(n int, trimmed, indent string) bool {
	if len(c.directives) > 0 {
		top := c.directives[len(c.directives)-1]
		if strings.TrimSpace(strings.TrimLeft(trimmed, top[:1])) == "" && len(trimmed) >= len(top) && trimmed[0] == top[0] {
			c.flush()
			c.emit("")
			c.directives = c.directives[:len(c.directives)-1]
			return true
		}
	}
	if m := admonishOpener.FindStringSubmatch(trimmed); m != nil && !strings.Contains(m[2], "`") {
		// mdbook-admonish: "```admonish warning "Title"" is a box of prose
		// titled with its title, else its kind (a note by default).
		c.flush()
		c.title(n, indent, admonishTitle(m[2]))
		c.directives = append(c.directives, m[1])
		return true
	}
	m := mystOpener.FindStringSubmatch(trimmed)
	if m == nil {
		return false
	}
	fence, name, arg := m[1], strings.ToLower(m[2]), strings.TrimSpace(m[3])
	if fence[0] == '`' && strings.Contains(arg, "`") {
		return false // not a fence: inline code
	}
	if fence[0] != ':' && !mystCode[name] && !mystSilent[name] && !mystProse[name] && mystAdmonitions[name] == "" {
		return false // not MyST's: a code block, as CommonMark reads it
	}
	c.flush()
	switch {
	case mystCode[name] && fence[0] != ':':
		// A colon fence is for directives holding markdown; written around
		// code it is shown as a box like any other, below.
		lang := firstWord(arg)
		if name == "literalinclude" || name == "csv-table" || name == "math" {
			lang = ""
		}
		c.emit(indent + fence + lang)
		f := &c.stack[len(c.stack)-1]
		f.fence = codeFence{char: fence[0], n: len(fence), indent: len(indent)}
		c.skipOptions = true
		if name == "literalinclude" {
			c.note(n, "MyST literalinclude left out: docent does not read included files")
		}
	case mystSilent[name]:
		c.skipUntil = fence
		if name == "include" {
			c.note(n, "MyST include left out: docent does not read included files")
		}
	default:
		title := arg
		if mystUntitled[name] || mystCode[name] {
			title = ""
		}
		if t, ok := mystAdmonitions[name]; ok && title == "" {
			title = t
		}
		c.title(n, indent, title)
		c.directives = append(c.directives, fence)
		c.skipOptions = true
	}
	return true
}

// mystRole is the text a MyST role shows, given its name and its content
// (what lies between the backticks), and whether it is code. A cross
// reference shows the title of what it points to, which only the rendered
// site knows: the explicit title if one is written ("text <target>"),
// else the target's last part as words. Roles that mark up code (code,
// kbd, file, py:func...) stay code spans.
func mystRole(name, content string) (string, bool) {
	title, target := content, ""
	if i := strings.LastIndex(content, "<"); i >= 0 && strings.HasSuffix(content, ">") {
		title, target = strings.TrimSpace(content[:i]), content[i+1:len(content)-1]
	}
	switch name {
	case "ref", "doc", "numref", "any", "download", "eq", "external":
		if target == "" {
			target, title = content, ""
		}
		if title != "" {
			return title, false
		}
		t := strings.TrimPrefix(target, "~")
		t, _, _ = strings.Cut(t, "#")
		t = strings.TrimSuffix(path.Base(t), path.Ext(t))
		return strings.Join(strings.FieldsFunc(t, func(r rune) bool { return r == '-' || r == '_' }), " "), false
	case "term", "abbr", "sub", "sup", "emphasis", "strong", "dfn", "title-reference":
		return title, false
	case "guilabel":
		return strings.ReplaceAll(title, "&", ""), false
	case "menuselection":
		return strings.ReplaceAll(title, "-->", ">"), false
	}
	return content, true
}
