package main

import (
	"fmt"
	"io"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/report"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/memory"
)

func newReportCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "report",
		Short: "What the recorded questions show: documentation gaps, usage",
	}
	var (
		since    string
		asJSON   bool
		markdown bool
	)
	gaps := &cobra.Command{
		Use:   "gaps [--since 30d] [--json | --markdown]",
		Short: "Questions the docs did not answer, grouped into topics, most asked first",
		Long: "gaps groups the recorded questions that ended in no match or weak, or whose answer was rated\n" +
			"down, into topics by the informative\n" +
			"words they share, ranked by how often they were asked, each with example questions and the closest\n" +
			"doc; a bar chart of the top 10 in the terminal, --markdown for the docs team, --json for scripts.\n" +
			"--since takes a duration back from now (30d, 2w, 12h) or a date (2025-06-01).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if asJSON && markdown {
				return usageErrorf("report gaps takes --json or --markdown, not both")
			}
			from, err := report.ParseSince(since, time.Now(), time.Local)
			if err != nil {
				return usageErrorf("--since: %v", err)
			}
			ctx := cmd.Context()
			// The docs say which words are rare and which doc is closest.
			st, _, err := e.openReadStore(ctx, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			defer st.Close()
			events, err := e.listEvents(cmd, st, from)
			if err != nil {
				return err
			}
			docs, err := st.Corpus(ctx)
			if err != nil {
				return fmt.Errorf("read corpus from %s: %w", st.Describe(), err)
			}
			g := report.FindGaps(events, docs, from)
			switch {
			case asJSON:
				return report.WriteJSON(cmd.OutOrStdout(), g)
			case markdown:
				return report.WriteGapsMarkdown(cmd.OutOrStdout(), g)
			}
			return report.WriteGapsText(e.colorWriter(cmd.OutOrStdout()), g)
		},
	}
	gaps.Flags().StringVar(&since, "since", report.DefaultSince, "the questions asked since: a duration back from now (30d, 2w, 12h) or a date (YYYY-MM-DD)")
	gaps.Flags().BoolVar(&asJSON, "json", false, "print one JSON object with every topic")
	gaps.Flags().BoolVar(&markdown, "markdown", false, "write markdown for the docs team: a table of every topic, then each with its questions")

	var usageSince string
	var usageJSON bool
	usage := &cobra.Command{
		Use:   "usage [--since 30d] [--json]",
		Short: "Questions per day, the decision mix, retrieval latency and fallbacks",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			from, err := report.ParseSince(usageSince, time.Now(), time.Local)
			if err != nil {
				return usageErrorf("--since: %v", err)
			}
			// Usage reads events alone: no docs to load.
			st, err := e.openStore(cmd.Context())
			if err != nil {
				return err
			}
			defer st.Close()
			events, err := e.listEvents(cmd, st, from)
			if err != nil {
				return err
			}
			u := report.Summarize(events, from, time.Local)
			if usageJSON {
				return report.WriteJSON(cmd.OutOrStdout(), u)
			}
			return report.WriteUsageText(e.colorWriter(cmd.OutOrStdout()), u)
		},
	}
	usage.Flags().StringVar(&usageSince, "since", report.DefaultSince, "the questions asked since: a duration back from now (30d, 2w, 12h) or a date (YYYY-MM-DD)")
	usage.Flags().BoolVar(&usageJSON, "json", false, "print one JSON object")
	cmd.AddCommand(gaps, usage)
	return cmd
}

// listEvents reads the events recorded since from, from a store that
// lists them.
func (e *env) listEvents(cmd *cobra.Command, st store.Store, from time.Time) ([]knowledge.RetrievalEvent, error) {
	lister, ok := st.(store.EventLister)
	if !ok {
		return nil, fmt.Errorf("%s cannot list its retrieval events", st.Describe())
	}
	events, err := lister.Events(cmd.Context(), from)
	if err != nil {
		return nil, fmt.Errorf("read retrieval events from %s: %w", st.Describe(), err)
	}
	// PostgreSQL lists the events with their ratings; the embedded store's
	// ratings are in this machine's conversation files.
	if e.cfg.dbURL == "" {
		dir := e.conversationsDir()
		var ratings store.RatingsReader = memory.NewConversationFiles(dir, e.cfg.lockWait)
		r, err := ratings.Ratings(cmd.Context())
		if err != nil {
			return nil, err
		}
		store.JoinRatings(events, r)
	}
	return events, nil
}

// colorWriter keeps a report's colours for a terminal that shows them and
// drops them for a pipe, a file or NO_COLOR, as the environment says.
func (e *env) colorWriter(w io.Writer) io.Writer {
	var environ []string
	for _, k := range []string{"TERM", "COLORTERM", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE"} {
		if v := e.rawGetenv(k); v != "" {
			environ = append(environ, k+"="+v)
		}
	}
	return colorprofile.NewWriter(w, environ)
}
