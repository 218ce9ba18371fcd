// Command docent-eval measures docent's ranking against reference engines
// (bleve, PostgreSQL full-text search) on a BEIR dataset. It is a separate
// binary so that the product, `docent`, links none of the reference
// engines: bleve and its index formats alone add about 11 MB to a binary.
// Decision accuracy on a team's own cases stays in the product, as
// `docent eval decisions`, since it needs nothing but docent.
package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/eval"
	"github.com/docent-sh/docent/eval/reference"
	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/internal/redact"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/llm/embed"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store/postgres"
	"github.com/docent-sh/docent/textsafe"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// Exit codes, as docent's: 2 for a usage mistake, 1 for a failure, 130
// when interrupted.
const (
	exitFailed      = 1
	exitUsage       = 2
	exitInterrupted = 130
)

type usageError struct{ error }

func usageErrorf(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// run is main without the process, for tests.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	cmd := newRoot(getenv)
	cmd.SetArgs(args)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	err := cmd.ExecuteContext(ctx)
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "docent-eval: interrupted")
		return exitInterrupted
	}
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "docent-eval: %s\n", textsafe.String(redact.New().String(err.Error())))
	var ue usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	return exitFailed
}

func newRoot(getenv func(string) string) *cobra.Command {
	root := &cobra.Command{
		Use:           "docent-eval",
		Short:         "Measure docent's ranking against reference engines",
		SilenceUsage:  true,
		SilenceErrors: true,
		// cobra would answer an unknown subcommand with exit 1 and none
		// with help and exit 0; both are usage mistakes.
		Args: cobra.ArbitraryArgs,
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErrorf("unknown command %q (want: retrieval)", args[0])
			}
			return usageErrorf("name a command: retrieval")
		},
	}
	// cobra reports an unknown command or flag as an error before RunE.
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(newRetrievalCmd(getenv))
	return root
}

// engines are the engines `retrieval` knows, in report order.
var engines = []string{"docent", "docent-hybrid", "bleve", "bleve-scorch", "postgres"}

