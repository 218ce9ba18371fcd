package ingest

import (
	"strings"
	"unicode"
)

// inline converts the inline generator syntax of a run of prose lines
// (see convertMarkup); firstLine is the body line of its first line, for
// notes. Inline code spans are copied as they are.
func (c *converter) inline(s string, firstLine int) string {
	if !strings.ContainsAny(s, "{[!+=^:%") {
		return s
	}
	x := inlineConverter{s: s, f: newFinder(s), spans: newCodeSpans(s), line: firstLine, note: c.note, labels: c.labels}
	x.out.Grow(len(s))
	x.run()
	return x.out.String()
}

type inlineConverter struct {
	s      string
	f      *finder
	spans  *codeSpans
	out    strings.Builder
	note   func(int, string)
	labels map[string]bool // link reference definitions of the doc
	// line is the body line of s[lineAt], advanced lazily for notes.
	line, lineAt int
	// dropFrom, dropTo is a range of s to leave out when the scan gets
	// there: the "][label]" of a reference link whose label is undefined.
	dropFrom, dropTo int
}

func (x *inlineConverter) noteAt(i int, msg string) {
	x.line += strings.Count(x.s[x.lineAt:i], "\n")
	x.lineAt = i
	x.note(x.line, msg)
}

func (x *inlineConverter) run() {
	s := x.s
	for i := 0; i < len(s); {
		if i == x.dropFrom && x.dropTo > i {
			i = x.dropTo
			continue
		}
		end, repl, ok := i, "", false
		switch s[i] {
		case '`':
			end = x.spans.end(i, x.f.paragraphEnd(i))
			x.out.WriteString(s[i:end])
			i = end
			continue
		case '<':
			if end, ok = x.htmlCode(i); ok {
				x.out.WriteString(s[i:end])
				i = end
				continue
			}
		case '\\':
			end = min(i+2, len(s))
			x.out.WriteString(s[i:end])
			i = end
			continue
		case '{':
			end, repl, ok = x.brace(i)
		case '[':
			end, repl, ok = x.wikiLink(i)
			if !ok {
				end, ok = x.undefinedReference(i)
			}
		case '!':
			if strings.HasPrefix(s[i:], "![[") {
				if j := x.f.within("]]", i+3, x.f.lineEnd(i)); j >= 0 {
					end, ok = j+2, true // an embedded file or image: nothing to read
				}
			}
		case '%':
			// Obsidian's comment, "%%…%%", shows nowhere in the note; it
			// may span lines, not paragraphs.
			if strings.HasPrefix(s[i:], "%%") {
				if j := x.f.within("%%", i+2, x.f.paragraphEnd(i)); j >= 0 {
					end, ok = j+2, true
				}
			}
		case '+':
			end, repl, ok = x.keys(i)
		case '=', '^':
			if end, ok = x.blockID(i); !ok {
				end, repl, ok = x.mark(i)
			}
		case ':':
			end, ok = x.icon(i)
		}
		if !ok {
			x.out.WriteByte(s[i])
			i++
			continue
		}
		x.out.WriteString(repl)
		i = end
	}
}

// htmlCodeTags are the HTML elements whose text is code or keys, copied
// as written like a code span: `<code>{{customer.name}}</code>` is a help
// desk's placeholder, not a template's output.
var htmlCodeTags = []string{"code", "kbd", "samp", "pre"}

// htmlCode returns the end of an HTML code element opening at i, within
// its paragraph (a <pre> may hold blank lines: within the run), and
// whether one opens there. Tags are matched as exporters write them, in
// lower case.
func (x *inlineConverter) htmlCode(i int) (int, bool) {
	rest := x.s[i+1:]
	for _, tag := range htmlCodeTags {
		if !strings.HasPrefix(rest, tag) || len(rest) == len(tag) || rest[len(tag)] != '>' && rest[len(tag)] != ' ' {
			continue
		}
		limit := x.f.paragraphEnd(i)
		if tag == "pre" {
			limit = len(x.s)
		}
		closer := "</" + tag + ">"
		if j := x.f.within(closer, i+len(tag)+1, limit); j >= 0 {
			return j + len(closer), true
		}
		return 0, false
	}
	return 0, false
}

