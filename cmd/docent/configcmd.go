package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/internal/configfile"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/textsafe"
)

func newConfigCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Show, locate or edit the configuration file",
		Long: "The configuration file (config.yaml) sets what the flags set, under the flags' names, plus\n" +
			"API keys, roles and a price table. A flag on the command line wins over its environment\n" +
			"variable, which wins over the file, which wins over the default.",
		// path and edit must work when the file is broken: they are how it
		// gets mended. So the file is read only where it is needed.
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			return e.applyFlagsAndEnv(cmd.Flags())
		},
	}
	cmd.AddCommand(
		&cobra.Command{
			Use:   "path",
			Short: "Print the configuration file's path",
			Args:  cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				path, err := e.configPathOrErr()
				if err != nil {
					return err
				}
				fmt.Fprintln(cmd.OutOrStdout(), path)
				return nil
			},
		},
		newConfigShowCmd(e),
		&cobra.Command{
			Use:   "edit",
			Short: "Open the configuration file in $VISUAL or $EDITOR (created from a commented template if missing)",
			Args:  cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				return e.editConfig(cmd)
			},
		},
	)
	return cmd
}

func (e *env) configPathOrErr() (string, error) {
	path, _ := e.configFilePath()
	if path == "" {
		return "", usageErrorf("no place for a config file: set XDG_CONFIG_HOME or HOME, or name one with --config")
	}
	return path, nil
}

// shownConfig is what `docent config show --json` prints.
type shownConfig struct {
	File     string         `json:"file"`
	FileRead bool           `json:"file_read"`
	LLM      llm.Selection  `json:"llm"`
	Settings []shownSetting `json:"settings"`
	Roles    []shownRole    `json:"roles"`
	Prices   []shownPrice   `json:"prices"`
}

type shownSetting struct {
	Key   string `json:"key"`
	Value string `json:"value"` // for an API key only "set" or "not set"
	From  string `json:"from"`  // flag, env NAME, file line N, default
}

type shownRole struct {
	Name string `json:"name"`
	From string `json:"from"`
}

type shownPrice struct {
	Model         string  `json:"model"`
	InputPerMTok  float64 `json:"input_per_mtok"`
	OutputPerMTok float64 `json:"output_per_mtok"`
	From          string  `json:"from"`
}

func newConfigShowCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show [--json]",
		Short: "Print the configuration in effect and where each value comes from (API keys only as set or not)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := e.applyFile(cmd.Flags(), cmd.ErrOrStderr()); err != nil {
				return err
			}
			shown := e.showConfig(cmd)
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), shown)
			}
			writeConfigText(cmd.OutOrStdout(), shown)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}

// showConfig collects the configuration in effect. Every value passes the
// redactor (a database URL keeps its password out), and an API key is
// never shown: only whether one is set.
func (e *env) showConfig(cmd *cobra.Command) shownConfig {
	red := e.redactor()
	path, _ := e.configFilePath()
	out := shownConfig{File: path, FileRead: e.settings.fileRead}
	from := func(key string) string {
		if o, ok := e.settings.origins[key]; ok {
			return o.String()
		}
		return originDefault
	}
	for _, b := range e.cfg.bindings {
		f := cmd.Flags().Lookup(b.flag)
		if f == nil {
			continue
		}
		out.Settings = append(out.Settings, shownSetting{Key: b.flag, Value: textsafe.Line(red.String(f.Value.String())), From: from(b.flag)})
	}
	for _, s := range secretKeys {
		st := shownSetting{Key: s.key, Value: "not set", From: "—"}
		if e.getenv(s.env) != "" {
			st.Value = "set"
			st.From = from(s.key)
			if _, inFile := e.settings.origins[s.key]; !inFile {
				st.From = originEnv + " " + s.env
			}
		}
		out.Settings = append(out.Settings, st)
	}
	for _, r := range e.settings.roles {
		out.Roles = append(out.Roles, shownRole{Name: r.Name, From: e.settings.roleFrom[r.Name].String()})
	}
	slices.SortFunc(out.Roles, func(a, b shownRole) int { return strings.Compare(a.Name, b.Name) })
	for _, p := range e.settings.file.Prices {
		out.Prices = append(out.Prices, shownPrice{Model: textsafe.Line(p.Model), InputPerMTok: p.InputPerMTok, OutputPerMTok: p.OutputPerMTok,
			From: e.settings.priceAt[p.Model].String()})
	}
	out.Roles, out.Prices, out.Settings = nonNil(out.Roles), nonNil(out.Prices), nonNil(out.Settings)
	// Which answer writer that makes, as `docent ask` would resolve it.
	out.LLM, _ = llm.Resolve(e.cfg.llmConfig(), e.getenv)
	return out
}

