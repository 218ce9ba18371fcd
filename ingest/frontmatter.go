package ingest

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
	"gopkg.in/yaml.v3"

	"github.com/docent-sh/docent/textsafe"
)

// Front matter is what site generators put before the body: YAML between
// "---" lines (Hugo, Jekyll, MkDocs, Docusaurus, Obsidian) or TOML between
// "+++" lines (Hugo). Both are parsed by maintained parsers; docent reads
// the keys below and ignores every other key, whatever its shape, since
// each generator and theme adds its own.

// frontMatter holds the keys docent understands.
type frontMatter struct {
	title       string
	linkTitle   string // Hugo's short title for menus: the title when there is no other
	description string
	keywords    []string // as written
	tags        []string
	// aliases are Hugo's and Jekyll's former URLs of the page, which name
	// no topic, or Obsidian's other names of the note ("bank connection"
	// for "Set up bank sync"), which do: see aliasNames.
	aliases []string
	weight  int
	draft   bool // Hugo and Jekyll drafts; Jekyll's "published: false" too
	// redirectTo is jekyll-redirect-from's redirect_to: the page is a
	// stub sending readers to another address, with no text of its own.
	redirectTo string
}

// keywordList returns the declared keywords lower-cased, with whitespace
// collapsed and duplicates dropped.
func (fm frontMatter) keywordList() []string {
	var out []string
	seen := make(map[string]bool, len(fm.keywords)+len(fm.tags))
	for _, k := range append(append(slices.Clip(fm.keywords), fm.tags...), aliasNames(fm.aliases)...) {
		k = strings.ToLower(textsafe.Line(k)) // YAML escapes can spell control characters
		if k == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, k)
	}
	return out
}

// aliasNames are the aliases that are names, not URLs: an alias with a
// slash or a dot in it ("/api/v1/x/", "old-page.html") is a path.
func aliasNames(aliases []string) []string {
	var out []string
	for _, a := range aliases {
		if a = strings.TrimSpace(a); a != "" && !strings.ContainsAny(a, "/.\\") {
			out = append(out, a)
		}
	}
	return out
}

// fmError is a front matter problem on a 1-based line of the file.
// ParseDoc turns it into a Warning naming the file.
type fmError struct {
	line int
	msg  string
}

// fmFormat is one front matter syntax: its delimiter line and its parser.
type fmFormat struct {
	delimiter string
	name      string
	parse     func(lines []string, firstLine int) (frontMatter, *fmError)
}

var fmFormats = []fmFormat{
	{"---", "YAML", parseYAMLFrontMatter},
	{"+++", "TOML", parseTOMLFrontMatter},
}

// splitFrontMatter separates the front matter from the body. lines are the
// normalized lines of the whole file, so indexes map to line numbers.
func splitFrontMatter(lines []string) (frontMatter, []string, *fmError) {
	start := 0
	for start < len(lines) && lines[start] == "" {
		start++
	}
	if start == len(lines) {
		return frontMatter{}, lines, nil
	}
	for _, f := range fmFormats {
		if lines[start] != f.delimiter {
			continue
		}
		for end := start + 1; end < len(lines); end++ {
			if lines[end] == f.delimiter || f.delimiter == "---" && lines[end] == "..." {
				fm, err := f.parse(lines[start+1:end], start+2)
				if err != nil {
					return frontMatter{}, nil, err
				}
				return fm, lines[end+1:], nil
			}
		}
		return frontMatter{}, nil, &fmError{line: start + 1, msg: fmt.Sprintf("no closing %s line (%s front matter)", f.delimiter, f.name)}
	}
	return frontMatter{}, lines, nil
}

// yamlLine finds the "line N" yaml.v3 puts in its messages.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

func parseYAMLFrontMatter(lines []string, firstLine int) (fm frontMatter, fe *fmError) {
	// yaml.v3 is mature, but a parser of outside input must not take the
	// load down: a panic on some input becomes that file's warning.
	defer func() {
		if r := recover(); r != nil {
			fe = &fmError{line: firstLine - 1, msg: fmt.Sprintf("YAML parser failed: %v", r)}
		}
	}()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(strings.Join(lines, "\n")), &doc); err != nil {
		return fm, yamlError(err, lines, firstLine)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return fm, nil // empty or only comments
	}
	root := resolveAlias(doc.Content[0])
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return fm, nil
	}
	if root.Kind != yaml.MappingNode {
		return fm, &fmError{line: firstLine + root.Line - 1, msg: "front matter must be a mapping of keys to values (key: value)"}
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], resolveAlias(root.Content[i+1])
		key := strings.ToLower(k.Value)
		if !isKnownKey(key) {
			continue
		}
		line := firstLine + k.Line - 1
		if first, dup := seen[key]; dup {
			return fm, &fmError{line: line, msg: fmt.Sprintf("duplicate key %q (first on line %d)", k.Value, first)}
		}
		seen[key] = line
		if err := fm.set(key, k.Value, yamlValue(v)); err != "" {
			return fm, &fmError{line: line, msg: err}
		}
	}
	return fm, nil
}