// brace handles what starts with "{": Hugo shortcodes, mdBook directives,
// Liquid and Jinja tags, CriticMarkup and attribute lists.
func (x *inlineConverter) brace(i int) (int, string, bool) {
	s, f := x.s, x.f
	rest := s[i:]
	switch {
	case strings.HasPrefix(rest, "{{<") || strings.HasPrefix(rest, "{{%"):
		closer := ">}}"
		if rest[2] == '%' {
			closer = "%}}"
		}
		j := f.within(closer, i+3, f.paragraphEnd(i))
		if j < 0 {
			return 0, "", false
		}
		return j + 3, shortcodeText(s[i+3:j], x.inLinkDestination()), true
	case strings.HasPrefix(rest, "{{"):
		j := f.within("}}", i+2, f.lineEnd(i))
		if j < 0 {
			return 0, "", false
		}
		if rest[2] == '#' {
			if name, include := mdBookDirective(s[i+3 : j]); include {
				x.noteAt(i, mdBookNote(name))
			}
		}
		return j + 2, "", true // a template's output: not written by the author
	case strings.HasPrefix(rest, "{%"):
		j := f.within("%}", i+2, f.paragraphEnd(i))
		if j < 0 {
			return 0, "", false
		}
		end := j + 2
		switch name, arg := liquidHead(s[i:end]); name {
		case "include", "include_relative", "render":
			if text := includeContent(arg); text != "" {
				return end, text, true
			}
			x.noteAt(i, "Liquid "+name+" left out: docent does not read included files")
		case "octicon":
			return x.octicon(i, end, shortcodeArgs(arg).named["aria-label"])
		case "term":
			// Home Assistant's glossary term, "{% term automation %}" or
			// "{% term automation automations %}": the page shows the
			// word (the second, when given) with a tooltip.
			args := shortcodeArgs(arg)
			if text := args.positional(1); text != "" {
				return end, text, true
			}
			return end, args.positional(0), true
		case "my":
			// Home Assistant's link into the reader's own instance: it
			// shows its title ("**Settings** > **Devices & services**"),
			// or a badge, which has no text.
			return end, shortcodeArgs(arg).named["title"], true
		case "else", "elsif", "when":
			// Between two branches written on one line ("…a custom
			// domain.{% elsif ghes %}Sites are…", "`url`{% else %}`url`"):
			// each branch is text of its own.
			if i > 0 && end < len(s) && s[i-1] != ' ' && s[i-1] != '\n' && s[end] != ' ' && s[end] != '\n' {
				return end, " ", true
			}
		}
		if i > 0 && end < len(s) && strings.IndexByte(".!?:;,", s[i-1]) >= 0 && isAlnum(s[end]) {
			return end, " ", true // "…domain.{% endif %}Next…": a sentence ends
		}
		return end, "", true
	case len(rest) > 3 && strings.Contains("+-~=>", rest[1:2]) && rest[2] == rest[1]:
		return x.critic(i)
	}
	if end, repl, ok := x.role(i); ok {
		return end, repl, true
	}
	limit := f.lineEnd(i)
	if i > 0 && (s[i-1] == ']' || s[i-1] == ')') {
		// Pandoc writes attributes after a link, an image or a span and
		// wraps them with the paragraph: "[Edit](url){.edit" and
		// "target="_blank"}" on the next line.
		limit = f.paragraphEnd(i)
	}
	if end, ok := attributeListEnd(s, i, limit); ok {
		return end, "", true
	}
	return 0, "", false
}

// blockID reports Obsidian's block id ending a paragraph or a list item,
// " ^backup-codes": an anchor for links and embeds, shown nowhere.
func (x *inlineConverter) blockID(i int) (int, bool) {
	s := x.s
	if s[i] != '^' || i == 0 || s[i-1] != ' ' {
		return 0, false
	}
	j := i + 1
	for j < len(s) && (isAlnum(s[j]) || s[j] == '-') {
		j++
	}
	if j == i+1 || j < len(s) && s[j] != '\n' {
		return 0, false
	}
	return j, true
}

