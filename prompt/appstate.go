package prompt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/docent-sh/docent/textsafe"
)

// AppState is the customer's app state a staff member attached to the
// conversation (--context FILE, /context FILE), already summarized into
// short lines for the model.
type AppState struct {
	Name    string      // where it came from, e.g. the file name
	Format  string      // "json" or "text"
	UI      []StateLine // the page and other UI lines, most important first
	Widgets []StateLine // one line per widget
}

// StateLine is one summarized line of app state. Label names it in the
// build report ("page", "widget Recent"); Text is what the model reads
// ("page: settings", "widget Recent: collapsed, 12 items").
type StateLine struct {
	Label string
	Text  string
}

const (
	// MaxAppStateBytes bounds an attached state file: a summary for a
	// 500-token budget has no use for more, and a huge file is far more
	// likely a wrong path than a real page description.
	MaxAppStateBytes = 1 << 20
	maxJSONDepth     = 32
)

// ParseAppState summarizes an app-state file. Data whose first non-blank
// character is '{' or '[' is read as JSON and must be one object; anything
// else is plain text whose non-blank lines become UI lines. Errors name
// the file and, for JSON, the line, column and byte offset of the problem.
func ParseAppState(name string, data []byte) (AppState, error) {
	if len(data) > MaxAppStateBytes {
		return AppState{}, fmt.Errorf("app state %s: %d bytes is over the %d-byte limit", name, len(data), MaxAppStateBytes)
	}
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	if len(trimmed) == 0 {
		return AppState{}, fmt.Errorf("app state %s: file is empty", name)
	}
	if trimmed[0] == '{' || trimmed[0] == '[' {
		return parseJSONState(name, data)
	}
	return parseTextState(name, data), nil
}

func parseTextState(name string, data []byte) AppState {
	st := AppState{Name: name, Format: "text"}
	for i, line := range strings.Split(textsafe.String(string(data)), "\n") {
		line = textsafe.Line(line)
		if line == "" {
			continue
		}
		st.UI = append(st.UI, StateLine{Label: fmt.Sprintf("line %d", i+1), Text: line})
	}
	return st
}

func parseJSONState(name string, data []byte) (AppState, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	// Unmarshal first: its syntax errors carry an offset from the start of
	// the input, which the token stream's errors do not reliably do.
	var raw json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return AppState{}, jsonError(name, data, err)
	}
	if raw[0] != '{' {
		return AppState{}, fmt.Errorf("app state %s: JSON must be an object describing the page and its widgets, got an array", name)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	root, err := decodeValue(dec, 0)
	if err != nil {
		return AppState{}, fmt.Errorf("app state %s: %w", name, err)
	}
	st := AppState{Name: name, Format: "json"}
	var s summary
	s.object("", root)
	st.UI = prioritize(s.ui)
	st.Widgets = s.widgets
	return st, nil
}

// jsonError turns a decoding error into one naming the file and where in
// it the problem is.
func jsonError(name string, data []byte, err error) error {
	var syn *json.SyntaxError
	if !errors.As(err, &syn) {
		return fmt.Errorf("app state %s: invalid JSON: %w", name, err)
	}
	// Offset counts the bytes read including the offending one.
	at := int(syn.Offset) - 1
	if syn.Offset >= int64(len(data)) && strings.Contains(syn.Error(), "end of JSON") {
		at = len(data)
	}
	at = max(0, min(at, len(data)))
	line, col := lineColumn(data, at)
	return fmt.Errorf("app state %s: invalid JSON at line %d, column %d (offset %d): %w", name, line, col, at, err)
}

// lineColumn returns the 1-based line and column (in characters) of byte
// offset at.
func lineColumn(data []byte, at int) (int, int) {
	before := data[:at]
	line := bytes.Count(before, []byte("\n")) + 1
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCount(before[lineStart:]) + 1
}

// jsonValue is a decoded JSON value that keeps the key order of objects:
// the order staff wrote their state in is the best guess at what matters.
type jsonValue struct {
	kind  jsonKind
	text  string // string, number or bool text
	keys  []string
	elems []jsonValue // object values (parallel to keys) or array items
}

