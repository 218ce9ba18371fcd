package configfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var testKeys = []string{"top-k", "model", "first-token-timeout", "no-migrate", "openai-api-key"}

func TestParse(t *testing.T) {
	src := `# a comment
top_k: 8                 # an underscore stands for a hyphen
model: gpt-4o-mini
first-token-timeout: 90s
no-migrate:              # empty: the default stays
openai-api-key: &key sk-test-0123456789
roles:
  reply-to-customer: |
    Draft the reply.
  internal-note: "Terse."
prices:
  gpt-4o-mini: {input_per_mtok: 0.15, output-per-mtok: 0.6}
  llama3.2: {input-per-mtok: 0, output-per-mtok: 0}
`
	f, err := Parse("/cfg/config.yaml", []byte(src), testKeys)
	if err != nil {
		t.Fatal(err)
	}
	wantSettings := []Setting{
		{"top-k", "8", 2}, {"model", "gpt-4o-mini", 3}, {"first-token-timeout", "90s", 4}, {"openai-api-key", "sk-test-0123456789", 6},
	}
	if !reflect.DeepEqual(f.Settings, wantSettings) {
		t.Errorf("settings %+v\nwant %+v", f.Settings, wantSettings)
	}
	wantRoles := []Role{{"reply-to-customer", "Draft the reply.", 8}, {"internal-note", "Terse.", 10}}
	if !reflect.DeepEqual(f.Roles, wantRoles) {
		t.Errorf("roles %+v\nwant %+v", f.Roles, wantRoles)
	}
	wantPrices := []Price{{"gpt-4o-mini", 0.15, 0.6, 12}, {"llama3.2", 0, 0, 13}}
	if !reflect.DeepEqual(f.Prices, wantPrices) {
		t.Errorf("prices %+v\nwant %+v", f.Prices, wantPrices)
	}
	if s, ok := f.Setting("model"); !ok || s.Value != "gpt-4o-mini" {
		t.Errorf("Setting(model) = %+v, %v", s, ok)
	}
}

func TestParseEmpty(t *testing.T) {
	for _, src := range []string{"", "# only a comment\n", "---\n", "~\n"} {
		f, err := Parse("c.yaml", []byte(src), testKeys)
		if err != nil || len(f.Settings)+len(f.Roles)+len(f.Prices) != 0 {
			t.Errorf("%q: %+v, %v; want an empty configuration", src, f, err)
		}
	}
}

// Every mistake names the file and the line, and a misspelt key is one.
func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"misspelt key", "model: x\ntop-kk: 3\n", "c.yaml:2: unknown key \"top-kk\" (did you mean top-k?)"},
		{"unknown key", "colour: blue\n", "c.yaml:1: unknown key \"colour\""},
		{"twice", "top-k: 3\ntop_k: 4\n", "c.yaml:2: top-k given twice (first on line 1)"},
		{"list value", "model:\n  - a\n  - b\n", "c.yaml:2: model: want one value, not a list"},
		{"not a mapping", "- top-k\n", "c.yaml:1: want key: value lines, not a list"},
		{"syntax", "model: [unclosed\n", "config file c.yaml: yaml: line 1"},
		{"two documents", "model: a\n---\nmodel: b\n", "c.yaml:2: a second YAML document"},
		{"bad role name", "roles:\n  \"two words\": x\n", "c.yaml:2: roles: \"two words\" is not a role name"},
		{"empty role", "roles:\n  terse:\n", "c.yaml:2: roles: terse: want the text"},
		{"role twice", "roles:\n  a: x\n  a: y\n", "c.yaml:3: roles: a given twice"},
		{"roles not a mapping", "roles: [a, b]\n", "c.yaml:1: roles: want name: text lines"},
		{"long role", "roles:\n  a: " + strings.Repeat("x", MaxRoleBytes+1) + "\n", "c.yaml:2: roles: a: text of 4001 bytes"},
		{"price key", "prices:\n  m: {input-per-mtok: 1, output-per-mtok: 2, cached: 3}\n", "c.yaml:2: prices: m: unknown key \"cached\""},
		{"price missing", "prices:\n  m: {input-per-mtok: 1}\n", "c.yaml:2: prices: m: output-per-mtok is missing"},
		{"price negative", "prices:\n  m: {input-per-mtok: -1, output-per-mtok: 2}\n", "c.yaml:2: prices: m: input-per-mtok: want dollars per million tokens"},
		{"price text", "prices:\n  m: {input-per-mtok: cheap, output-per-mtok: 2}\n", "not \"cheap\""},
		{"price not a mapping", "prices:\n  m: 0.15\n", "c.yaml:2: prices: m: want {input-per-mtok: N, output-per-mtok: N}"},
		{"price twice", "prices:\n  m: {input-per-mtok: 1, output-per-mtok: 2}\n  m: {input-per-mtok: 1, output-per-mtok: 2}\n", "c.yaml:3: prices: m given twice"},
		{"not utf-8", "model: \xff\n", "config file c.yaml: not UTF-8 text"},
		{"mapping key", "? [a, b]\n: c\n", "c.yaml:1: a key must be a plain name"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(tc.src), testKeys)
			var perr *Error
			if !errors.As(err, &perr) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want a *Error containing %q", err, tc.want)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	if _, err := Load(path, testKeys); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: error = %v, want fs.ErrNotExist", err)
	}
	if err := os.WriteFile(path, []byte("model: m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil { // whatever the umask
		t.Fatal(err)
	}
	f, err := Load(path, testKeys)
	if err != nil || f.Path != path || !f.ReadableByOthers() {
		t.Errorf("Load = %+v, %v; want the file, readable by others", f, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if f, _ := Load(path, testKeys); f.ReadableByOthers() {
		t.Errorf("mode %v: readable by others", f.Mode)
	}
	if _, err := Load(dir, testKeys); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory: error = %v", err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte("# "+strings.Repeat("x", MaxBytes)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big, testKeys); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("a huge file: error = %v", err)
	}
}

func TestPath(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/x/docent/config.yaml"},
		{map[string]string{"XDG_CONFIG_HOME": "relative", "HOME": "/h"}, "/h/.config/docent/config.yaml"},
		{map[string]string{"HOME": "/h"}, "/h/.config/docent/config.yaml"},
		{map[string]string{}, ""},
	}
	for _, tc := range cases {
		if got := Path(env(tc.env)); got != filepath.FromSlash(tc.want) {
			t.Errorf("Path(%v) = %q, want %q", tc.env, got, tc.want)
		}
	}
}
