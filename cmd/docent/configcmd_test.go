package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/docent-sh/docent/internal/configfile"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/llm/llmtest"
)

// withConfig gives the cli a configuration file with text, at the default
// place under XDG_CONFIG_HOME, and returns its path.
func (c *cli) withConfig(text string) string {
	c.t.Helper()
	dir := c.t.TempDir()
	c.env["XDG_CONFIG_HOME"] = dir
	path := filepath.Join(dir, "docent", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		c.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		c.t.Fatal(err)
	}
	return path
}

func (c *cli) showConfig(args ...string) shownConfig {
	c.t.Helper()
	out, errOut, code := c.run(append([]string{"config", "show", "--json"}, args...)...)
	if code != 0 {
		c.t.Fatalf("docent config show: exit %d: %s", code, errOut)
	}
	var shown shownConfig
	if err := json.Unmarshal([]byte(out), &shown); err != nil {
		c.t.Fatalf("config show --json: %v\n%s", err, out)
	}
	return shown
}

func (s shownConfig) setting(t *testing.T, key string) shownSetting {
	t.Helper()
	for _, st := range s.Settings {
		if st.Key == key {
			return st
		}
	}
	t.Fatalf("config show lists no %s", key)
	return shownSetting{}
}

// A flag on the command line wins over its environment variable, which
// wins over the configuration file, which wins over the default; `config
// show` says which one each value came from.
func TestConfigPrecedence(t *testing.T) {
	const file = "model: from-file\ntop-k: 7\nfirst_token_timeout: 45s\n"
	cases := []struct {
		name            string
		file            bool
		env             []string
		args            []string
		key, want, from string
	}{
		{"default", false, nil, nil, "top-k", "5", "default"},
		{"file", true, nil, nil, "top-k", "7", "file line 2"},
		{"env over file", true, []string{"DOC_RETRIEVAL_TOP_K", "9"}, nil, "top-k", "9", "env DOC_RETRIEVAL_TOP_K"},
		{"flag over env and file", true, []string{"DOC_RETRIEVAL_TOP_K", "9"}, []string{"--top-k", "3"}, "top-k", "3", "flag"},
		{"flag over file", true, nil, []string{"--model", "from-flag"}, "model", "from-flag", "flag"},
		{"env over default", false, []string{"DOCENT_MODEL", "from-env"}, nil, "model", "from-env", "env DOCENT_MODEL"},
		{"file, underscore key", true, nil, nil, "first-token-timeout", "45s", "file line 3"},
		{"env over file, duration", true, []string{"DOCENT_FIRST_TOKEN_TIMEOUT", "2m"}, nil, "first-token-timeout", "2m0s", "env DOCENT_FIRST_TOKEN_TIMEOUT"},
		{"second variable", false, []string{"DATABASE_URL", "postgres://h/db"}, nil, "db", "postgres://h/db", "env DATABASE_URL"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCLI(t, tc.env...)
			if tc.file {
				c.withConfig(file)
			}
			got := c.showConfig(tc.args...).setting(t, tc.key)
			if got.Value != tc.want || got.From != tc.from {
				t.Errorf("%s = %q from %q, want %q from %q", tc.key, got.Value, got.From, tc.want, tc.from)
			}
		})
	}
}

// The file's values reach the commands, not only `config show`: budgets,
// the role and the model a question is answered with.
func TestConfigFileSetsWhatTheFlagsSet(t *testing.T) {
	srv := llmtest.NewOpenAI(t, llmtest.Script{Chunks: []string{"From the model."}})
	c := newCLI(t, "OPENAI_BASE_URL", srv.BaseURL())
	c.withConfig("provider: openai\nmodel: file-model\nbudget-docs: 300\nbudget-widgets: 0\nrole: internal-note\n")
	o := c.askJSON("explain workspace")
	if o.LLM.Model != "file-model" || o.Context == nil || o.Context.Budgets.Docs != 300 || o.Context.Budgets.Widgets != 0 || o.Context.Role != "internal-note" {
		t.Fatalf("llm %+v, context %+v; want the file's model, budgets and role", o.LLM, o.Context)
	}
	if o := c.askJSON("--budget-docs", "400", "explain workspace"); o.Context.Budgets.Docs != 400 {
		t.Errorf("docs budget %d, want the flag's 400", o.Context.Budgets.Docs)
	}
}

