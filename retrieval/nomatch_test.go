package retrieval

import (
	"slices"
	"strings"
	"testing"
)

// Conversation gets a one-line reply and no retrieval: no evidence, no
// options, no candidates, whatever the docs hold.
func TestSmallTalk(t *testing.T) {
	e := newTestEngine(t, nil)
	for _, tc := range []struct {
		text string
		talk Talk
	}{
		{"hello", TalkGreeting},
		{"Hi there!", TalkGreeting},
		{"good morning", TalkGreeting},
		{"thanks", TalkThanks},
		{"Thank you so much", TalkThanks},
		{"thanks a lot, bye", TalkThanks},
		{"bye", TalkGoodbye},
		{"ok great", TalkAck},
		{"thanks, that's all I needed", TalkThanks},
		{"thanks, that fixed it", TalkThanks},
		{"ok that helped, makes sense now", TalkAck},
	} {
		res := e.Ask(Query{Text: tc.text})
		if res.Status != StatusNoMatch || res.Rule != RuleSmallTalk || res.Talk != tc.talk {
			t.Errorf("%q: %s %q %q, want small talk %q", tc.text, res.Status, res.Rule, res.Talk, tc.talk)
		}
		if len(res.Results)+len(res.Options)+len(res.Candidates)+len(res.NormalizedTokens) != 0 {
			t.Errorf("%q: retrieval noise %+v", tc.text, res)
		}
	}
	// A topic word makes it a question; words of nothing in particular
	// stay a request to say which part.
	for _, text := range []string{"hello, how do I delete a workspace", "thanks, and what is a workspace", "workspace thanks", "that helped, now how do I share a workspace"} {
		if res := e.Ask(Query{Text: text}); res.Rule == RuleSmallTalk {
			t.Errorf("%q taken for small talk", text)
		}
	}
	for _, text := range []string{"help", "it's not working", "how do I do it"} {
		if res := e.Ask(Query{Text: text}); res.Rule == RuleSmallTalk || res.Status != StatusNoMatch || res.Talk != "" || len(res.Topic) != 0 {
			t.Errorf("%q: %s %q talk %q topic %q, want no match about nothing named", text, res.Status, res.Rule, res.Talk, res.Topic)
		}
	}
}

// A question the docs do not cover is told so, with its own words, and
// offered the docs whose titles share one of them.
func TestNoMatchSaysWhatWasNotFound(t *testing.T) {
	e := newTestEngine(t, nil)
	res := e.Ask(Query{Text: "What's the weather in Berlin tomorrow?"})
	if want := []string{"weather", "Berlin", "tomorrow"}; res.Status != StatusNoMatch || !slices.Equal(res.Topic, want) {
		t.Errorf("weather: %s about %q, want no match about %q", res.Status, res.Topic, want)
	}
	if len(res.Options) != 0 || len(res.Results) != 0 {
		t.Errorf("weather: options %+v, results %d; want none (no title shares a word)", res.Options, len(res.Results))
	}

	res = e.Ask(Query{Text: "how do I print a workspace"})
	if res.Status != StatusNoMatch {
		t.Fatalf("print a workspace: %s (%s), want no_match", res.Status, res.Rule)
	}
	if want := []string{"print", "workspace"}; !slices.Equal(res.Topic, want) {
		t.Errorf("topic %q, want %q", res.Topic, want)
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

	// A long question keeps every word; the reply decides how many to say.
	long := "zebra yak walrus vole urchin tapir seal rhea quail puffin"
	if got := informativeWords(long); !slices.Equal(got, strings.Fields(long)) {
		t.Errorf("long: %q, want every word", got)
	}
}
