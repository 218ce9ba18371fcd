package main

import (
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/textsafe"
)

func newSeedCmd(e *env) *cobra.Command {
	var strict bool
	cmd := &cobra.Command{
		Use:   "seed",
		Short: "Ingest the knowledge base into the store and print a report",
		Long: "seed reads the knowledge base (--docs, or the embedded demo), chunks it and writes what changed\n" +
			"to the store in one transaction. Unchanged docs are not rewritten; docs whose files disappeared are deleted.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			res, err := e.loadDocs(ctx)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			for _, w := range res.Warnings {
				fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s\n", w)
			}
			excluded := 0
			for _, n := range res.Notices {
				if n.Kind == ingest.Excluded {
					excluded++
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", n)
			}
			st, err := e.openStore(ctx)
			if err != nil {
				return err
			}
			defer st.Close()
			report, err := st.Seed(ctx, res.Docs)
			if err != nil {
				return fmt.Errorf("seed %s: %w", st.Describe(), err)
			}
			e.log.Info("seeded", "store", st.Describe(), "report", report.String())
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintf(tw, "store\t%s\n", st.Describe())
			fmt.Fprintf(tw, "files\t%d read, %d skipped, %d left out\n", res.Files, len(res.Warnings), excluded)
			fmt.Fprintf(tw, "docs\t%s\n", report.Docs)
			fmt.Fprintf(tw, "chunks\t%s\n", report.Chunks)
			fmt.Fprintf(tw, "took\t%s\n", report.Duration.Round(time.Microsecond))
			if err := tw.Flush(); err != nil {
				return err
			}
			if strict && len(res.Warnings) > 0 {
				return &exitError{code: 1, err: fmt.Errorf("--strict: %d file(s) skipped with warnings", len(res.Warnings))}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&strict, "strict", false, "exit non-zero when any file was skipped with a warning")
	return cmd
}

func newDocsCmd(e *env) *cobra.Command {
	docs := &cobra.Command{Use: "docs", Short: "Inspect the knowledge base in the store"}
	docs.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "One line per doc: slug, category, title, chunk count, content hash",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			st, err := e.openStore(ctx)
			if err != nil {
				return err
			}
			defer st.Close()
			// The embedded store starts empty on every run: fill it from the
			// knowledge base so the list shows what docent would answer from.
			if e.cfg.dbURL == "" {
				res, err := e.loadDocs(ctx)
				if err != nil {
					return err
				}
				if _, err := st.Seed(ctx, res.Docs); err != nil {
					return fmt.Errorf("load %s: %w", st.Describe(), err)
				}
			}
			list, err := st.ListDocs(ctx)
			if err != nil {
				return fmt.Errorf("list docs in %s: %w", st.Describe(), err)
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "SLUG\tCATEGORY\tTITLE\tCHUNKS\tHASH")
			for _, d := range list {
				hash := d.ContentHash
				if len(hash) > 8 {
					hash = hash[:8]
				}
				// Titles come from the docs: Line drops control sequences and
				// folds tabs and newlines, which would break the columns.
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", textsafe.Line(d.Slug), textsafe.Line(d.Category),
					textsafe.Line(d.Title), d.ChunkCount, hash)
			}
			return tw.Flush()
		},
	})
	return docs
}
