package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/internal/redact"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/memory"
	"github.com/docent-sh/docent/store/postgres"
	"github.com/docent-sh/docent/textsafe"
)

// env is what every command shares once flags are parsed: the resolved
// configuration, the process environment and the log.
type env struct {
	cfg      config
	settings settings
	// getenv reads the environment with the configuration file's API keys
	// filling in for unset variables; rawGetenv is the process's alone.
	getenv    func(string) string
	rawGetenv func(string) string
	log       *slog.Logger
	logFile   *os.File
	// dbFromFlag is whether --db was given on the command line (not taken
	// from the environment), so suggested commands repeat it.
	dbFromFlag bool
	// resume is --resume: the conversation the chat opens on, resumeLatest
	// for the last one, "" for a new one.
	resume string
	// loadProgress, when set, hears how many files of the knowledge base
	// have been read: the chat shows it while it starts.
	loadProgress func(done, total int)
	// serving is set by docent serve: notes are read in each request's
	// scope, and a signal that ends it is a clean stop.
	serving bool
	// stopped is set when a signal ended a command that finished its work
	// cleanly (docent serve's graceful shutdown): the exit code is 0.
	stopped bool
}

// eventsFile is the embedded store's retrieval events, beside the log.
const eventsFile = "retrieval-events.jsonl"

// newRoot builds the command tree and returns the shared env with it, so
// tests can see the bindings the flags were declared with.
func newRoot(getenv func(string) string) (*cobra.Command, *env) {
	e := &env{rawGetenv: getenv}
	e.getenv = e.lookupEnv
	root := &cobra.Command{
		Use:   "docent",
		Short: "Answers support questions from your product's documentation",
		Long: "docent is a terminal chat assistant for support staff: it answers from the product's\n" +
			"documentation, shows the evidence it used and asks which one you mean when a question is ambiguous.\n" +
			"Run it without a subcommand to open the chat.",
		// One argument only as --resume's id: `docent --resume ID`.
		Args: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("resume") && len(args) == 1 && e.resume == resumeLatest {
				e.resume = args[0]
				return nil
			}
			return cobra.NoArgs(cmd, args)
		},
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if err := e.applyFlagsAndEnv(cmd.Flags()); err != nil {
				return err
			}
			if err := e.applyFile(cmd.Flags(), cmd.ErrOrStderr()); err != nil {
				return err
			}
			if err := e.cfg.validate(); err != nil {
				return err
			}
			if err := e.checkRole(); err != nil {
				return err
			}
			e.dbFromFlag = cmd.Flags().Changed("db")
			return e.openLog()
		},
		PersistentPostRun: func(*cobra.Command, []string) { e.closeLog() },
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runTUI(cmd, e)
		},
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &exitError{code: 2, err: err}
	})
	e.cfg.register(root)
	root.Flags().StringVar(&e.resume, "resume", "", "open the chat on your last conversation, or on `ID` (a unique start of one: docent history lists them)")
	root.Flags().Lookup("resume").NoOptDefVal = resumeLatest
	root.AddCommand(newSeedCmd(e), newMigrateCmd(e), newDocsCmd(e), newAskCmd(e), newEvalCmd(e), newModelsCmd(e), newConfigCmd(e), newNotesCmd(e), newAdminCmd(e), newQuizCmd(e), newReportCmd(e), newHistoryCmd(e),
		newServeCmd(e), newTokensCmd(e))
	usageErrorsExitTwo(root)
	return root, e
}

// usageErrorsExitTwo makes every argument mistake a usage error (exit 2):
// wrong argument counts, and an unknown or missing subcommand, which cobra
// would otherwise answer with exit 1 or with help and exit 0.
func usageErrorsExitTwo(c *cobra.Command) {
	if !c.Runnable() && c.HasSubCommands() {
		var names []string
		for _, sub := range c.Commands() {
			names = append(names, sub.Name())
		}
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErrorf("unknown command %q for %q (want one of: %s)", args[0], cmd.CommandPath(), strings.Join(names, ", "))
			}
			return usageErrorf("%q needs a subcommand: %s", cmd.CommandPath(), strings.Join(names, ", "))
		}
	} else if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return &exitError{code: 2, err: err}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		usageErrorsExitTwo(sub)
	}
}

