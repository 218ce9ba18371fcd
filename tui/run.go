package tui

import (
	"context"
	"errors"
	"fmt"
	"io"

	tea "charm.land/bubbletea/v2"
)

// Run shows the chat screen on in/out at once, starts docent with load
// behind it, and returns when the user quits or ctx ends. Quitting with
// Ctrl+C is a normal end, not an error; a failed start-up returns load's
// error as it is. When Run returns, load has returned too, so whatever
// it built is the caller's to close.
func Run(parent context.Context, load Loader, in io.Reader, out io.Writer, opts ...Option) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	m := NewLoading(load, append([]Option{WithContext(ctx)}, opts...)...)
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out))
	final, err := p.Run()
	cancel() // ends any answer still streaming, and a start-up still running
	m.loading.stop()
	if err != nil {
		if errors.Is(err, tea.ErrProgramKilled) && parent.Err() != nil {
			return parent.Err()
		}
		return fmt.Errorf("tui: %w", err)
	}
	if fm, ok := final.(Model); ok && fm.loadErr != nil {
		return fm.loadErr
	}
	return nil
}
