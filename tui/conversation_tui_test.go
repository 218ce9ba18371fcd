package tui_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/docent-sh/docent/conversation"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store/memory"
	"github.com/docent-sh/docent/tui"
)

var ana = knowledge.Scope{Workspace: "acme", User: "ana"}

// recordingChat is the real session behind the TUI, recording in
// conversation files under a temporary directory.
func recordingChat(t *testing.T, width, height int) (*session, *memory.ConversationFiles, *conversation.Recorder) {
	t.Helper()
	st := memory.NewConversationFiles(t.TempDir(), 0)
	rec := conversation.NewRecorder(st, ana)
	sel := offline(t)
	b := tui.NewSessionBackend(newSession(t, sel))
	b.RecordTo(rec, conversation.MarkdownOptions{}, quiet)
	return start(t, b, demoStatus(t, sel), width, height), st, rec
}

func storedTurns(t *testing.T, st *memory.ConversationFiles, id string) []knowledge.Turn {
	t.Helper()
	c, err := st.GetConversation(t.Context(), ana, id)
	if err != nil {
		t.Fatal(err)
	}
	return c.Turns
}

// eventualFeedback waits for turn index of conversation id to hold
// feedback that ok accepts: the chat stores a rating from a tea.Cmd, so
// the screen may show the next prompt before the write lands.
func eventualFeedback(t *testing.T, st *memory.ConversationFiles, id string, index int, ok func(*knowledge.TurnFeedback) bool) *knowledge.TurnFeedback {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		f := storedTurns(t, st, id)[index].Feedback
		if ok(f) || time.Now().After(deadline) {
			return f
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestChatRecordsResumesAndExports: every turn of the chat is recorded,
// + rates the last answer, /new starts another conversation, /resume
// reopens the first with its transcript, and /export writes it.
func TestChatRecordsResumesAndExports(t *testing.T) {
	s, st, rec := recordingChat(t, 100, 30)
	s.say("workspace", "Pick:")
	s.typeText("1")
	s.waitIdle("› → Workspace (concepts)", "[1] Workspace")
	first := rec.Current().ID
	turns := storedTurns(t, st, first)
	if len(turns) != 2 || turns[0].Status != "ambiguous" || turns[1].Picked != "concepts/workspace" || turns[1].Answer == "" {
		t.Fatalf("recorded %+v", turns)
	}

	s.typeText("+")
	s.waitText("Thanks: rated helpful.", "rated: helpful")
	if f := storedTurns(t, st, first)[1].Feedback; f == nil || f.Rating != knowledge.RatingUp {
		t.Errorf("stored feedback %+v, want up", f)
	}
	// In a question + and - type.
	s.typeText("a+b")
	s.waitText("› a+b")
	for range 3 {
		s.press(tea.KeyBackspace, 0)
	}

	s.say("/new", "New conversation: what follows starts afresh.")
	if f := s.screen.current(); strings.Contains(f, "→ Workspace (concepts)") {
		t.Errorf("/new left the old conversation on screen:\n%s", f)
	}
	s.say("what's the weather in Berlin", "I couldn't find anything about weather Berlin")
	if second := rec.Current().ID; second == first || second == "" {
		t.Fatalf("after /new the turn went to %q", second)
	}

	s.say("/resume "+first[:8], "Resumed conversation "+first[:8]+" “workspace” · 2 turns", "› → Workspace (concepts)", "rated: helpful")
	if f := s.screen.current(); strings.Contains(f, "weather") {
		t.Errorf("/resume left the other conversation on screen:\n%s", f)
	}
	// The next question continues the resumed conversation.
	s.say("workspace", "Pick:")
	if n := len(storedTurns(t, st, first)); n != 3 {
		t.Errorf("the resumed conversation has %d turns, want 3", n)
	}

	out := filepath.Join(t.TempDir(), "out.md")
	s.press(tea.KeyEscape, 0)
	s.say("/export "+out, "Exported the conversation to "+out)
	md, err := os.ReadFile(out)
	if err != nil || !strings.HasPrefix(string(md), "# workspace\n") || !strings.Contains(string(md), "](<concepts/workspace.md>)") {
		t.Errorf("export (%v):\n%s", err, md)
	}
	s.say("/resume 00000000", "! /resume: none of your conversations has that id (docent history lists them).")
	t.Log("\n" + s.screen.current())
}

// TestRateDown: - rates the last answer down at once and offers reasons
// as pills; a picked reason is stored with it, Esc skips it, and "not
// what I meant" after a found answer offers the other docs that matched.
func TestRateDown(t *testing.T) {
	s, st, rec := recordingChat(t, 100, 30)
	s.say("workspace", "Pick:")
	s.typeText("1")
	s.waitIdle("› → Workspace (concepts)", "[1] Workspace")

	s.typeText("-")
	s.waitText("Why? (esc skips): ▸[1 not what I meant]", "[2 wrong]", "[3 outdated]", "[4 incomplete]")
	s.press(tea.KeyRight, 0)
	s.enter()
	s.waitText("Thanks: noted “wrong”.", "rated: not helpful (wrong)")
	id := rec.Current().ID
	downWrong := func(f *knowledge.TurnFeedback) bool {
		return f != nil && f.Rating == knowledge.RatingDown && f.Reason == knowledge.ReasonWrong
	}
	if f := eventualFeedback(t, st, id, 1, downWrong); !downWrong(f) {
		t.Errorf("stored feedback %+v, want down, wrong", f)
	}

	// Esc skips the reason: the rating down stands, nothing is dismissed.
	s.typeText("-")
	s.waitText("Why? (esc skips)")
	s.press(tea.KeyEscape, 0)
	s.waitFor("the reasons gone", func(f string) bool { return !strings.Contains(f, "Why?") })
	if f := s.screen.current(); strings.Contains(f, "(dismissed)") {
		t.Errorf("skipping the reason marked something dismissed:\n%s", f)
	}
	downBare := func(f *knowledge.TurnFeedback) bool {
		return f != nil && f.Rating == knowledge.RatingDown && f.Reason == ""
	}
	if f := eventualFeedback(t, st, id, 1, downBare); !downBare(f) {
		t.Errorf("stored feedback %+v, want down without a reason", f)
	}

	// Not what I meant: the other docs the answer's evidence came from.
	s.typeText("-")
	s.waitText("Why? (esc skips)")
	s.typeText("1")
	s.waitText("Thanks: noted “not what I meant”.", "Which one did you mean?", "Pick: ▸[1 Workspace Actions (actions)]")
	s.enter()
	s.waitIdle("› → Workspace Actions (actions)", "[1] Workspace Actions")
	if turns := storedTurns(t, st, id); len(turns) != 3 || turns[2].Picked != "actions/workspaces" || turns[2].Question != "workspace" {
		t.Errorf("picking the alternative recorded %+v, want a third turn answering workspace from actions/workspaces", turns)
	}
}

// TestNotWhatIMeantAfterResume: the last answer of a resumed conversation
// came from a pick; "not what I meant" offers the other pills again, and
// picking one answers the same question.
func TestNotWhatIMeantAfterResume(t *testing.T) {
	s, st, rec := recordingChat(t, 100, 30)
	s.say("workspace", "Pick:")
	s.typeText("1")
	s.waitIdle("› → Workspace (concepts)", "[1] Workspace")
	id := rec.Current().ID
	s.say("/new", "New conversation")
	s.say("/resume", "Resumed conversation "+id[:8])
	s.typeText("-")
	s.waitText("Why? (esc skips)")
	s.typeText("1")
	s.waitText("Which one did you mean?", "Pick: ▸[1 Workspace Actions (actions)]")
	s.enter()
	s.waitIdle("› → Workspace Actions (actions)", "[1] Workspace Actions")
	turns := storedTurns(t, st, id)
	if len(turns) != 3 || turns[2].Question != "workspace" || turns[2].Picked != "actions/workspaces" {
		t.Errorf("recorded %+v, want a third turn answering workspace from actions/workspaces", turns)
	}
	// The reason is written after the plain rating, from a tea.Cmd.
	if f := eventualFeedback(t, st, id, 1, func(f *knowledge.TurnFeedback) bool {
		return f != nil && f.Reason == knowledge.ReasonNotMeant
	}); f == nil || f.Reason != knowledge.ReasonNotMeant {
		t.Errorf("the resumed answer's feedback is %+v", f)
	}
}

// slowFirstRating holds its first rating write back until a second one
// starts (or a while passes), then lets the second finish first: the
// order in which two concurrent commands could land.
type slowFirstRating struct {
	*tui.SessionBackend
	calls  atomic.Int32
	done   atomic.Int32 // writes finished
	second chan struct{}
}

func (b *slowFirstRating) RateLast(ctx context.Context, f knowledge.TurnFeedback) error {
	defer b.done.Add(1)
	if b.calls.Add(1) == 1 {
		select {
		case <-b.second:
		case <-time.After(300 * time.Millisecond):
		}
		return b.SessionBackend.RateLast(ctx, f)
	}
	err := b.SessionBackend.RateLast(ctx, f)
	close(b.second)
	return err
}

// TestReasonIsNotOverwrittenByTheRatingBeforeIt: - stores "not helpful"
// at once and the reason picked next replaces it; however slow the first
// write, the reason is what stays.
func TestReasonIsNotOverwrittenByTheRatingBeforeIt(t *testing.T) {
	st := memory.NewConversationFiles(t.TempDir(), 0)
	rec := conversation.NewRecorder(st, ana)
	sel := offline(t)
	inner := tui.NewSessionBackend(newSession(t, sel))
	inner.RecordTo(rec, conversation.MarkdownOptions{}, quiet)
	b := &slowFirstRating{SessionBackend: inner, second: make(chan struct{})}
	s := start(t, b, demoStatus(t, sel), 100, 30)
	s.say("how do I create a workspace", "Ctrl+Alt+N")
	s.waitIdle("› how do I create a workspace")
	s.typeText("-")
	s.waitText("Why? (esc skips)")
	s.typeText("2") // wrong
	// Both writes done, whatever their order, then what is stored.
	eventualFeedback(t, st, rec.Current().ID, 0, func(*knowledge.TurnFeedback) bool { return b.done.Load() == 2 })
	if f := storedTurns(t, st, rec.Current().ID)[0].Feedback; f == nil || f.Rating != knowledge.RatingDown || f.Reason != knowledge.ReasonWrong {
		t.Errorf("stored feedback %+v, want down for %q", f, knowledge.ReasonWrong)
	}
}

// Without a ConversationKeeper the commands say so, and + and - type.
func TestConversationCommandsWithoutRecording(t *testing.T) {
	b := crossCorpusBackend()
	s := start(t, b, tui.Status{Docs: 3, Chunks: 9, Store: "embedded", Phase: 2}, 100, 24)
	s.say("what is workspace", "Pick:")
	s.typeText("1")
	s.waitIdle("A workspace holds a set of related notes.")
	s.say("/new", "! /new is not available: this chat records no conversations.")
	s.say("/resume", "! /resume is not available: this chat records no conversations.")
	s.say("/export", "! /export is not available: this chat records no conversations.")
	s.typeText("+")
	s.waitText("› +")
	if len(b.requests) != 2 {
		t.Errorf("a conversation command was sent as a question: %+v", b.requests)
	}
}
