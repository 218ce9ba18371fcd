// Package configfile reads docent's configuration file (config.yaml): the
// settings that flags and environment variables also give, plus the roles
// and the price table that only the file holds. It knows the file's shape,
// not what the settings mean: the caller names the keys it accepts and
// applies the values, so a flag cannot exist without its key.
//
// Every problem is an error naming the file and the line, and a key that
// is not known is one: a misspelt key must not be silently ignored.
package configfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/docent-sh/docent/retrieval/analysis"
	"github.com/docent-sh/docent/textsafe"
)

// MaxBytes bounds the file: a configuration is a few dozen lines, and a
// file far larger is a wrong path, not a configuration.
const MaxBytes = 1 << 20

// MaxRoleBytes bounds one role's text: it goes into every prompt.
const MaxRoleBytes = 4000

// Keys the file has besides the caller's settings.
const (
	KeyRoles  = "roles"
	KeyPrices = "prices"

	keyInputPrice  = "input-per-mtok"
	keyOutputPrice = "output-per-mtok"
)

// Setting is one `key: value` line of the file. Value is the scalar as
// written (a duration stays "30s"); the caller parses it.
type Setting struct {
	Key   string
	Value string
	Line  int
}

// Role is a named addition to the system prompt.
type Role struct {
	Name string
	Text string
	Line int
}

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	Model         string
	InputPerMTok  float64
	OutputPerMTok float64
	Line          int
}

// File is a parsed configuration file. Settings, roles and prices are in
// the file's order.
type File struct {
	Path     string
	Mode     fs.FileMode // permission bits, when read from disk
	Settings []Setting
	Roles    []Role
	Prices   []Price
}

// Setting returns the setting of key, if the file has it.
func (f File) Setting(key string) (Setting, bool) {
	for _, s := range f.Settings {
		if s.Key == key {
			return s, true
		}
	}
	return Setting{}, false
}

// ReadableByOthers reports whether anyone but the owner (and the owner's
// group) may read the file: then a key in it is not a secret.
func (f File) ReadableByOthers() bool { return f.Mode.Perm()&0o004 != 0 }

// Error is a problem at a place in the file.
type Error struct {
	Path string
	Line int // 0 when the problem is the whole file
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("config file %s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("config file %s: %s", e.Path, e.Msg)
}

// Path is the configuration file docent reads when none is named:
// $XDG_CONFIG_HOME/docent/config.yaml, else ~/.config/docent/config.yaml
// (the XDG base directory spec ignores a relative XDG_CONFIG_HOME). It is
// "" when neither variable gives a place. getenv is a parameter so tests
// never read the user's own file.
func Path(getenv func(string) string) string {
	if dir := getenv("XDG_CONFIG_HOME"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "docent", "config.yaml")
	}
	if home := getenv("HOME"); home != "" && filepath.IsAbs(home) {
		return filepath.Join(home, ".config", "docent", "config.yaml")
	}
	return ""
}

// Load reads and parses the file at path with the given setting keys. A
// missing file is reported with an error wrapping fs.ErrNotExist, for the
// caller to decide whether that is a mistake.
func Load(path string, keys []string) (File, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return File{}, fmt.Errorf("config file %s: %w", path, fs.ErrNotExist)
		}
		return File{}, &Error{Path: path, Msg: err.Error()}
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return File{}, &Error{Path: path, Msg: err.Error()}
	}
	if info.IsDir() {
		return File{}, &Error{Path: path, Msg: "is a directory, not a file"}
	}
	src, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return File{}, &Error{Path: path, Msg: err.Error()}
	}
	parsed, err := Parse(path, src, keys)
	if err != nil {
		return File{}, err
	}
	parsed.Mode = info.Mode().Perm()
	return parsed, nil
}

