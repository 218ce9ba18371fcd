package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/llm/llmtest"
)

// doneTurn asks on /api/ask and returns the done frame's turn id.
func doneTurn(t *testing.T, f *fixture, token, body string) string {
	t.Helper()
	resp := postAsk(t, context.Background(), f, token, body)
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("ask %s: status %d", body, resp.StatusCode)
	}
	frames := readFrames(t, resp, nil)
	last := frames[len(frames)-1]
	if last.event != "done" {
		t.Fatalf("the stream ended with %s: %s", last.event, last.data)
	}
	var done struct {
		TurnID string `json:"turn_id"`
	}
	if err := json.Unmarshal([]byte(last.data), &done); err != nil {
		t.Fatal(err)
	}
	return done.TurnID
}

// Every /api/ask turn is recorded in the caller's conversations; its done
// frame's turn_id continues the conversation (conversation_id) and rates
// the answer (/api/feedback). Another token's caller can do neither.
func TestConversationsAndFeedback(t *testing.T) {
	t.Run("memory", func(t *testing.T) { testConversationsAndFeedback(t, false) })
	t.Run("postgres", func(t *testing.T) { testConversationsAndFeedback(t, true) })
}

func testConversationsAndFeedback(t *testing.T, pg bool) {
	llmSrv, sel := openAI(t, llmtest.Script{Chunks: []string{"Written answer."}})
	f := newFixture(t, fixtureOptions{writer: sel, conversations: true, postgres: pg})

	first := doneTurn(t, f, f.alice, `{"query": "explain workspace"}`)
	conv, index, ok := strings.Cut(first, "/")
	if !ok || index != "0" {
		t.Fatalf("first turn id %q, want a conversation's turn 0", first)
	}
	second := doneTurn(t, f, f.alice, fmt.Sprintf(`{"query": "how do I create a workspace", "conversation_id": %q}`, conv))
	if second != conv+"/1" {
		t.Fatalf("continued turn id %q, want %s/1", second, conv)
	}
	// The continued turn's prompt carried the first question and answer.
	reqs := llmSrv.Requests()
	msgs, err := llmSrv.Messages(reqs[len(reqs)-1])
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, m := range msgs {
		all.WriteString(m.Text + "\n")
	}
	if !strings.Contains(all.String(), "explain workspace") {
		t.Errorf("the continued turn's prompt lacks the conversation so far:\n%s", all.String())
	}
	got, err := f.convs.GetConversation(context.Background(), acme, conv)
	if err != nil || len(got.Turns) != 2 || got.Turns[1].Question != "how do I create a workspace" || got.Turns[1].Answer != "Written answer." {
		t.Fatalf("stored conversation %+v, %v", got, err)
	}

	resp, body := f.do("POST", "/api/feedback", f.alice, fmt.Sprintf(`{"turn_id": %q, "rating": "down", "reason": "outdated"}`, second))
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"rating":"down"`) {
		t.Fatalf("feedback: %d %s", resp.StatusCode, body)
	}
	got, _ = f.convs.GetConversation(context.Background(), acme, conv)
	if fb := got.Turns[1].Feedback; fb == nil || fb.Rating != knowledge.RatingDown || fb.Reason != knowledge.ReasonOutdated {
		t.Errorf("stored feedback %+v", fb)
	}

	for _, tc := range []struct {
		name, path, token, body string
		status                  int
	}{
		{"another caller's turn", "/api/feedback", f.bob, fmt.Sprintf(`{"turn_id": %q, "rating": "up"}`, first), 404},
		{"a turn the conversation lacks", "/api/feedback", f.alice, fmt.Sprintf(`{"turn_id": "%s/7", "rating": "up"}`, conv), 404},
		{"a bad turn id", "/api/feedback", f.alice, `{"turn_id": "x/1", "rating": "up"}`, 400},
		{"a bad rating", "/api/feedback", f.alice, fmt.Sprintf(`{"turn_id": %q, "rating": "meh"}`, first), 400},
		{"a reason with up", "/api/feedback", f.alice, fmt.Sprintf(`{"turn_id": %q, "rating": "up", "reason": "wrong"}`, first), 400},
		{"another caller's conversation", "/api/ask", f.bob, fmt.Sprintf(`{"query": "q", "conversation_id": %q}`, conv), 404},
		{"a conversation id that is none", "/api/ask", f.alice, `{"query": "q", "conversation_id": "nope"}`, 400},
		{"retrieve does not continue", "/api/retrieve", f.alice, fmt.Sprintf(`{"query": "q", "conversation_id": %q}`, conv), 400},
	} {
		if resp, body := f.do("POST", tc.path, tc.token, tc.body); resp.StatusCode != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.name, resp.StatusCode, body, tc.status)
		}
	}
}

// A server that keeps no conversations says so for the calls that need
// them, and still answers.
func TestNoConversations(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	if turn := doneTurn(t, f, f.alice, `{"query": "explain workspace"}`); turn != "" {
		t.Errorf("turn id %q from a server that keeps none", turn)
	}
	if resp, body := f.do("POST", "/api/feedback", f.alice, `{"turn_id": "x/0", "rating": "up"}`); resp.StatusCode != 503 {
		t.Errorf("feedback: %d %s, want 503", resp.StatusCode, body)
	}
}
