package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/eval"
	"github.com/docent-sh/docent/eval/reference"
	"github.com/docent-sh/docent/store/postgres"
)

func newEvalCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "eval",
		Short: "Measure retrieval quality and speed, and decision accuracy",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newEvalRetrievalCmd(e), newEvalDecisionsCmd(e))
	return cmd
}

// evalEngines are the engines `eval retrieval` knows, in report order.
var evalEngines = []string{"docent", "bleve", "bleve-scorch", "postgres"}

func newEvalRetrievalCmd(e *env) *cobra.Command {
	var (
		dataset string
		engines []string
		asJSON  bool
		rounds  int
	)
	cmd := &cobra.Command{
		Use:   "retrieval --dataset DIR [--engines docent,bleve,postgres] [--json]",
		Short: "Rank a BEIR dataset with docent and reference engines and compare them",
		Long: "eval retrieval reads a BEIR dataset (corpus.jsonl, queries.jsonl, qrels/test.tsv), indexes the corpus\n" +
			"with each engine in turn and runs the judged queries. It reports nDCG@10, Recall@100 and MRR@10\n" +
			"(trec_eval conventions), index build time, query latency percentiles and the heap the index added.\n" +
			"Engines: docent; bleve (bleve's in-memory index, English analyzer, default scoring); bleve-scorch (bleve's\n" +
			"scorch index held in memory); postgres (full-text search in the --db database, in a temporary table).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dataset == "" {
				return usageErrorf("eval retrieval needs --dataset DIR")
			}
			if rounds < 1 {
				return usageErrorf("--rounds must be at least 1, not %d", rounds)
			}
			names, err := parseEngines(engines)
			if err != nil {
				return err
			}
			if slices.Contains(names, "postgres") && e.cfg.dbURL == "" {
				return usageErrorf("engine postgres needs a database: set --db or DOCENT_DB")
			}
			rcfg, err := e.retrievalConfig()
			if err != nil {
				return err
			}
			synonyms, err := e.synonymsFile()
			if err != nil {
				return err
			}
			ds, err := eval.LoadDataset(dataset)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return &exitError{code: 2, err: err}
				}
				return err
			}
			ctx := cmd.Context()
			var list []eval.Engine
			for _, name := range names {
				switch name {
				case "docent":
					list = append(list, eval.NewDocent(rcfg, synonyms))
				case "bleve":
					list = append(list, reference.NewBleve())
				case "bleve-scorch":
					list = append(list, reference.NewBleveScorch())
				case "postgres":
					// The index is a temporary table: the schema is not
					// needed, so no migration runs.
					st, err := postgres.Open(ctx, e.cfg.dbURL, postgres.Options{})
					if err != nil {
						return err
					}
					defer st.Close()
					list = append(list, reference.NewPostgres(st))
				}
			}
			stderr := cmd.ErrOrStderr()
			report, err := eval.RunRetrieval(ctx, ds, list, eval.Options{
				Rounds:   rounds,
				Progress: func(format string, args ...any) { fmt.Fprintf(stderr, "eval: "+format+"\n", args...) },
			})
			if err != nil {
				return err
			}
			e.log.Info("eval retrieval", "dataset", ds.Dir, "report", report)
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), report)
			}
			return report.WriteTable(cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&dataset, "dataset", "", "BEIR dataset directory (corpus.jsonl, queries.jsonl, qrels/test.tsv)")
	cmd.Flags().StringSliceVar(&engines, "engines", []string{"docent", "bleve", "postgres"}, "engines to compare: "+strings.Join(evalEngines, ", "))
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object instead of the table")
	cmd.Flags().IntVar(&rounds, "rounds", 10, "times each query is timed after the scored pass")
	return cmd
}

// parseEngines checks the --engines list and puts it in report order.
func parseEngines(given []string) ([]string, error) {
	var names []string
	for _, g := range given {
		name := strings.ToLower(strings.TrimSpace(g))
		if !slices.Contains(evalEngines, name) {
			return nil, usageErrorf("--engines: unknown engine %q (want %s)", g, strings.Join(evalEngines, ", "))
		}
		if slices.Contains(names, name) {
			return nil, usageErrorf("--engines: %s given twice", name)
		}
		names = append(names, name)
	}
	if len(names) == 0 {
		return nil, usageErrorf("--engines: name at least one engine")
	}
	slices.SortFunc(names, func(a, b string) int { return slices.Index(evalEngines, a) - slices.Index(evalEngines, b) })
	return names, nil
}

func newEvalDecisionsCmd(e *env) *cobra.Command {
	var (
		casesPath string
		asJSON    bool
		explain   bool
	)
	cmd := &cobra.Command{
		Use:   "decisions --cases FILE.jsonl [--docs DIR] [--json] [--explain]",
		Short: "Check the decision policy against cases with expected statuses",
		Long: "eval decisions runs each case of a JSON Lines file through the retrieval engine, as `docent ask` would,\n" +
			"and reports accuracy, a confusion matrix of statuses, the wrong confident answers (found where\n" +
			"another status was expected, or found on the wrong doc) and every failing case. It exits 1 when\n" +
			"any case fails. A case: {\"query\": \"...\", \"expect_status\": \"found|weak|ambiguous|no_match|multi|clarify\",\n" +
			"\"expect_slugs\": [\"...\"]}, or \"doc\" / \"after\" instead of \"query\" for the --doc and --after lookups.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if casesPath == "" {
				return usageErrorf("eval decisions needs --cases FILE.jsonl")
			}
			f, err := os.Open(casesPath)
			if err != nil {
				return &exitError{code: 2, err: fmt.Errorf("cases file: %w", err)}
			}
			cases, err := eval.ReadCases(f, casesPath)
			f.Close()
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			rcfg, err := e.retrievalConfig()
			if err != nil {
				return err
			}
			b, _, err := e.loadBundle(cmd.Context())
			if err != nil {
				return err
			}
			engine, err := newEngine(b, rcfg)
			if err != nil {
				return err
			}
			report := eval.RunDecisions(engine, cases)
			e.log.Info("eval decisions", "cases", casesPath, "passed", report.Passed, "of", report.Cases, "wrong_confident", report.WrongConfident)
			if asJSON {
				err = writeJSON(cmd.OutOrStdout(), report)
			} else {
				err = report.WriteText(cmd.OutOrStdout(), explain)
			}
			if err != nil {
				return err
			}
			if report.Passed < report.Cases {
				return &exitError{code: 1, err: fmt.Errorf("%d of %d cases failed", report.Cases-report.Passed, report.Cases)}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&casesPath, "cases", "", "JSON Lines file of cases")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object instead of the text report")
	cmd.Flags().BoolVar(&explain, "explain", false, "show, per failing case, the rule that decided and the top three docs with the policy's measures")
	return cmd
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