type jsonKind int

const (
	jsonNull jsonKind = iota
	jsonString
	jsonNumber
	jsonBool
	jsonObject
	jsonArray
)

func decodeValue(dec *json.Decoder, depth int) (jsonValue, error) {
	if depth > maxJSONDepth {
		return jsonValue{}, fmt.Errorf("JSON nested deeper than %d levels (offset %d)", maxJSONDepth, dec.InputOffset())
	}
	tok, err := dec.Token()
	if err != nil {
		return jsonValue{}, fmt.Errorf("decode JSON: %w", err)
	}
	switch t := tok.(type) {
	case nil:
		return jsonValue{kind: jsonNull}, nil
	case string:
		return jsonValue{kind: jsonString, text: t}, nil
	case json.Number:
		return jsonValue{kind: jsonNumber, text: t.String()}, nil
	case bool:
		return jsonValue{kind: jsonBool, text: strconv.FormatBool(t)}, nil
	case json.Delim:
		v := jsonValue{kind: jsonObject}
		if t == '[' {
			v.kind = jsonArray
		}
		for dec.More() {
			if v.kind == jsonObject {
				keyTok, err := dec.Token()
				if err != nil {
					return jsonValue{}, fmt.Errorf("decode JSON: %w", err)
				}
				key, _ := keyTok.(string)
				v.keys = append(v.keys, key)
			}
			elem, err := decodeValue(dec, depth+1)
			if err != nil {
				return jsonValue{}, err
			}
			v.elems = append(v.elems, elem)
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return jsonValue{}, fmt.Errorf("decode JSON: %w", err)
		}
		return v, nil
	}
	return jsonValue{}, fmt.Errorf("decode JSON: unexpected token %v", tok)
}

// summary collects the lines of a JSON app state.
type summary struct {
	ui      []StateLine
	widgets []StateLine
}

// object flattens an object into "a.b: value" UI lines, except that a key
// named widgets (at any depth) holds the widgets, summarized one a line.
func (s *summary) object(prefix string, v jsonValue) {
	for i, key := range v.keys {
		elem := v.elems[i]
		if strings.EqualFold(key, "widgets") {
			s.widgetSet(elem)
			continue
		}
		s.value(joinPath(prefix, textsafe.Line(key)), elem)
	}
}

func (s *summary) value(path string, v jsonValue) {
	switch v.kind {
	case jsonNull:
		// A null says nothing the model could use.
	case jsonObject:
		if len(v.keys) == 0 {
			s.ui = append(s.ui, StateLine{Label: path, Text: path + ": (empty)"})
			return
		}
		s.object(path, v)
	case jsonArray:
		if allScalar(v.elems) {
			s.ui = append(s.ui, StateLine{Label: path, Text: path + ": " + scalarList(v.elems)})
			return
		}
		for i, elem := range v.elems {
			s.value(fmt.Sprintf("%s[%d]", path, i), elem)
		}
	default:
		s.ui = append(s.ui, StateLine{Label: path, Text: path + ": " + textsafe.Line(v.text)})
	}
}

// widgetSet summarizes the value of a "widgets" key: an array of widget
// objects, an object of widgets keyed by name, or a lone value.
func (s *summary) widgetSet(v jsonValue) {
	switch v.kind {
	case jsonArray:
		for i, elem := range v.elems {
			s.widget(fmt.Sprintf("%d", i+1), elem)
		}
	case jsonObject:
		for i, key := range v.keys {
			s.widget(textsafe.Line(key), v.elems[i])
		}
	case jsonNull:
	default:
		s.widgets = append(s.widgets, StateLine{Label: "widgets", Text: "widgets: " + textsafe.Line(v.text)})
	}
}

// nameFields are the fields that name a widget inside its own object.
var nameFields = []string{"name", "title", "label", "id", "type"}