// octicon converts GitHub Docs' icon tag, "{% octicon "gear"
// aria-label="The gear icon" %}", ending at end. Before a word ("**{%
// octicon "sync" %} Re-run jobs**") the word is the button's label and
// the icon shows no text: it goes, with the space after it, so the bold
// stays bold. Standing for the button itself ("click {% octicon "sync"
// aria-label="Re-run job" %}."), it reads as its label.
func (x *inlineConverter) octicon(i, end int, label string) (int, string, bool) {
	s := x.s
	if end < len(s) && (s[end] == ' ' || s[end] == '\t') {
		if i > 0 && strings.IndexByte("*_ \t", s[i-1]) >= 0 {
			for end < len(s) && (s[end] == ' ' || s[end] == '\t') {
				end++
			}
		}
		return end, "", true
	}
	return end, strings.Join(strings.Fields(label), " "), true
}

// role converts a MyST role, "{ref}`label`" or "{doc}`text <page>`", to
// what it shows (see mystRole).
func (x *inlineConverter) role(i int) (int, string, bool) {
	s := x.s
	j := i + 1
	for j < len(s) && j-i <= 40 && (isAlnum(s[j]) || j > i+1 && strings.IndexByte("-_:.+", s[j]) >= 0) {
		j++
	}
	if j == i+1 || j+1 >= len(s) || s[j] != '}' || s[j+1] != '`' || !isASCIILetter(s[i+1]) {
		return 0, "", false
	}
	open := j + 1
	end := x.spans.end(open, x.f.paragraphEnd(open))
	run := 0
	for open+run < len(s) && s[open+run] == '`' {
		run++
	}
	if end-open <= 2*run {
		return 0, "", false // no closing backticks: literal text
	}
	content := strings.TrimSpace(strings.ReplaceAll(s[open+run:end-run], "\n", " "))
	text, code := mystRole(strings.ToLower(s[i+1:j]), content)
	if code {
		return end, s[open:end], true
	}
	return end, text, true
}

// critic handles CriticMarkup: additions and highlights keep their text,
// a substitution keeps its new text, deletions and comments go.
func (x *inlineConverter) critic(i int) (int, string, bool) {
	kind := x.s[i+1]
	closer := map[byte]string{'+': "++}", '-': "--}", '~': "~~}", '=': "==}", '>': "<<}"}[kind]
	j := x.f.within(closer, i+3, x.f.paragraphEnd(i))
	if j < 0 {
		return 0, "", false
	}
	inner := x.s[i+3 : j]
	switch kind {
	case '-', '>':
		inner = ""
	case '~':
		_, inner, _ = strings.Cut(inner, "~>")
	}
	return j + 3, inner, true
}

// inLinkDestination reports whether the output ends inside "](": a
// shortcode there stands for a URL.
func (x *inlineConverter) inLinkDestination() bool {
	out := x.out.String()
	// Only the end matters: a bounded look keeps a long run of spaces
	// before many shortcodes from being scanned again for each.
	tail := strings.TrimRight(out[max(0, len(out)-64):], " <")
	return strings.HasSuffix(tail, "](")
}

// wikiLink turns "[[Page]]", "[[Page|label]]" and "[[Page#Section]]" into
// the text Obsidian shows.
func (x *inlineConverter) wikiLink(i int) (int, string, bool) {
	if !strings.HasPrefix(x.s[i:], "[[") {
		return 0, "", false
	}
	j := x.f.within("]]", i+2, x.f.lineEnd(i))
	if j < 0 {
		return 0, "", false
	}
	inner := x.s[i+2 : j]
	if inner == "" || x.bracketBetween(i+2, j) {
		return 0, "", false
	}
	if _, label, ok := strings.Cut(inner, "|"); ok && strings.TrimSpace(label) != "" {
		return j + 2, strings.TrimSpace(label), true
	}
	target, _, _ := strings.Cut(inner, "|")
	target, _, _ = strings.Cut(target, "#^") // a block reference is an id
	parts := strings.FieldsFunc(target, func(r rune) bool { return r == '#' })
	return j + 2, strings.TrimSpace(strings.Join(parts, " > ")), true
}