func writeConfigText(w io.Writer, c shownConfig) {
	file := textsafe.Line(c.File)
	switch {
	case c.File == "":
		file = "none (no XDG_CONFIG_HOME or HOME)"
	case !c.FileRead:
		file += " (not there: docent config edit creates it)"
	}
	fmt.Fprintf(w, "config file:   %s\n", file)
	fmt.Fprintf(w, "answer writer: %s", textsafe.Line(c.LLM.String()))
	if c.LLM.Reason != "" {
		fmt.Fprintf(w, " (%s)", textsafe.Line(c.LLM.Reason))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "key\tvalue\tfrom")
	for _, s := range c.Settings {
		v := s.Value
		if v == "" {
			v = "—"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Key, v, s.From)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nroles (--role NAME, /role NAME in the chat):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range c.Roles {
		fmt.Fprintf(tw, "  %s\t%s\n", r.Name, r.From)
	}
	tw.Flush()
	if len(c.Prices) == 0 {
		fmt.Fprintln(w, "\nprices: none (the cost of an answer is shown for models with a price)")
		return
	}
	fmt.Fprintln(w, "\nprices (US dollars per million tokens):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  model\tinput\toutput\tfrom")
	for _, p := range c.Prices {
		fmt.Fprintf(tw, "  %s\t%g\t%g\t%s\n", p.Model, p.InputPerMTok, p.OutputPerMTok, p.From)
	}
	tw.Flush()
}

// editConfig opens the configuration file in the user's editor, writing
// the commented template first when there is no file, and checks it once
// the editor exits, so a mistake is reported while it is fresh.
func (e *env) editConfig(cmd *cobra.Command) error {
	path, err := e.configPathOrErr()
	if err != nil {
		return err
	}
	editor := strings.Fields(e.rawGetenv("VISUAL"))
	if len(editor) == 0 {
		editor = strings.Fields(e.rawGetenv("EDITOR"))
	}
	if len(editor) == 0 {
		editor = []string{"vi"}
	}
	created, err := createConfigFile(path, configTemplate(cmd.Root(), e.cfg.bindings))
	if err != nil {
		return err
	}
	if created {
		fmt.Fprintf(cmd.ErrOrStderr(), "docent: created %s from the template\n", textsafe.Line(path))
	}
	run := exec.CommandContext(cmd.Context(), editor[0], append(editor[1:], path)...)
	run.Stdin, run.Stdout, run.Stderr = cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr()
	if err := run.Run(); err != nil {
		return fmt.Errorf("editor %s: %w", textsafe.Line(editor[0]), err)
	}
	if _, err := configfile.Load(path, fileKeys(e.cfg.bindings)); err != nil {
		return &exitError{code: 2, err: fmt.Errorf("%w (docent config edit opens it again)", err)}
	}
	return nil
}

// createConfigFile writes text to path unless a file is there. The file
// may come to hold API keys, so only its owner may read it.
func createConfigFile(path, text string) (bool, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return false, fmt.Errorf("config file %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("config file %s: %w", path, err)
	}
	if _, err := io.WriteString(f, text); err != nil {
		f.Close()
		os.Remove(path)
		return false, fmt.Errorf("config file %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return false, fmt.Errorf("config file %s: %w", path, err)
	}
	return true, nil
}

// configTemplate is the commented file `docent config edit` starts from:
// one line per flag, with its default and meaning, then the keys, roles
// and prices only the file has. Every setting line works once its "# " is
// removed (a test makes sure).
func configTemplate(root *cobra.Command, bindings []envBinding) string {
	var b strings.Builder
	b.WriteString(`# docent configuration. "docent config show" prints what is in effect and where
# each value comes from; "docent config edit" opens this file.
#
# Every key is a flag's name and sets what the flag sets (an underscore may stand
# for a hyphen). A flag on the command line wins over its environment variable,
# which wins over this file, which wins over the default. Remove the "# " in
# front of a line to set it; a key left empty keeps the default.

`)
	for _, e := range bindings {
		if e.flag == configFlag {
			continue
		}
		f := root.PersistentFlags().Lookup(e.flag)
		fmt.Fprintf(&b, "# %s: %s  # %s\n", e.flag, yamlScalar(f.DefValue), f.Usage)
	}
	b.WriteString(`
# API keys, when not in the environment (the environment's OPENAI_API_KEY and
# ANTHROPIC_API_KEY win). Keep this file private: docent warns when others can
# read a key in it (chmod 600).
`)
	for _, s := range secretKeys {
		fmt.Fprintf(&b, "# %s:\n", s.key)
	}
	b.WriteString(`
# Roles: named additions to the system prompt, picked with --role NAME (or the
# role key above) and /role NAME in the chat. They go after docent's rules
# (answer only from the docs, cite them), which no role removes. The built-in
# ones are ` + strings.Join(builtinRoleNames(), ", ") + `; a role here with
# the same name replaces it.
# roles:
#   escalation: "Write the answer as a hand-over to the engineering team: what the customer tried, what the docs say, and what is still open."
#   reply-to-customer: "Write the reply to the customer, friendly and short, signed by the Acme support team."

# Prices in US dollars per million tokens, by model name: the cost of each
# answer and of the session is shown in the chat's debug pane and in
# docent ask --json.
# prices:
#   gpt-4o-mini: {input-per-mtok: 0.15, output-per-mtok: 0.60}
#   claude-3-5-haiku-latest: {input-per-mtok: 0.80, output-per-mtok: 4.00}
`)
	return b.String()
}

// yamlScalar writes a default as a YAML value: empty stays empty (the key
// then keeps its default), anything YAML would misread is quoted.
func yamlScalar(v string) string {
	if v == "" || (!strings.ContainsAny(v, ":#{}[],&*!|>'\"%@`") && strings.TrimSpace(v) == v) {
		return v
	}
	return strconv.Quote(v)
}