// widget writes "widget Recent: collapsed, 12 items" for one widget.
func (s *summary) widget(fallbackName string, v jsonValue) {
	name, skip := fallbackName, -1
	if v.kind == jsonObject {
		for _, field := range nameFields {
			if i := keyIndex(v, field); i >= 0 && v.elems[i].kind == jsonString && textsafe.Line(v.elems[i].text) != "" {
				name, skip = textsafe.Line(v.elems[i].text), i
				break
			}
		}
	}
	label := "widget " + name
	var parts []string
	switch v.kind {
	case jsonObject:
		for i, key := range v.keys {
			if i != skip {
				parts = appendField(parts, textsafe.Line(key), v.elems[i], 0)
			}
		}
	case jsonArray:
		parts = append(parts, countOf(len(v.elems), "entries"))
	case jsonNull:
	default:
		parts = append(parts, textsafe.Line(v.text))
	}
	text := label
	if len(parts) > 0 {
		text += ": " + strings.Join(parts, ", ")
	}
	s.widgets = append(s.widgets, StateLine{Label: label, Text: text})
}

// stateFields hold a widget's state, which reads best as a bare word:
// "collapsed" rather than "state: collapsed".
var stateFields = map[string]bool{"state": true, "status": true, "mode": true, "view": true}

// appendField renders one widget field the way a person would say it.
func appendField(parts []string, key string, v jsonValue, depth int) []string {
	switch v.kind {
	case jsonNull:
		return parts
	case jsonBool:
		if v.text == "true" {
			return append(parts, key)
		}
		return append(parts, "not "+key)
	case jsonNumber:
		if isPlural(key) {
			return append(parts, v.text+" "+key)
		}
		return append(parts, key+" "+v.text)
	case jsonString:
		text := textsafe.Line(v.text)
		if stateFields[strings.ToLower(key)] {
			return append(parts, text)
		}
		return append(parts, key+": "+text)
	case jsonArray:
		if len(v.elems) > 0 && len(v.elems) <= 5 && allScalar(v.elems) {
			return append(parts, key+": ["+scalarList(v.elems)+"]")
		}
		return append(parts, countOf(len(v.elems), key))
	default:
		if depth >= 2 {
			return append(parts, key+": {…}")
		}
		var inner []string
		for i, k := range v.keys {
			inner = appendField(inner, textsafe.Line(k), v.elems[i], depth+1)
		}
		return append(parts, key+": {"+strings.Join(inner, ", ")+"}")
	}
}

func countOf(n int, noun string) string { return fmt.Sprintf("%d %s", n, noun) }

func isPlural(key string) bool {
	return len(key) > 2 && strings.HasSuffix(key, "s") && !strings.HasSuffix(key, "ss")
}

func keyIndex(v jsonValue, key string) int {
	for i, k := range v.keys {
		if strings.EqualFold(k, key) {
			return i
		}
	}
	return -1
}

func allScalar(vs []jsonValue) bool {
	for _, v := range vs {
		if v.kind == jsonObject || v.kind == jsonArray {
			return false
		}
	}
	return true
}

func scalarList(vs []jsonValue) string {
	if len(vs) == 0 {
		return "(none)"
	}
	texts := make([]string, 0, len(vs))
	for _, v := range vs {
		if v.kind == jsonNull {
			texts = append(texts, "null")
			continue
		}
		texts = append(texts, textsafe.Line(v.text))
	}
	return strings.Join(texts, ", ")
}

func joinPath(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// pageKeys name where the customer is; those lines go first so that they
// are the last to be dropped when the UI budget is tight.
var pageKeys = map[string]bool{"page": true, "screen": true, "route": true, "url": true, "path": true, "location": true}

func prioritize(lines []StateLine) []StateLine {
	out := make([]StateLine, 0, len(lines))
	for _, l := range lines {
		if pageKeys[strings.ToLower(topKey(l.Label))] {
			out = append(out, l)
		}
	}
	for _, l := range lines {
		if !pageKeys[strings.ToLower(topKey(l.Label))] {
			out = append(out, l)
		}
	}
	return out
}

func topKey(path string) string {
	if i := strings.IndexAny(path, ".["); i >= 0 {
		return path[:i]
	}
	return path
}
