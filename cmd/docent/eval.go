package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/eval"
)

func newEvalCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "eval",
		Short: "Measure decision accuracy on cases written for your docs",
		Long: "eval decisions checks the decision policy on cases written for a docs folder. Ranking quality against\n" +
			"reference engines (bleve, PostgreSQL full-text search) is measured by a separate binary, docent-eval,\n" +
			"so that docent links none of them: `make eval` builds and runs both.",
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newEvalDecisionsCmd(e))
	return cmd
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
			slugs := make(map[string]bool, len(b.Docs))
			for _, d := range b.Docs {
				slugs[d.Slug] = true
			}
			warnings, err := eval.CheckSlugs(cases, casesPath, func(s string) bool { return slugs[s] })
			for _, w := range warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "docent: warning:", w)
			}
			if err != nil {
				return &exitError{code: 2, err: err}
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
