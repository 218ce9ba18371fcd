package extractive

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/internal/evaldata"
	"github.com/docent-sh/docent/prompt"
	"github.com/docent-sh/docent/retrieval"
)

// rateLimitBlocks are written like a real API reference: the first chunk
// describes the headers that report the limits, the second, ranked lower,
// holds the limits themselves under their own heading.
func rateLimitBlocks() []prompt.DocBlock {
	return []prompt.DocBlock{
		block("api/rate-limits#chunk-0", "Rate limits", "Rate limits > Headers",
			"## Headers\n\nRate limit information is returned in the response headers.\n\n"+
				"An API method can be subject to multiple overlapping rate limits. The headers report the one you are closest to exceeding."),
		block("api/rate-limits#chunk-1", "Rate limits", "Rate limits > Limits",
			"## Limits\n\nBy default, the following limits are hardcoded:\n\n### Per account\n\n"+
				"All endpoints and methods can be called 300 times within 5 minutes.\n\n### Per IP\n\n"+
				"All endpoints and methods can be called 300 times within 5 minutes.\n\n"+
				"#### Creating accounts\n\n`POST /api/v1/accounts` can be called 5 times within 30 minutes."),
	}
}

func TestAnswerFromTheSectionNamedByTheQuestion(t *testing.T) {
	got := Answer(userMessage("what are the rate limits of the API", rateLimitBlocks()...))
	for _, want := range []string{"Per account: All endpoints and methods can be called 300 times within 5 minutes.",
		"Per IP: All endpoints", "5 times within 30 minutes", "[api/rate-limits#chunk-1]"} {
		if !strings.Contains(got, want) {
			t.Errorf("answer lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "response headers") {
		t.Errorf("answer describes the headers instead of the limits:\n%s", got)
	}
}

// TestRateLimitsOnMastodonDocs is the question on the real docs it was
// reported on, through retrieval and the prompt builder.
func TestRateLimitsOnMastodonDocs(t *testing.T) {
	dir := evaldata.Dir(t, "mastodon-docs")
	bundle, _, err := ingest.LoadBundle(context.Background(), os.DirFS(dir), "docs")
	if err != nil {
		t.Fatal(err)
	}
	eng, err := retrieval.New(bundle, retrieval.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	q := "what are the rate limits of the API"
	res := eng.Ask(retrieval.Query{Text: q})
	p := prompt.Builder{}.Build(prompt.Input{Question: q, Evidence: res.Results})
	if got := Answer(p); !strings.Contains(got, "300") {
		t.Errorf("answer lacks the limit (300 times within 5 minutes):\n%s", got)
	}
}

// procedure is a numbered list of n steps under a heading naming the
// action, the last one "Click Done".
func procedure(n int) prompt.DocBlock {
	var b strings.Builder
	b.WriteString("## Add a feed\n\nTo add a feed:\n\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "%d. Click the button number %d in the feed panel.\n", i, i)
	}
	fmt.Fprintf(&b, "%d. Click Done.\n", n)
	return block("actions/feeds#chunk-2", "Feed Actions", "Feed Actions > Add a feed", b.String())
}

func TestProcedureKeptWhole(t *testing.T) {
	other := block("concepts/feeds#chunk-0", "Feeds", "Feeds", "## Feeds\n\nA feed is a list of posts. You add a feed from the feed panel.")
	got := Answer(userMessage("how do I add a feed", other, procedure(5)))
	var want strings.Builder
	for i := 1; i < 5; i++ {
		fmt.Fprintf(&want, "%d. Click the button number %d in the feed panel.\n", i, i)
	}
	want.WriteString("5. Click Done. [actions/feeds#chunk-2]")
	if got != want.String() {
		t.Errorf("answer =\n%s\nwant\n%s", got, want.String())
	}
}

// A question whose words are spread over the steps of a numbered list
// gets the whole list, in order; one that a single step answers gets that
// step.
func TestNumberedStepBringsItsList(t *testing.T) {
	b := block("guides/export#chunk-1", "Export", "Export > Steps",
		"## Steps\n\n1. Open the Export menu.\n2. Choose PDF as the format.\n3. Click Save.")
	got := Answer(userMessage("how do I export to PDF", b))
	want := "1. Open the Export menu.\n2. Choose PDF as the format.\n3. Click Save. [guides/export#chunk-1]"
	if got != want {
		t.Errorf("answer =\n%s\nwant\n%s", got, want)
	}
	got = Answer(userMessage("which format PDF", b))
	if want := "Choose PDF as the format. [guides/export#chunk-1]"; got != want {
		t.Errorf("answer =\n%s\nwant\n%s", got, want)
	}
}

// A long procedure is cut after maxProcedureItems steps with the count of
// the rest, and "tell me more" goes on from the next step.
func TestLongProcedureContinues(t *testing.T) {
	steps := maxProcedureItems + 3
	first := Answer(userMessage("how do I add a feed", procedure(steps)))
	if !strings.Contains(first, fmt.Sprintf("%d. Click the button number %d", maxProcedureItems, maxProcedureItems)) ||
		strings.Contains(first, fmt.Sprintf("%d. ", maxProcedureItems+1)) {
		t.Fatalf("first answer does not stop after step %d:\n%s", maxProcedureItems, first)
	}
	if !strings.HasSuffix(first, `3 more steps follow: ask "tell me more".`) {
		t.Errorf("first answer does not say how many steps remain:\n%s", first)
	}
	more := answerTo([]prompt.DocBlock{procedure(steps)}, "tell me more", []string{first})
	want := fmt.Sprintf("%d. Click the button number %d in the feed panel.\n%d. Click the button number %d in the feed panel.\n%d. Click Done. [actions/feeds#chunk-2]",
		steps-2, steps-2, steps-1, steps-1, steps)
	if more != want {
		t.Errorf("tell me more =\n%s\nwant\n%s", more, want)
	}
	if again := answerTo([]prompt.DocBlock{procedure(steps)}, "tell me more", []string{first, more}); again != NothingMoreAnswer {
		t.Errorf("tell me more after the last step = %q", again)
	}
}

// "tell me more" goes on within the chunk the last answer stopped in,
// then into the next chunk; the model reads what was said from the
// conversation it is given.
func TestTellMeMoreContinuesWhereTheAnswerStopped(t *testing.T) {
	current := block("guides/sync#chunk-1", "Sync", "Sync > How it works",
		"## How it works\n\nSync runs every five minutes. It sends changed notes first. Large files wait for a fast connection. "+
			"Conflicts keep both copies. A badge marks a conflicted note.")
	next := block("guides/sync#chunk-2", "Sync", "Sync > Settings",
		"## Settings\n\nThe interval can be set from one to sixty minutes.")
	said := "Sync runs every five minutes. It sends changed notes first. Large files wait for a fast connection. [guides/sync#chunk-1]"
	p := userMessage("tell me more", current, next)
	p.History = []prompt.Message{{Role: "user", Text: "how does sync work"}, {Role: "assistant", Text: said}}
	got, err := New().Stream(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "Conflicts keep both copies. A badge marks a conflicted note. [guides/sync#chunk-1] " +
		"The interval can be set from one to sixty minutes. [guides/sync#chunk-2]"
	if got != want {
		t.Errorf("tell me more =\n%s\nwant\n%s", got, want)
	}
}

func TestNearDuplicatesDropped(t *testing.T) {
	b := block("actions/notes#chunk-1", "Note Actions", "Note Actions > Create",
		"## Create\n\nPress Ctrl+N to create a note in the current workspace. To create a note in the current workspace, press Ctrl+N. "+
			"A new note opens in edit mode.")
	got := Answer(userMessage("create note current workspace Ctrl+N", b))
	if strings.Count(got, "Ctrl+N") != 1 {
		t.Errorf("answer repeats itself:\n%s", got)
	}
}

// A sentence that opens a list answers with the list.
func TestLeadInAnswersWithItsList(t *testing.T) {
	b := block("admin/backups#chunk-1", "Backups", "Backups > Overview",
		"## Overview\n\nThings that need to be backed up in order of importance:\n\n1. PostgreSQL database\n2. Application secrets\n3. Redis database\n\n"+
			"Backups are best kept off the server.")
	got := Answer(userMessage("what needs to be backed up", b))
	want := "Things that need to be backed up in order of importance:\n\n1. PostgreSQL database.\n2. Application secrets.\n3. Redis database. [admin/backups#chunk-1]"
	if got != want {
		t.Errorf("answer =\n%s\nwant\n%s", got, want)
	}
}

// "X as described in … is a …" defines X: it leads the answer over a
// section whose heading merely asks what X is.
func TestDefinitionWithAnAsClause(t *testing.T) {
	b := block("spec/webfinger#chunk-0", "WebFinger", "WebFinger > What is WebFinger?",
		"## What is WebFinger?\n\nProfiles can live on other servers. "+
			"WebFinger as described in RFC 7033 is a spec that resolves links to a resource.")
	got, _ := firstSentence(Answer(userMessage("what is webfinger", b)))
	if !strings.HasPrefix(got, "WebFinger as described in RFC 7033 is a spec") {
		t.Errorf("answer opens with %q", got)
	}
}

// A sentence of another block joins the answer only when it adds a
// question word: the same words elsewhere are about something else.
func TestOtherBlockMustAddAWord(t *testing.T) {
	post := block("user/posting#chunk-1", "Posting", "Posting > Text", "## Text\n\nThe default character limit of a post is 500 characters.")
	field := block("methods/accounts#chunk-7", "Accounts", "Accounts > Fields", "## Fields\n\nBy default, the character limit of a field name is 255.")
	if got := Answer(userMessage("character limit", post, field)); strings.Contains(got, "255") {
		t.Errorf("answer adds the other block's limit:\n%s", got)
	}
}

// The same prompt gets the same answer every time: ties between
// sentences are broken by their place, never by map order.
func TestAnswerIsDeterministic(t *testing.T) {
	b := block("user/moving#chunk-0", "Moving", "Moving > Summary",
		"## Summary\n\n1. Create an account on another server.\n2. From the old account, export a list of people you follow.\n"+
			"3. From the new account, import the exported list of people you follow.\n\nThe list of people you follow can be exported at any time.")
	user := userMessage("export the list of people I follow", b)
	first := Answer(user)
	for range 50 {
		if got := Answer(user); got != first {
			t.Fatalf("answers differ:\n%s\n---\n%s", first, got)
		}
	}
}

// A question asking for a value is answered with the sentence giving it,
// though that sentence does not write the words that ask ("how long").
func TestAnswerGivesTheValueAsked(t *testing.T) {
	b := block("members/invite#chunk-1", "Invite people", "Invite people > Invitations",
		"## Invitations\n\nInvitations stay valid until someone accepts or you revoke them from the members page. "+
			"Each invitation link expires after 7 days, and you can send a new one.")
	got := Answer(userMessage("how long are invitations valid for", b))
	if !strings.Contains(got, "expires after 7 days") {
		t.Errorf("answer lacks the duration:\n%s", got)
	}
}
