package memory

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/storetest"
)

func TestConversationsConformance(t *testing.T) {
	storetest.RunConversations(t, func(t *testing.T) store.Conversations {
		return NewConversationFiles(filepath.Join(t.TempDir(), "conversations"), 0)
	})
}

// TestConversationFileLayout pins where a conversation lives: one file per
// conversation under <workspace>/<user>/, names that are no plain
// directory names escaped.
func TestConversationFileLayout(t *testing.T) {
	dir := t.TempDir()
	s := NewConversationFiles(dir, 0)
	c, err := s.CreateConversation(t.Context(), alice, "q")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "acme", "alice", c.ID+".jsonl")); err != nil {
		t.Errorf("conversation file: %v", err)
	}
	odd := knowledge.Scope{Workspace: "..", User: "a/b"}
	oc, err := s.CreateConversation(t.Context(), odd, "q")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "%2E.", "a%2Fb", oc.ID+".jsonl")); err != nil {
		t.Errorf("escaped conversation file: %v", err)
	}
}

// TestCorruptConversationLine: a line docent cannot read is an error
// naming the file and line, for reads and writes alike, and a write never
// replaces the file; the list shows the file as unreadable beside the
// others.
func TestCorruptConversationLine(t *testing.T) {
	dir := t.TempDir()
	s := NewConversationFiles(dir, 0)
	c, err := s.CreateConversation(t.Context(), alice, "q")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"one", "two"} {
		if _, err := s.AddTurn(t.Context(), alice, c.ID, storetest.FullTurn(q)); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "acme", "alice", c.ID+".jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	lines[2] = []byte("{\"turn\": {\"index\": 1, \"question\": \"two\"\n") // cut short, as by a crash of another tool
	corrupt := bytes.Join(lines, nil)
	if err := os.WriteFile(path, corrupt, 0o600); err != nil {
		t.Fatal(err)
	}
	want := "conversation file " + path + ", line 3"
	if _, err := s.GetConversation(t.Context(), alice, c.ID); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("read: %v, want it to name %q", err, want)
	}
	if _, err := s.AddTurn(t.Context(), alice, c.ID, storetest.FullTurn("three")); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("add: %v, want it to name %q", err, want)
	}
	if err := s.RateTurn(t.Context(), alice, c.ID, 0, knowledge.TurnFeedback{Rating: knowledge.RatingUp}); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("rate: %v, want it to name %q", err, want)
	}
	// The list shows it as unreadable, with the reason, and still lists
	// the others.
	other, err := s.CreateConversation(t.Context(), alice, "another")
	if err != nil {
		t.Fatal(err)
	}
	list, err := s.ListConversations(t.Context(), alice, 0)
	if err != nil {
		t.Fatalf("list: %v", err)
	}
	byID := map[string]knowledge.ConversationSummary{}
	for _, c := range list {
		byID[c.ID] = c
	}
	if len(list) != 2 || !strings.Contains(byID[c.ID].Unreadable, want) || byID[c.ID].UpdatedAt.IsZero() ||
		byID[other.ID].Unreadable != "" || byID[other.ID].Title != "another" {
		t.Errorf("list %+v: want %s unreadable naming %q, when it was written, and %s readable", list, c.ID, want, other.ID)
	}
	after, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(after, corrupt) {
		t.Errorf("the corrupt file changed (%v): a failed write must leave it as it was", err)
	}
}

