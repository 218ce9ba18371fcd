package tui

import (
	"context"
	"fmt"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/docent-sh/docent/textsafe"
)

// loadRun is the one run of a Loader behind a starting screen. The loader
// runs in a Cmd; its progress reports are coalesced (only the latest
// matters to the screen, however fast files are read) and reach Update one
// at a time, like a streamed answer.
type loadRun struct {
	load Loader

	mu      sync.Mutex
	latest  Progress
	changed chan struct{} // holds a token while a report is unread
	done    chan loadedMsg

	once     sync.Once
	finished chan struct{} // closed when the loader has returned, or will never run
}

type progressMsg struct{ p Progress }

type loadedMsg struct {
	ready Ready
	err   error
}

func newLoadRun(load Loader) *loadRun {
	return &loadRun{
		load:     load,
		changed:  make(chan struct{}, 1),
		done:     make(chan loadedMsg, 1),
		finished: make(chan struct{}),
	}
}

func (r *loadRun) report(p Progress) {
	r.mu.Lock()
	r.latest = p
	r.mu.Unlock()
	select {
	case r.changed <- struct{}{}:
	default: // a report is already waiting: it will read this one
	}
}

// start runs the loader, once.
func (r *loadRun) start(ctx context.Context) tea.Cmd {
	return func() tea.Msg {
		r.once.Do(func() {
			defer close(r.finished)
			ready, err := r.load(ctx, r.report)
			r.done <- loadedMsg{ready: ready, err: err}
		})
		return nil
	}
}

// wait returns the next progress report or the outcome.
func (r *loadRun) wait(ctx context.Context) tea.Cmd {
	return func() tea.Msg {
		select {
		case msg := <-r.done:
			return msg
		case <-r.changed:
			r.mu.Lock()
			defer r.mu.Unlock()
			return progressMsg{p: r.latest}
		case <-ctx.Done():
			return nil
		}
	}
}

// stop waits for the loader to return, or makes sure it never starts.
// The caller cancels the loader's context first.
func (r *loadRun) stop() {
	r.once.Do(func() { close(r.finished) })
	<-r.finished
}

// progressText is a progress report as the screen shows it:
// "Reading 193 files… 120/193".
func progressText(p Progress) string {
	step := textsafe.Line(p.Step)
	if step == "" {
		step = "Starting"
	}
	if p.Total > 0 {
		return fmt.Sprintf("%s… %d/%d", step, min(p.Done, p.Total), p.Total)
	}
	return step + "…"
}

// suggestion is a first question for the welcome line, made from the
// loaded docs' titles: the shortest title of two to four words (specific,
// yet short enough to type), else the shortest title. Ties keep the
// loader's order, so the same docs always suggest the same question.
func suggestion(titles []string) string {
	best, bestLen := "", 0
	pick := func(accept func(words int) bool) {
		for _, t := range titles {
			t = strings.Join(strings.Fields(textsafe.Line(t)), " ")
			n := len(strings.Fields(t))
			if t == "" || !accept(n) {
				continue
			}
			if l := len([]rune(t)); best == "" || l < bestLen {
				best, bestLen = t, l
			}
		}
	}
	pick(func(words int) bool { return words >= 2 && words <= 4 })
	if best == "" {
		pick(func(int) bool { return true })
	}
	if best == "" {
		return ""
	}
	return "tell me about " + best
}
