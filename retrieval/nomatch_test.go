package retrieval

import (
	"slices"
	"testing"
)

// Conversation gets a one-line reply and no retrieval: no evidence, no
// options, no candidates, whatever the docs hold.
func TestSmallTalk(t *testing.T) {
	e := newTestEngine(t, nil)
	for _, tc := range []struct{ text, reply string }{
		{"hello", ReplyGreeting},
		{"Hi there!", ReplyGreeting},
		{"good morning", ReplyGreeting},
		{"thanks", ReplyThanks},
		{"Thank you so much", ReplyThanks},
		{"thanks a lot, bye", ReplyThanks},
		{"bye", ReplyGoodbye},
		{"ok great", ReplyAck},
	} {
		res := e.Ask(Query{Text: tc.text})
		if res.Status != StatusNoMatch || res.Rule != RuleSmallTalk || res.Reply != tc.reply {
			t.Errorf("%q: %s %q %q, want small talk %q", tc.text, res.Status, res.Rule, res.Reply, tc.reply)
		}
		if len(res.Results)+len(res.Options)+len(res.Candidates)+len(res.NormalizedTokens) != 0 {
			t.Errorf("%q: retrieval noise %+v", tc.text, res)
		}
	}
	// A topic word makes it a question; words of nothing in particular
	// stay a request to say which part.
	for _, text := range []string{"hello, how do I delete a workspace", "thanks, and what is a workspace", "workspace thanks"} {
		if res := e.Ask(Query{Text: text}); res.Rule == RuleSmallTalk {
			t.Errorf("%q taken for small talk", text)
		}
	}
	for _, text := range []string{"help", "it's not working", "how do I do it"} {
		if res := e.Ask(Query{Text: text}); res.Rule == RuleSmallTalk || res.Reply != ReplyNoMatch {
			t.Errorf("%q: %q %q, want %q", text, res.Rule, res.Reply, ReplyNoMatch)
		}
	}
}

// A question the docs do not cover is told so, with its own words, and
// offered the docs whose titles share one of them.
func TestNoMatchSaysWhatWasNotFound(t *testing.T) {
	e := newTestEngine(t, nil)
	res := e.Ask(Query{Text: "What's the weather in Berlin tomorrow?"})
	if res.Status != StatusNoMatch || res.Reply != "I couldn't find anything about weather Berlin tomorrow in these docs." {
		t.Errorf("weather: %s %q", res.Status, res.Reply)
	}
	if len(res.Options) != 0 || len(res.Results) != 0 {
		t.Errorf("weather: options %+v, results %d; want none (no title shares a word)", res.Options, len(res.Results))
	}

	res = e.Ask(Query{Text: "how do I print a workspace"})
	if res.Status != StatusNoMatch {
		t.Fatalf("print a workspace: %s (%s), want no_match", res.Status, res.Rule)
	}
	if want := "I couldn't find anything about print workspace in these docs."; res.Reply != want {
		t.Errorf("reply %q, want %q", res.Reply, want)
	}
	var got []string
	for _, o := range res.Options {
		got = append(got, o.DocSlug)
	}
	if len(got) == 0 || len(got) > maxNearDocs {
		t.Fatalf("options %v, want 1 to %d docs titled with workspace", got, maxNearDocs)
	}
	for _, slug := range got {
		if !slices.Contains([]string{"concepts/workspace", "actions/workspaces"}, slug) {
			t.Errorf("option %s shares no word of the question in its title", slug)
		}
	}

	// A long question is named by its first words.
	long := "zebra yak walrus vole urchin tapir seal rhea quail puffin"
	if want := "I couldn't find anything about zebra yak walrus vole urchin tapir seal rhea … in these docs."; notFoundReply(long) != want {
		t.Errorf("long: %q, want %q", notFoundReply(long), want)
	}
}
