package conversation_test

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/conversation"
	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/prompt"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/memory"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

var alice = knowledge.Scope{Workspace: "acme", User: "alice"}

func newSession(t *testing.T) *assistant.Session {
	t.Helper()
	b, _, err := ingest.LoadBundle(t.Context(), kb.Docs(), "kb")
	if err != nil {
		t.Fatal(err)
	}
	engine, err := retrieval.New(b, retrieval.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	w, err := llm.NewResponder(llm.Selection{Provider: "extractive"})
	if err != nil {
		t.Fatal(err)
	}
	return assistant.New(engine, w, assistant.Options{Glossary: b.Glossary, Corpus: "demo"})
}

// ask runs one turn as the chat does and records it: a clarification is
// docent's own reply, shown without calling Answer.
func ask(t *testing.T, s *assistant.Session, rec *conversation.Recorder, req assistant.Request) knowledge.Turn {
	t.Helper()
	res := s.Retrieve(t.Context(), req)
	answered := conversation.Answered{Text: assistant.Reply(res), Provider: "clarification"}
	if assistant.NeedsModel(res) {
		ans, err := s.Answer(t.Context(), res, nil)
		if err != nil {
			t.Fatal(err)
		}
		answered = conversation.Answered{
			Text: ans.Text, Provider: ans.Provider, Model: ans.Model, TTFT: ans.TTFT, Duration: ans.Duration, Sources: ans.Sources,
		}
	}
	turn := conversation.WithAnswer(conversation.NewTurn(req, res), answered)
	stored, err := rec.Record(t.Context(), turn)
	if err != nil {
		t.Fatal(err)
	}
	return stored
}

// TestResumeRebuildsTheWindow: a conversation resumed from the store sends
// the model the same recent messages as the session it was recorded in,
// also when it has more turns than the window holds.
func TestResumeRebuildsTheWindow(t *testing.T) {
	st := memory.NewConversationFiles(t.TempDir(), 0)
	live := newSession(t)
	rec := conversation.NewRecorder(st, alice)
	// Clarifications and no-matches between written answers (picks), past
	// the window's 4 × prompt.MaxRecentTurns messages.
	questions := []string{"workspace", "what's the weather in Berlin", "thanks", "tokens"}
	picks := []string{"concepts/workspace", "actions/workspaces", "concepts/notes", "widgets/quick-links", "concepts/dashboard", "widgets/recent"}
	picks = append(picks, picks...)
	turns := 0
	for i, slug := range picks {
		ask(t, live, rec, assistant.Request{Query: questions[i%len(questions)]})
		ask(t, live, rec, assistant.Request{Query: "how does it work", DocSlug: slug})
		turns += 2
	}
	want := live.Recent()
	if len(want) != 4*prompt.MaxRecentTurns {
		t.Fatalf("the live session remembers %d messages, want a full window of %d", len(want), 4*prompt.MaxRecentTurns)
	}

	resumed := newSession(t)
	rec2 := conversation.NewRecorder(st, alice)
	conv, err := rec2.Resume(t.Context(), "") // the latest
	if err != nil {
		t.Fatal(err)
	}
	if conv.ID != rec.Current().ID || len(conv.Turns) != turns {
		t.Fatalf("resumed %s with %d turns, want %s with %d", conv.ID, len(conv.Turns), rec.Current().ID, turns)
	}
	if conv.Turns[1].Picked != "concepts/workspace" || conv.Turns[1].Status != "found" {
		t.Errorf("the pick was recorded as %q, %s", conv.Turns[1].Picked, conv.Turns[1].Status)
	}
	resumed.Restore(conv.Turns)
	if got := resumed.Recent(); !reflect.DeepEqual(got, want) {
		t.Errorf("resumed window\n%v\nwant\n%v", got, want)
	}
	// The next turn goes to the same conversation.
	next := ask(t, resumed, rec2, assistant.Request{Query: "how do I invite members"})
	if next.Index != turns {
		t.Errorf("the next turn has index %d, want %d", next.Index, turns)
	}
	// A fresh start forgets the window and starts another conversation.
	resumed.Restore(nil)
	rec2.New()
	if got := resumed.Recent(); len(got) != 0 {
		t.Errorf("a fresh session remembers %v", got)
	}
	ask(t, resumed, rec2, assistant.Request{Query: "tokens"})
	if id := rec2.Current().ID; id == conv.ID || id == "" {
		t.Errorf("after New the turn went to conversation %q", id)
	}
	list, err := st.ListConversations(t.Context(), alice, 0)
	if err != nil || len(list) != 2 {
		t.Errorf("list %v (%v), want two conversations", list, err)
	}
}

func TestRecordedTurn(t *testing.T) {
	st := memory.NewConversationFiles(t.TempDir(), 0)
	s := newSession(t)
	rec := conversation.NewRecorder(st, alice)
	amb := ask(t, s, rec, assistant.Request{Query: "workspace"})
	if amb.Status != "ambiguous" || len(amb.Options) < 2 || amb.Options[0].Slug == "" || amb.Answer == "" || amb.Provider != "clarification" {
		t.Errorf("ambiguous turn %+v: want its options and the clarification", amb)
	}
	if amb.Timings.RetrievalMS <= 0 {
		t.Errorf("retrieval took %v ms", amb.Timings.RetrievalMS)
	}
	found := ask(t, s, rec, assistant.Request{Query: "workspace", DocSlug: amb.Options[1].Slug})
	if found.Status != "found" || found.Picked != amb.Options[1].Slug || found.Answer == "" || len(found.Evidence) == 0 ||
		len(found.Sources) == 0 || found.Provider != "extractive" || found.Timings.AnswerMS <= 0 {
		t.Errorf("found turn %+v: want the pick, answer, evidence, sources, provider and timings", found)
	}
	if c := rec.Current(); c.Title != "workspace" {
		t.Errorf("title %q, want the first question", c.Title)
	}
	if err := rec.Rate(t.Context(), 1, knowledge.TurnFeedback{Rating: knowledge.RatingDown, Reason: knowledge.ReasonNotMeant}); err != nil {
		t.Fatal(err)
	}
	if err := rec.Rate(t.Context(), 5, knowledge.TurnFeedback{Rating: knowledge.RatingUp}); !errors.Is(err, store.ErrTurnNotFound) {
		t.Errorf("rating turn 5 of 2: %v", err)
	}
	got, err := st.GetConversation(t.Context(), alice, rec.Current().ID)
	if err != nil {
		t.Fatal(err)
	}
	if f := got.Turns[1].Feedback; f == nil || f.Reason != knowledge.ReasonNotMeant {
		t.Errorf("stored feedback %+v", f)
	}
}

func TestFind(t *testing.T) {
	st := memory.NewConversationFiles(t.TempDir(), 0)
	ctx := context.Background()
	if _, err := conversation.Find(ctx, st, alice, ""); !errors.Is(err, conversation.ErrNone) {
		t.Errorf("latest of none: %v, want ErrNone", err)
	}
	var ids []string
	for range 20 {
		c, err := st.CreateConversation(ctx, alice, "q")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID)
	}
	c, err := conversation.Find(ctx, st, alice, strings.ToUpper(ids[3][:13]))
	if err != nil || c.ID != ids[3] {
		t.Errorf("by prefix: %v, %v", c.ID, err)
	}
	if _, err := conversation.Find(ctx, st, alice, "zz"); !errors.Is(err, store.ErrConversationNotFound) {
		t.Errorf("unknown prefix: %v", err)
	}
	// Blank is the latest: the one ListConversations puts first.
	list, err := st.ListConversations(ctx, alice, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := conversation.Find(ctx, st, alice, " "); err != nil || c.ID != list[0].ID {
		t.Errorf("blank: %v, %v; want the latest, %s", c.ID, err, list[0].ID)
	}
	// With 20 ids, some first hex digit is shared.
	seen := map[byte]bool{}
	var shared string
	for _, id := range ids {
		if seen[id[0]] {
			shared = id[:1]
		}
		seen[id[0]] = true
	}
	if _, err := conversation.Find(ctx, st, alice, shared); !errors.Is(err, conversation.ErrAmbiguous) {
		t.Errorf("shared prefix %q: %v, want ErrAmbiguous", shared, err)
	}
	if _, err := conversation.Find(ctx, st, knowledge.Scope{Workspace: "acme", User: "bob"}, ids[0]); !errors.Is(err, store.ErrConversationNotFound) {
		t.Errorf("bob finds alice's: %v", err)
	}
}

func exportFixture() knowledge.Conversation {
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	return knowledge.Conversation{
		ID: "7c9e6679-7425-40de-944b-e07fc1f90ae7", Workspace: "acme", User: "alice",
		Title: "How do I archive a workspace?", CreatedAt: at, UpdatedAt: at.Add(2 * time.Minute),
		Turns: []knowledge.Turn{
			{
				Index: 0, At: at, Question: "How do I archive a workspace?", Status: "found", Rule: "top", Confidence: 0.8,
				Answer: "Open **Settings** and pick *Archive* [actions/archive#chunk-1]. Owners only [actions/archive#chunk-1, concepts/workspace#chunk-0]; see [made/up#chunk-9].\x1b[31m",
				Sources: []knowledge.TurnSource{
					{ID: "actions/archive#chunk-1", Title: "Archive a workspace", Path: "Archive a workspace > Steps", File: "actions/archive workspace.md"},
					{ID: "concepts/workspace#chunk-0", Title: "Workspace", File: "concepts/workspace.md"},
				},
				Provider: "openai", Model: "gpt-4o-mini",
				Feedback: &knowledge.TurnFeedback{Rating: knowledge.RatingUp, At: at},
			},
			{
				Index: 1, At: at.Add(time.Minute), Question: "workspace [draft]", Status: "ambiguous", Rule: "second meaning",
				Answer: "Do you mean Workspace (concepts) or Workspace Actions (actions)?",
				Options: []knowledge.TurnOption{{Slug: "concepts/workspace", Label: "Workspace", Category: "concepts"},
					{Slug: "actions/workspaces", Label: "Workspace Actions", Category: "actions"}},
				Provider: "clarification",
				Feedback: &knowledge.TurnFeedback{Rating: knowledge.RatingDown, Reason: knowledge.ReasonNotMeant, At: at},
			},
			{
				Index: 2, At: at.Add(2 * time.Minute), Question: "workspace [draft]", Picked: "concepts/workspace", Status: "found", Rule: "pick",
				Answer: "A workspace groups projects [concepts/workspace#chunk-0].", Provider: "extractive",
				Sources: []knowledge.TurnSource{{ID: "concepts/workspace#chunk-0", Title: "Workspace", File: "concepts/workspace.md"}},
			},
		},
	}
}

// TestMarkdownGolden pins the export: citations become numbered links to
// the source files, an unknown citation stays unlinked and flagged.
func TestMarkdownGolden(t *testing.T) {
	got := conversation.Markdown(exportFixture(), conversation.MarkdownOptions{DocsRoot: "/srv/docs"})
	golden := filepath.Join("testdata", "export.md.golden")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./conversation -run TestMarkdownGolden -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("export differs from %s (go test ./conversation -update, then git diff):\n%s", golden, got)
	}
	if strings.Contains(string(got), "\x1b") {
		t.Error("the export holds an escape sequence")
	}
}

