package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/retrieval"
)

// benchAnswer is a realistic model answer: paragraphs, a list and a code
// block, about 5,000 characters.
var benchAnswer = strings.Repeat("A **workspace** belongs to an entry and holds related notes. "+
	"Open it from the Navigator or pin it to Quick Links; its notes stay together, and moving a note "+
	"between workspaces keeps its links working.\n\n"+
	"- Create one with `Ctrl+Shift+N` from the navigator.\n- Rename it from its context menu.\n\n", 15) +
	"```\nGo > Workspaces > New\n```\n"

func benchModel(tb testing.TB, messages int) Model {
	m := New(&fakeBackend{}, Status{Docs: 19, Chunks: 96, Store: "embedded", Phase: 2}, WithTheme(ThemeDark))
	next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = next.(Model)
	short := "A workspace belongs to an entry and holds notes. Open it from the **Navigator**.\n\n- one\n- two"
	for i := range messages / 2 {
		m.transcript.append(&message{role: roleUser, text: fmt.Sprintf("question %d about workspaces", i)})
		m.transcript.append(&message{role: roleAssistant, text: short})
	}
	return m
}

// beginStream puts m in the middle of answering, as handleRetrieved does.
func beginStream(m *Model) {
	m.turn++
	m.activity = answering
	m.streamText = &liveText{}
	m.streamMsg = &message{role: roleAssistant, streaming: true}
	m.transcript.append(m.streamMsg)
	m.stream = &answerStream{msgs: make(chan tea.Msg, 1), cancel: func() {}}
}

// endStream drops the streamed message so the next round starts from the
// same 500-message transcript.
func endStream(m *Model) {
	m.finishStream("", "")
	t := &m.transcript
	t.msgs, t.starts = t.msgs[:len(t.msgs)-1], t.starts[:len(t.starts)-1]
	t.relayout(len(t.msgs) - 1)
}

func benchChunks(answer string, n int) []string {
	size := (len(answer) + n - 1) / n
	var out []string
	for i := 0; i < len(answer); i += size {
		out = append(out, answer[i:min(i+size, len(answer))])
	}
	return out
}

// BenchmarkStreamUpdate: a 500-message transcript plus a 1,000-chunk
// streamed answer. One op is one streamed chunk: Update, and with
// "frame" also the View Bubble Tea draws after it. The "crlf" answer has
// Windows line endings, as some servers send: text the cleaner must
// rewrite rather than pass through.
func BenchmarkStreamUpdate(b *testing.B) {
	crlf := strings.ReplaceAll(benchAnswer, "\n", "\r\n")
	for _, bc := range []struct {
		name     string
		answer   string
		withView bool
	}{
		{"update", benchAnswer, false},
		{"update+frame", benchAnswer, true},
		{"update/crlf", crlf, false},
	} {
		chunks := benchChunks(bc.answer, 1000)
		b.Run(bc.name, func(b *testing.B) {
			m := benchModel(b, 500)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k := i % len(chunks)
				if k == 0 {
					b.StopTimer()
					if i > 0 {
						endStream(&m)
					}
					beginStream(&m)
					b.StartTimer()
				}
				next, _ := m.Update(streamChunkMsg{turn: m.turn, stream: m.stream, text: chunks[k]})
				m = next.(Model)
				if bc.withView {
					_ = m.View()
				}
			}
		})
	}
}

// BenchmarkView is one full frame of a 500-message transcript with both
// panes open.
func BenchmarkView(b *testing.B) {
	m := benchModel(b, 500)
	res := retrieval.Result{Status: retrieval.StatusFound, Results: []retrieval.Evidence{{DocSlug: "concepts/workspace",
		Title: "Workspace", Snippet: "A workspace belongs to an entry.", MatchedTerms: []string{"workspace"}}}}
	m.lastResult = &res
	m.evidence.setItems(res.Results)
	m.evidenceOpen, m.debugOpen = true, true
	m.relayout()
	m.rebuildDebug()
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}

// engineOnly is the smallest Backend over an engine, for start-up timing.
type engineOnly struct{ eng *retrieval.Engine }

func (e engineOnly) Retrieve(_ context.Context, req assistant.Request) (retrieval.Result, error) {
	return e.eng.Ask(retrieval.Query{Text: req.Query}), nil
}

func (e engineOnly) Answer(context.Context, retrieval.Result, func(string)) (AnswerInfo, error) {
	return AnswerInfo{}, nil
}

// BenchmarkFirstFrame is start-up to the first frame with the demo KB:
// load and chunk the docs, build the engine, build the model, size it and
// draw it.
func BenchmarkFirstFrame(b *testing.B) {
	for b.Loop() {
		bundle, _, err := ingest.LoadBundle(context.Background(), kb.Docs(), "kb")
		if err != nil {
			b.Fatal(err)
		}
		eng, err := retrieval.New(bundle, retrieval.DefaultConfig())
		if err != nil {
			b.Fatal(err)
		}
		docs, chunks := eng.Size()
		m := New(engineOnly{eng}, Status{Docs: docs, Chunks: chunks}, WithTheme(ThemeDark))
		next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		if v := next.View(); !strings.Contains(v.Content, "docs") {
			b.Fatal("first frame has no status bar")
		}
	}
}

// BenchmarkFirstFrameLoading is what the user waits for now: the screen
// made with NewLoading, sized and drawn, showing start-up progress while
// the docs load behind it (the loader is not run here).
func BenchmarkFirstFrameLoading(b *testing.B) {
	load := func(context.Context, func(Progress)) (Ready, error) { return Ready{}, nil }
	for b.Loop() {
		m := NewLoading(load, WithTheme(ThemeDark))
		next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		if v := next.View(); !strings.Contains(v.Content, "starting") {
			b.Fatal("first frame shows no start-up")
		}
	}
}

// BenchmarkResize is re-wrapping a 500-message transcript for a new width
// once the size has settled.
func BenchmarkResize(b *testing.B) {
	m := benchModel(b, 500)
	widths := []int{100, 120}
	i := 0
	for b.Loop() {
		next, _ := m.Update(tea.WindowSizeMsg{Width: widths[i%2], Height: 40})
		next, _ = next.Update(resizeSettledMsg{seq: next.(Model).resizes})
		m = next.(Model)
		i++
	}
}
