package tui_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/cite"
	"github.com/docent-sh/docent/internal/demo"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/llm/extractive"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/tui"
)

// newEngine builds the real retrieval engine on the demo knowledge base.
// Each session gets its own, so the rolling figures in the debug pane
// count that session's turns only.
func newEngine(t testing.TB) *retrieval.Engine { return demo.Engine(t) }

// engine answers the tests' own questions, to know what the screen must
// show; it is separate from the sessions' engines.
func engine(t testing.TB) *retrieval.Engine {
	t.Helper()
	expectOnce.Do(func() { expect = newEngine(t) })
	return expect
}

var (
	expectOnce sync.Once
	expect     *retrieval.Engine
)

var quiet = slog.New(slog.DiscardHandler)

// noEnv is an empty environment, so no API key on the test machine picks
// a provider.
func noEnv(string) string { return "" }

// offline selects the built-in offline (extractive) responder.
func offline(t testing.TB) llm.Selection {
	t.Helper()
	sel, err := llm.Resolve(llm.Config{Provider: llm.ProviderExtractive}, noEnv)
	if err != nil {
		t.Fatalf("resolve the extractive provider: %v", err)
	}
	return sel
}

// newSession is docent's real chat session on the demo knowledge base,
// with the real responder for sel. The offline responder streams one word
// a piece: many small pieces, and the answer must still come out whole.
func newSession(t testing.TB, sel llm.Selection) *assistant.Session {
	t.Helper()
	writer, err := llm.NewResponder(sel, llm.WithLogger(quiet), llm.WithExtractive(extractive.WithPieceWords(1)))
	if err != nil {
		t.Fatalf("responder for %s: %v", sel, err)
	}
	return assistant.New(newEngine(t), writer, assistant.Options{
		Glossary: kb.Glossary(),
		Corpus:   "embedded demo knowledge base",
		Log:      quiet,
	})
}

// Measured figures differ on every run; they are pinned so that the
// status bar and the debug pane are stable in goldens.
const (
	pinnedLatency = 0.25
	pinnedTTFT    = 12 * time.Millisecond
	pinnedRate    = 80
)

// demoBackend is the real session behind the TUI's adapter, with the
// measured figures pinned.
type demoBackend struct{ *tui.SessionBackend }

func (b demoBackend) Retrieve(ctx context.Context, req assistant.Request) (retrieval.Result, error) {
	res, err := b.SessionBackend.Retrieve(ctx, req)
	res.Metrics.RetrievalMS = pinnedLatency
	return res, err
}

func (b demoBackend) Answer(ctx context.Context, res retrieval.Result, emit func(string)) (tui.AnswerInfo, error) {
	info, err := b.SessionBackend.Answer(ctx, res, emit)
	if info.TTFT > 0 {
		info.TTFT, info.TokensPerSec = pinnedTTFT, pinnedRate
	}
	return info, err
}

func (b demoBackend) Stats() assistant.Stats {
	st := b.SessionBackend.Stats()
	st.P50MS, st.P95MS = pinnedLatency, pinnedLatency
	return st
}

func demoStatus(t testing.TB, sel llm.Selection) tui.Status {
	docs, chunks := engine(t).Size()
	return tui.Status{Docs: docs, Chunks: chunks, Store: "embedded", Provider: sel.Provider, Model: sel.Model, Phase: 2}
}

// newDemoBackend is the real session answering with the offline responder.
func newDemoBackend(t testing.TB) (demoBackend, tui.Status) {
	sel := offline(t)
	return demoBackend{tui.NewSessionBackend(newSession(t, sel))}, demoStatus(t, sel)
}

// expectAnswer is what a fresh session answers to req, to know what the
// screen must show. The offline responder writes the same answer from the
// same evidence, whatever came before in the conversation.
func expectAnswer(t testing.TB, req assistant.Request) string {
	t.Helper()
	return expectInfo(t, req).Text
}

