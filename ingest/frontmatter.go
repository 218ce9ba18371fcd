package ingest

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Front matter is YAML, but docs only ever use a sliver of it: scalars,
// quoted strings, flow lists and block lists. This parser accepts that
// sliver (plus nested blocks and block scalars under keys it ignores) and
// rejects the rest with the line number, because a silently misread title
// is worse than a skipped file with a precise warning.

const fmDelimiter = "---"

// frontMatter holds the keys docent uses; all others are ignored.
type frontMatter struct {
	title string
	terms []string // keywords, aliases and tags, in that order, as written
}

// keywords returns the front matter keywords lower-cased, trimmed and
// deduplicated.
func (fm frontMatter) keywords() []string {
	var out []string
	seen := make(map[string]bool, len(fm.terms))
	for _, k := range fm.terms {
		k = strings.ToLower(strings.Join(strings.Fields(k), " "))
		if k == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, k)
	}
	return out
}

// fmError is a front matter problem on a 1-based line of the file.
// ParseDoc turns it into a Warning naming the file.
type fmError struct {
	line int
	msg  string
}

// splitFrontMatter separates the front matter from the body. lines are the
// normalized lines of the whole file, so indexes map to line numbers.
func splitFrontMatter(lines []string) (frontMatter, []string, *fmError) {
	start := 0
	for start < len(lines) && lines[start] == "" {
		start++
	}
	if start == len(lines) || lines[start] != fmDelimiter {
		return frontMatter{}, lines, nil
	}
	for end := start + 1; end < len(lines); end++ {
		if lines[end] == fmDelimiter {
			p := fmParser{lines: lines[start+1 : end], firstLine: start + 2}
			fm, err := p.parse()
			if err != nil {
				return frontMatter{}, nil, err
			}
			return fm, lines[end+1:], nil
		}
	}
	return frontMatter{}, nil, &fmError{line: start + 1, msg: "no closing --- line"}
}

// fmValue is a parsed value: a scalar, a list of scalars, or something
// nested that docent has no use for.
type fmValue struct {
	scalar string
	list   []string
	isList bool
	nested bool // a mapping or a list of non-scalars
}

type fmParser struct {
	lines     []string
	firstLine int // line number of lines[0]
	i         int // next line to read
}

func (p *fmParser) errorf(i int, format string, args ...any) *fmError {
	return &fmError{line: p.firstLine + i, msg: fmt.Sprintf(format, args...)}
}

func (p *fmParser) parse() (frontMatter, *fmError) {
	var fm frontMatter
	seen := map[string]int{}
	for p.i < len(p.lines) {
		at := p.i
		line := p.lines[at]
		if isBlankOrComment(line) {
			p.i++
			continue
		}
		if indent(line) > 0 || isListItem(line) {
			return fm, p.errorf(at, "%s without a key above it: %s", describeLine(line), quoteLine(line))
		}
		key, rest, ok := splitKey(line)
		if !ok {
			return fm, p.errorf(at, "line is not `key: value` or a list item: %s", quoteLine(line))
		}
		lower := strings.ToLower(key)
		if first, dup := seen[lower]; dup {
			return fm, p.errorf(at, "duplicate key %q (first on line %d)", key, first)
		}
		seen[lower] = p.firstLine + at
		p.i++

		v, err := p.value(at, rest)
		if err != nil {
			return fm, err
		}
		switch lower {
		case "title":
			if v.isList || v.nested {
				return fm, p.errorf(at, "title must be a string")
			}
			fm.title = strings.Join(strings.Fields(v.scalar), " ")
		case "keywords", "aliases", "tags":
			if v.nested {
				return fm, p.errorf(at, "%s must be a list of strings", key)
			}
			if v.isList {
				fm.terms = append(fm.terms, v.list...)
			} else {
				// "keywords: a, b" is one YAML string, but authors mean two.
				fm.terms = append(fm.terms, strings.Split(v.scalar, ",")...)
			}
		}
	}
	return fm, nil
}

// value parses what follows "key:" on line at, consuming any indented
// lines that belong to it.
func (p *fmParser) value(at int, rest string) (fmValue, *fmError) {
	rest = strings.TrimSpace(rest)
	switch {
	case rest == "" || strings.HasPrefix(rest, "#"):
		return p.block()
	case isBlockScalarHeader(rest):
		return fmValue{scalar: p.blockScalar(rest[0] == '>')}, nil
	}
	v, msg := parseInline(rest)
	if msg != "" {
		return v, p.errorf(at, "%s", msg)
	}
	if !v.isList && !v.nested && !isQuoted(rest) {
		// A plain scalar may continue on indented lines.
		for p.i < len(p.lines) && p.lines[p.i] != "" && indent(p.lines[p.i]) > 0 {
			cont, msg := parsePlain(strings.TrimSpace(p.lines[p.i]))
			if msg != "" {
				return v, p.errorf(p.i, "%s", msg)
			}
			v.scalar += " " + cont
			p.i++
		}
	}
	return v, nil
}

