package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
)

// OpenConversations returns an empty conversation store of the test's own
// (subtests run in parallel), cleaned up with t.Cleanup.
type OpenConversations func(t *testing.T) store.Conversations

// RunConversations runs the conversations conformance suite.
func RunConversations(t *testing.T, open OpenConversations) {
	t.Helper()
	tests := []struct {
		name string
		run  func(t *testing.T, s store.Conversations)
	}{
		{"CreateAddGet", testConversationRoundTrip},
		{"OnlyTheOwnerReads", testConversationScope},
		{"ListNewestFirst", testListConversations},
		{"Rate", testRateTurn},
		{"InvalidRefused", testInvalidTurns},
		{"ConcurrentTurns", testConcurrentTurns},
		{"CancelledContext", testConversationsCancelled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, open(t))
		})
	}
}

// FullTurn is a turn with every field set, non-ASCII text included.
func FullTurn(question string) knowledge.Turn {
	return knowledge.Turn{
		Question: question, Picked: "concepts/workspace",
		Status: "found", Rule: "top", Confidence: 0.75,
		Options:  []knowledge.TurnOption{{Slug: "concepts/workspace", Label: "Workspace", Category: "concepts"}, {Slug: "actions/workspaces", Label: "Workspace — Actions"}},
		Evidence: []string{"concepts/workspace#chunk-0", "actions/workspaces#chunk-2"},
		Answer:   "A workspace groups projects — naïve café 東京 [concepts/workspace#chunk-0].",
		Sources:  []knowledge.TurnSource{{ID: "concepts/workspace#chunk-0", Title: "Workspace", Path: "Workspace > Overview", File: "concepts/workspace.md"}},
		Provider: "openai", Model: "gpt-4o-mini",
		Timings: knowledge.TurnTimings{RetrievalMS: 0.47, TTFTMS: 120.5, AnswerMS: 840.25},
	}
}

func mustCreate(t *testing.T, s store.Conversations, scope knowledge.Scope, title string) knowledge.Conversation {
	t.Helper()
	c, err := s.CreateConversation(t.Context(), scope, title)
	if err != nil {
		t.Fatalf("CreateConversation %q: %v", title, err)
	}
	return c
}

func mustAddTurn(t *testing.T, s store.Conversations, scope knowledge.Scope, id string, turn knowledge.Turn) knowledge.Turn {
	t.Helper()
	got, err := s.AddTurn(t.Context(), scope, id, turn)
	if err != nil {
		t.Fatalf("AddTurn %q: %v", turn.Question, err)
	}
	return got
}

func mustGetConversation(t *testing.T, s store.Conversations, scope knowledge.Scope, id string) knowledge.Conversation {
	t.Helper()
	c, err := s.GetConversation(t.Context(), scope, id)
	if err != nil {
		t.Fatalf("GetConversation %s: %v", id, err)
	}
	return c
}

