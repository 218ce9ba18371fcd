package main

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/store/postgres"
)

func newMigrateCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "Apply, revert or show the PostgreSQL schema migrations (needs --db)",
	}
	needDB := func() error {
		if e.cfg.dbURL == "" {
			return usageErrorf("migrate needs a PostgreSQL URL: pass --db or set DATABASE_URL")
		}
		return nil
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "up",
		Short: "Apply every pending migration",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := needDB(); err != nil {
				return err
			}
			if err := postgres.MigrateUp(cmd.Context(), e.cfg.dbURL, 0); err != nil {
				return err
			}
			return printStatus(cmd, e)
		},
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "down [N]",
		Short: "Revert the last N migrations (all of them when N is omitted)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := needDB(); err != nil {
				return err
			}
			n := 0
			if len(args) == 1 {
				v, err := strconv.Atoi(args[0])
				if err != nil || v < 1 {
					return usageErrorf("migrate down: N must be a positive whole number, not %q", args[0])
				}
				n = v
			}
			if err := postgres.MigrateDown(cmd.Context(), e.cfg.dbURL, n, 0); err != nil {
				return err
			}
			return printStatus(cmd, e)
		},
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "status",
		Short: "Show the applied version and the pending migrations",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := needDB(); err != nil {
				return err
			}
			return printStatus(cmd, e)
		},
	})
	return cmd
}

func printStatus(cmd *cobra.Command, e *env) error {
	st, err := postgres.MigrateStatus(cmd.Context(), e.cfg.dbURL)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "database: %s\n", postgres.DescribeURL(e.cfg.dbURL))
	fmt.Fprintf(out, "version:  %d of %d", st.Version, st.Latest)
	if st.Dirty {
		fmt.Fprint(out, " (dirty: a migration failed half-way; fix it by hand, then force the version)")
	}
	fmt.Fprintln(out)
	if len(st.Pending) == 0 {
		fmt.Fprintln(out, "pending:  none")
	} else {
		fmt.Fprintf(out, "pending:  %v\n", st.Pending)
	}
	if st.Dirty {
		return errors.New("the schema is dirty")
	}
	return nil
}
