package ingest

import (
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// ReadMe (readme.com, formerly readme.io) wrote its rich blocks, before
// its MDX editor, as "magic blocks": a line "[block:callout]", a JSON
// object, a line "[/block]". Its GitHub sync and the rdme CLI export
// pages so. Read as CommonMark, a magic block is a paragraph of JSON: the
// plain text would hold keys and braces, a callout's words would sit in
// quotes among them, and a code sample would not be code. So a block
// becomes the markdown its rendered page shows: a callout its title and
// text, an API header a heading, code samples fenced blocks, an image its
// caption, a parameters table a table, HTML an HTML block, an embed its
// title. A block that shows no text docent can read goes, with a note.
//
// A block's lines are collected until "[/block]" (see readmeLine on
// converter) and converted once: each line is read once, or twice when
// the block turns out unreadable and its lines are read again as text,
// so the conversion stays linear.

// readmeOpener matches the line that opens a magic block.
var readmeOpener = regexp.MustCompile(`^\[block:([\w-]+)\]$`)

// readmeCloser is the line that closes one.
const readmeCloser = "[/block]"

// readmeMaxCols bounds a parameters table's columns: "cols" and the
// "R-C" keys are the author's numbers, and a table as wide as they say
// would let a few bytes of JSON grow into megabytes of empty cells. ReadMe's
// editor makes tables a handful of columns wide.
const readmeMaxCols = 64

// readmePending is a magic block whose lines are being collected.
type readmePending struct {
	name  string
	line  int      // body line of the opener
	lines []string // the raw lines, opener included
}

// readmeLine handles a line while a magic block is open, and reports
// whether it took it. It runs before anything else in converter.line:
// the JSON is not markdown, and its indentation opens or closes nothing.
func (c *converter) readmeLine(n int, raw string) bool {
	b := c.readme
	if b == nil {
		return false
	}
	trimmed := strings.TrimSpace(raw)
	switch {
	case trimmed == readmeCloser:
		c.readme = nil
		md, msg, ok := readmeBlock(b.name, strings.Join(b.lines[1:], "\n"))
		if !ok {
			c.note(b.line, "ReadMe [block:"+b.name+"] is not valid JSON: left as text")
			c.readmeText(b.line, append(b.lines, raw))
			return true
		}
		if msg != "" {
			c.note(b.line, msg)
		}
		c.readmeMarkdown(b.line, b.lines[0], md)
	case readmeOpener.MatchString(trimmed):
		// Another block opens before this one closed: this one never
		// will (blocks do not nest), so its lines are text, and the new
		// one is collected in its place.
		c.readmeUnclosed()
		c.readme = &readmePending{name: readmeOpener.FindStringSubmatch(trimmed)[1], line: n, lines: []string{raw}}
	default:
		b.lines = append(b.lines, raw)
	}
	return true
}

// readmeOpen starts collecting a block if the line opens one.
func (c *converter) readmeOpen(n int, raw, trimmed string) bool {
	if c.readmeLiteral || trimmed[0] != '[' {
		return false
	}
	m := readmeOpener.FindStringSubmatch(trimmed)
	if m == nil {
		return false
	}
	// The prose before stays pending: if the block is unreadable, its
	// opener is read again and continues that paragraph, as written.
	c.readme = &readmePending{name: m[1], line: n, lines: []string{raw}}
	return true
}

// readmeUnclosed gives back, as text, the lines of a block the body
// ended (or another block began) without closing.
func (c *converter) readmeUnclosed() {
	b := c.readme
	if b == nil {
		return
	}
	c.readme = nil
	c.note(b.line, "ReadMe [block:"+b.name+"] has no [/block]: left as text")
	c.readmeText(b.line, b.lines)
}

// readmeText reads the lines of an unreadable block as the text they
// are, numbered from first. None of them opens a block again: the opener
// is the one that failed, and the others held no opener (it would have
// ended the collection), so no line is read more than twice.
func (c *converter) readmeText(first int, lines []string) {
	for i, l := range lines {
		c.readmeLiteral = i == 0
		c.line(first+i, l)
	}
	c.readmeLiteral = false
}

// readmeMarkdown reads a converted block as if the author had written
// its markdown where the block stood: indented as the opener was (so a
// block in an admonition or a list item stays in it), on the opener's
// line for notes. Blank lines around it keep it from running into the
// paragraphs next to it.
func (c *converter) readmeMarkdown(n int, opener, md string) {
	indent := opener[:len(opener)-len(strings.TrimLeft(opener, " \t"))]
	c.readmeLiteral = true // a callout's text may show "[block:x]" as words
	c.line(n, "")
	if md != "" {
		for _, l := range strings.Split(md, "\n") {
			if l != "" {
				l = indent + l
			}
			c.line(n, l)
		}
		c.line(n, "")
	}
	c.readmeLiteral = false
}

// readmeBlock converts the JSON of a magic block to markdown. ok is false
// when the JSON is not an object; note says what was left out, if
// anything. The markdown holds no NUL or other control character but
// tab and newline: the JSON may escape any.
func readmeBlock(name, body string) (md, note string, ok bool) {
	var v map[string]any
	if err := json.Unmarshal([]byte(body), &v); err != nil || v == nil {
		return "", "", false
	}
	var parts []string
	add := func(s string) {
		if s = strings.TrimSpace(cleanControls(s)); s != "" {
			parts = append(parts, s)
		}
	}
	switch name {
	case "callout":
		// A box with an icon (which carries no words), the title in bold
		// and the text: the title becomes a paragraph of its own, as
		// other converters write a container's title.
		add(oneLine(readmeString(v["title"])))
		add(readmeString(v["body"]))
	case "api-header":
		// ReadMe renders it as a heading, level 2 unless it says, with the
		// HTTP method as a badge: the title names the section.
		if title := oneLine(cleanControls(readmeString(v["title"]))); title != "" {
			level := 2
			if l, ok := v["level"].(float64); ok && l >= 1 && l <= 6 {
				level = int(l)
			}
			add(strings.Repeat("#", level) + " " + title)
		}
	case "code":
		// One fenced block per tab. The tabs' labels ("cURL", "Node")
		// are left out: they repeat the language the fence names, and
		// the plain text, which leaves code out, would show them alone.
		for _, e := range jsonArray(v["codes"]) {
			m, _ := e.(map[string]any)
			code := strings.Trim(cleanControls(readmeString(m["code"])), "\n")
			if strings.TrimSpace(code) == "" {
				continue
			}
			fence := strings.Repeat("`", max(3, longestRun(code, '`')+1))
			parts = append(parts, fence+infoString(readmeString(m["language"]))+"\n"+code+"\n"+fence)
		}
	case "image":
		// The picture shows no words; its caption does.
		for _, e := range jsonArray(v["images"]) {
			m, _ := e.(map[string]any)
			add(readmeString(m["caption"]))
		}
	case "parameters":
		var dropped bool
		md, dropped = readmeTable(v)
		add(md)
		if dropped {
			note = "ReadMe [block:parameters] has more than " + strconv.Itoa(readmeMaxCols) + " columns: the others left out"
		}
	case "html":
		// The HTML is the page's, read as any HTML block. Its blank lines
		// go: one would end the HTML block, and an indented line after it
		// would be read as code. So does the first line's indentation, for
		// the same reason; the others keep theirs (a <pre> inside).
		var lines []string
		for _, l := range strings.Split(cleanControls(readmeString(v["html"])), "\n") {
			if strings.TrimSpace(l) == "" {
				continue
			}
			if len(lines) == 0 {
				l = strings.TrimLeft(l, " \t")
			}
			lines = append(lines, l)
		}
		add(strings.Join(lines, "\n"))
	case "embed":
		// A video or a page shown in a frame: the text is its title.
		add(oneLine(readmeString(v["title"])))
	case "tutorial-tile":
		note = "ReadMe [block:tutorial-tile] left out: a tile linking a recipe, not text of the page"
	default:
		note = "ReadMe [block:" + name + "] left out: docent does not read this kind of block"
	}
	return strings.Join(parts, "\n\n"), note, true
}

// readmeTable writes a parameters block as a markdown table: "h-C" keys
// are the header's cells, "R-C" keys the rows'. ReadMe shows the "cols"
// and "rows" the block declares, so cells past them are not shown; without
// them, the keys say. A row with no text is left out (it shows none), and
// so are columns past readmeMaxCols, which dropped reports.
func readmeTable(v map[string]any) (md string, dropped bool) {
	data, _ := v["data"].(map[string]any)
	declCols, declRows := jsonCount(v["cols"]), jsonCount(v["rows"])
	cols := max(declCols, 0)
	header := map[int]string{}
	rows := map[int]map[int]string{}
	for k, val := range data {
		r, col, _ := strings.Cut(k, "-")
		ci, err := strconv.Atoi(col)
		if err != nil || ci < 0 || declCols >= 0 && ci >= declCols {
			continue
		}
		ri, err := strconv.Atoi(r)
		if r != "h" && (err != nil || ri < 0 || declRows >= 0 && ri >= declRows) {
			continue
		}
		if ci >= readmeMaxCols {
			dropped = true
			continue
		}
		cols = max(cols, ci+1)
		if r == "h" {
			header[ci] = tableCell(val)
			continue
		}
		if rows[ri] == nil {
			rows[ri] = map[int]string{}
		}
		rows[ri][ci] = tableCell(val)
	}
	if cols > readmeMaxCols {
		// Declared, not filled: the columns past the bound hold no text.
		cols = readmeMaxCols
	}
	var order []int
	for ri, row := range rows {
		for _, cell := range row {
			if cell != "" {
				order = append(order, ri)
				break
			}
		}
	}
	sort.Ints(order)
	if cols == 0 || len(order) == 0 && strings.TrimSpace(strings.Join(mapValues(header), "")) == "" {
		return "", dropped // a table without text shows nothing to read
	}
	var b strings.Builder
	row := func(cells map[int]string) {
		b.WriteString("|")
		for i := range cols {
			b.WriteString(" " + cells[i] + " |")
		}
		b.WriteString("\n")
	}
	row(header)
	b.WriteString("|" + strings.Repeat(" --- |", cols) + "\n")
	for _, ri := range order {
		row(rows[ri])
	}
	return strings.TrimSuffix(b.String(), "\n"), dropped
}

// jsonCount is a count the JSON gives ("cols": 2), capped so that it
// converts to an int, or -1 if it gives none.
func jsonCount(v any) int {
	f, ok := v.(float64)
	if !ok || f < 0 {
		return -1
	}
	return int(min(f, 1<<30))
}

// tableCell is a cell's value on one line, its pipes escaped so they do
// not split the cell.
func tableCell(v any) string {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case float64:
		s = strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		s = strconv.FormatBool(x)
	}
	s = oneLine(cleanControls(s))
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '|' && (i == 0 || s[i-1] != '\\') {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func mapValues(m map[int]string) []string {
	vs := make([]string, 0, len(m))
	for _, v := range m {
		vs = append(vs, v)
	}
	return vs
}

func readmeString(v any) string {
	s, _ := v.(string)
	return s
}

func jsonArray(v any) []any {
	a, _ := v.([]any)
	return a
}

// oneLine joins a value's lines: a title or a cell is one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// cleanControls removes the control characters JSON may escape ("\u0000",
// "\u001b", "\r") but tab and newline, which are text.
func cleanControls(s string) string {
	if !strings.ContainsFunc(s, isStrayControl) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isStrayControl(r) {
			return -1
		}
		return r
	}, s)
}

func isStrayControl(r rune) bool {
	return r != '\n' && r != '\t' && unicode.IsControl(r)
}

// infoString is a code sample's language as a fence's info string: a
// word, since a backtick or a space in it would change the fence.
func infoString(lang string) string {
	lang = strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '+' || r == '#' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, lang)
	return lang
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}
