package main

import (
	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/tui"
)

func runTUI(cmd *cobra.Command, e *env) error {
	ctx := cmd.Context()
	a, err := e.startApp(ctx, true, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	defer a.Close()
	backend := tui.NewSessionBackend(a.session)
	if e.cfg.contextPath != "" {
		// Through the adapter, so /context in the TUI can show and detach it.
		if _, err := backend.LoadContext(ctx, e.cfg.contextPath); err != nil {
			return usageErrorf("--context: %v", err)
		}
	}
	e.log.Info("tui starting", "docs", a.docs, "chunks", a.chunks, "startup", a.started)
	status := tui.Status{
		Docs: a.docs, Chunks: a.chunks, Store: a.store.Describe(),
		Provider: a.selection.Provider, Model: a.selection.Model, Phase: e.cfg.phase,
	}
	return tui.Run(ctx, backend, status, cmd.InOrStdin(), cmd.OutOrStdout())
}