func TestDecodeConversationRefuses(t *testing.T) {
	header := `{"conversation":{"id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","workspace":"acme","user":"alice","title":"q","created_at":"2026-03-01T10:00:00Z","updated_at":"2026-03-01T10:00:00Z"}}`
	turn := func(i int) string {
		return `{"turn":{"index":` + string(rune('0'+i)) + `,"at":"2026-03-01T10:00:00Z","question":"q","status":"found","confidence":0,"answer":"a","timings":{"retrieval_ms":1}}}`
	}
	cases := map[string]struct {
		text, want string
	}{
		"empty":           {"", "no conversation header"},
		"turn first":      {turn(0), "line 1: a turn before the conversation header"},
		"two headers":     {header + "\n" + header, "line 2: a second conversation header"},
		"skipped index":   {header + "\n" + turn(1), "line 2: turn 1 where turn 0 belongs"},
		"unknown field":   {header + "\n" + `{"turn":{"index":0,"mood":"happy"}}`, `line 2: not a conversation line: json: unknown field "mood"`},
		"neither":         {header + "\n{}", "line 2: neither a conversation nor a turn"},
		"two values":      {header + "\n" + turn(0) + turn(0), "line 2: not a conversation line: more than one JSON value"},
		"bad id":          {strings.Replace(header, "7c9e6679", "7C9E6679", 1), "line 1: conversation id"},
		"bad utf8":        {header + "\n\xff", "line 2: not valid UTF-8"},
		"no status":       {header + "\n" + strings.Replace(turn(0), `"status":"found",`, "", 1), "line 2: turn \"q\": no status"},
		"feedback reason": {header + "\n" + strings.Replace(turn(0), `"answer":"a"`, `"answer":"a","feedback":{"rating":"up","reason":"wrong","at":"2026-03-01T10:00:00Z"}`, 1), "line 2: feedback: a rating up takes no reason"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := DecodeConversation("c.jsonl", []byte(tc.text))
			if err == nil || !strings.Contains(err.Error(), "conversation file c.jsonl") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to name the file and say %q", err, tc.want)
			}
		})
	}
	good := header + "\n\n" + turn(0) + "\n"
	if c, err := DecodeConversation("c.jsonl", []byte(good)); err != nil || len(c.Turns) != 1 {
		t.Errorf("a good file with a blank line: %v, %d turns", err, len(c.Turns))
	}
}

// FuzzDecodeConversation: the reader of conversation files never panics,
// and what it accepts writes back to a file it reads the same.
func FuzzDecodeConversation(f *testing.F) {
	c := knowledge.Conversation{ID: "7c9e6679-7425-40de-944b-e07fc1f90ae7", Workspace: "acme", User: "alice", Title: "q"}
	turn := storetest.FullTurn("q")
	turn.At = store.StoreTime(turn.At.AddDate(2026, 0, 0))
	c.Turns = []knowledge.Turn{turn}
	seed, err := EncodeConversation(c)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"conversation":{}}`))
	f.Add([]byte("{\"turn\":{\"index\":0}}\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		conv, err := DecodeConversation("fuzz.jsonl", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "conversation file fuzz.jsonl") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		again, err := EncodeConversation(conv)
		if err != nil {
			t.Fatalf("encode what was decoded: %v", err)
		}
		back, err := DecodeConversation("fuzz.jsonl", again)
		if err != nil {
			t.Fatalf("re-read what was written: %v\n%s", err, again)
		}
		if !reflect.DeepEqual(back, conv) {
			t.Fatalf("round trip changed the conversation:\n%+v\n%+v", conv, back)
		}
	})
}

// The team's reports join every rated turn, whoever asked, to its event.
func TestRatingsJoinTheEvents(t *testing.T) {
	dir := t.TempDir()
	convs := NewConversationFiles(filepath.Join(dir, "conversations"), 0)
	events := New(Options{EventsPath: filepath.Join(dir, "events.jsonl")})
	want := storetest.RatedEvents(t, convs, events)
	listed, err := events.Events(t.Context(), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	ratings, err := convs.Ratings(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	store.JoinRatings(listed, ratings)
	storetest.CheckRatedEvents(t, listed, want)

	empty, err := NewConversationFiles(filepath.Join(dir, "none"), 0).Ratings(t.Context())
	if err != nil || len(empty) != 0 {
		t.Errorf("no conversations yet: %v, %v", empty, err)
	}
}