// logPath is the configured log file, or the default one.
func (e *env) logPath() string {
	if e.cfg.logPath != "" {
		return e.cfg.logPath
	}
	return defaultLogPath(e.getenv)
}

// openLog sends slog to a file: stdout belongs to the TUI and to command
// output, so logs never go there. Every value logged passes the redactor.
func (e *env) openLog() error {
	path := e.logPath()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("log file %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("log file %s: %w", path, err)
	}
	e.logFile = f
	e.log = slog.New(slog.NewTextHandler(f, e.logOptions()))
	// Libraries that write with the standard log package (langchaingo does)
	// must not write over the TUI.
	log.SetOutput(f)
	return nil
}

// logOptions pass every value logged through the redactor.
func (e *env) logOptions() *slog.HandlerOptions {
	red := e.redactor()
	return &slog.HandlerOptions{
		Level: slog.LevelInfo,
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			switch v := a.Value; v.Kind() {
			case slog.KindString:
				a.Value = slog.StringValue(red.String(v.String()))
			case slog.KindAny:
				if err, ok := v.Any().(error); ok {
					a.Value = slog.StringValue(red.String(err.Error()))
				}
			}
			return a
		},
	}
}

func (e *env) closeLog() {
	if e.logFile != nil {
		e.logFile.Close()
		e.logFile = nil
	}
}

// redactor knows this run's secrets: the API keys in the environment and
// the database password. The packages that handle them redact their own
// errors; this is the last guard before the terminal and the log.
func (e *env) redactor() *redact.Redactor {
	r := redact.New(postgres.Secrets(e.cfg.dbURL)...)
	for _, name := range []string{llm.EnvOpenAIKey, llm.EnvAnthropicKey} {
		r.AddKey(strings.TrimSpace(e.getenv(name)))
	}
	return r
}

// openStore opens PostgreSQL when a URL is configured, else the embedded
// in-memory store whose retrieval events go to a JSONL file beside the log.
// PostgreSQL's schema is brought up to date unless --no-migrate.
func (e *env) openStore(ctx context.Context) (store.Store, error) {
	if e.cfg.dbURL == "" {
		events := filepath.Join(filepath.Dir(e.logPath()), eventsFile)
		return memory.New(memory.Options{EventsPath: events, SettingsPath: e.settingsPath()}), nil
	}
	st, err := postgres.Open(ctx, e.cfg.dbURL, postgres.Options{
		Migrate: !e.cfg.noMigrate, CheckSchema: true, LockWait: e.cfg.lockWait,
	})
	if err != nil {
		return nil, err
	}
	return st, nil
}

