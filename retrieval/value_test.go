package retrieval

import (
	"slices"
	"testing"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval/analysis"
)

// A question asking for a value is answered by the passage that gives
// one, though the question's "long" is no word of it: "how long are
// invitations valid for" by "the invitation is valid for 7 days".
func TestQuestionForAValueFindsThePassageGivingIt(t *testing.T) {
	invites := func(body string) knowledge.Doc {
		return makeDoc("members/invite", "Invite people", nil, "Bring your team in.",
			section{"Send an invitation", "Enter their email address and choose a role. " + body})
	}
	members := makeDoc("members/list", "Members", nil, "Everyone with access.",
		section{"Pending invitations", "The members page lists pending invitations beside the people who joined."})
	const q = "how long are invitations valid for"

	e := engineOf(t, testBundle([]knowledge.Doc{invites("The invitation is valid for 7 days; resend it from the members page."), members, themeDoc("theme")}))
	res := e.Ask(Query{Text: q})
	if res.Status != StatusFound || len(res.Results) == 0 || res.Results[0].DocSlug != "members/invite" {
		t.Fatalf("%q: %s (%s) from %v; want found on members/invite", q, res.Status, res.Rule, docsOf(res))
	}
	if !slices.Contains(res.NormalizedTokens, analysis.ValueDuration) || slices.Contains(res.NormalizedTokens, "long") {
		t.Errorf("%q: tokens %q; want the duration's value word for \"long\"", q, res.NormalizedTokens)
	}
	if rw := res.Results[0].MatchExplain.Synonyms; !slices.Contains(rw, Rewrite{From: "how long", To: "a duration"}) {
		t.Errorf("%q: rewrites %v; want how long → a duration", q, rw)
	}

	// Docs that give no duration anywhere keep the question's words: a
	// value word no unit carries would weigh the most of any.
	e = engineOf(t, testBundle([]knowledge.Doc{invites("The invitation stays valid until you resend it from the members page."), members, themeDoc("theme")}))
	res = e.Ask(Query{Text: q})
	if slices.Contains(res.NormalizedTokens, analysis.ValueDuration) || !slices.Contains(res.NormalizedTokens, "long") {
		t.Errorf("%q without durations: tokens %q; want the question's words", q, res.NormalizedTokens)
	}
}