// expectFootnoted is the answer to req as the transcript shows it, with
// its citations as footnotes.
func expectFootnoted(t testing.TB, req assistant.Request) cite.Footnoted {
	t.Helper()
	info := expectInfo(t, req)
	return cite.Footnotes(info.Text, info.Sources)
}

// expectInfo is expectAnswer's whole answer.
func expectInfo(t testing.TB, req assistant.Request) tui.AnswerInfo {
	t.Helper()
	b := tui.NewSessionBackend(newSession(t, offline(t)))
	res, err := b.Retrieve(context.Background(), req)
	if err != nil {
		t.Fatalf("retrieve %+v: %v", req, err)
	}
	if res.Status != retrieval.StatusFound && res.Status != retrieval.StatusMulti {
		t.Fatalf("demo KB: %+v is %s, want an answer from the docs", req, res.Status)
	}
	info, err := b.Answer(context.Background(), res, nil)
	if err != nil || info.Text == "" || info.Provider != llm.ProviderExtractive {
		t.Fatalf("answer %+v: %q from %q, %v", req, info.Text, info.Provider, err)
	}
	return info
}

// screen records the last frame the program drew, as plain text, and
// serves it to teatest.WaitFor: each frame once, after a form feed, so a
// condition can look at the newest frame only.
type screen struct {
	mu      sync.Mutex
	frame   string
	version int
	served  int
	pending *strings.Reader
}

func (s *screen) set(frame string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if frame != s.frame {
		s.frame = frame
		s.version++
	}
}

func (s *screen) current() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.frame
}

// rewind makes the next read serve the current frame again.
func (s *screen) rewind() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.served = -1
	s.pending = nil
}

func (s *screen) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending == nil {
		if s.served == s.version {
			return 0, io.EOF
		}
		s.served = s.version
		s.pending = strings.NewReader("\f" + s.frame)
	}
	n, err := s.pending.Read(p)
	if err == io.EOF {
		s.pending = nil
	}
	return n, err
}

// probe wraps the model to record each frame it draws.
type probe struct {
	inner  tea.Model
	screen *screen
}

func (p probe) Init() tea.Cmd { return p.inner.Init() }

func (p probe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	p.inner, cmd = p.inner.Update(msg)
	return p, cmd
}

func (p probe) View() tea.View {
	v := p.inner.View()
	p.screen.set(plain(v.Content))
	return v
}

// plain is what a person sees: no escape sequences, no trailing blanks.
func plain(content string) string {
	lines := strings.Split(ansi.Strip(content), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

var fixedNow = time.Date(2026, 1, 2, 9, 30, 0, 0, time.UTC)

type session struct {
	t      *testing.T
	tm     *teatest.TestModel
	screen *screen
}

func start(t *testing.T, b tui.Backend, st tui.Status, width, height int) *session {
	t.Helper()
	return startModel(t, tui.New(b, st, tui.WithTheme(tui.ThemeDark), tui.WithClock(func() time.Time { return fixedNow })), width, height)
}

// startLoading shows the screen while load starts docent behind it.
func startLoading(t *testing.T, load tui.Loader, width, height int) *session {
	t.Helper()
	return startModel(t, tui.NewLoading(load, tui.WithTheme(tui.ThemeDark), tui.WithClock(func() time.Time { return fixedNow })), width, height)
}

func startModel(t *testing.T, m tui.Model, width, height int) *session {
	t.Helper()
	scr := &screen{}
	tm := teatest.NewTestModel(t, probe{inner: m, screen: scr},
		teatest.WithInitialTermSize(width, height),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.NoTTY)),
	)
	s := &session{t: t, tm: tm, screen: scr}
	t.Cleanup(func() { _ = tm.Quit() })
	return s
}

func (s *session) typeText(text string) { s.tm.Type(text) }

func (s *session) press(code rune, mod tea.KeyMod) {
	s.tm.Send(tea.KeyPressMsg{Code: code, Mod: mod})
}

