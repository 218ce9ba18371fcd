package tui

import (
	"context"
	"errors"
	"fmt"
	"io"

	tea "charm.land/bubbletea/v2"
)

// Run shows the chat screen on in/out until the user quits or ctx ends.
// Quitting with Ctrl+C is a normal end, not an error.
func Run(ctx context.Context, b Backend, st Status, in io.Reader, out io.Writer, opts ...Option) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends any answer still streaming
	m := New(b, st, append([]Option{WithContext(ctx)}, opts...)...)
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out))
	if _, err := p.Run(); err != nil {
		if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("tui: %w", err)
	}
	return nil
}