func testConversationRoundTrip(t *testing.T, s store.Conversations) {
	before := time.Now().Add(-time.Second)
	c := mustCreate(t, s, alice, "  how do I\narchive a   workspace?  ")
	if !store.ParseConversationID(c.ID) {
		t.Errorf("id %q is not a lower-case uuid", c.ID)
	}
	if c.Title != "how do I archive a workspace?" || c.Workspace != alice.Workspace || c.User != alice.User {
		t.Errorf("created %+v, want the title on one line, owned by alice in acme", c)
	}
	if c.CreatedAt.Before(before) || !c.CreatedAt.Equal(c.UpdatedAt) {
		t.Errorf("created at %v, updated at %v: want now, twice", c.CreatedAt, c.UpdatedAt)
	}
	first := FullTurn("how do I archive a workspace?")
	first.At = time.Date(2026, 3, 1, 10, 0, 0, 123456789, time.FixedZone("CET", 3600))
	got0 := mustAddTurn(t, s, alice, c.ID, first)
	if got0.Index != 0 || !got0.At.Equal(first.At.Truncate(time.Microsecond)) || got0.At.Location() != time.UTC || got0.At.Nanosecond()%1000 != 0 {
		t.Errorf("first turn index %d at %v, want 0 at %v in UTC to the microsecond", got0.Index, got0.At, first.At)
	}
	second := knowledge.Turn{Question: "weather", Status: "no_match", Answer: "I couldn't find anything about weather in these docs."}
	got1 := mustAddTurn(t, s, alice, c.ID, second)
	if got1.Index != 1 || got1.At.IsZero() {
		t.Errorf("second turn index %d at %v, want 1 at now", got1.Index, got1.At)
	}

	read := mustGetConversation(t, s, alice, c.ID)
	if len(read.Turns) != 2 {
		t.Fatalf("read %d turns, want 2", len(read.Turns))
	}
	if !reflect.DeepEqual(read.Turns[0], got0) {
		t.Errorf("turn 0 read back as\n%+v\nwant\n%+v", read.Turns[0], got0)
	}
	if !reflect.DeepEqual(read.Turns[1], got1) {
		t.Errorf("turn 1 read back as\n%+v\nwant\n%+v", read.Turns[1], got1)
	}
	if !read.UpdatedAt.Equal(got1.At) || !read.CreatedAt.Equal(c.CreatedAt) || read.Title != c.Title {
		t.Errorf("read %+v: want the title and creation time kept, updated at the last turn %v", read, got1.At)
	}
	if _, err := s.GetConversation(t.Context(), alice, "7c9e6679-7425-40de-944b-e07fc1f90ae7"); !errors.Is(err, store.ErrConversationNotFound) {
		t.Errorf("GetConversation of an unknown id: %v, want ErrConversationNotFound", err)
	}
	for _, bad := range []string{"", "../../etc/passwd", "7C9E6679-7425-40DE-944B-E07FC1F90AE7"} {
		if _, err := s.GetConversation(t.Context(), alice, bad); !errors.Is(err, store.ErrConversationNotFound) {
			t.Errorf("GetConversation(%q): %v, want ErrConversationNotFound", bad, err)
		}
	}
	if _, err := s.AddTurn(t.Context(), alice, "7c9e6679-7425-40de-944b-e07fc1f90ae7", second); !errors.Is(err, store.ErrConversationNotFound) {
		t.Errorf("AddTurn to an unknown conversation: %v, want ErrConversationNotFound", err)
	}
}

func testConversationScope(t *testing.T, s store.Conversations) {
	c := mustCreate(t, s, alice, "mine")
	mustAddTurn(t, s, alice, c.ID, FullTurn("mine"))
	// A team mate, and the same name in another workspace, see nothing.
	for _, other := range []knowledge.Scope{bob, outsider} {
		if _, err := s.GetConversation(t.Context(), other, c.ID); !errors.Is(err, store.ErrConversationNotFound) {
			t.Errorf("%v reads alice's conversation: %v, want ErrConversationNotFound", other, err)
		}
		if _, err := s.AddTurn(t.Context(), other, c.ID, FullTurn("theirs")); !errors.Is(err, store.ErrConversationNotFound) {
			t.Errorf("%v adds to alice's conversation: %v, want ErrConversationNotFound", other, err)
		}
		if err := s.RateTurn(t.Context(), other, c.ID, 0, knowledge.TurnFeedback{Rating: knowledge.RatingDown}); !errors.Is(err, store.ErrConversationNotFound) {
			t.Errorf("%v rates alice's turn: %v, want ErrConversationNotFound", other, err)
		}
		list, err := s.ListConversations(t.Context(), other, 0)
		if err != nil || len(list) != 0 {
			t.Errorf("%v lists %v (%v), want none", other, list, err)
		}
	}
	// Names that are paths in the embedded store stay names.
	odd := knowledge.Scope{Workspace: "../acme", User: "alice/.."}
	oc := mustCreate(t, s, odd, "odd")
	if list, err := s.ListConversations(t.Context(), alice, 0); err != nil || len(list) != 1 || list[0].ID != c.ID {
		t.Errorf("alice lists %v (%v), want her one conversation", list, err)
	}
	if got := mustGetConversation(t, s, odd, oc.ID); got.Workspace != odd.Workspace || got.User != odd.User {
		t.Errorf("odd scope read back as %q/%q", got.Workspace, got.User)
	}
	if _, err := s.CreateConversation(t.Context(), knowledge.Scope{Workspace: "acme"}, "no user"); err == nil {
		t.Error("a conversation without a user was created")
	}
}