func TestFileName(t *testing.T) {
	c := exportFixture()
	if got, want := conversation.FileName(c), "2026-03-01-how-do-i-archive-a-workspace.md"; got != want {
		t.Errorf("FileName = %q, want %q", got, want)
	}
	c.Title = "../../etc/passwd?? " + strings.Repeat("word ", 40)
	got := conversation.FileName(c)
	if strings.ContainsAny(got, "/\\") || len(got) > 90 || !strings.HasPrefix(got, "2026-03-01-etc-passwd-word") {
		t.Errorf("FileName = %q: want a short name without path separators", got)
	}
	c.Title = "¿?"
	if got := conversation.FileName(c); got != "2026-03-01-conversation.md" {
		t.Errorf("FileName of a title without words = %q", got)
	}
}

// TestResumeContinuesTheLastAnswer: "tell me more" right after a resume
// goes on from the chunk the conversation's last answer was written from,
// as it would have in the session that recorded it.
func TestResumeContinuesTheLastAnswer(t *testing.T) {
	st := memory.NewConversationFiles(t.TempDir(), 0)
	live := newSession(t)
	rec := conversation.NewRecorder(st, alice)
	first := ask(t, live, rec, assistant.Request{Query: "what are widgets"})
	if first.Status != string(retrieval.StatusFound) || len(first.Evidence) == 0 {
		t.Fatalf("the first turn is %s with evidence %v, want a found answer", first.Status, first.Evidence)
	}
	want := live.Retrieve(t.Context(), assistant.Request{Query: "tell me more"})
	if want.Rule != retrieval.RuleFollowUp || len(want.Results) == 0 {
		t.Fatalf("live follow-up: rule %q, %d results", want.Rule, len(want.Results))
	}

	resumed := newSession(t)
	conv, err := conversation.NewRecorder(st, alice).Resume(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	resumed.Restore(conv.Turns)
	got := resumed.Retrieve(t.Context(), assistant.Request{Query: "tell me more"})
	if got.Rule != want.Rule || len(got.Results) == 0 || got.Results[0].ChunkID != want.Results[0].ChunkID {
		t.Errorf("resumed follow-up: rule %q, first %v; live: rule %q, first %s", got.Rule, chunkIDs(got.Results), want.Rule, want.Results[0].ChunkID)
	}

	// A fresh start has nothing to continue.
	resumed.Restore(nil)
	if fresh := resumed.Retrieve(t.Context(), assistant.Request{Query: "tell me more"}); fresh.Rule == retrieval.RuleFollowUp {
		t.Errorf("after Restore(nil) a follow-up continued %v", chunkIDs(fresh.Results))
	}
}

func chunkIDs(evs []retrieval.Evidence) []string {
	ids := make([]string, len(evs))
	for i, ev := range evs {
		ids[i] = ev.ChunkID
	}
	return ids
}