// block parses the indented lines (or unindented list items, which YAML
// allows) under a key with no inline value.
func (p *fmParser) block() (fmValue, *fmError) {
	var v fmValue
	var scalar []string // lines of a plain scalar written below its key
	itemIndent := -1
	for p.i < len(p.lines) {
		line := p.lines[p.i]
		if isBlankOrComment(line) {
			p.i++
			continue
		}
		ind := indent(line)
		if ind == 0 && !isListItem(line) {
			break // the next key
		}
		if strings.Contains(line[:ind], "\t") {
			return v, p.errorf(p.i, "tabs are not allowed for indentation")
		}
		text := line[ind:]
		switch {
		case itemIndent < 0 && !v.nested && isListItem(text):
			itemIndent = ind
			v.isList = true
			fallthrough
		case itemIndent == ind && isListItem(text):
			item, err := p.listItem(text)
			if err != nil {
				return v, err
			}
			if item.isList || item.nested {
				v.nested = true
			} else {
				v.list = append(v.list, item.scalar)
			}
		case itemIndent >= 0 && ind > itemIndent:
			// Lines nested under a list item: a list of mappings or lists.
			if err := p.checkNestedLine(text); err != nil {
				return v, err
			}
			v.nested = true
		case itemIndent < 0 && ind > 0:
			if _, _, isKey := splitKey(text); !isKey && !isListItem(text) && !v.nested {
				// "title:" then the value on the next, indented line(s).
				str, msg := parsePlain(strings.TrimSpace(text))
				if msg != "" {
					return v, p.errorf(p.i, "%s", msg)
				}
				scalar = append(scalar, str)
				break
			}
			if err := p.checkNestedLine(text); err != nil {
				return v, err
			}
			v.nested = true
		default:
			return v, p.errorf(p.i, "bad indentation: %s", quoteLine(line))
		}
		p.i++
	}
	switch {
	case v.nested:
		v.isList = false
		v.list = nil
	case len(scalar) > 0:
		v.scalar = strings.Join(scalar, " ")
	}
	return v, nil
}

// listItem parses "- value" (the line has no indentation left).
func (p *fmParser) listItem(text string) (fmValue, *fmError) {
	item := strings.TrimSpace(strings.TrimPrefix(text, "-"))
	if item == "" || strings.HasPrefix(item, "#") {
		return fmValue{nested: true}, nil // the item's value is on the lines below
	}
	if _, rest, ok := splitKey(item); ok {
		if _, msg := parseInline(strings.TrimSpace(rest)); msg != "" {
			return fmValue{}, p.errorf(p.i, "%s", msg)
		}
		return fmValue{nested: true}, nil
	}
	v, msg := parseInline(item)
	if msg != "" {
		return v, p.errorf(p.i, "%s", msg)
	}
	return v, nil
}

// checkNestedLine validates a line inside a nested block whose value
// docent ignores: it must still be a key, a list item or a continuation.
func (p *fmParser) checkNestedLine(text string) *fmError {
	if isListItem(text) {
		_, err := p.listItem(text)
		return err
	}
	if _, rest, ok := splitKey(text); ok {
		rest = strings.TrimSpace(rest)
		if rest == "" || strings.HasPrefix(rest, "#") || isBlockScalarHeader(rest) {
			return nil
		}
		if _, msg := parseInline(rest); msg != "" {
			return p.errorf(p.i, "%s", msg)
		}
		return nil
	}
	if _, msg := parseInline(text); msg != "" {
		return p.errorf(p.i, "%s", msg)
	}
	return nil
}

// blockScalar reads the indented lines of a "|" or ">" value.
func (p *fmParser) blockScalar(folded bool) string {
	var parts []string
	base := -1
	for p.i < len(p.lines) {
		line := p.lines[p.i]
		if line != "" && indent(line) == 0 {
			break
		}
		if line != "" && base < 0 {
			base = indent(line)
		}
		if line != "" && indent(line) >= base {
			line = line[base:]
		}
		parts = append(parts, strings.TrimLeft(line, " \t"))
		p.i++
	}
	sep := "\n"
	if folded {
		sep = " "
	}
	return strings.TrimSpace(strings.Join(parts, sep))
}

// parseInline parses a value written on the key's line. The returned
// message is empty on success.
func parseInline(s string) (fmValue, string) {
	switch {
	case s == "":
		return fmValue{}, ""
	case s[0] == '"' || s[0] == '\'':
		str, rest, msg := parseQuoted(s)
		if msg != "" {
			return fmValue{}, msg
		}
		if !isBlankOrComment(rest) {
			return fmValue{}, fmt.Sprintf("unexpected text after the closing quote: %s", quoteLine(rest))
		}
		return fmValue{scalar: str}, ""
	case s[0] == '[':
		return parseFlowList(s)
	case s[0] == '{':
		end := matchingClose(s, '{', '}')
		if end < 0 {
			return fmValue{}, "unclosed { (a flow mapping must close on the same line)"
		}
		if !isBlankOrComment(s[end+1:]) {
			return fmValue{}, fmt.Sprintf("unexpected text after }: %s", quoteLine(s[end+1:]))
		}
		return fmValue{nested: true}, ""
	}
	str, msg := parsePlain(s)
	return fmValue{scalar: str}, msg
}

