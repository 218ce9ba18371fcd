package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/memory"
	"github.com/docent-sh/docent/store/postgres"
)

// docStore is what the commands need from a knowledge store; the embedded
// and PostgreSQL stores both satisfy it.
type docStore interface {
	Seed(ctx context.Context, docs []knowledge.Doc, opts store.SeedOptions) (store.SeedReport, error)
	ListDocs(ctx context.Context) ([]knowledge.DocSummary, error)
	Corpus(ctx context.Context) ([]knowledge.Doc, error)
	Generation(ctx context.Context) (int64, error)
	RecordRetrieval(ctx context.Context, ev store.RetrievalEvent) error
	Describe() string
	Close()
}

// env is what every command shares once flags are parsed: the resolved
// configuration, the process environment and the log.
type env struct {
	cfg     config
	getenv  func(string) string
	log     *slog.Logger
	logFile *os.File
}

func newRootCmd(getenv func(string) string) *cobra.Command {
	cmd, _ := newRoot(getenv)
	return cmd
}

// newRoot builds the command tree and returns the shared env with it, so
// tests can see the bindings the flags were declared with.
func newRoot(getenv func(string) string) (*cobra.Command, *env) {
	e := &env{getenv: getenv}
	root := &cobra.Command{
		Use:   "docent",
		Short: "Answers support questions from your product's documentation",
		Long: "docent is a terminal chat assistant for support staff: it answers from the product's\n" +
			"documentation, shows the evidence it used and asks which one you mean when a question is ambiguous.\n" +
			"Run it without a subcommand to open the chat.",
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if err := applyEnv(cmd.Flags(), e.cfg.bindings, getenv); err != nil {
				return err
			}
			if err := e.cfg.validate(); err != nil {
				return err
			}
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
	root.AddCommand(newSeedCmd(e), newMigrateCmd(e), newDocsCmd(e), newAskCmd(e), newEvalCmd(e))
	return root, e
}

// openLog sends slog to a file: stdout belongs to the TUI and to command
// output, so logs never go there.
func (e *env) openLog() error {
	path := e.cfg.logPath
	if path == "" {
		path = defaultLogPath(e.getenv)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("log file %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("log file %s: %w", path, err)
	}
	e.logFile = f
	e.log = slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelInfo}))
	// Libraries that write with the standard log package (langchaingo does)
	// must not write over the TUI.
	log.SetOutput(f)
	return nil
}

func (e *env) closeLog() {
	if e.logFile != nil {
		e.logFile.Close()
		e.logFile = nil
	}
}

// openStore opens PostgreSQL when a URL is configured, else the embedded
// in-memory store whose retrieval events go to a JSONL file beside the log.
func (e *env) openStore(ctx context.Context) (docStore, error) {
	if e.cfg.dbURL == "" {
		events := filepath.Join(stateDir(e.getenv), "retrieval-events.jsonl")
		return memory.New(memory.Options{EventsPath: events}), nil
	}
	st, err := postgres.Open(ctx, e.cfg.dbURL, postgres.Options{Migrate: !e.cfg.noMigrate})
	if err != nil {
		return nil, err
	}
	return st, nil
}

// loadDocs ingests the configured knowledge base. Warnings are logged and
// returned: the caller decides whether they are fatal (--strict).
func (e *env) loadDocs(ctx context.Context) (ingest.Result, error) {
	fsys, root := kb.Docs(), "embedded demo knowledge base"
	if e.cfg.docsDir != "" {
		fsys, root = os.DirFS(e.cfg.docsDir), e.cfg.docsDir
	}
	res, err := ingest.Load(ctx, fsys, root)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, ingest.ErrNoDocs) {
			return res, &exitError{code: 2, err: err}
		}
		return res, err
	}
	for _, w := range res.Warnings {
		e.log.Warn("skipped a knowledge base file", "file", w.Path, "line", w.Line, "problem", w.Msg)
	}
	return res, nil
}
