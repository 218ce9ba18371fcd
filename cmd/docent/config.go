package main

import (
	"cmp"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/llm/embed"
	"github.com/docent-sh/docent/prompt"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/postgres"
)

// envBinding ties a flag to the environment variable that sets it when the
// flag is not given on the command line, and to the configuration file's
// key of the same name (every flag but --config itself). The list doubles
// as the source of the README's configuration table and of the file's
// template, so a flag cannot be added without its variable and its key.
type envBinding struct {
	flag string
	envs []string // first one wins; later ones are accepted aliases
}

// configFlag names the configuration file; it is the one flag the file
// cannot set.
const configFlag = "config"

// origin says where a setting's value came from, for `docent config show`.
type origin struct {
	from  string // originFlag, originEnv, originFile, originDefault or originBuiltin
	where string // the variable, or the file's line
}

const (
	originFlag    = "flag"
	originEnv     = "env"
	originFile    = "file"
	originDefault = "default"
	originBuiltin = "built-in"
)

func (o origin) String() string {
	if o.where == "" {
		return o.from
	}
	return o.from + " " + o.where
}

// applyEnv sets every flag that was not given on the command line from its
// environment variable and notes in origins (when not nil) where each set
// flag's value came from. getenv is a parameter so tests need not touch
// the process environment.
func applyEnv(flags *pflag.FlagSet, bindings []envBinding, getenv func(string) string, origins map[string]origin) error {
	note := func(flag string, o origin) {
		if origins != nil {
			origins[flag] = o
		}
	}
	for _, b := range bindings {
		f := flags.Lookup(b.flag)
		if f == nil {
			continue
		}
		if f.Changed {
			note(b.flag, origin{from: originFlag})
			continue
		}
		for _, env := range b.envs {
			v := getenv(env)
			if v == "" {
				continue
			}
			if err := f.Value.Set(v); err != nil {
				return usageErrorf("environment variable %s: invalid value for --%s: %v", env, b.flag, err)
			}
			note(b.flag, origin{from: originEnv, where: env})
			break
		}
	}
	return nil
}

// config is everything the flags, environment and configuration file
// decide.
type config struct {
	configPath string
	role       string

	docsDir   string
	dbURL     string
	logPath   string
	noMigrate bool

	maxDeleteShare float64
	lockWait       time.Duration

	synonymsPath     string
	phase            int
	retrievalEnabled bool
	topK             int
	minCoverage      float64
	minMargin        float64
	definitionalBias float64
	alpha            float64
	// categories is --scope as given: the docs folders retrieval is
	// restricted to, checked against the knowledge base once it is read.
	categories string

	provider          string
	model             string
	baseURL           string
	contextPath       string
	connectTimeout    time.Duration
	firstTokenTimeout time.Duration
	idleTimeout       time.Duration
	retryAfterMax     time.Duration
	maxRetries        int

	embedProvider string
	embedModel    string

	// optional model refinements of a turn; off by default
	rerank        bool
	rerankTimeout time.Duration
	answerability bool

	// who is asking, for team notes: see env.scope.
	workspace    string
	user         string
	notesFile    string
	notesTimeout time.Duration

	// budgets as the flags take them: 0 leaves a component out.
	budgets prompt.Budgets

	// bindings is filled as flags are declared, so a flag cannot be added
	// without naming its variable.
	bindings []envBinding
}

func (c *config) bindEnv(flag string, envs ...string) {
	c.bindings = append(c.bindings, envBinding{flag: flag, envs: envs})
}

