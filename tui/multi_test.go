package tui_test

import (
	"strings"
	"testing"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/retrieval"
)

// A question that asks two things: the transcript shows a short answer
// under each doc's title and the question, and the docs come as pills.
func TestMultiIntentShowsBothAnswersAndPills(t *testing.T) {
	want := expectAnswer(t, assistant.Request{Query: "workspace and widgets"})
	if !strings.HasSuffix(want, assistant.ReplyMultiEnd) {
		t.Fatalf("the session's answer %q does not end with the question", want)
	}
	res := engine(t).Ask(retrieval.Query{Text: "workspace and widgets"})
	if res.Status != retrieval.StatusMulti || len(res.Options) != 2 {
		t.Fatalf("demo KB: %s with %d options, want multi with two", res.Status, len(res.Options))
	}
	b, st := newDemoBackend(t)
	s := start(t, b, st, 100, 30)
	s.typeText("workspace and widgets")
	s.enter()
	s.waitIdle(res.Options[0].Label+": ", res.Options[1].Label+": ", assistant.ReplyMultiEnd,
		"Pick:", "[1 "+res.Options[0].Label, "[2 "+res.Options[1].Label)
}