// parsePlain parses an unquoted scalar, rejecting what YAML rejects in
// one: "key: Billing: Refunds" is a nested mapping, not a title.
func parsePlain(s string) (string, string) {
	if i := strings.Index(s, " #"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	switch {
	case strings.Contains(s, ": ") || strings.HasSuffix(s, ":"):
		return "", fmt.Sprintf("unquoted value contains \": \" (put it in quotes): %s", quoteLine(s))
	case strings.HasPrefix(s, "- "):
		return "", fmt.Sprintf("a list item cannot follow a key on the same line: %s", quoteLine(s))
	case strings.HasPrefix(s, "@") || strings.HasPrefix(s, "`"):
		return "", fmt.Sprintf("a value cannot start with %q (put it in quotes)", s[:1])
	case s == "~" || s == "null":
		return "", ""
	}
	return s, ""
}

// parseQuoted parses a single- or double-quoted string at the start of s
// and returns it with the text after the closing quote.
func parseQuoted(s string) (str, rest, msg string) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			b.WriteByte('\'')
			i++
		case c == q:
			return b.String(), s[i+1:], ""
		case c == '\\' && q == '"':
			if i+1 >= len(s) {
				return "", "", "unclosed double quote"
			}
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '"', '\\', '/':
				b.WriteByte(s[i])
			default:
				return "", "", fmt.Sprintf("unknown escape \\%c in double-quoted string", s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	if q == '"' {
		return "", "", "unclosed double quote (a quoted string must close on the same line)"
	}
	return "", "", "unclosed single quote (a quoted string must close on the same line)"
}

// parseFlowList parses "[a, 'b, c', "d"]".
func parseFlowList(s string) (fmValue, string) {
	v := fmValue{isList: true}
	i := 1
	for {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i >= len(s) {
			return fmValue{}, "unclosed [ (a flow list must close on the same line)"
		}
		if s[i] == ']' && len(v.list) == 0 {
			i++
			break
		}
		var item string
		switch s[i] {
		case '"', '\'':
			str, rest, msg := parseQuoted(s[i:])
			if msg != "" {
				return fmValue{}, msg
			}
			item = str
			i = len(s) - len(rest)
			for i < len(s) && s[i] == ' ' {
				i++
			}
		case '[', '{':
			return fmValue{}, "nested lists and mappings are not supported in a flow list"
		default:
			end := strings.IndexAny(s[i:], ",]")
			if end < 0 {
				return fmValue{}, "unclosed [ (a flow list must close on the same line)"
			}
			item = strings.TrimSpace(s[i : i+end])
			i += end
		}
		v.list = append(v.list, item)
		if i >= len(s) {
			return fmValue{}, "unclosed [ (a flow list must close on the same line)"
		}
		if s[i] == ']' {
			i++
			break
		}
		if s[i] != ',' {
			return fmValue{}, fmt.Sprintf("expected , or ] in flow list, got %q", s[i:i+1])
		}
		i++
	}
	if !isBlankOrComment(s[i:]) {
		return fmValue{}, fmt.Sprintf("unexpected text after ]: %s", quoteLine(s[i:]))
	}
	return v, ""
}

// matchingClose returns the index of the bracket closing s[0], skipping
// quoted strings, or -1.
func matchingClose(s string, open, closer byte) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\'':
			_, rest, msg := parseQuoted(s[i:])
			if msg != "" {
				return -1
			}
			i = len(s) - len(rest) - 1
		case open:
			depth++
		case closer:
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// splitKey splits "key: value"; the key is a plain YAML identifier.
func splitKey(line string) (key, rest string, ok bool) {
	i := strings.IndexByte(line, ':')
	if i <= 0 {
		return "", "", false
	}
	key = line[:i]
	for _, r := range key {
		if !(r == '_' || r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return "", "", false
		}
	}
	rest = line[i+1:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", "", false // "key:value" is a plain string in YAML
	}
	return key, rest, true
}

func isBlockScalarHeader(s string) bool {
	if s[0] != '|' && s[0] != '>' {
		return false
	}
	h := s[1:]
	if i := strings.Index(h, " #"); i >= 0 {
		h = h[:i]
	}
	return strings.Trim(strings.TrimSpace(h), "+-0123456789") == ""
}

func isQuoted(s string) bool { return s[0] == '"' || s[0] == '\'' }

func isListItem(s string) bool { return s == "-" || strings.HasPrefix(s, "- ") }

func isBlankOrComment(s string) bool {
	s = strings.TrimSpace(s)
	return s == "" || s[0] == '#'
}

func indent(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }

func describeLine(line string) string {
	if isListItem(strings.TrimLeft(line, " \t")) {
		return "list item"
	}
	return "indented line"
}

// quoteLine quotes a line for a message, shortened so a warning stays on
// one terminal line.
func quoteLine(s string) string {
	const max = 60
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > max {
		s = string([]rune(s)[:max]) + "…"
	}
	return fmt.Sprintf("%q", s)
}