// Parse reads a configuration from src; path names it in errors. keys are
// the setting keys accepted at the top level besides roles and prices.
// Keys are written as the flags are named (top-k); an underscore may stand
// for a hyphen (top_k), as YAML files often spell them. An empty value
// (`model:`) leaves the setting out.
func Parse(path string, src []byte, keys []string) (File, error) {
	file := File{Path: path}
	errAt := func(line int, format string, args ...any) error {
		return &Error{Path: path, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	if len(src) > MaxBytes {
		return file, errAt(0, "larger than %d bytes: not a configuration file", MaxBytes)
	}
	if !utf8.Valid(src) {
		return file, errAt(0, "not UTF-8 text")
	}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return file, nil // empty, or only comments
		}
		return file, errAt(0, "%s", textsafe.Line(err.Error()))
	}
	var second yaml.Node
	if err := dec.Decode(&second); err == nil {
		return file, errAt(second.Line, "a second YAML document (---): the file holds one")
	} else if !errors.Is(err, io.EOF) {
		return file, errAt(0, "%s", textsafe.Line(err.Error()))
	}
	if len(doc.Content) == 0 {
		return file, nil
	}
	top := doc.Content[0]
	if isNull(top) {
		return file, nil
	}
	if top.Kind != yaml.MappingNode {
		return file, errAt(top.Line, "want key: value lines, not %s", kindName(top))
	}
	known := make(map[string]bool, len(keys)+2)
	for _, k := range keys {
		known[k] = true
	}
	known[KeyRoles], known[KeyPrices] = true, true
	seen := map[string]int{}
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], deref(top.Content[i+1])
		key, err := keyName(k, known, errAt)
		if err != nil {
			return file, err
		}
		if first, dup := seen[key]; dup {
			return file, errAt(k.Line, "%s given twice (first on line %d)", key, first)
		}
		seen[key] = k.Line
		switch key {
		case KeyRoles:
			file.Roles, err = parseRoles(v, errAt)
		case KeyPrices:
			file.Prices, err = parsePrices(v, errAt)
		default:
			var s Setting
			var ok bool
			s, ok, err = parseSetting(key, k, v, errAt)
			if ok {
				file.Settings = append(file.Settings, s)
			}
		}
		if err != nil {
			return file, err
		}
	}
	return file, nil
}

type errAtFunc func(line int, format string, args ...any) error

// keyName checks a mapping key against the known ones, suggesting the
// nearest when it is not one of them.
func keyName(k *yaml.Node, known map[string]bool, errAt errAtFunc) (string, error) {
	k = deref(k)
	if k.Kind != yaml.ScalarNode || isNull(k) {
		return "", errAt(k.Line, "a key must be a plain name, not %s", kindName(k))
	}
	key := normalizeKey(k.Value)
	if known[key] {
		return key, nil
	}
	msg := fmt.Sprintf("unknown key %q", textsafe.Clip(k.Value, 60))
	if near := nearest(key, known); near != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", near)
	}
	return "", errAt(k.Line, "%s", msg)
}

func normalizeKey(k string) string { return strings.ReplaceAll(strings.TrimSpace(k), "_", "-") }

func parseSetting(key string, k, v *yaml.Node, errAt errAtFunc) (Setting, bool, error) {
	if isNull(v) {
		return Setting{}, false, nil
	}
	if v.Kind != yaml.ScalarNode {
		return Setting{}, false, errAt(v.Line, "%s: want one value, not %s", key, kindName(v))
	}
	return Setting{Key: key, Value: v.Value, Line: k.Line}, true, nil
}

// roleName is what --role and /role can type without quoting.
var roleName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// ValidRoleName reports whether name can name a role.
func ValidRoleName(name string) bool { return roleName.MatchString(name) }

func parseRoles(v *yaml.Node, errAt errAtFunc) ([]Role, error) {
	if isNull(v) {
		return nil, nil
	}
	if v.Kind != yaml.MappingNode {
		return nil, errAt(v.Line, "roles: want name: text lines, not %s", kindName(v))
	}
	var roles []Role
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, t := deref(v.Content[i]), deref(v.Content[i+1])
		if k.Kind != yaml.ScalarNode || !ValidRoleName(k.Value) {
			return nil, errAt(k.Line, "roles: %q is not a role name (letters, digits, and . _ - inside, at most 64)", textsafe.Clip(k.Value, 60))
		}
		if slices.ContainsFunc(roles, func(r Role) bool { return r.Name == k.Value }) {
			return nil, errAt(k.Line, "roles: %s given twice", k.Value)
		}
		if t.Kind != yaml.ScalarNode || isNull(t) || strings.TrimSpace(t.Value) == "" {
			return nil, errAt(k.Line, "roles: %s: want the text to add to the system prompt", k.Value)
		}
		if len(t.Value) > MaxRoleBytes {
			return nil, errAt(k.Line, "roles: %s: text of %d bytes, over the %d it may have", k.Value, len(t.Value), MaxRoleBytes)
		}
		roles = append(roles, Role{Name: k.Value, Text: strings.TrimSpace(t.Value), Line: k.Line})
	}
	return roles, nil
}