func (s *session) enter() { s.press(tea.KeyEnter, 0) }

// waitFor waits until the newest frame satisfies cond.
func (s *session) waitFor(what string, cond func(frame string) bool) {
	s.t.Helper()
	s.screen.rewind()
	teatest.WaitFor(s.t, s.screen, func(b []byte) bool {
		return cond(string(b[bytes.LastIndexByte(b, '\f')+1:]))
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
	_ = what
}

func (s *session) waitText(want ...string) {
	s.t.Helper()
	s.waitFor(strings.Join(want, ", "), func(f string) bool { return containsAll(f, want...) })
}

// waitIdle waits for the turn to end and the wanted text to show.
func (s *session) waitIdle(want ...string) {
	s.t.Helper()
	s.waitFor("idle", func(f string) bool {
		return !strings.Contains(f, "Searching the docs") && !strings.Contains(f, "Answering…") && containsAll(f, want...)
	})
}

func containsAll(s string, want ...string) bool {
	for _, w := range want {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// final quits and returns the last screen the model draws.
func (s *session) final() string {
	s.t.Helper()
	if err := s.tm.Quit(); err != nil {
		s.t.Fatal(err)
	}
	fm := s.tm.FinalModel(s.t, teatest.WithFinalTimeout(10*time.Second))
	p, ok := fm.(probe)
	if !ok {
		s.t.Fatalf("final model is %T", fm)
	}
	return plain(p.inner.View().Content)
}

// opening is the first words of a reply, which fit on one line at any
// tested width.
func opening(reply string, words int) string {
	f := strings.Fields(reply)
	return strings.Join(f[:min(words, len(f))], " ")
}

func TestAskShowsAnswer(t *testing.T) {
	b, st := newDemoBackend(t)
	f := expectFootnoted(t, assistant.Request{Query: "what is quick links"})
	if len(f.Notes) == 0 || !strings.HasPrefix(f.Notes[0].ID, "widgets/quick-links#chunk-") || !f.Notes[0].Known {
		t.Fatalf("the offline answer cites no quick-links chunk: %+v", f)
	}
	want := f.Text
	s := start(t, b, st, 80, 24)
	s.typeText("what is quick links")
	s.enter()
	s.waitIdle("› what is quick links", opening(want, 3))

	out := s.final()
	if got := strings.Join(strings.Fields(out), " "); !strings.Contains(got, strings.Join(strings.Fields(want), " ")) {
		t.Errorf("the whole answer is not on screen:\nwant %q\nscreen:\n%s", want, out)
	}
	// The citation reads as a footnote and its source, never as an id.
	if strings.Contains(out, "#chunk-") || !strings.Contains(out, "[1] "+f.Notes[0].Label()) {
		t.Errorf("the answer's citation is not a footnote with its source:\n%s", out)
	}
	if !strings.Contains(out, "extractive │ embedded") {
		t.Errorf("the status bar does not name the offline responder:\n%s", out)
	}
	golden.RequireEqual(t, out)
}

// workspaceOptions checks the demo KB still makes "workspace" ambiguous,
// which the pill tests rely on.
func workspaceOptions(t *testing.T) []retrieval.Option {
	t.Helper()
	res := engine(t).Ask(retrieval.Query{Text: "workspace"})
	if len(res.Options) < 2 {
		t.Fatalf("demo KB: \"workspace\" is %s with %d options, want at least 2", res.Status, len(res.Options))
	}
	return res.Options
}

func TestWorkspacePillsArrowThenEnterPicksSecond(t *testing.T) {
	opts := workspaceOptions(t)
	second := expectAnswer(t, assistant.Request{Query: "workspace", DocSlug: opts[1].DocSlug})
	b, st := newDemoBackend(t)
	s := start(t, b, st, 80, 24)
	s.typeText("workspace")
	s.enter()
	s.waitIdle("Pick:", "▸[1 "+opts[0].Label, " [2 "+opts[1].Label)

	s.press(tea.KeyRight, 0)
	s.waitText("▸[2 " + opts[1].Label)
	s.enter()
	s.waitIdle("› → "+opts[1].Label, opening(second, 3), "[1] ")

	out := s.final()
	if strings.Contains(out, "Pick:") {
		t.Errorf("pills still shown after picking:\n%s", out)
	}
	golden.RequireEqual(t, out)
}

func TestWorkspacePillsDigitPicksSecond(t *testing.T) {
	opts := workspaceOptions(t)
	second := expectAnswer(t, assistant.Request{Query: "workspace", DocSlug: opts[1].DocSlug})
	b, st := newDemoBackend(t)
	s := start(t, b, st, 80, 24)
	s.typeText("workspace")
	s.enter()
	s.waitIdle("Pick:")

	s.typeText("2")
	s.waitIdle("› → "+opts[1].Label, opening(second, 3), "[1] ")

	out := s.final()
	if strings.Contains(out, "› 2") {
		t.Errorf("the digit was typed into the input instead of picking:\n%s", out)
	}
	golden.RequireEqual(t, out)
}

func TestEscDismissesPills(t *testing.T) {
	workspaceOptions(t)
	b, st := newDemoBackend(t)
	s := start(t, b, st, 80, 24)
	s.typeText("workspace")
	s.enter()
	s.waitIdle("Pick:")

	s.press(tea.KeyEscape, 0)
	s.waitFor("pills gone", func(f string) bool { return !strings.Contains(f, "Pick:") })
	// Back in the input: arrows recall history instead of moving pills.
	s.press(tea.KeyUp, 0)
	s.waitText("› workspace\n", "─\n› workspace")

	golden.RequireEqual(t, s.final())
}

func TestTypingDismissesPills(t *testing.T) {
	workspaceOptions(t)
	b, st := newDemoBackend(t)
	s := start(t, b, st, 80, 24)
	s.typeText("workspace")
	s.enter()
	s.waitIdle("Pick:")

	s.typeText("how")
	s.waitFor("pills gone", func(f string) bool {
		return !strings.Contains(f, "Pick:") && strings.Contains(f, "─\n› how")
	})
}

func TestPanesToggle(t *testing.T) {
	b, st := newDemoBackend(t)
	want := engine(t).Ask(retrieval.Query{Text: "what is quick links"})
	s := start(t, b, st, 80, 30)
	s.typeText("what is quick links")
	s.enter()
	s.waitIdle(opening(expectAnswer(t, assistant.Request{Query: want.Query}), 3))

	top := want.Results[0]
	t.Run("evidence", func(t *testing.T) {
		s.press(tea.KeyF2, 0)
		s.waitText("Evidence · ", "▸ 1 "+top.Title, top.SourcePath)
		golden.RequireEqual(t, s.screen.current())
	})
	t.Run("evidence and debug", func(t *testing.T) {
		s.press(tea.KeyF3, 0)
		s.waitText("Evidence · ", "Debug", "what is quick links", "rule "+want.Rule)
		golden.RequireEqual(t, s.screen.current())
	})
	t.Run("debug scrolled to the answer", func(t *testing.T) {
		// The answer's part of the debug pane: who wrote it and the
		// prompt the session built for it.
		s.press(tea.KeyTab, 0)
		s.press(tea.KeyTab, 0)
		for range 30 {
			s.press(tea.KeyDown, 0)
		}
		s.waitText("model     extractive", "ttft      12 ms · 80.0 tokens/s", "prompt: ", "core ")
		golden.RequireEqual(t, s.screen.current())
		s.press(tea.KeyEscape, 0)
	})
	t.Run("closed", func(t *testing.T) {
		s.press(tea.KeyF2, 0)
		s.press(tea.KeyF3, 0)
		s.waitFor("panes closed", func(f string) bool {
			return !strings.Contains(f, "Evidence · ") && !strings.Contains(f, "─ Debug")
		})
		golden.RequireEqual(t, s.screen.current())
	})
}

func TestPanesWide(t *testing.T) {
	b, st := newDemoBackend(t)
	want := engine(t).Ask(retrieval.Query{Text: "what is quick links"})
	s := start(t, b, st, 120, 30)
	s.typeText("what is quick links")
	s.enter()
	s.waitIdle(opening(expectAnswer(t, assistant.Request{Query: want.Query}), 3))
	s.press(tea.KeyF2, 0)
	s.press(tea.KeyF3, 0)
	s.waitText("│─ Evidence · ", "│─ Debug")

	// Tab focuses the evidence pane; Enter expands the selected chunk.
	s.press(tea.KeyTab, 0)
	s.enter()
	s.waitText("── " + want.Results[0].ChunkID + " ──")
	golden.RequireEqual(t, s.final())
}

func TestResizeTo40Columns(t *testing.T) {
	b, st := newDemoBackend(t)
	s := start(t, b, st, 100, 30)
	s.typeText("what is quick links")
	s.enter()
	s.waitIdle(opening(expectAnswer(t, assistant.Request{Query: "what is quick links"}), 3))
	s.press(tea.KeyF2, 0)
	s.waitText("│─ Evidence · ")

	s.tm.Send(tea.WindowSizeMsg{Width: 40, Height: 12})
	s.waitFor("40×12 layout", func(f string) bool {
		lines := strings.Split(f, "\n")
		return len(lines) == 12 && strings.Contains(f, "─ Evidence · ") && !strings.Contains(f, "│─ Evidence")
	})
	out := s.final()
	for i, l := range strings.Split(out, "\n") {
		if w := ansi.StringWidth(l); w > 40 {
			t.Errorf("line %d is %d cells wide, want ≤ 40: %q", i+1, w, l)
		}
	}
	golden.RequireEqual(t, out)
}

// slowBackend streams only what the test feeds it and then waits, like a
// model in the middle of an answer.
type slowBackend struct {
	demoBackend
	feed     chan string
	answered chan struct{} // closed when Answer has returned
	end      chan struct{} // closing it ends the answer
}

func newSlowBackend(t *testing.T) (*slowBackend, tui.Status) {
	b, st := newDemoBackend(t)
	return &slowBackend{demoBackend: b, feed: make(chan string), answered: make(chan struct{}), end: make(chan struct{})}, st
}

// startAnswering opens an 80×24 screen on a slowBackend and asks a
// question: the answer has started and streams what the test feeds it.
func startAnswering(t *testing.T) (*slowBackend, *session) {
	t.Helper()
	b, st := newSlowBackend(t)
	s := start(t, b, st, 80, 24)
	s.typeText("what is quick links")
	s.enter()
	s.waitText("Answering…")
	return b, s
}

func (b *slowBackend) Answer(ctx context.Context, res retrieval.Result, emit func(string)) (tui.AnswerInfo, error) {
	defer close(b.answered)
	var info tui.AnswerInfo
	for {
		select {
		case piece := <-b.feed:
			info.Text += piece
			emit(piece)
		case <-b.end:
			return info, nil
		case <-ctx.Done():
			info.Stopped = true
			return info, ctx.Err()
		}
	}
}

func (b *slowBackend) waitAnswerReturned(t *testing.T) {
	t.Helper()
	select {
	case <-b.answered:
	case <-time.After(5 * time.Second):
		t.Fatal("Answer did not return after its context was cancelled")
	}
}

func TestEscStopsStream(t *testing.T) {
	b, s := startAnswering(t)
	b.feed <- "Quick Links keeps "
	b.feed <- "your shortcuts"
	s.waitText("Quick Links keeps your shortcuts")

	s.press(tea.KeyEscape, 0)
	b.waitAnswerReturned(t)
	s.waitIdle("Quick Links keeps your shortcuts", "⏹ stopped")
	golden.RequireEqual(t, s.final())
}

func TestCtrlCQuitsWhileStreaming(t *testing.T) {
	b, s := startAnswering(t)
	b.feed <- "partial"
	s.waitText("partial")

	s.press('c', tea.ModCtrl)
	s.tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	b.waitAnswerReturned(t)
}

// Ctrl+Y copies the answer with its footnotes and the sources it cites,
// ready for a ticket; Alt+Y the answer's text alone.
func TestCopyLastAnswer(t *testing.T) {
	b, st := newDemoBackend(t)
	info := expectInfo(t, assistant.Request{Query: "how do I add a widget"})
	f := cite.Footnotes(info.Text, info.Sources)
	s := start(t, b, st, 80, 24)
	s.typeText("how do I add a widget")
	s.enter()
	s.waitIdle(opening(f.Text, 3))

	for _, tc := range []struct {
		mod    tea.KeyMod
		want   string
		notice string
	}{
		{tea.ModCtrl, f.WithSources(), "Copied the last answer with its sources"},
		{tea.ModAlt, strings.TrimSpace(cite.Strip(info.Text)), "Copied the last answer's text"},
	} {
		s.press('y', tc.mod)
		osc52 := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(tc.want))
		teatest.WaitFor(t, s.tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(osc52)) },
			teatest.WithDuration(5*time.Second))
		s.waitText(tc.notice)
	}
	golden.RequireEqual(t, f.WithSources()+"\n---\n"+strings.TrimSpace(cite.Strip(info.Text))+"\n")
}

// colourSGR matches an SGR sequence that sets a foreground or background
// colour.
var colourSGR = regexp.MustCompile(`\x1b\[[0-9;:]*(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])[;m]`)

// TestNoColorIsRespected runs the screen as if on a 256-colour terminal
// (TTY_FORCE makes the test output count as one), with and without
// NO_COLOR: every colour, glamour's included, must go with NO_COLOR.
func TestNoColorIsRespected(t *testing.T) {
	for _, tc := range []struct {
		name      string
		env       []string
		wantColor bool
	}{
		{"colour terminal", []string{"TERM=xterm-256color", "TTY_FORCE=1"}, true},
		{"NO_COLOR set", []string{"TERM=xterm-256color", "TTY_FORCE=1", "NO_COLOR=1"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, st := newDemoBackend(t)
			scr := &screen{}
			m := tui.New(b, st, tui.WithTheme(tui.ThemeDark), tui.WithClock(func() time.Time { return fixedNow }))
			tm := teatest.NewTestModel(t, probe{inner: m, screen: scr},
				teatest.WithInitialTermSize(80, 24),
				teatest.WithProgramOptions(tea.WithEnvironment(tc.env)))
			s := &session{t: t, tm: tm, screen: scr}
			s.typeText("what is quick links")
			s.enter()
			s.waitIdle("› what is quick links")
			var raw bytes.Buffer
			s.final()
			if _, err := io.Copy(&raw, tm.Output()); err != nil {
				t.Fatal(err)
			}
			if got := colourSGR.MatchString(raw.String()); got != tc.wantColor {
				t.Errorf("colour escapes in the output: %v, want %v", got, tc.wantColor)
			}
		})
	}
}

// While an answer streams, a citation cut between two pieces shows as
// nothing until it closes, then as its footnote: never half an id.
func TestStreamingCitationNeverShowsHalfAnID(t *testing.T) {
	b, s := startAnswering(t)
	b.feed <- "Quick Links holds shortcuts [widgets/quick"
	s.waitText("Quick Links holds shortcuts")
	if strings.Contains(s.screen.current(), "[widgets") {
		t.Fatalf("half a citation on screen:\n%s", s.screen.current())
	}
	b.feed <- "-links#chunk-0]. More follows"
	s.waitText("shortcuts [1]. More follows")
	close(b.end)
	s.waitIdle("[1] ")
}