// A misspelt key stops every command with exit 2 and names the file and
// line; so does a bad value, and a --config that names no file.
func TestConfigFileMistakes(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string
	}{
		{"misspelt key", "model: m\ntop_kk: 3\n", []string{"config.yaml:2", `unknown key "top_kk"`, "did you mean top-k?"}},
		{"bad value", "top-k: five\n", []string{"config.yaml:1", "top-k", `invalid value "five"`}},
		{"bad role", "role: shout\n", []string{`unknown role "shout"`, "internal-note, reply-to-customer, translate"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCLI(t)
			c.withConfig(tc.text)
			_, errOut, code := c.run("ask", "explain workspace")
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			for _, w := range tc.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr %q lacks %q", errOut, w)
				}
			}
		})
	}
	missing := filepath.Join(t.TempDir(), "nope.yaml")
	if _, errOut, code := newCLI(t).run("--config", missing, "ask", "explain workspace"); code != 2 || !strings.Contains(errOut, "nope.yaml does not exist") {
		t.Errorf("--config naming no file: exit %d, stderr %q", code, errOut)
	}
	// path and edit still work on a broken file: they are how it is mended.
	c := newCLI(t)
	path := c.withConfig("top_kk: 3\n")
	if out, errOut, code := c.run("config", "path"); code != 0 || strings.TrimSpace(out) != path {
		t.Errorf("config path on a broken file: exit %d, %q %q", code, out, errOut)
	}
}