// undefinedReference handles "[text][label]" whose label the doc does not
// define (MkDocs resolves such labels site-wide): the reader sees a link
// reading "text", so the brackets and the label go and the text stays,
// converted like any other.
func (x *inlineConverter) undefinedReference(i int) (int, bool) {
	lineEnd := x.f.lineEnd(i)
	j := x.f.within("][", i+1, lineEnd)
	if j < 0 || x.bracketBetween(i+1, j) {
		return 0, false
	}
	k := x.f.within("]", j+2, lineEnd)
	if k < 0 {
		return 0, false
	}
	label := x.s[j+2 : k]
	if label == "" {
		label = x.s[i+1 : j]
	}
	if strings.ContainsAny(label, "[") || x.labels[normalizeLabel(label)] {
		return 0, false
	}
	x.dropFrom, x.dropTo = j, k+1
	return i + 1, true
}

// normalizeLabel folds a link label as CommonMark matches them.
func normalizeLabel(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// bracketBetween reports a '[' or ']' in s[from:to]; the finder keeps
// asking this from every opener of a long line linear.
func (x *inlineConverter) bracketBetween(from, to int) bool {
	return x.f.within("[", from, to) >= 0 || x.f.within("]", from, to) >= 0
}

// keys turns "++ctrl+alt+del++" into "Ctrl+Alt+Del".
func (x *inlineConverter) keys(i int) (int, string, bool) {
	if !strings.HasPrefix(x.s[i:], "++") {
		return 0, "", false
	}
	j := x.f.within("++", i+2, x.f.lineEnd(i))
	if j <= i+2 {
		return 0, "", false
	}
	var names []string
	for _, k := range strings.Split(x.s[i+2:j], "+") {
		if q := strings.Trim(k, `"`); len(k) > 2 && k[0] == '"' && k[len(k)-1] == '"' {
			names = append(names, q)
			continue
		}
		if k == "" || strings.IndexFunc(k, func(r rune) bool { return !(r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) }) >= 0 {
			return 0, "", false
		}
		words := strings.FieldsFunc(k, func(r rune) bool { return r == '-' || r == '_' })
		for w := range words {
			words[w] = capitalize(words[w])
		}
		names = append(names, strings.Join(words, " "))
	}
	return j + 2, strings.Join(names, "+"), true
}

// mark turns "==marked==" and "^^inserted^^" into their text.
func (x *inlineConverter) mark(i int) (int, string, bool) {
	delim := x.s[i : i+1]
	delim += delim
	if !strings.HasPrefix(x.s[i:], delim) || strings.HasPrefix(x.s[i+2:], delim[:1]) {
		return 0, "", false
	}
	j := x.f.within(delim, i+2, x.f.lineEnd(i))
	if j <= i+2 {
		return 0, "", false
	}
	inner := x.s[i+2 : j]
	if inner != strings.TrimSpace(inner) {
		return 0, "", false
	}
	return j + 2, inner, true
}

// icon drops an icon or emoji shortcode (":material-account:",
// ":octicons-heart-16:", ":smile:"): a picture, not words.
func (x *inlineConverter) icon(i int) (int, bool) {
	s := x.s
	if i > 0 && (isAlnum(s[i-1]) || s[i-1] >= 0x80 || s[i-1] == ':') {
		return 0, false
	}
	const maxName = 64
	letter := false
	for j := i + 1; j < len(s) && j-i <= maxName+1; j++ {
		c := s[j]
		switch {
		case c >= 'a' && c <= 'z':
			letter = true
		case c >= '0' && c <= '9' || c == '_' || c == '-' || c == '+':
		case c == ':' && j > i+1 && letter:
			if j+1 < len(s) && (isAlnum(s[j+1]) || s[j+1] >= 0x80) {
				return 0, false
			}
			return j + 1, true
		default:
			return 0, false
		}
	}
	return 0, false
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// attributeListEnd reports whether an attribute list ("{ .md-button }",
// "{#id}", "{: .note}", "{ data-search-exclude }") starts at s[i] and
// where it ends. A list must name a class, an id or a key=value, or be
// written with inner spaces or kramdown's colon, so that "{slug}" in prose
// is left alone.
func attributeListEnd(s string, i, limit int) (int, bool) {
	j := i + 1
	kramdown := j < limit && s[j] == ':'
	if kramdown {
		j++
	}
	spaced := j < limit && s[j] == ' '
	tokens, marked := 0, false
	for j < limit {
		switch c := s[j]; {
		case c == ' ' || c == '\t' || c == '\n':
			j++
		case c == '}':
			if tokens == 0 || !(marked || kramdown || spaced && s[j-1] == ' ') {
				return 0, false
			}
			return j + 1, true
		case c == '.' || c == '#':
			k := j + 1
			for k < limit && isAttrNameByte(s[k]) {
				k++
			}
			if k == j+1 {
				return 0, false
			}
			tokens, marked, j = tokens+1, true, k
		case isAttrNameByte(c):
			k := j
			for k < limit && isAttrNameByte(s[k]) {
				k++
			}
			tokens, j = tokens+1, k
			if j < limit && s[j] == '=' {
				marked = true
				end, ok := attrValueEnd(s, j+1, limit)
				if !ok {
					return 0, false
				}
				j = end
			}
		default:
			return 0, false
		}
	}
	return 0, false
}

func isAttrNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == ':'
}

func attrValueEnd(s string, j, limit int) (int, bool) {
	if j < limit && (s[j] == '"' || s[j] == '\'') {
		k := strings.IndexByte(s[j+1:limit], s[j])
		if k < 0 {
			return 0, false
		}
		return j + k + 2, true
	}
	k := j
	for k < limit && s[k] != ' ' && s[k] != '}' {
		k++
	}
	return k, k > j
}

// shortcodeText is what a Hugo shortcode ("{{< name args >}}", inner is
// what lies between the delimiters) shows: in a link's destination the
// page it points to, elsewhere its caption, title or label if it has one.
// Paired shortcodes ({{< hint >}}…{{< /hint >}}) lose their tags and keep
// the text between them.
func shortcodeText(inner string, inLink bool) string {
	inner = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(inner), "/"))
	if strings.HasPrefix(inner, "/") {
		return "" // a closing tag, or a commented-out shortcode {{</* … */>}}
	}
	name, rest, _ := strings.Cut(inner, " ")
	args := shortcodeArgs(rest)
	if inLink {
		target := args.first("ref", "page", "url", "src", "link")
		if target == "" {
			target = args.positional(0)
		}
		if target == "" {
			return "#" + name
		}
		return strings.ReplaceAll(target, " ", "%20")
	}
	return args.first("caption", "title", "label", "alt")
}