func (c *config) register(cmd *cobra.Command) {
	f := cmd.PersistentFlags()
	f.StringVar(&c.configPath, configFlag, "", "configuration file (default: $XDG_CONFIG_HOME/docent/config.yaml, else ~/.config/docent/config.yaml)")
	c.bindEnv(configFlag, "DOCENT_CONFIG")
	f.StringVar(&c.docsDir, "docs", "", "knowledge base folder (default: the embedded demo knowledge base)")
	c.bindEnv("docs", "DOCENT_DOCS")
	f.StringVar(&c.dbURL, "db", "", "PostgreSQL URL (default: $DATABASE_URL; empty: the embedded in-memory store)")
	c.bindEnv("db", "DOCENT_DB", "DATABASE_URL")
	f.StringVar(&c.logPath, "log", "", "log file; retrieval-events.jsonl goes beside it (default: $XDG_STATE_HOME/docent/docent.log)")
	c.bindEnv("log", "DOCENT_LOG")
	f.StringVar(&c.notesFile, "notes-file", "", "team notes file without a database; note-reads.jsonl, the audit of private notes read, goes beside it (default: $XDG_DATA_HOME/docent/notes.jsonl, else ~/.local/share/docent/notes.jsonl)")
	c.bindEnv("notes-file", "DOCENT_NOTES_FILE")
	f.StringVar(&c.workspace, "workspace", "", "workspace (team) whose notes docent reads and writes; notes need one")
	c.bindEnv("workspace", "DOCENT_WORKSPACE")
	f.DurationVar(&c.notesTimeout, "notes-timeout", assistant.DefaultNotesTimeout,
		"longest a turn waits for the team's notes before answering from the docs alone")
	c.bindEnv("notes-timeout", "DOCENT_NOTES_TIMEOUT")
	f.StringVar(&c.user, "user", "", "user (agent) docent acts as: owner of the notes added, reader of private notes (default: the OS user name, else $USER)")
	c.bindEnv("user", "DOCENT_USER")
	f.BoolVar(&c.noMigrate, "no-migrate", false, "do not apply pending database migrations on start-up (refuse a schema that is behind)")
	c.bindEnv("no-migrate", "DOCENT_NO_MIGRATE")
	f.Float64Var(&c.maxDeleteShare, "max-delete-share", store.DefaultMaxDeleteShare,
		"seed: largest share of the stored docs (0 to 1) a seed deletes without --prune")
	c.bindEnv("max-delete-share", "DOCENT_MAX_DELETE_SHARE")
	f.DurationVar(&c.lockWait, "lock-wait", postgres.DefaultLockWait,
		"longest wait for another seed or migration on the same database")
	c.bindEnv("lock-wait", "DOCENT_LOCK_WAIT")

	f.StringVar(&c.synonymsPath, "synonyms", "", "synonyms file (one rewrite a line: from => to), applied after the knowledge base's own")
	c.bindEnv("synonyms", "DOCENT_SYNONYMS")
	// The engine's defaults are written once, in retrieval.DefaultConfig,
	// and its ranges checked once, by retrieval.Config.Validate.
	policy := retrieval.DefaultConfig()
	f.IntVar(&c.phase, "phase", policy.Phase, "retrieval phase: 1 scores whole docs, 2 scores chunks")
	c.bindEnv("phase", "DOC_RETRIEVAL_PHASE")
	f.BoolVar(&c.retrievalEnabled, "retrieval", policy.Enabled, "use retrieval (false answers from the glossary only)")
	c.bindEnv("retrieval", "DOC_RETRIEVAL_ENABLED")
	f.IntVar(&c.topK, "top-k", policy.TopK, "evidence chunks kept per query (1 to 100)")
	c.bindEnv("top-k", "DOC_RETRIEVAL_TOP_K")
	f.Float64Var(&c.minCoverage, "min-coverage", policy.MinCoverage, "decision policy: share (0–1) of the question's informative weight the top doc must cover to be an answer; below it, no match")
	c.bindEnv("min-coverage", "DOC_RETRIEVAL_MIN_COVERAGE")
	f.Float64Var(&c.minMargin, "min-margin", policy.MinMargin, "decision policy: a doc within this share (0–1) of the top doc, in rank and in title/heading match, is a second meaning to ask about")
	c.bindEnv("min-margin", "DOC_RETRIEVAL_MIN_MARGIN")
	f.Float64Var(&c.definitionalBias, "definitional-bias", policy.DefinitionalBias, "the doc about the asked-for thing (titled with the question's words; for \"what is X\" also the section headed X or a declared concept doc) ranks ×(1 + this); 0 turns it off")
	c.bindEnv("definitional-bias", "DOC_RETRIEVAL_DEFINITIONAL_BIAS")
	f.Float64Var(&c.alpha, "alpha", policy.Alpha, "hybrid ranking: weight (0–1) of the embedding similarity against the keyword rank when the question has a vector; 0 ranks by keywords alone")
	c.bindEnv("alpha", "DOC_RETRIEVAL_ALPHA")
	f.StringVar(&c.categories, "scope", "", "restrict retrieval to the docs of these categories (docs folders), comma-separated; empty: all")
	c.bindEnv("scope", "DOCENT_SCOPE")

	f.StringVar(&c.provider, "provider", "auto", "answer writer: auto|extractive|openai|ollama|anthropic")
	c.bindEnv("provider", "DOCENT_PROVIDER")
	f.StringVar(&c.model, "model", "", "model name (default: the provider's default)")
	c.bindEnv("model", "DOCENT_MODEL")
	f.StringVar(&c.baseURL, "base-url", "", "base URL of the provider's API: OpenAI or a compatible server, Anthropic (with or without /v1) or Ollama (default: $OPENAI_BASE_URL, $ANTHROPIC_BASE_URL, $OLLAMA_HOST)")
	c.bindEnv("base-url", "DOCENT_BASE_URL")
	f.StringVar(&c.contextPath, "context", "", "customer app state (JSON or text) to put into the prompt")
	c.bindEnv("context", "DOCENT_CONTEXT")
	f.DurationVar(&c.connectTimeout, "connect-timeout", llm.DefaultConnectTimeout, "LLM connect timeout")
	c.bindEnv("connect-timeout", "DOCENT_CONNECT_TIMEOUT")
	f.DurationVar(&c.firstTokenTimeout, "first-token-timeout", llm.DefaultFirstTokenTimeout, "LLM time-to-first-token timeout")
	c.bindEnv("first-token-timeout", "DOCENT_FIRST_TOKEN_TIMEOUT")
	f.DurationVar(&c.idleTimeout, "idle-timeout", llm.DefaultIdleTimeout, "LLM longest wait between streamed tokens; then the partial answer ends and the offline answer follows")
	c.bindEnv("idle-timeout", "DOCENT_IDLE_TIMEOUT")
	f.DurationVar(&c.retryAfterMax, "retry-after-max", llm.DefaultRetryAfterMax, "LLM longest Retry-After waited for before a retry; a server asking for more is not retried")
	c.bindEnv("retry-after-max", "DOCENT_RETRY_AFTER_MAX")
	f.IntVar(&c.maxRetries, "max-retries", llm.DefaultMaxRetries, "LLM retries of a 429 or 5xx before the first token (0: none)")
	c.bindEnv("max-retries", "DOCENT_MAX_RETRIES")
	f.StringVar(&c.embedProvider, "embed-provider", embed.ProviderNone,
		"embedding provider: none|openai|ollama; seeding embeds each chunk's content with it. Key and address as for the answer writer: $OPENAI_API_KEY and $OPENAI_BASE_URL, or $OLLAMA_HOST (--base-url when --provider is the same)")
	c.bindEnv("embed-provider", "DOCENT_EMBED_PROVIDER")
	f.StringVar(&c.embedModel, "embed-model", "", fmt.Sprintf("embedding model (default: the provider's: %s for openai, %s for ollama)",
		embed.DefaultOpenAIModel, embed.DefaultOllamaModel))
	c.bindEnv("embed-model", "DOCENT_EMBED_MODEL")
	f.BoolVar(&c.rerank, "rerank", false, "rerank a question's top top-k × 3 chunks with the answer writer's model before answering (needs a model provider, not extractive); on a timeout or a bad reply the fused order stands")
	c.bindEnv("rerank", "DOCENT_RERANK")
	f.DurationVar(&c.rerankTimeout, "rerank-timeout", assistant.DefaultRerankTimeout, "longest a turn waits for the reranking model (--rerank)")
	c.bindEnv("rerank-timeout", "DOCENT_RERANK_TIMEOUT")
	f.BoolVar(&c.answerability, "answerability", false, "before a found answer is written, have the answer writer's model check the chunks answer the question; if not, widen the search once, then ask instead of answering (needs a model provider, not extractive)")
	c.bindEnv("answerability", "DOCENT_ANSWERABILITY")
	f.StringVar(&c.role, "role", "", "role the answers are written in, added to the system prompt after its rules: "+
		strings.Join(builtinRoleNames(), ", ")+", or one from the config file's roles")
	c.bindEnv("role", "DOCENT_ROLE")

	def := prompt.DefaultBudgets()
	for _, b := range []struct {
		dst  *int
		name string
		def  int
		what string
	}{
		{&c.budgets.Core, "core", def.Core, "the core concepts (glossary); 0 leaves them out"},
		{&c.budgets.Docs, "docs", def.Docs, "the retrieved chunks"},
		{&c.budgets.UI, "ui", def.UI, "the session and the app's page; 0 leaves them out"},
		{&c.budgets.Widgets, "widgets", def.Widgets, "the app's widgets; 0 leaves them out"},
		{&c.budgets.Recent, "recent", def.Recent, "the recent conversation; 0 leaves it out"},
	} {
		flag := "budget-" + b.name
		f.IntVar(b.dst, flag, b.def, "prompt tokens for "+b.what)
		c.bindEnv(flag, "DOCENT_BUDGET_"+strings.ToUpper(b.name))
	}
}