// `config show` says whether a key is set and where from, never the key;
// a database password stays out too.
func TestConfigShowNeverPrintsASecret(t *testing.T) {
	const fileKey, envKey, password = "sk-file-0123456789abcdef", "sk-ant-env-0123456789abcdef", "hunter2-secret"
	c := newCLI(t, "ANTHROPIC_API_KEY", envKey, "DATABASE_URL", "postgres://docent:"+password+"@db.example.com/docent")
	c.withConfig("openai-api-key: " + fileKey + "\n")
	for _, args := range [][]string{{"config", "show"}, {"config", "show", "--json"}} {
		out, errOut, code := c.run(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		for _, secret := range []string{fileKey, envKey, password, "0123456789abcdef"} {
			if strings.Contains(out+errOut, secret) {
				t.Errorf("%v prints a secret:\n%s%s", args, out, errOut)
			}
		}
	}
	shown := c.showConfig()
	if s := shown.setting(t, "openai-api-key"); s.Value != "set" || s.From != "file line 1" {
		t.Errorf("openai-api-key: %+v, want set from the file", s)
	}
	if s := shown.setting(t, "anthropic-api-key"); s.Value != "set" || s.From != "env ANTHROPIC_API_KEY" {
		t.Errorf("anthropic-api-key: %+v, want set from the environment", s)
	}
	if shown.LLM.Provider != "openai" {
		t.Errorf("answer writer %+v, want openai: the file's key counts for auto", shown.LLM)
	}
}

// An API key in the file is used as the variable would be, and a file
// others can read that holds one gets a warning.
func TestConfigFileKey(t *testing.T) {
	const key = "sk-test-file-key-0123456789"
	srv := llmtest.NewOpenAI(t, llmtest.Script{Chunks: []string{"Keyed answer."}, APIKey: key})
	c := newCLI(t)
	path := c.withConfig("openai-api-key: " + key + "\nbase-url: " + srv.BaseURL() + "\n")
	out, errOut, code := c.run("ask", "--json", "explain workspace")
	if code != 0 || strings.Contains(errOut, "warning") {
		t.Fatalf("exit %d, stderr %q; want an answer and no warning for a private file", code, errOut)
	}
	var o askOutput
	if err := json.Unmarshal([]byte(out), &o); err != nil || o.LLM.Provider != "openai" || o.Reply != "Keyed answer." {
		t.Fatalf("reply %q from %+v (%v); want the keyed server's answer", o.Reply, o.LLM, err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = c.run("ask", "explain workspace")
	if code != 0 || !strings.Contains(errOut, "holds an API key and other users can read it: chmod 600 "+path) {
		t.Errorf("world-readable file with a key: exit %d, stderr %q; want a warning", code, errOut)
	}
	if strings.Contains(errOut, key) {
		t.Errorf("the warning shows the key: %q", errOut)
	}
	// The environment's key wins over the file's.
	c.env["OPENAI_API_KEY"] = "sk-env-wrong-0123456789"
	if o := c.askJSON("explain workspace"); !o.LLM.Fallback {
		t.Errorf("llm %+v: want the environment's (wrong) key refused", o.LLM)
	}
}

// `config edit` creates the file from the template, private, opens it in
// $EDITOR and checks what was saved.
func TestConfigEdit(t *testing.T) {
	editor := filepath.Join(t.TempDir(), "editor.sh")
	if err := os.WriteFile(editor, []byte("#!/bin/sh\nprintf '%s\\n' \"$DOCENT_TEST_LINE\" >> \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, "EDITOR", editor)
	c.env["XDG_CONFIG_HOME"] = t.TempDir()
	path := filepath.Join(c.env["XDG_CONFIG_HOME"], "docent", "config.yaml")
	t.Setenv("DOCENT_TEST_LINE", "top-k: 6") // the editor is a real process: it reads the real environment
	_, errOut, code := c.run("config", "edit")
	if code != 0 || !strings.Contains(errOut, "created "+path) {
		t.Fatalf("config edit: exit %d, stderr %q", code, errOut)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("created file: %v, %v; want mode 0600", info, err)
	}
	if s := c.showConfig().setting(t, "top-k"); s.Value != "6" {
		t.Errorf("top-k %+v after the edit", s)
	}
	t.Setenv("DOCENT_TEST_LINE", "top_kk: 6")
	_, errOut, code = c.run("config", "edit")
	if code != 2 || !strings.Contains(errOut, `config.yaml:`) || !strings.Contains(errOut, "did you mean top-k") {
		t.Errorf("a misspelt key saved: exit %d, stderr %q; want 2 naming the line", code, errOut)
	}
}

// Every line of the template works once uncommented, and it names every
// key there is.
func TestConfigTemplate(t *testing.T) {
	cmd, e := newRoot(func(string) string { return "" })
	tmpl := configTemplate(cmd, e.cfg.bindings)
	if _, err := configfile.Parse("template", []byte(tmpl), fileKeys(e.cfg.bindings)); err != nil {
		t.Fatalf("the template itself: %v", err)
	}
	var uncommented []string
	setting := regexp.MustCompile(`^# ( *[a-z0-9][a-z0-9.-]*:.*)$`)
	for _, line := range strings.Split(tmpl, "\n") {
		if m := setting.FindStringSubmatch(line); m != nil {
			uncommented = append(uncommented, m[1])
		}
	}
	text := strings.Join(uncommented, "\n")
	f, err := configfile.Parse("template", []byte(text), fileKeys(e.cfg.bindings))
	if err != nil {
		t.Fatalf("the template uncommented: %v\n%s", err, text)
	}
	for _, key := range fileKeys(e.cfg.bindings) {
		if !regexp.MustCompile(`(?m)^ *` + regexp.QuoteMeta(key) + `:`).MatchString(text) {
			t.Errorf("the template lacks %s", key)
		}
	}
	if len(f.Roles) == 0 || len(f.Prices) == 0 {
		t.Errorf("the template's examples give %d roles and %d prices", len(f.Roles), len(f.Prices))
	}
	// Uncommented, the defaults are the defaults.
	c := newCLI(t)
	c.withConfig(text)
	for _, s := range c.showConfig().Settings {
		if strings.HasPrefix(s.From, "file") && s.Key != "openai-api-key" && s.Key != "anthropic-api-key" {
			if def := cmd.PersistentFlags().Lookup(s.Key).DefValue; s.Value != def {
				t.Errorf("%s: the template's value %q is not the default %q", s.Key, s.Value, def)
			}
		}
	}
}

// The README's example configuration is a valid file.
func TestREADMEConfigExample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- config-example -->\n```yaml\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md has no ```yaml block after <!-- config-example -->")
	}
	_, e := newRoot(func(string) string { return "" })
	f, err := configfile.Parse("README example", m[1], fileKeys(e.cfg.bindings))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Settings) == 0 || len(f.Roles) == 0 || len(f.Prices) == 0 {
		t.Errorf("the example shows %d settings, %d roles, %d prices; want some of each", len(f.Settings), len(f.Roles), len(f.Prices))
	}
}

// A price table gives the cost of an answer in --json and in the event.
func TestAskCostFromThePriceTable(t *testing.T) {
	srv := llmtest.NewOpenAI(t, llmtest.Script{Chunks: []string{"A workspace is an area."}, Usage: llmtest.Usage{PromptTokens: 2000, CompletionTokens: 100}})
	c := newCLI(t, "DOCENT_PROVIDER", "openai", "OPENAI_BASE_URL", srv.BaseURL())
	c.withConfig("model: gpt-4o-mini\nprices:\n  gpt-4o-mini: {input-per-mtok: 0.15, output-per-mtok: 0.60}\n")
	o := c.askJSON("explain workspace")
	const want = 0.00036 // 2000 × $0.15 + 100 × $0.60 per million
	if o.LLM.CostUSD == nil || math.Abs(*o.LLM.CostUSD-want) > 1e-12 || !o.LLM.Usage.Reported {
		t.Fatalf("llm %+v, want usage and a cost of %v", o.LLM, want)
	}
	data, err := os.ReadFile(filepath.Join(c.env["XDG_STATE_HOME"], "docent", eventsFile))
	if err != nil {
		t.Fatal(err)
	}
	var ev knowledge.RetrievalEvent
	if err := json.Unmarshal([]byte(strings.TrimSpace(string(data))), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.PromptTokens == nil || *ev.PromptTokens != 2000 || ev.CompletionTokens == nil || *ev.CompletionTokens != 100 ||
		ev.CostUSD == nil || math.Abs(*ev.CostUSD-want) > 1e-12 {
		t.Errorf("event %s, want the usage and its cost", data)
	}
	// Without a price there is usage but no cost.
	c.withConfig("model: unpriced\n")
	if o := c.askJSON("explain workspace"); o.LLM.CostUSD != nil || !o.LLM.Usage.Reported {
		t.Errorf("llm %+v, want usage without a cost", o.LLM)
	}
}
