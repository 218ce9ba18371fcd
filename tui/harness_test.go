package tui

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/retrieval"
)

// fakeBackend returns canned results by query or slug, and streams its
// answer in the given pieces.
type fakeBackend struct {
	mu        sync.Mutex
	results   map[string]retrieval.Result // by Query, or by "doc:"+slug
	pieces    []string
	info      AnswerInfo
	answerErr error
	requests  []assistant.Request
	answered  []retrieval.Result // what Answer was asked to write from
}

func (f *fakeBackend) Retrieve(_ context.Context, req assistant.Request) (retrieval.Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, req)
	k := req.Query
	if req.DocSlug != "" {
		k = "doc:" + req.DocSlug
	}
	res, ok := f.results[k]
	if !ok {
		return retrieval.Result{}, errors.New("no canned result for " + k)
	}
	return res, nil
}

func (f *fakeBackend) Answer(ctx context.Context, res retrieval.Result, emit func(string)) (AnswerInfo, error) {
	f.mu.Lock()
	f.answered = append(f.answered, res)
	f.mu.Unlock()
	info := f.info
	for _, p := range f.pieces {
		if ctx.Err() != nil {
			info.Stopped = true
			return info, nil
		}
		emit(p)
	}
	return info, f.answerErr
}

// harness drives a Model without a terminal: it runs each Cmd in turn
// and feeds the messages back, as Bubble Tea would.
type harness struct {
	t *testing.T
	m Model

	hold func(tea.Msg) bool // messages it accepts wait in held until release
	held []tea.Msg
}

func newHarness(t *testing.T, b Backend, width, height int) *harness {
	t.Helper()
	h := &harness{t: t, m: New(b, Status{Docs: 3, Chunks: 9, Store: "embedded", Phase: 2}, WithTheme(ThemeDark))}
	h.send(tea.WindowSizeMsg{Width: width, Height: height})
	return h
}

func (h *harness) send(msg tea.Msg) {
	h.t.Helper()
	queue := []tea.Msg{msg}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 10000 {
			h.t.Fatal("harness: message loop does not settle")
		}
		msg, queue = queue[0], queue[1:]
		if _, ok := msg.(spinner.TickMsg); ok {
			continue // ticks re-arm themselves forever
		}
		if h.hold != nil && h.hold(msg) {
			h.held = append(h.held, msg)
			continue
		}
		next, cmd := h.m.Update(msg)
		h.m = next.(Model)
		queue = append(queue, run(cmd)...)
	}
}

// release delivers the held messages and stops holding.
func (h *harness) release() {
	h.t.Helper()
	held := h.held
	h.hold, h.held = nil, nil
	for _, msg := range held {
		h.send(msg)
	}
}

func run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, run(c)...)
		}
		return out
	default:
		return []tea.Msg{msg}
	}
}

func (h *harness) typeText(s string) {
	h.t.Helper()
	for _, r := range s {
		h.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func (h *harness) key(code rune, mod tea.KeyMod) {
	h.t.Helper()
	h.send(tea.KeyPressMsg{Code: code, Mod: mod})
}

func (h *harness) ask(q string) {
	h.t.Helper()
	h.typeText(q)
	h.key(tea.KeyEnter, 0)
}

func (h *harness) content() string { return h.m.View().Content }

// blockingBackend's Answer emits one piece and then waits for its context.
type blockingBackend struct{ fakeBackend }

func (b *blockingBackend) Answer(ctx context.Context, _ retrieval.Result, emit func(string)) (AnswerInfo, error) {
	emit("partial")
	<-ctx.Done()
	return AnswerInfo{Stopped: true}, ctx.Err()
}

func TestStreamGoroutinesEndWhenRootIsCancelled(t *testing.T) {
	root, cancel := context.WithCancel(context.Background())
	_, cmd := startAnswer(root, &blockingBackend{}, 1, retrieval.Result{})
	batch, ok := cmd().(tea.BatchMsg)
	if !ok || len(batch) != 2 {
		t.Fatalf("startAnswer returned %T, want a batch of the answer and the first wait", cmd())
	}
	returned := make(chan tea.Msg, len(batch))
	for _, c := range batch {
		go func() { returned <- c() }()
	}
	first := <-returned // the wait delivers the first piece
	if chunk, ok := first.(streamChunkMsg); !ok || chunk.text != "partial" {
		t.Fatalf("first message = %#v, want the streamed piece", first)
	}
	cancel() // the user quit: nothing is reading any more
	select {
	case <-returned:
	case <-time.After(5 * time.Second):
		t.Fatal("the answer goroutine did not end after quitting")
	}
	// A wait started after quitting must not block either.
	if msg := waitStream(root, &answerStream{msgs: make(chan tea.Msg)})(); msg != nil {
		t.Fatalf("wait after quit returned %#v", msg)
	}
}