func builtinRoleNames() []string {
	var names []string
	for _, r := range prompt.BuiltinRoles() {
		names = append(names, r.Name)
	}
	return names
}

// promptBudgets are the budgets for the prompt builder, which reads 0 as
// its default and a negative budget as "leave out".
func (c *config) promptBudgets() prompt.Budgets {
	out := func(v int) int {
		if v == 0 {
			return -1
		}
		return v
	}
	b := c.budgets
	return prompt.Budgets{Core: out(b.Core), Docs: out(b.Docs), UI: out(b.UI), Widgets: out(b.Widgets), Recent: out(b.Recent)}
}

// llmConfig is what the flags say about the answer writer.
func (c *config) llmConfig() llm.Config {
	return llm.Config{
		Provider:          c.provider,
		Model:             c.model,
		BaseURL:           c.baseURL,
		ConnectTimeout:    c.connectTimeout,
		FirstTokenTimeout: c.firstTokenTimeout,
		IdleTimeout:       c.idleTimeout,
		RetryAfterMax:     c.retryAfterMax,
		MaxRetries:        cmp.Or(c.maxRetries, -1), // llm reads 0 as its default, negative as none
	}
}

// embedConfig is what the flags say about the embedding model. The
// answer writer's --base-url serves embeddings too when both use the same
// provider (one OpenAI-compatible server or one Ollama); otherwise
// llm/embed reads the provider's own variables.
func (c *config) embedConfig() embed.Config {
	cfg := embed.Config{Provider: c.embedProvider, Model: c.embedModel}
	if strings.EqualFold(strings.TrimSpace(c.provider), strings.TrimSpace(c.embedProvider)) {
		cfg.BaseURL = c.baseURL
	}
	return cfg
}