// yamlError places a yaml.v3 error on a line of the file. yaml.v3 numbers
// lines from 1 in scanner errors but from 0 in parser errors (those that
// "did not find expected" something), and names no line when the problem
// is on the first one.
func yamlError(err error, lines []string, firstLine int) *fmError {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	n := 1
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		n, _ = strconv.Atoi(m[1])
		msg = err.Error()[len(m[0]):]
		if strings.HasPrefix(msg, "did not find expected") {
			n++
		}
	}
	n = min(max(n, 1), max(len(lines), 1))
	if n <= len(lines) && strings.Contains(lines[n-1][:indent(lines[n-1])], "\t") {
		msg += " (YAML does not allow tabs for indentation)"
	}
	return &fmError{line: firstLine + n - 1, msg: msg}
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for range 8 { // an alias of an alias is legal; a cycle is not, but bound it anyway
		if n.Kind != yaml.AliasNode || n.Alias == nil {
			return n
		}
		n = n.Alias
	}
	return n
}

// fmValue is a front matter value as docent sees it: a scalar, a list of
// scalars, or something else (nested) that no key docent reads may hold.
type fmValue struct {
	scalar string
	list   []string
	isNull bool
	isList bool
	nested bool
	kind   string // for messages: "string", "number", "boolean", "list", "mapping"
}

func yamlValue(n *yaml.Node) fmValue {
	switch n.Kind {
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return fmValue{isNull: true}
		case "!!bool":
			return fmValue{scalar: n.Value, kind: "boolean"}
		case "!!int", "!!float":
			return fmValue{scalar: n.Value, kind: "number"}
		}
		return fmValue{scalar: n.Value, kind: "string"}
	case yaml.SequenceNode:
		v := fmValue{isList: true, kind: "list"}
		for _, item := range n.Content {
			item = resolveAlias(item)
			if item.Kind != yaml.ScalarNode {
				return fmValue{nested: true, kind: "list of lists or mappings"}
			}
			if item.Tag != "!!null" {
				v.list = append(v.list, item.Value)
			}
		}
		return v
	}
	return fmValue{nested: true, kind: "mapping"}
}

func parseTOMLFrontMatter(lines []string, firstLine int) (fm frontMatter, fe *fmError) {
	defer func() {
		if r := recover(); r != nil {
			fe = &fmError{line: firstLine - 1, msg: fmt.Sprintf("TOML parser failed: %v", r)}
		}
	}()
	var doc map[string]any
	if err := toml.Unmarshal([]byte(strings.Join(lines, "\n")), &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, _ := de.Position()
			return fm, &fmError{line: firstLine + row - 1, msg: de.Error()}
		}
		return fm, &fmError{line: firstLine - 1, msg: err.Error()}
	}
	seen := map[string]string{}
	for key, raw := range doc {
		lower := strings.ToLower(key)
		if !isKnownKey(lower) {
			continue
		}
		// The map has lost the positions: find the key's line again, for
		// the message only.
		line := firstLine - 1
		for i, l := range lines {
			k, _, ok := strings.Cut(l, "=")
			if !ok {
				k = strings.Trim(strings.TrimSpace(l), "[]")
			}
			if strings.EqualFold(strings.Trim(strings.TrimSpace(k), `"'`), key) {
				line = firstLine + i
				break
			}
		}
		if first, dup := seen[lower]; dup {
			return fm, &fmError{line: line, msg: fmt.Sprintf("duplicate key %q (also written %q)", key, first)}
		}
		seen[lower] = key
		if err := fm.set(lower, key, tomlValue(raw)); err != "" {
			return fm, &fmError{line: line, msg: err}
		}
	}
	return fm, nil
}