func newRetrievalCmd(getenv func(string) string) *cobra.Command {
	var (
		dataset  string
		names    []string
		asJSON   bool
		rounds   int
		dbURL    string
		synonyms string
		embedCfg embed.Config
	)
	cmd := &cobra.Command{
		Use:   "retrieval --dataset DIR [--engines docent,bleve,postgres] [--json]",
		Short: "Rank a BEIR dataset with docent and reference engines and compare them",
		Long: "retrieval reads a BEIR dataset (corpus.jsonl, queries.jsonl, qrels/test.tsv), indexes the corpus\n" +
			"with each engine in turn and runs the judged queries. It reports nDCG@10, Recall@100 and MRR@10\n" +
			"(trec_eval conventions), index build time, query latency percentiles and the heap the index added.\n" +
			"Engines: docent, with its default configuration; bleve (bleve's in-memory index, English analyzer,\n" +
			"default scoring); docent-hybrid, docent ranking by keywords and embeddings (needs --embed-provider;\n" +
			"the passages and queries are embedded first, the queries before they are timed); bleve-scorch (bleve's scorch index held in memory); postgres (full-text search in\n" +
			"the --db database, in a temporary table, so the database keeps nothing).",
		Args: func(cmd *cobra.Command, args []string) error {
			if err := cobra.NoArgs(cmd, args); err != nil {
				return usageError{err}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dataset == "" {
				return usageErrorf("retrieval needs --dataset DIR")
			}
			if rounds < 1 {
				return usageErrorf("--rounds must be at least 1, not %d", rounds)
			}
			list, err := parseEngines(names)
			if err != nil {
				return err
			}
			if dbURL == "" {
				dbURL = firstSet(getenv, "DOCENT_DB", "DATABASE_URL")
			}
			if slices.Contains(list, "postgres") && dbURL == "" {
				return usageErrorf("engine postgres needs a database: set --db, DOCENT_DB or DATABASE_URL")
			}
			syn, err := readSynonyms(synonyms)
			if err != nil {
				return err
			}
			ds, err := eval.LoadDataset(dataset)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return usageError{err}
				}
				return err
			}
			ctx := cmd.Context()
			stderr := cmd.ErrOrStderr()
			// As docent reads them: flag, else DOCENT_EMBED_PROVIDER and
			// DOCENT_EMBED_MODEL; the key and address from the
			// provider's own variables (embed.Resolve).
			if !cmd.Flags().Changed("embed-provider") {
				embedCfg.Provider = cmp.Or(getenv("DOCENT_EMBED_PROVIDER"), embedCfg.Provider)
			}
			if !cmd.Flags().Changed("embed-model") {
				embedCfg.Model = cmp.Or(getenv("DOCENT_EMBED_MODEL"), embedCfg.Model)
			}
			var emb embed.Embedder
			if slices.Contains(list, "docent-hybrid") {
				emb, err = embed.Resolve(embedCfg, getenv)
				if err != nil {
					return usageErrorf("--embed-provider %s: %v", embedCfg.Provider, err)
				}
				if emb == nil {
					fmt.Fprintln(stderr, "docent-hybrid skipped: no embedding provider (set --embed-provider)")
				}
			}
			var runners []eval.Engine
			for _, name := range list {
				switch name {
				case "docent":
					runners = append(runners, eval.NewDocent(retrieval.DefaultConfig(), syn))
				case "docent-hybrid":
					if emb != nil {
						runners = append(runners, eval.NewDocentHybrid(retrieval.DefaultConfig(), syn, emb))
					}
				case "bleve":
					runners = append(runners, reference.NewBleve())
				case "bleve-scorch":
					runners = append(runners, reference.NewBleveScorch())
				case "postgres":
					// The index is a temporary table: the schema is not
					// needed, so no migration runs.
					st, err := postgres.Open(ctx, dbURL, postgres.Options{})
					if err != nil {
						return err
					}
					defer st.Close()
					runners = append(runners, reference.NewPostgres(st))
				}
			}
			report, err := eval.RunRetrieval(ctx, ds, runners, eval.Options{
				Rounds:   rounds,
				Progress: func(format string, args ...any) { fmt.Fprintf(stderr, "eval: "+format+"\n", args...) },
			})
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(report)
			}
			return report.WriteTable(cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&dataset, "dataset", "", "BEIR dataset directory (corpus.jsonl, queries.jsonl, qrels/test.tsv)")
	f.StringSliceVar(&names, "engines", []string{"docent", "bleve", "postgres"}, "engines to compare: "+strings.Join(engines, ", "))
	f.BoolVar(&asJSON, "json", false, "print one JSON object instead of the table")
	f.IntVar(&rounds, "rounds", 10, "times each query is timed after the scored pass")
	f.StringVar(&dbURL, "db", "", "PostgreSQL URL for the postgres engine (default: $DOCENT_DB, else $DATABASE_URL)")
	f.StringVar(&embedCfg.Provider, "embed-provider", embed.ProviderNone,
		"embedding provider for docent-hybrid: none|openai|ollama (default: $DOCENT_EMBED_PROVIDER); key and address from $OPENAI_API_KEY and $OPENAI_BASE_URL, or $OLLAMA_HOST")
	f.StringVar(&embedCfg.Model, "embed-model", "", "embedding model for docent-hybrid (default: $DOCENT_EMBED_MODEL, else the provider's)")
	f.StringVar(&synonyms, "synonyms", "", "synonyms file for docent's engine, in the format of a docs folder's _synonyms.txt")
	return cmd
}

// parseEngines checks the --engines list and puts it in report order.
func parseEngines(given []string) ([]string, error) {
	var names []string
	for _, g := range given {
		name := strings.ToLower(strings.TrimSpace(g))
		if !slices.Contains(engines, name) {
			return nil, usageErrorf("--engines: unknown engine %q (want %s)", g, strings.Join(engines, ", "))
		}
		if slices.Contains(names, name) {
			return nil, usageErrorf("--engines: %s given twice", name)
		}
		names = append(names, name)
	}
	if len(names) == 0 {
		return nil, usageErrorf("--engines: name at least one engine")
	}
	slices.SortFunc(names, func(a, b string) int { return slices.Index(engines, a) - slices.Index(engines, b) })
	return names, nil
}

func readSynonyms(path string) ([]knowledge.Synonym, error) {
	if path == "" {
		return nil, nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, usageErrorf("synonyms file: %v", err)
	}
	syn, err := ingest.ParseSynonyms(src)
	if err != nil {
		return nil, usageErrorf("synonyms file %s: %v", path, err)
	}
	return syn, nil
}

func firstSet(getenv func(string) string, names ...string) string {
	for _, n := range names {
		if v := getenv(n); v != "" {
			return v
		}
	}
	return ""
}
