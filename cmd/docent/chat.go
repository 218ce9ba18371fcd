package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/tui"
)

func runTUI(cmd *cobra.Command, e *env) error {
	ctx := cmd.Context()
	a, err := e.startApp(ctx, true)
	if err != nil {
		return err
	}
	defer a.Close()
	e.log.Info("tui starting", "docs", a.docs, "chunks", a.chunks, "startup", a.started)
	status := tui.Status{
		Docs: a.docs, Chunks: a.chunks, Store: a.store.Describe(),
		Provider: a.selection.Provider, Model: a.selection.Model, Phase: e.cfg.phase,
	}
	return tui.Run(ctx, chatBackend{a.session}, status, cmd.InOrStdin(), cmd.OutOrStdout())
}

// chatBackend adapts the session to the TUI's Backend: the TUI defines the
// interface it needs, the session stays free of TUI types.
type chatBackend struct{ s *assistant.Session }

func (b chatBackend) Retrieve(ctx context.Context, req tui.Request) (retrieval.Result, error) {
	return b.s.Retrieve(ctx, assistant.Request{Query: req.Query, DocSlug: req.DocSlug}), nil
}

func (b chatBackend) Answer(ctx context.Context, res retrieval.Result, emit func(string)) (tui.AnswerInfo, error) {
	ans, err := b.s.Answer(ctx, res, emit)
	info := tui.AnswerInfo{
		Text: ans.Text, Provider: ans.Provider, Model: ans.Model, Notice: ans.Notice,
		Fallback: ans.Fallback, Stopped: ans.Stopped, TTFT: ans.TTFT, TokensPerSec: ans.TokensPerSec,
	}
	if ans.ModelCalled {
		info.ContextLines = ans.Context.Lines()
	}
	return info, err
}

func (b chatBackend) Stats() retrieval.Stats { return b.s.Stats() }
