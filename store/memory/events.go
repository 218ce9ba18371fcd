package memory

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"time"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
)

// Store lists its events for reports.
var _ store.EventLister = (*Store)(nil)

// maxEventLine bounds one line of the events file: an event is a question
// (a ticket at most) and its top results, far below this.
const maxEventLine = 4 << 20

// Events reads the events file, the rotated one (EventsPath + ".1") first,
// and returns the events recorded at or after since, oldest first. No
// events file (none configured, or nothing recorded yet) is no events. A
// line that is not an event is an error naming the file and line: a
// report on part of the file would mislead.
func (s *Store) Events(ctx context.Context, since time.Time) ([]knowledge.RetrievalEvent, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("list retrieval events: %w", err)
	}
	if s.opts.EventsPath == "" {
		return nil, nil
	}
	var out []knowledge.RetrievalEvent
	for _, path := range []string{s.opts.EventsPath + ".1", s.opts.EventsPath} {
		evs, err := readEventsFile(ctx, path, since)
		if err != nil {
			return nil, fmt.Errorf("list retrieval events: %w", err)
		}
		out = append(out, evs...)
	}
	// Two processes append in the order they finish, not the order their
	// questions were asked; a stable sort keeps the file's order on ties.
	slices.SortStableFunc(out, func(a, b knowledge.RetrievalEvent) int { return a.Time.Compare(b.Time) })
	return out, nil
}

func readEventsFile(ctx context.Context, path string, since time.Time) ([]knowledge.RetrievalEvent, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	var out []knowledge.RetrievalEvent
	lines := bufio.NewScanner(f)
	lines.Buffer(make([]byte, 0, 64<<10), maxEventLine)
	for n := 1; lines.Scan(); n++ {
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if len(lines.Bytes()) == 0 {
			continue
		}
		var ev knowledge.RetrievalEvent
		if err := json.Unmarshal(lines.Bytes(), &ev); err != nil {
			return nil, fmt.Errorf("%s:%d: not a retrieval event: %w", path, n, err)
		}
		if !ev.Time.Before(since) {
			out = append(out, ev)
		}
	}
	if err := lines.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return out, ctx.Err()
}
