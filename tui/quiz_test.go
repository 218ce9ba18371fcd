package tui

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/docent-sh/docent/quiz"
)

func testQuiz() quiz.Quiz {
	src := []quiz.Source{{ChunkID: "concepts/workspace#chunk-1", Title: "Workspace", HeaderPath: "Workspace > Overview", SourcePath: "concepts/workspace.md"}}
	return quiz.Quiz{Generator: "offline", Items: []quiz.Item{
		{Level: quiz.Understand, Kind: quiz.MultipleChoice, Question: "Which doc says \x1b[31mthis\x1b]0;x\x07?",
			Options: []string{"Entry", "Workspace", "Dashboard"}, Answer: 1, WhyWrong: []string{"Entry is the outer layer.", "", "Dashboard is a page."},
			Explanation: "Workspace says so.", Citations: []string{src[0].ChunkID}, Sources: src},
		{Level: quiz.Remember, Kind: quiz.ShortAnswer, Question: "Fill in the blank: A _____ holds notes.",
			SuggestedAnswer: "workspace", Keywords: []string{"workspace"}, Explanation: "Workspace says: A workspace holds notes.",
			Citations: []string{src[0].ChunkID}, Sources: src},
	}}
}

type quizCall struct {
	slug  string
	scope []string
}

func newQuizHarness(t *testing.T, maker QuizMaker) *harness {
	t.Helper()
	h := &harness{t: t, m: New(&fakeBackend{}, Status{Docs: 3, Chunks: 9, Store: "embedded", Phase: 2}, WithTheme(ThemeDark), WithQuiz(maker))}
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	return h
}

func (h *harness) screen() string { return ansi.Strip(h.content()) }

func (h *harness) wantScreen(want ...string) {
	h.t.Helper()
	out := h.screen()
	for _, w := range want {
		if !strings.Contains(out, w) {
			h.t.Fatalf("screen lacks %q:\n%s", w, out)
		}
	}
}

func TestQuizPickAnswerAndFinish(t *testing.T) {
	var calls []quizCall
	h := newQuizHarness(t, func(_ context.Context, slug string, scope []string) (quiz.Quiz, error) {
		calls = append(calls, quizCall{slug, scope})
		return testQuiz(), nil
	})
	h.ask("/quiz concepts/workspace")
	if len(calls) != 1 || calls[0].slug != "concepts/workspace" {
		t.Fatalf("maker calls = %+v", calls)
	}
	h.wantScreen("Quiz · 1 of 2 · understand", "Which doc says this?", "▸ 1) Entry", "  2) Workspace", "↑/↓ or 1–9 pick")
	if strings.Contains(h.content(), "\x1b]0;") {
		t.Fatal("a control sequence from the quiz reached the screen")
	}
	// Typing does not reach the input, nor lose the quiz.
	h.typeText("x")
	h.key(tea.KeyDown, 0)
	h.wantScreen("▸ 2) Workspace", "Quiz · 1 of 2")
	h.key(tea.KeyEnter, 0)
	h.wantScreen("✓ 2) Workspace", "Right.", "Why: Workspace says so.", "Not 1: Entry is the outer layer.", "Not 3: Dashboard is a page.",
		"Source: Workspace › Overview — concepts/workspace.md (concepts/workspace#chunk-1)", "enter: next question")
	h.key(tea.KeyEnter, 0)
	h.wantScreen("Quiz · 2 of 2 · remember", "Fill in the blank: A _____ holds notes.", "then enter shows it")
	if strings.Contains(h.screen(), "Answer: workspace") {
		t.Fatal("the short answer shows before Enter")
	}
	h.key(tea.KeyEnter, 0)
	h.wantScreen("Answer: workspace", "Look for: workspace", "enter: finish")
	h.key(tea.KeyEnter, 0)
	h.wantScreen("Quiz done: 1 of 1 multiple choice answer right.")
	if strings.Contains(h.screen(), "Quiz · ") || h.m.input.Value() != "" {
		t.Fatalf("quiz still open or input %q:\n%s", h.m.input.Value(), h.screen())
	}
}

func TestQuizWrongAnswerAndEsc(t *testing.T) {
	h := newQuizHarness(t, func(context.Context, string, []string) (quiz.Quiz, error) { return testQuiz(), nil })
	h.m.settings.scope = []string{"concepts"}
	h.ask("/quiz")
	h.typeText("3") // picks and answers
	h.wantScreen("✗ 3) Dashboard", "✓ 2) Workspace", "Not quite: the answer is 2.")
	h.key(tea.KeyEscape, 0)
	h.wantScreen("Quiz ended at question 1 of 2: 0 of 1 multiple choice answer right.")
	// The chat goes on: the input takes text again.
	h.typeText("hi")
	if h.m.input.Value() != "hi" {
		t.Fatalf("input = %q", h.m.input.Value())
	}
}

func TestQuizScopeAndFailures(t *testing.T) {
	var got []string
	h := newQuizHarness(t, func(_ context.Context, _ string, scope []string) (quiz.Quiz, error) {
		got = scope
		return quiz.Quiz{}, errors.New(`no doc "x/y" in the knowledge base`)
	})
	h.m.settings.scope = []string{"widgets"}
	h.ask("/quiz x/y")
	h.wantScreen(`No quiz: no doc "x/y" in the knowledge base`)
	if len(got) != 1 || got[0] != "widgets" {
		t.Errorf("scope passed = %q, want the chat's", got)
	}

	h = newQuizHarness(t, func(context.Context, string, []string) (quiz.Quiz, error) { return quiz.Quiz{}, nil })
	h.ask("/quiz")
	h.wantScreen("No quiz: the docs chosen gave nothing to ask about.")

	h = newQuizHarness(t, nil)
	h.ask("/quiz")
	h.wantScreen("/quiz is not available here.")
}

// Esc while a model writes the quiz stops it: the maker's context ends,
// and a quiz arriving after is dropped.
func TestQuizEscWhileWriting(t *testing.T) {
	cancelled := make(chan struct{})
	h := newQuizHarness(t, func(ctx context.Context, _ string, _ []string) (quiz.Quiz, error) {
		<-ctx.Done()
		close(cancelled)
		return testQuiz(), nil
	})
	// The maker blocks until cancelled, and the harness runs Cmds in
	// turn: this one is run aside, and a resize lays the screen out.
	cmd := h.m.send("/quiz")
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.wantScreen("Writing a quiz…", "esc stops")
	h.key(tea.KeyEscape, 0)
	h.wantScreen("Quiz stopped.")
	done := make(chan []tea.Msg)
	go func() { done <- run(cmd) }()
	<-cancelled
	for _, msg := range <-done {
		h.send(msg)
	}
	if strings.Contains(h.screen(), "Quiz · ") {
		t.Fatalf("a stopped quiz opened:\n%s", h.screen())
	}
}