// retrievalConfig is the engine's configuration from the flags, checked
// by the engine's own Validate.
func (c *config) retrievalConfig() (retrieval.Config, error) {
	r := retrieval.DefaultConfig()
	r.Enabled = c.retrievalEnabled
	r.Phase = c.phase
	r.TopK = c.topK
	r.MinCoverage = c.minCoverage
	r.MinMargin = c.minMargin
	r.DefinitionalBias = c.definitionalBias
	r.Alpha = c.alpha
	if err := r.Validate(); err != nil {
		return r, usageErrorf("%v", err)
	}
	return r, nil
}

func (c *config) validate() error {
	if c.lockWait <= 0 {
		return usageErrorf("--lock-wait must be positive, not %s", c.lockWait)
	}
	if c.rerankTimeout <= 0 {
		return usageErrorf("--rerank-timeout must be positive, not %s", c.rerankTimeout)
	}
	if c.notesTimeout <= 0 {
		return usageErrorf("--notes-timeout must be positive, not %s", c.notesTimeout)
	}
	if c.maxDeleteShare < 0 || c.maxDeleteShare > 1 || math.IsNaN(c.maxDeleteShare) {
		return usageErrorf("--max-delete-share must be between 0 and 1, not %v", c.maxDeleteShare)
	}
	if _, err := c.retrievalConfig(); err != nil {
		return err
	}
	switch strings.ToLower(strings.TrimSpace(c.embedProvider)) {
	case "", embed.ProviderNone, embed.ProviderOpenAI, embed.ProviderOllama:
	default:
		return usageErrorf("--embed-provider must be none, openai or ollama, not %q", c.embedProvider)
	}
	if c.maxRetries < 0 {
		return usageErrorf("--max-retries must not be negative, not %d", c.maxRetries)
	}
	for _, b := range []struct {
		name string
		v    int
	}{{"core", c.budgets.Core}, {"docs", c.budgets.Docs}, {"ui", c.budgets.UI}, {"widgets", c.budgets.Widgets}, {"recent", c.budgets.Recent}} {
		if b.v < 0 {
			return usageErrorf("--budget-%s must not be negative, not %d", b.name, b.v)
		}
	}
	if c.budgets.Docs == 0 {
		return usageErrorf("--budget-docs must be at least 1: without the docs there is nothing to answer from")
	}
	return nil
}

// defaultLogPath follows the XDG base directory spec: state belongs under
// $XDG_STATE_HOME, falling back to ~/.local/state.
func defaultLogPath(getenv func(string) string) string {
	return filepath.Join(stateDir(getenv), "docent.log")
}

func stateDir(getenv func(string) string) string {
	if dir := getenv("XDG_STATE_HOME"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "docent")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "state", "docent")
	}
	return filepath.Join(os.TempDir(), "docent")
}

// exitError carries the process exit code an error should end with.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageErrorf is a user mistake on the command line: exit code 2.
func usageErrorf(format string, args ...any) error {
	return &exitError{code: 2, err: fmt.Errorf(format, args...)}
}

// envTable renders the flag ↔ variable table for the README.
func envTable(cmd *cobra.Command, bindings []envBinding) string {
	var b strings.Builder
	b.WriteString("| flag | environment | default | meaning |\n|---|---|---|---|\n")
	for _, e := range bindings {
		f := cmd.PersistentFlags().Lookup(e.flag)
		def := f.DefValue
		if def == "" {
			def = "—"
		}
		usage := strings.ReplaceAll(f.Usage, "|", `\|`) // a bare | would split the table cell
		fmt.Fprintf(&b, "| `--%s` | `%s` | %s | %s |\n", e.flag, strings.Join(e.envs, "`, `"), def, usage)
	}
	return b.String()
}
