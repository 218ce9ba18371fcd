package tui

import (
	"context"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/docent-sh/docent/prompt"
	"github.com/docent-sh/docent/textsafe"
)

func TestContextCommandParsing(t *testing.T) {
	tests := []struct {
		in   string
		arg  string
		isIt bool
	}{
		{"/context", "", true},
		{"/context state.json", "state.json", true},
		{"/context   off  ", "off", true},
		{"/context\tnotes.txt", "notes.txt", true},
		{`/context "my state.json"`, "my state.json", true},
		{"/context 'a b.txt'", "a b.txt", true},
		{`/context "unbalanced`, `"unbalanced`, true},
		{"/contexts", "", false},
		{"what is /context", "", false},
		{"context state.json", "", false},
	}
	for _, tt := range tests {
		arg, ok := contextCommand(tt.in)
		if arg != tt.arg || ok != tt.isIt {
			t.Errorf("contextCommand(%q) = %q, %v; want %q, %v", tt.in, arg, ok, tt.arg, tt.isIt)
		}
	}
}

func TestDescribeAppState(t *testing.T) {
	parse := func(name, data string) prompt.AppState {
		t.Helper()
		st, err := prompt.ParseAppState(name, []byte(data))
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	tests := []struct {
		name string
		st   prompt.AppState
		want string
	}{
		{"json page first", parse("s.json", `{"user": {"plan": "pro"}, "page": "settings", "widgets": [{"name": "Recent"}, {"name": "Calendar"}]}`),
			"page: settings (2 lines, 2 widgets)"},
		{"json widgets only", parse("w.json", `{"widgets": {"Recent": {"state": "collapsed"}}}`), "1 widget"},
		{"text", parse("n.txt", "Customer is on the billing page\n\nThe invoice list is empty\n"),
			"Customer is on the billing page (2 lines)"},
		{"text of control characters only", parse("c.txt", "\x1b[2J\x07\n"), "nothing to show the model"},
		{"long first line", parse("l.txt", strings.Repeat("long ", 30)), strings.TrimSpace(strings.Repeat("long ", 12)) + "…" + " (1 line)"},
	}
	for _, tt := range tests {
		if got := describeAppState(tt.st); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// loaderBackend is a fake backend that can attach context, and counts
// what it was asked to do.
type loaderBackend struct {
	fakeBackend
	mu      sync.Mutex
	path    string
	summary string
	loadErr error
	release chan struct{} // when set, LoadContext waits for it
}

func (b *loaderBackend) LoadContext(_ context.Context, path string) (string, error) {
	if b.release != nil {
		<-b.release
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.loadErr != nil {
		return "", b.loadErr
	}
	b.path, b.summary = path, "page: "+path
	return b.summary, nil
}

func (b *loaderBackend) DetachContext() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.path, b.summary = "", ""
}

func (b *loaderBackend) AttachedContext() (string, string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.path, b.summary
}

func TestContextCommandWithoutLoader(t *testing.T) {
	b := cannedBackend()
	h := newHarness(t, b, 100, 24)
	h.ask("/context state.json")
	if out := ansi.Strip(h.content()); !strings.Contains(out, "! /context is not available") {
		t.Errorf("no message for a backend that cannot attach context:\n%s", out)
	}
	if len(b.requests) != 0 {
		t.Errorf("the command was sent as a question: %+v", b.requests)
	}
}

func TestContextCommandIsOneSystemLine(t *testing.T) {
	b := &loaderBackend{fakeBackend: *cannedBackend()}
	h := newHarness(t, b, 100, 24)
	h.ask(`/context "my state.json"`)
	out := ansi.Strip(h.content())
	first := strings.TrimSpace(strings.SplitN(out, "\n", 2)[0])
	if first != "Context loaded from my state.json: page: my state.json" || strings.Contains(out, "› /context") {
		t.Errorf("want one system line and no echoed question:\n%s", out)
	}
	if b.path != "my state.json" || h.m.input.Value() != "" {
		t.Errorf("loaded %q, input left %q; want the unquoted path and an empty input", b.path, h.m.input.Value())
	}
	if len(b.requests) != 0 {
		t.Errorf("the command was sent as a question: %+v", b.requests)
	}
}

// TestQuestionWaitsForTheContext: a question sent while /context reads
// its file is queued, so the answer is sure to see the new state.
func TestQuestionWaitsForTheContext(t *testing.T) {
	b := &loaderBackend{fakeBackend: *cannedBackend(), release: make(chan struct{})}
	h := newHarness(t, b, 100, 24)
	h.typeText("/context state.json")
	// Drive Update by hand: the harness would run the blocked load.
	next, cmd := h.m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	h.m = next.(Model)
	if h.m.activity != attaching || cmd == nil {
		t.Fatalf("after /context: activity %v, cmd %v; want attaching with a Cmd", h.m.activity, cmd != nil)
	}
	if !strings.Contains(ansi.Strip(h.content()), "Loading the context…") {
		t.Errorf("no progress line while loading:\n%s", ansi.Strip(h.content()))
	}
	h.ask("explain workspace")
	if len(b.requests) != 0 || !strings.Contains(ansi.Strip(h.content()), "⧗ queued: explain workspace") {
		t.Fatalf("a question went out before the context was attached: %+v\n%s", b.requests, ansi.Strip(h.content()))
	}
	close(b.release)
	for _, msg := range run(cmd) {
		h.send(msg)
	}
	out := ansi.Strip(h.content())
	if h.m.activity != idle || !strings.Contains(out, "Context loaded from state.json") {
		t.Errorf("after loading: activity %v\n%s", h.m.activity, out)
	}
	if len(b.requests) != 1 || strings.Index(out, "Context loaded") > strings.Index(out, "› explain workspace") {
		t.Errorf("the queued question did not go out after the context was attached: %+v\n%s", b.requests, out)
	}
	if !strings.Contains(out, "context state.json") {
		t.Errorf("the status bar does not show the attached context:\n%s", out)
	}
}

func TestLiveTextCleansAcrossPieces(t *testing.T) {
	whole := "Quick \x1b[31mLinks\x1b[0m\r\nkeeps \x1b]52;c;ZXZpbA==\x07shortcuts ✓"
	for size := 1; size <= len(whole); size++ {
		var l liveText
		for i := 0; i < len(whole); i += size {
			got := l.write(whole[i:min(i+size, len(whole))])
			if strings.ContainsAny(got, "\x1b\x07\r") {
				t.Fatalf("pieces of %d: control characters on screen mid-stream: %q", size, got)
			}
		}
		if got, want := l.close(), textsafe.String(whole); got != want {
			t.Fatalf("pieces of %d: %q, want %q", size, got, want)
		}
	}
}