func parsePrices(v *yaml.Node, errAt errAtFunc) ([]Price, error) {
	if isNull(v) {
		return nil, nil
	}
	if v.Kind != yaml.MappingNode {
		return nil, errAt(v.Line, "prices: want model: {%s: N, %s: N} lines, not %s", keyInputPrice, keyOutputPrice, kindName(v))
	}
	var prices []Price
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, p := deref(v.Content[i]), deref(v.Content[i+1])
		if k.Kind != yaml.ScalarNode || isNull(k) || strings.TrimSpace(k.Value) == "" {
			return nil, errAt(k.Line, "prices: a model name must be a plain name, not %s", kindName(k))
		}
		model := strings.TrimSpace(k.Value)
		if slices.ContainsFunc(prices, func(p Price) bool { return p.Model == model }) {
			return nil, errAt(k.Line, "prices: %s given twice", textsafe.Clip(model, 60))
		}
		price, err := parsePrice(model, k.Line, p, errAt)
		if err != nil {
			return nil, err
		}
		prices = append(prices, price)
	}
	return prices, nil
}

func parsePrice(model string, line int, p *yaml.Node, errAt errAtFunc) (Price, error) {
	name := textsafe.Clip(model, 60)
	if p.Kind != yaml.MappingNode {
		return Price{}, errAt(line, "prices: %s: want {%s: N, %s: N}", name, keyInputPrice, keyOutputPrice)
	}
	price := Price{Model: model, Line: line}
	set := map[string]bool{}
	for i := 0; i+1 < len(p.Content); i += 2 {
		k, v := deref(p.Content[i]), deref(p.Content[i+1])
		key := normalizeKey(k.Value)
		var dst *float64
		switch key {
		case keyInputPrice:
			dst = &price.InputPerMTok
		case keyOutputPrice:
			dst = &price.OutputPerMTok
		default:
			return Price{}, errAt(k.Line, "prices: %s: unknown key %q (want %s or %s)", name, textsafe.Clip(k.Value, 60), keyInputPrice, keyOutputPrice)
		}
		if set[key] {
			return Price{}, errAt(k.Line, "prices: %s: %s given twice", name, key)
		}
		set[key] = true
		f, err := strconv.ParseFloat(strings.TrimSpace(v.Value), 64)
		if v.Kind != yaml.ScalarNode || err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
			return Price{}, errAt(v.Line, "prices: %s: %s: want dollars per million tokens (a number, 0 or more), not %q", name, key, textsafe.Clip(v.Value, 40))
		}
		*dst = f
	}
	for _, key := range []string{keyInputPrice, keyOutputPrice} {
		if !set[key] {
			return Price{}, errAt(line, "prices: %s: %s is missing", name, key)
		}
	}
	return price, nil
}

// deref follows a YAML alias to the node it names.
func deref(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		if isNull(n) {
			return "an empty value"
		}
		return fmt.Sprintf("%q", textsafe.Clip(n.Value, 40))
	}
	return "a YAML document"
}

// nearest is the known key closest to key, when it is close enough to be
// a misspelling of it: at most two typing slips (retrieval's typo
// distance), and fewer than half its length.
func nearest(key string, known map[string]bool) string {
	const maxSlips = 2
	best, bestDist := "", maxSlips+1
	for k := range known {
		d := analysis.EditDistance(strings.ToLower(key), k, maxSlips)
		if d*2 >= len(k) {
			continue
		}
		if d < bestDist || (d == bestDist && k < best) {
			best, bestDist = k, d
		}
	}
	return best
}