// openReadStore opens the store a read path answers from. PostgreSQL holds
// what `docent seed` wrote, so a docs folder given as well is set aside
// with a notice; the embedded store is filled from the folder (or the
// demo), the files it skipped named on stderr.
func (e *env) openReadStore(ctx context.Context, stderr io.Writer) (store.Store, knowledge.Bundle, error) {
	if e.cfg.dbURL != "" {
		if e.cfg.docsDir != "" {
			fmt.Fprintf(stderr, "docent: note: ignoring the docs folder %s: with a database docent reads the docs seeded there (docent seed writes them)\n",
				textsafe.Line(e.cfg.docsDir))
		}
		st, err := e.openStore(ctx)
		if err != nil {
			return nil, knowledge.Bundle{}, err
		}
		// The vocabulary the seed stored with the docs, like the docs, and
		// the reader's own --synonyms on top.
		v, err := st.Vocabulary(ctx)
		if err != nil {
			st.Close()
			return nil, knowledge.Bundle{}, fmt.Errorf("read vocabulary from %s: %w", st.Describe(), err)
		}
		extra, err := e.synonymsFile()
		if err != nil {
			st.Close()
			return nil, knowledge.Bundle{}, err
		}
		v.Synonyms = append(v.Synonyms, extra...)
		return st, v.Bundle(nil), nil
	}
	b, res, err := e.loadBundle(ctx)
	if err != nil {
		return nil, b, err
	}
	printWarnings(stderr, res.Warnings)
	st, err := e.openStore(ctx)
	if err != nil {
		return nil, b, err
	}
	docs := res.Docs
	// Embeddings are a second signal, never a reason not to start: any
	// failure leaves the docs without (lexical retrieval only).
	if emb, err := e.embedder(); err != nil {
		fmt.Fprintf(stderr, "docent: warning: embeddings off: %v\n", err)
		e.log.Warn("embeddings off", "err", err)
	} else if emb != nil {
		if embedded, _, err := e.embedDocs(ctx, st, emb, docs, stderr); err != nil {
			fmt.Fprintf(stderr, "docent: warning: embeddings off, lexical retrieval only: %v\n", err)
			e.log.Warn("embeddings off", "err", err)
		} else {
			docs = embedded
		}
	}
	// The embedded store starts empty on every run, so nothing is deleted.
	v := b.Vocabulary()
	if _, err := st.Seed(ctx, docs, store.SeedOptions{Vocabulary: &v}); err != nil {
		st.Close()
		return nil, b, fmt.Errorf("load %s: %w", st.Describe(), err)
	}
	return st, b, nil
}

// errNoDocsSeeded is an empty shared store: there is nothing to answer
// from until someone seeds it.
func (e *env) errNoDocsSeeded(st store.Store) error {
	return &exitError{code: 2, err: fmt.Errorf("no docs seeded yet in %s: run %s", st.Describe(),
		e.command("seed", "--docs", "DIR"))}
}

// skippedLister is a stderr that lists skipped files itself instead of
// reading them as lines: the chat, whose screen would cover them.
type skippedLister interface {
	listSkipped(warnings []ingest.Warning)
}

func printWarnings(w io.Writer, warnings []ingest.Warning) {
	if l, ok := w.(skippedLister); ok {
		l.listSkipped(warnings)
		return
	}
	for _, warn := range warnings {
		fmt.Fprintf(w, "warning: skipped %s\n", warn)
	}
}

// loadDocs ingests the configured knowledge base. Warnings are logged and
// returned: the caller decides whether they are fatal (--strict).
func (e *env) loadDocs(ctx context.Context) (ingest.Result, error) {
	_, res, err := e.loadBundle(ctx)
	return res, err
}

// loadBundle loads the configured knowledge base (--docs, or the embedded
// demo) with its own vocabulary, plus the --synonyms file's rules.
func (e *env) loadBundle(ctx context.Context) (knowledge.Bundle, ingest.Result, error) {
	fsys, root := kb.Docs(), "embedded demo knowledge base"
	if e.cfg.docsDir != "" {
		fsys, root = os.DirFS(e.cfg.docsDir), e.cfg.docsDir
	}
	b, res, err := ingest.LoadBundleWithOptions(ctx, fsys, root, ingest.LoadOptions{Progress: e.loadProgress})
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, ingest.ErrNoDocs) || errors.Is(err, ingest.ErrVocabulary) {
			return b, res, &exitError{code: 2, err: err}
		}
		return b, res, err
	}
	for _, w := range res.Warnings {
		e.log.Warn("skipped a knowledge base file", "file", w.Path, "line", w.Line, "problem", w.Msg)
	}
	for _, n := range res.Notices {
		e.log.Info("knowledge base file left out or shortened", "file", n.Path, "line", n.Line, "note", n.Msg)
	}
	extra, err := e.synonymsFile()
	if err != nil {
		return knowledge.Bundle{}, res, err
	}
	b.Synonyms = append(b.Synonyms, extra...)
	return b, res, nil
}