func tomlValue(v any) fmValue {
	switch v := v.(type) {
	case nil:
		return fmValue{isNull: true}
	case string:
		return fmValue{scalar: v, kind: "string"}
	case bool:
		return fmValue{scalar: strconv.FormatBool(v), kind: "boolean"}
	case int64:
		return fmValue{scalar: strconv.FormatInt(v, 10), kind: "number"}
	case float64:
		return fmValue{scalar: strconv.FormatFloat(v, 'g', -1, 64), kind: "number"}
	case []any:
		out := fmValue{isList: true, kind: "list"}
		for _, item := range v {
			iv := tomlValue(item)
			if iv.isList || iv.nested {
				return fmValue{nested: true, kind: "list of lists or tables"}
			}
			if !iv.isNull {
				out.list = append(out.list, iv.scalar)
			}
		}
		return out
	case map[string]any:
		return fmValue{nested: true, kind: "table"}
	}
	// Dates and times: nothing docent reads is one.
	return fmValue{nested: true, kind: "date"}
}

// knownKeys are the front matter keys docent reads. "labels" and
// "label_names" are tags as help desks (Zendesk, Freshdesk) export them.
var knownKeys = []string{"title", "linktitle", "description", "keywords", "tags", "labels", "label_names", "aliases", "weight", "draft", "published", "redirect_to"}

func isKnownKey(key string) bool {
	for _, k := range knownKeys {
		if k == key {
			return true
		}
	}
	return false
}

// set stores one known key; it returns a message when the value has the
// wrong shape. name is the key as written, for the message.
func (fm *frontMatter) set(key, name string, v fmValue) string {
	if v.isNull {
		return ""
	}
	scalar := func() (string, string) {
		if v.isList || v.nested {
			return "", fmt.Sprintf("%s must be a string, not a %s", name, v.kind)
		}
		return strings.Join(strings.Fields(v.scalar), " "), ""
	}
	var msg string
	switch key {
	case "title":
		fm.title, msg = scalar()
	case "linktitle":
		fm.linkTitle, msg = scalar()
	case "description":
		fm.description, msg = scalar()
	case "keywords", "tags", "labels", "label_names":
		list := &fm.tags
		if key == "keywords" {
			list = &fm.keywords
		}
		switch {
		case v.nested:
			return fmt.Sprintf("%s must be a list of strings, not a %s", name, v.kind)
		case v.isList:
			*list = append(*list, v.list...)
		default:
			// "keywords: a, b" is one YAML string, but authors mean two.
			*list = append(*list, strings.Split(v.scalar, ",")...)
		}
	case "aliases":
		switch {
		case v.nested:
			return fmt.Sprintf("%s must be a list of strings, not a %s", name, v.kind)
		case v.isList:
			fm.aliases = append(fm.aliases, v.list...)
		default:
			fm.aliases = append(fm.aliases, v.scalar)
		}
	case "weight":
		n, err := strconv.Atoi(strings.TrimSpace(v.scalar))
		if err != nil || v.isList || v.nested {
			return fmt.Sprintf("%s must be a whole number, got %s", name, describeValue(v))
		}
		fm.weight = n
	case "draft":
		b, err := strconv.ParseBool(strings.TrimSpace(v.scalar))
		if err != nil || v.isList || v.nested {
			return fmt.Sprintf("%s must be true or false, got %s", name, describeValue(v))
		}
		fm.draft = fm.draft || b
	case "redirect_to":
		switch {
		case v.nested:
			return fmt.Sprintf("%s must be an address, not a %s", name, v.kind)
		case v.isList && len(v.list) > 0:
			fm.redirectTo = strings.TrimSpace(v.list[0]) // the plugin follows the first
		case !v.isList:
			fm.redirectTo = strings.TrimSpace(v.scalar)
		}
	case "published":
		// Jekyll's flag; elsewhere "published" is often a date, which is
		// not docent's business.
		if b, err := strconv.ParseBool(strings.TrimSpace(v.scalar)); err == nil && v.kind == "boolean" && !b {
			fm.draft = true
		}
	}
	return msg
}

func describeValue(v fmValue) string {
	if v.isList || v.nested {
		return "a " + v.kind
	}
	return quoteLine(v.scalar)
}

// quoteLine quotes a value for a message, shortened so a warning stays on
// one terminal line.
func quoteLine(s string) string {
	const max = 60
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > max {
		s = string(r[:max]) + "…"
	}
	return strconv.Quote(s)
}
