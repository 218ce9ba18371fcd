package main

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/textsafe"
)

func newSeedCmd(e *env) *cobra.Command {
	var strict, prune bool
	cmd := &cobra.Command{
		Use:   "seed",
		Short: "Ingest the knowledge base into the store and print a report",
		Long: "seed reads the knowledge base (--docs, or the embedded demo), chunks it and writes what changed\n" +
			"to the store in one transaction. Unchanged docs are not rewritten. A file that is there but was\n" +
			"skipped keeps its stored doc (reported as kept); docs whose files are gone are deleted, unless that\n" +
			"is more than --max-delete-share of the stored docs: then nothing is written without --prune.\n" +
			"With --strict any skipped file fails the seed before anything is written.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			bundle, res, err := e.loadBundle(ctx)
			if err != nil {
				return err
			}
			printWarnings(cmd.ErrOrStderr(), res.Warnings)
			if strict && len(res.Warnings) > 0 {
				return &exitError{code: 1, err: fmt.Errorf("--strict: %d file(s) skipped with warnings; nothing was written", len(res.Warnings))}
			}
			excluded := 0
			for _, n := range res.Notices {
				if n.Kind == ingest.Excluded {
					excluded++
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", n)
			}
			// Before anything is written: a bad embedding setting fails here.
			emb, err := e.embedder()
			if err != nil {
				return err
			}
			st, err := e.openStore(ctx)
			if err != nil {
				return err
			}
			defer st.Close()
			docs := res.Docs
			var embedded store.EmbedReport
			if emb != nil {
				// Embedded before the seed's transaction begins, so a failure
				// writes nothing; the vectors of unchanged chunks are reused.
				docs, embedded, err = e.embedDocs(ctx, st, emb, docs, cmd.ErrOrStderr())
				if err != nil {
					return fmt.Errorf("%w; nothing was written", err)
				}
			}
			opts := seedOptions(res, prune, e.cfg.maxDeleteShare)
			vocabulary := bundle.Vocabulary()
			opts.Vocabulary = &vocabulary
			report, err := st.Seed(ctx, docs, opts)
			// The stores' errors name the operation and the store.
			var refused *store.DeleteRefusedError
			if errors.As(err, &refused) {
				return fmt.Errorf("%w; nothing was written. If those files are really gone, run again with --prune", err)
			}
			if err != nil {
				return err
			}
			e.log.Info("seeded", "store", st.Describe(), "report", report.String())
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintf(tw, "store\t%s\n", st.Describe())
			fmt.Fprintf(tw, "files\t%d read, %d skipped, %d left out\n", res.Files, len(res.Warnings), excluded)
			fmt.Fprintf(tw, "docs\t%s\n", report.Docs)
			fmt.Fprintf(tw, "chunks\t%s\n", report.Chunks)
			if emb != nil {
				fmt.Fprintf(tw, "embeddings\t%d embedded, %d reused (%s)\n", embedded.Embedded, embedded.Reused, e.embedName(emb))
			}
			fmt.Fprintf(tw, "took\t%s\n", report.Duration.Round(time.Microsecond))
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&strict, "strict", false, "write nothing and exit 1 when any file was skipped with a warning")
	cmd.Flags().BoolVar(&prune, "prune", false, "delete the docs whose files are gone, however many")
	return cmd
}

// seedOptions keeps what a skipped file or an unreadable folder would
// otherwise delete: their docs are not gone, only unreadable this time.
func seedOptions(res ingest.Result, prune bool, maxDeleteShare float64) store.SeedOptions {
	opts := store.SeedOptions{MaxDeleteShare: maxDeleteShare, Prune: prune}
	for _, w := range res.Warnings {
		switch {
		case w.Slug != "":
			opts.Keep = append(opts.Keep, w.Slug)
		case w.Path != "":
			if prefix, ok := folderSlugPrefix(w.Path); ok {
				opts.KeepUnder = append(opts.KeepUnder, prefix)
			}
		}
	}
	return opts
}

// folderSlugPrefix is the slug prefix ("guides/") of the docs under a
// folder, spelt the way ingest spells slugs.
func folderSlugPrefix(folder string) (string, bool) {
	const probe = "x"
	slug := ingest.SlugFor(path.Join(folder, probe+".md"))
	prefix, ok := strings.CutSuffix(slug, probe)
	return prefix, ok && strings.HasSuffix(prefix, "/")
}

func newDocsCmd(e *env) *cobra.Command {
	docs := &cobra.Command{Use: "docs", Short: "Inspect the knowledge base in the store"}
	docs.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "One line per doc: slug, category, title, chunk count, content hash",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			// The list shows what docent would answer from: the embedded
			// store is filled from the knowledge base, a database only read.
			st, _, err := e.openReadStore(ctx, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			defer st.Close()
			list, err := st.ListDocs(ctx)
			if err != nil {
				return fmt.Errorf("list docs in %s: %w", st.Describe(), err)
			}
			if len(list) == 0 {
				// An empty list is a true answer; the hint goes to stderr.
				fmt.Fprintf(cmd.ErrOrStderr(), "docent: %v\n", e.errNoDocsSeeded(st))
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