func testListConversations(t *testing.T, s store.Conversations) {
	a := mustCreate(t, s, alice, "first")
	b := mustCreate(t, s, alice, "second")
	c := mustCreate(t, s, alice, "third")
	// Adding a turn to the oldest makes it the most recent.
	at := time.Now().Add(time.Hour)
	turn := FullTurn("first")
	turn.At = at
	mustAddTurn(t, s, alice, a.ID, turn)
	list, err := s.ListConversations(t.Context(), alice, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range list {
		got = append(got, l.Title)
	}
	if len(list) != 3 || list[0].ID != a.ID || list[0].Turns != 1 || !list[0].UpdatedAt.Equal(store.StoreTime(at)) {
		t.Fatalf("list %+v: want first (1 turn, updated at %v) first", list, at)
	}
	// b and c may share a timestamp: then the ID decides.
	rest := []knowledge.ConversationSummary{list[1], list[2]}
	if !(rest[0].UpdatedAt.After(rest[1].UpdatedAt) || rest[0].UpdatedAt.Equal(rest[1].UpdatedAt) && rest[0].ID < rest[1].ID) {
		t.Errorf("list %v is not newest first, then by id", got)
	}
	if ids := map[string]bool{rest[0].ID: true, rest[1].ID: true}; !ids[b.ID] || !ids[c.ID] {
		t.Errorf("list %v: want second and third after first", got)
	}
	one, err := s.ListConversations(t.Context(), alice, 1)
	if err != nil || len(one) != 1 || one[0].ID != a.ID {
		t.Errorf("list with limit 1: %v (%v), want the newest alone", one, err)
	}
}

func testRateTurn(t *testing.T, s store.Conversations) {
	c := mustCreate(t, s, alice, "q")
	mustAddTurn(t, s, alice, c.ID, FullTurn("q"))
	mustAddTurn(t, s, alice, c.ID, FullTurn("q2"))
	at := time.Date(2026, 3, 1, 11, 0, 0, 0, time.UTC)
	if err := s.RateTurn(t.Context(), alice, c.ID, 1, knowledge.TurnFeedback{Rating: knowledge.RatingUp, At: at}); err != nil {
		t.Fatal(err)
	}
	// A second rating replaces the first.
	down := knowledge.TurnFeedback{Rating: knowledge.RatingDown, Reason: knowledge.ReasonOutdated, At: at.Add(time.Minute)}
	if err := s.RateTurn(t.Context(), alice, c.ID, 1, down); err != nil {
		t.Fatal(err)
	}
	read := mustGetConversation(t, s, alice, c.ID)
	if read.Turns[0].Feedback != nil {
		t.Errorf("turn 0 got feedback %+v, rated none", read.Turns[0].Feedback)
	}
	if f := read.Turns[1].Feedback; f == nil || *f != down {
		t.Errorf("turn 1 feedback %+v, want %+v", f, down)
	}
	if err := s.RateTurn(t.Context(), alice, c.ID, 2, down); !errors.Is(err, store.ErrTurnNotFound) {
		t.Errorf("rating turn 2 of 2: %v, want ErrTurnNotFound", err)
	}
	for _, bad := range []knowledge.TurnFeedback{{Rating: "meh"}, {Rating: knowledge.RatingUp, Reason: knowledge.ReasonWrong}, {Rating: knowledge.RatingDown, Reason: "because"}} {
		if err := s.RateTurn(t.Context(), alice, c.ID, 0, bad); err == nil {
			t.Errorf("rating %+v was stored", bad)
		}
	}
	if f := mustGetConversation(t, s, alice, c.ID).Turns[0].Feedback; f != nil {
		t.Errorf("a refused rating left %+v", f)
	}
}

func testInvalidTurns(t *testing.T, s store.Conversations) {
	c := mustCreate(t, s, alice, "q")
	bad := map[string]knowledge.Turn{
		"no question":  {Status: "found"},
		"no status":    {Question: "q"},
		"invalid utf8": {Question: "q\xff", Status: "found"},
		"nul":          {Question: "q", Status: "found", Answer: "a\x00b"},
	}
	for name, turn := range bad {
		if _, err := s.AddTurn(t.Context(), alice, c.ID, turn); err == nil {
			t.Errorf("%s: stored", name)
		}
	}
	if n := len(mustGetConversation(t, s, alice, c.ID).Turns); n != 0 {
		t.Errorf("refused turns left %d turns", n)
	}
}

// testConcurrentTurns adds turns from many goroutines: each gets its own
// index, and none is lost.
func testConcurrentTurns(t *testing.T, s store.Conversations) {
	c := mustCreate(t, s, alice, "q")
	const n = 12
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			_, err := s.AddTurn(context.Background(), alice, c.ID, knowledge.Turn{Question: fmt.Sprintf("q%d", i), Status: "found"})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	read := mustGetConversation(t, s, alice, c.ID)
	seen := map[string]bool{}
	for i, turn := range read.Turns {
		if turn.Index != i {
			t.Errorf("turn %d has index %d", i, turn.Index)
		}
		seen[turn.Question] = true
	}
	if len(read.Turns) != n || len(seen) != n {
		t.Errorf("%d turns (%d distinct), want %d", len(read.Turns), len(seen), n)
	}
}

func testConversationsCancelled(t *testing.T, s store.Conversations) {
	c := mustCreate(t, s, alice, "q")
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := s.AddTurn(ctx, alice, c.ID, FullTurn("q")); err == nil {
		t.Error("AddTurn with a cancelled context succeeded")
	}
	if _, err := s.GetConversation(ctx, alice, c.ID); err == nil {
		t.Error("GetConversation with a cancelled context succeeded")
	}
	if n := len(mustGetConversation(t, s, alice, c.ID).Turns); n != 0 {
		t.Errorf("a cancelled AddTurn stored %d turns", n)
	}
}

// RatedEvents records two turns of each of two users with their events,
// rates one turn of each (one down with a reason, one up), and returns
// the conversation ids and the ratings given, keyed by turn: the ratings a
// team report must find joined to the events, whoever asked.
func RatedEvents(t *testing.T, s store.Conversations, sink interface {
	RecordRetrieval(ctx context.Context, ev knowledge.RetrievalEvent) error
}) map[store.TurnRef]knowledge.TurnFeedback {
	t.Helper()
	ctx := t.Context()
	want := map[store.TurnRef]knowledge.TurnFeedback{}
	for i, scope := range []knowledge.Scope{alice, {Workspace: "globex", User: "bob"}} {
		c, err := s.CreateConversation(ctx, scope, "q")
		if err != nil {
			t.Fatal(err)
		}
		for j := range 2 {
			turn := mustAddTurn(t, s, scope, c.ID, FullTurn(fmt.Sprintf("question %d", j)))
			index := turn.Index
			if err := sink.RecordRetrieval(ctx, knowledge.RetrievalEvent{Query: turn.Question, Action: "found", ConversationID: c.ID, TurnIndex: &index}); err != nil {
				t.Fatal(err)
			}
		}
		f := knowledge.TurnFeedback{Rating: knowledge.RatingDown, Reason: knowledge.ReasonWrong, At: time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)}
		if i == 1 {
			f = knowledge.TurnFeedback{Rating: knowledge.RatingUp, At: f.At}
		}
		if err := s.RateTurn(ctx, scope, c.ID, 1, f); err != nil {
			t.Fatal(err)
		}
		want[store.TurnRef{Conversation: c.ID, Index: 1}] = f
	}
	return want
}

// CheckRatedEvents checks that the events hold exactly the ratings want,
// each on the event of its turn.
func CheckRatedEvents(t *testing.T, events []knowledge.RetrievalEvent, want map[store.TurnRef]knowledge.TurnFeedback) {
	t.Helper()
	rated := 0
	for _, ev := range events {
		if ev.TurnIndex == nil {
			t.Fatalf("event %q names no turn", ev.Query)
		}
		f, ok := want[store.TurnRef{Conversation: ev.ConversationID, Index: *ev.TurnIndex}]
		switch {
		case !ok && ev.Feedback != nil:
			t.Errorf("event %q of an unrated turn has feedback %+v", ev.Query, *ev.Feedback)
		case ok && (ev.Feedback == nil || ev.Feedback.Rating != f.Rating || ev.Feedback.Reason != f.Reason || !ev.Feedback.At.Equal(f.At)):
			t.Errorf("event %q: feedback %+v, want %+v", ev.Query, ev.Feedback, f)
		case ok:
			rated++
		}
	}
	if rated != len(want) {
		t.Errorf("%d events carry their rating, want %d", rated, len(want))
	}
}
