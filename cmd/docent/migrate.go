package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/store/postgres"
)

func newMigrateCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "Apply, revert, force or show the PostgreSQL schema migrations (needs --db)",
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
			if err := postgres.MigrateUp(cmd.Context(), e.cfg.dbURL, e.cfg.lockWait); err != nil {
				return err
			}
			return printStatus(cmd, e)
		},
	})

	var all bool
	down := &cobra.Command{
		Use:   "down N | down --all",
		Short: "Revert the last N migrations; --all reverts every one and drops all of docent's data",
		Long: "down N reverts the last N migrations. Reverting all of them drops every docent table with its data:\n" +
			"that takes --all, or a typed \"yes\" when down runs without N on a terminal.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := needDB(); err != nil {
				return err
			}
			n := 0
			switch {
			case len(args) == 1 && all:
				return usageErrorf("migrate down takes N or --all, not both")
			case len(args) == 1:
				v, err := strconv.Atoi(args[0])
				if err != nil || v < 1 {
					return usageErrorf("migrate down: N must be a positive whole number, not %q", args[0])
				}
				n = v
			case !all:
				if err := confirmDownAll(cmd, e); err != nil {
					return err
				}
			}
			if err := postgres.MigrateDown(cmd.Context(), e.cfg.dbURL, n, e.cfg.lockWait); err != nil {
				return err
			}
			return printStatus(cmd, e)
		},
	}
	down.Flags().BoolVar(&all, "all", false, "revert every migration, dropping all of docent's tables and data")
	cmd.AddCommand(down)

	cmd.AddCommand(&cobra.Command{
		Use:   "force V",
		Short: "Record that the schema is at version V (0: none), clean, without running anything",
		Long: "force is the way out of a dirty schema, left by a migration that failed half-way: repair the\n" +
			"schema by hand, then record the version it is really at. It runs no migration.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := needDB(); err != nil {
				return err
			}
			v, err := strconv.ParseUint(args[0], 10, 32)
			if err != nil {
				return usageErrorf("migrate force: V must be a version number (0 or more), not %q", args[0])
			}
			if err := postgres.MigrateForce(cmd.Context(), e.cfg.dbURL, uint(v), e.cfg.lockWait); err != nil {
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

// confirmDownAll asks before every table is dropped: a typed "yes" on a
// terminal; a script must say --all.
func confirmDownAll(cmd *cobra.Command, e *env) error {
	in := cmd.InOrStdin()
	if !isTerminal(in) {
		return usageErrorf("migrate down without N reverts every migration and drops all of docent's tables and data: " +
			"pass --all to do that, or N to revert the last N")
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "This reverts every migration of %s and drops all of docent's tables and data.\nType yes to go ahead: ",
		postgres.DescribeURL(e.cfg.dbURL))
	answer, err := bufio.NewReader(in).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read the answer: %w", err)
	}
	if strings.TrimSpace(answer) != "yes" {
		return errors.New("migrate down: not confirmed; nothing was reverted")
	}
	return nil
}

// isTerminal reports whether r is a terminal a person types into. A reader
// may say so itself (tests stand in for a person that way).
func isTerminal(r io.Reader) bool {
	switch r := r.(type) {
	case interface{ IsTerminal() bool }:
		return r.IsTerminal()
	case *os.File:
		return term.IsTerminal(r.Fd())
	}
	return false
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
		fmt.Fprint(out, " (dirty: a migration failed half-way; repair the schema by hand, then run docent migrate force V)")
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
