package assistant_test

import (
	"strings"
	"testing"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/retrieval/retrievaltest"
)

func smallEngine(t testing.TB) *retrieval.Engine {
	t.Helper()
	e, err := retrieval.New(retrievaltest.Bundle(retrievaltest.Docs()), retrieval.DefaultConfig())
	if err != nil {
		t.Fatalf("retrieval.New: %v", err)
	}
	return e
}

// Each clarification and no-match says, word for word, what the result
// carries: the options, the question's own words, the kind of small talk.
func TestReplies(t *testing.T) {
	e := smallEngine(t)
	for _, tt := range []struct{ query, reply string }{
		{"workspace", "Do you mean Workspace (concepts) or Workspace Actions (actions)?"},
		{"tangerine", "I'm not sure which feature you mean. Are you asking about Recent? If not, tell me the feature name."},
		{"calendar", "I couldn't find anything about calendar in these docs."},
		{"What's the weather in Berlin tomorrow?", "I couldn't find anything about weather Berlin tomorrow in these docs."},
		{"how do I print a workspace", "I couldn't find anything about print workspace in these docs."},
		// A long question is named by its first words.
		{"zebra yak walrus vole urchin tapir seal rhea quail puffin", "I couldn't find anything about zebra yak walrus vole urchin tapir seal rhea … in these docs."},
		{"", assistant.ReplyNoMatch},
		{"?!…", assistant.ReplyNoMatch},
		{"how do I do it", assistant.ReplyNoMatch},
		{"help", assistant.ReplyNoMatch},
		{"hello", assistant.ReplyGreeting},
		{"Hi there!", assistant.ReplyGreeting},
		{"good morning", assistant.ReplyGreeting},
		{"thanks", assistant.ReplyThanks},
		{"Thank you so much", assistant.ReplyThanks},
		{"thanks a lot, bye", assistant.ReplyThanks},
		{"bye", assistant.ReplyGoodbye},
		{"ok great", assistant.ReplyAck},
	} {
		res := e.Ask(retrieval.Query{Text: tt.query})
		if got := assistant.Reply(res); got != tt.reply {
			t.Errorf("%q (%s, %s): reply %q, want %q", tt.query, res.Status, res.Rule, got, tt.reply)
		}
	}
	// Found and multi-intent results are the writer's to answer.
	for _, q := range []string{"what is a workspace", "workspace and quick links"} {
		res := e.Ask(retrieval.Query{Text: q})
		if !assistant.NeedsModel(res) || assistant.Reply(res) != "" {
			t.Errorf("%q: %s with reply %q, want the writer's answer", q, res.Status, assistant.Reply(res))
		}
	}
}

// Whatever is asked, a result the writer does not answer has a reply, and
// no reply carries a control character.
func FuzzReply(f *testing.F) {
	for _, s := range []string{"workspace", "tangerine", "calendar \x1b[2J", "hello", "", "\x00\xff"} {
		f.Add(s)
	}
	e := smallEngine(f)
	f.Fuzz(func(t *testing.T, text string) {
		res := e.Ask(retrieval.Query{Text: text})
		reply := assistant.Reply(res)
		if !assistant.NeedsModel(res) && reply == "" {
			t.Fatalf("Ask(%q): %s (%s) with no reply", text, res.Status, res.Rule)
		}
		if strings.ContainsFunc(reply, func(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }) {
			t.Fatalf("Ask(%q): control character in reply %q", text, reply)
		}
	})
}