// hugoArgs are a shortcode's parameters, named or positional.
type hugoArgs struct {
	named map[string]string
	pos   []string
}

func (a hugoArgs) first(keys ...string) string {
	for _, k := range keys {
		if v := strings.TrimSpace(a.named[k]); v != "" {
			return v
		}
	}
	return ""
}

func (a hugoArgs) positional(i int) string {
	if i < len(a.pos) {
		return a.pos[i]
	}
	return ""
}

// shortcodeArgs parses `key="value" key=value "positional" positional`;
// values may be quoted with " or `.
func shortcodeArgs(s string) hugoArgs {
	a := hugoArgs{named: map[string]string{}}
	for i := 0; i < len(s); {
		if s[i] == ' ' || s[i] == '\t' || s[i] == '\n' {
			i++
			continue
		}
		key := ""
		if s[i] != '"' && s[i] != '`' {
			k := i
			for k < len(s) && s[k] != '=' && s[k] != ' ' && s[k] != '\t' && s[k] != '\n' {
				k++
			}
			if k < len(s) && s[k] == '=' {
				key, i = strings.ToLower(s[i:k]), k+1
			}
		}
		var val string
		if i < len(s) && (s[i] == '"' || s[i] == '`') {
			end := strings.IndexByte(s[i+1:], s[i])
			if end < 0 {
				val, i = s[i+1:], len(s)
			} else {
				val, i = s[i+1:i+1+end], i+end+2
			}
		} else {
			k := i
			for k < len(s) && s[k] != ' ' && s[k] != '\t' && s[k] != '\n' {
				k++
			}
			val, i = s[i:k], k
		}
		if key != "" {
			a.named[key] = val
		} else {
			a.pos = append(a.pos, val)
		}
	}
	return a
}
