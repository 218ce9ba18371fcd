package assistant

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/docent-sh/docent/prompt"
)

// ReadAppState reads and parses an app-state file. The limit is applied
// while reading, so a wrong path to a huge file (or a device that never
// ends) costs one buffer, not the whole file.
func ReadAppState(ctx context.Context, path string) (prompt.AppState, error) {
	if err := ctx.Err(); err != nil {
		return prompt.AppState{}, err
	}
	f, err := os.Open(expandHome(path))
	if err != nil {
		return prompt.AppState{}, fmt.Errorf("read app state: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, prompt.MaxAppStateBytes+1))
	if err != nil {
		return prompt.AppState{}, fmt.Errorf("read app state: %w", err)
	}
	if len(data) > prompt.MaxAppStateBytes {
		return prompt.AppState{}, fmt.Errorf("app state %s: over the %d-byte limit", path, prompt.MaxAppStateBytes)
	}
	return prompt.ParseAppState(path, data)
}

// expandHome resolves a leading ~/ as a shell would, because staff type
// these paths by hand.
func expandHome(path string) string {
	rest, ok := strings.CutPrefix(path, "~/")
	if !ok {
		return path
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return path // the open error will name the path as typed
	}
	return filepath.Join(home, rest)
}
