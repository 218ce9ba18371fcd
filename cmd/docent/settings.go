package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"slices"

	"github.com/spf13/pflag"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/internal/configfile"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/prompt"
	"github.com/docent-sh/docent/textsafe"
)

// secretKey is a configuration file key that stands in for an environment
// variable holding a secret: the variable, when set, wins.
type secretKey struct {
	key string
	env string
}

var secretKeys = []secretKey{
	{"openai-api-key", llm.EnvOpenAIKey},
	{"anthropic-api-key", llm.EnvAnthropicKey},
}

// settings is what the configuration file adds to the flags: where each
// value came from, the keys it holds, the roles and the prices.
type settings struct {
	file     configfile.File
	fileRead bool              // a file was found and read
	origins  map[string]origin // by flag or secret key; absent: the default
	secrets  map[string]string // by environment variable, from the file
	roles    []prompt.Role     // built-in first, then the file's, which replace them by name
	roleFrom map[string]origin
	prices   map[string]assistant.Price
	priceAt  map[string]origin
}

// fileKeys are the keys the configuration file accepts at its top level
// besides roles and prices: every flag's name but --config's, and the keys
// that stand in for secrets.
func fileKeys(bindings []envBinding) []string {
	var keys []string
	for _, b := range bindings {
		if b.flag != configFlag {
			keys = append(keys, b.flag)
		}
	}
	for _, s := range secretKeys {
		keys = append(keys, s.key)
	}
	return keys
}

// applyFlagsAndEnv notes the flags given on the command line and fills the
// others from their environment variables. The configuration file comes
// after (applyFile): its path may itself come from either.
func (e *env) applyFlagsAndEnv(flags *pflag.FlagSet) error {
	e.settings = settings{origins: map[string]origin{}, secrets: map[string]string{}}
	return applyEnv(flags, e.cfg.bindings, e.rawGetenv, e.settings.origins)
}

// configFilePath is the configuration file to read: the one --config or
// DOCENT_CONFIG names (named is then true, and a missing file is a
// mistake), else the default place, "" when there is none.
func (e *env) configFilePath() (path string, named bool) {
	if e.cfg.configPath != "" {
		return e.cfg.configPath, true
	}
	return configfile.Path(e.rawGetenv), false
}

// applyFile reads the configuration file and sets every flag that neither
// the command line nor the environment set, then takes the file's keys,
// roles and prices. A key in a file others can read gets a warning on
// stderr.
func (e *env) applyFile(flags *pflag.FlagSet, stderr io.Writer) error {
	st := &e.settings
	st.roles = prompt.BuiltinRoles()
	st.roleFrom = map[string]origin{}
	for _, r := range st.roles {
		st.roleFrom[r.Name] = origin{from: originBuiltin}
	}
	path, named := e.configFilePath()
	if path == "" {
		return nil
	}
	file, err := configfile.Load(path, fileKeys(e.cfg.bindings))
	switch {
	case errors.Is(err, fs.ErrNotExist) && !named:
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return usageErrorf("config file %s does not exist (docent config edit creates it)", textsafe.Line(path))
	case err != nil:
		return &exitError{code: 2, err: err}
	}
	st.file, st.fileRead = file, true
	at := func(line int) origin { return origin{from: originFile, where: fmt.Sprintf("line %d", line)} }

	secretFromFile := false
	for _, s := range file.Settings {
		if i := slices.IndexFunc(secretKeys, func(k secretKey) bool { return k.key == s.Key }); i >= 0 {
			secretFromFile = true
			if e.rawGetenv(secretKeys[i].env) == "" {
				st.secrets[secretKeys[i].env] = s.Value
				st.origins[s.Key] = at(s.Line)
			}
			continue
		}
		if _, set := st.origins[s.Key]; set {
			continue // the command line or the environment wins
		}
		f := flags.Lookup(s.Key)
		if f == nil {
			continue // a flag of the root only, on a subcommand that does not take it
		}
		if err := f.Value.Set(s.Value); err != nil {
			return usageErrorf("config file %s:%d: %s: invalid value %q: %v", textsafe.Line(path), s.Line, s.Key, textsafe.Clip(s.Value, 60), err)
		}
		st.origins[s.Key] = at(s.Line)
	}
	if secretFromFile && file.ReadableByOthers() && runtime.GOOS != "windows" {
		fmt.Fprintf(stderr, "docent: warning: the config file %s holds an API key and other users can read it: chmod 600 %s\n",
			textsafe.Line(path), textsafe.Line(path))
	}

	for _, r := range file.Roles {
		o := at(r.Line)
		if i := slices.IndexFunc(st.roles, func(b prompt.Role) bool { return b.Name == r.Name }); i >= 0 {
			st.roles = slices.Delete(st.roles, i, i+1)
			o.where += " (replaces the built-in)"
		}
		st.roles = append(st.roles, prompt.Role{Name: r.Name, Text: r.Text})
		st.roleFrom[r.Name] = o
	}
	if len(file.Prices) > 0 {
		st.prices = make(map[string]assistant.Price, len(file.Prices))
		st.priceAt = make(map[string]origin, len(file.Prices))
		for _, p := range file.Prices {
			st.prices[p.Model] = assistant.Price{InputPerMTok: p.InputPerMTok, OutputPerMTok: p.OutputPerMTok}
			st.priceAt[p.Model] = at(p.Line)
		}
	}
	return nil
}

// checkRole rejects a --role (or role key) that names no role, listing the
// ones there are.
func (e *env) checkRole() error {
	if e.cfg.role == "" {
		return nil
	}
	var names []string
	for _, r := range e.settings.roles {
		if r.Name == e.cfg.role {
			return nil
		}
		names = append(names, r.Name)
	}
	slices.Sort(names)
	return usageErrorf("%v", &assistant.UnknownRoleError{Name: e.cfg.role, Known: names})
}

// lookupEnv is the environment as docent reads it: the process's
// variables, and for an API key the variable lacks, the configuration
// file's.
func (e *env) lookupEnv(name string) string {
	if v := e.rawGetenv(name); v != "" {
		return v
	}
	return e.settings.secrets[name]
}
