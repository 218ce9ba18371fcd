package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/store"
)

// settingsFile is the embedded store's settings file (the retrieval kill
// switch), beside the log and the events: state of this machine's
// docents, which every one of them reads.
const settingsFile = "settings.json"

func (e *env) settingsPath() string { return filepath.Join(filepath.Dir(e.logPath()), settingsFile) }

func newAdminCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "admin",
		Short: "Team-wide switches every running docent on the same store obeys",
	}
	retrieval := &cobra.Command{
		Use:   "retrieval off|on|status",
		Short: "Turn retrieval off (every question gets the generic reply) or on again, for every docent on this store",
		Long: "retrieval off is the kill switch: every docent on this store (the PostgreSQL database, or this\n" +
			"machine's embedded store) answers every question with the generic reply within " + store.SwitchPollInterval.String() + ",\n" +
			"until retrieval on. status prints the state. The switch is kept in the store, not in a process.",
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"off", "on", "status"},
		RunE: func(cmd *cobra.Command, args []string) error {
			var set *bool
			switch args[0] {
			case "off", "on":
				on := args[0] == "on"
				set = &on
			case "status":
			default:
				return usageErrorf("admin retrieval %q: want off, on or status", args[0])
			}
			ctx := cmd.Context()
			st, err := e.openStore(ctx)
			if err != nil {
				return err
			}
			defer st.Close()
			sw, ok := st.(store.RetrievalSwitch)
			if !ok {
				return fmt.Errorf("%s keeps no retrieval switch", st.Describe())
			}
			if set != nil {
				if err := sw.SetRetrievalEnabled(ctx, *set); err != nil {
					return err
				}
			}
			on, err := sw.RetrievalEnabled(ctx)
			if err != nil {
				return err
			}
			state := "on"
			if !on {
				state = "off: every question gets the generic reply"
			}
			fmt.Fprintf(cmd.OutOrStdout(), "retrieval %s (%s)\n", state, st.Describe())
			return nil
		},
	}
	cmd.AddCommand(retrieval)
	return cmd
}
