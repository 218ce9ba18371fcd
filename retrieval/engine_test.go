package retrieval

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval/analysis"
)

func docsOf(res Result) []string {
	var out []string
	for _, ev := range res.Results {
		out = append(out, ev.DocSlug)
	}
	return out
}

func TestAskFound(t *testing.T) {
	e := newTestEngine(t, nil)
	res := e.Ask(Query{Text: "What is a workspace?"})
	if res.Status != StatusFound || res.Results[0].DocSlug != "concepts/workspace" {
		t.Fatalf("status %s (%s), results %v", res.Status, res.Rule, docsOf(res))
	}
	ev := res.Results[0]
	if ev.HeaderPath == "" || ev.ChunkID == "" || ev.ChunkHash == "" || ev.ContentHash == "" || ev.SourcePath == "" {
		t.Errorf("evidence is missing identifiers: %+v", ev)
	}
	if ev.Source != SourceKeyword || !slices.Contains(ev.MatchedTerms, "workspace") {
		t.Errorf("source %q matched %v", ev.Source, ev.MatchedTerms)
	}
	if !slices.Contains(ev.MatchExplain.Fields["title"], "workspace") || !ev.MatchExplain.ExactPhrase {
		t.Errorf("match_explain = %+v", ev.MatchExplain)
	}
	if len(ev.MatchExplain.Biases) != 1 || !strings.HasPrefix(ev.MatchExplain.Biases[0], "definitional ×1.5") {
		t.Errorf("biases = %v", ev.MatchExplain.Biases)
	}
	if res.Metrics.Phase != 2 || res.Metrics.Fallback != "" || res.Metrics.RetrievalMS <= 0 {
		t.Errorf("metrics = %+v", res.Metrics)
	}
}

func TestAskReplies(t *testing.T) {
	e := newTestEngine(t, nil)
	// The words of each reply are assistant's (see its TestReplies); the
	// result carries what they say: the options, and for no match the
	// question's topic.
	tests := []struct {
		query   string
		status  Status
		topic   []string
		options []string
	}{
		{"workspace", StatusAmbiguous, nil, []string{"concepts/workspace", "actions/workspaces"}},
		{"tangerine", StatusWeak, nil, []string{"widgets/recent"}},
		{"calendar", StatusNoMatch, []string{"calendar"}, nil},
		{"", StatusNoMatch, nil, nil},
		{"?!…", StatusNoMatch, nil, nil},
		{"how do I do it", StatusNoMatch, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			res := e.Ask(Query{Text: tt.query})
			if res.Status != tt.status || !slices.Equal(res.Topic, tt.topic) {
				t.Errorf("got %s about %q (rule %s), want %s about %q", res.Status, res.Topic, res.Rule, tt.status, tt.topic)
			}
			var got []string
			for _, o := range res.Options {
				got = append(got, o.DocSlug)
			}
			if !slices.Equal(got, tt.options) {
				t.Errorf("options = %v, want %v", got, tt.options)
			}
			if res.Options == nil || res.Results == nil || res.NormalizedTokens == nil {
				t.Error("slices must be empty, not nil, so JSON shows []")
			}
		})
	}
}

func TestAskTruncatesLongQueries(t *testing.T) {
	e := newTestEngine(t, nil)
	long := strings.Repeat("workspace,", 600) // 6000 characters
	res := e.Ask(Query{Text: long})
	if utf8.RuneCountInString(res.Query) != MaxQueryChars {
		t.Errorf("query has %d characters, want %d", utf8.RuneCountInString(res.Query), MaxQueryChars)
	}
	if !slices.Contains(res.Notes, "query truncated to 4000 characters") {
		t.Errorf("notes = %v", res.Notes)
	}
}

func TestDedupeCap(t *testing.T) {
	e := newTestEngine(t, nil)
	res := e.Ask(Query{Text: "recent"})
	perDoc := map[string]int{}
	for _, ev := range res.Results {
		perDoc[ev.DocSlug]++
		if perDoc[ev.DocSlug] > 2 {
			t.Fatalf("more than 2 chunks of %s: %v", ev.DocSlug, docsOf(res))
		}
	}
	if res.Metrics.DedupeTrimmed < 1 {
		t.Errorf("dedupe_trimmed = %d, want ≥ 1 (widgets/recent has 3 matching chunks)", res.Metrics.DedupeTrimmed)
	}
	e2 := newTestEngine(t, func(c *Config) { c.TopK = 1 })
	if res := e2.Ask(Query{Text: "recent"}); len(res.Results) != 1 {
		t.Errorf("TopK 1: %d results", len(res.Results))
	}
}

func TestMultiIntent(t *testing.T) {
	e := newTestEngine(t, nil)
	res := e.Ask(Query{Text: "workspace and quick links"})
	if res.Status != StatusMulti {
		t.Fatalf("status %s (%s): %v", res.Status, res.Rule, docsOf(res))
	}
	if len(res.Options) != 2 || !strings.Contains(res.Options[0].DocSlug, "workspace") || res.Options[1].DocSlug != "widgets/quick-links" {
		t.Errorf("options = %+v", res.Options)
	}
	// Each part is answered from its own doc: option i's evidence comes i-th.
	if len(res.Results) < 2 || res.Results[0].DocSlug != res.Options[0].DocSlug || res.Results[1].DocSlug != res.Options[1].DocSlug {
		t.Errorf("evidence %v does not lead with the options' docs", docsOf(res))
	}
	// One strong part is not multi-intent: a bare topic that a doc only
	// mentions is not answered by it.
	if res := e.Ask(Query{Text: "workspace and tangerine"}); res.Status == StatusMulti {
		t.Errorf("one strong part gave multi: %+v", res.Options)
	}
	// A part of a few words that a doc's text covers is answered by it,
	// though no heading names them.
	res = e.Ask(Query{Text: "workspace and who the tangerine badge marks"})
	if res.Status != StatusMulti || len(res.Options) != 2 || res.Options[1].DocSlug != "widgets/recent" {
		t.Errorf("status %s (%s), options %+v: want multi with widgets/recent", res.Status, res.Rule, res.Options)
	}
}

// TestMultiIntentPartialPart: in a question of two parts, one strong part
// shows that two things are asked, so the other needs only a doc that
// names and covers part of it: the asker's "the rest of the team" is
// words no doc writes.
func TestMultiIntentPartialPart(t *testing.T) {
	docs := []knowledge.Doc{
		makeDoc("help/import-from-slack", "Import from Slack", nil, "Bring a Slack workspace's channels and messages over.",
			section{"Export from Slack", "An owner of the Slack workspace exports its history first."}),
		makeDoc("help/invite-new-users", "Invite team members", nil, "Send an invitation by email to the people joining.",
			section{"Invitation links", "A link lets anyone with it join until it expires."}),
		makeDoc("help/channels", "Channels", nil, "Channels hold the conversations of a team, one topic each.",
			section{"Archive a channel", "An archived channel keeps its messages and accepts no new ones."}),
		makeDoc("help/billing", "Plans and billing", nil, "Each plan is billed per member and month.",
			section{"Change plan", "Owners change the plan under Settings."}),
		makeDoc("help/profile", "Your profile", nil, "Your name, photo and status show next to your messages.",
			section{"Status", "A status says what you are up to, and clears itself at the time you set."}),
	}
	e := engineOf(t, knowledge.Bundle{Docs: docs})
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"import our slack workspace + invite the rest of the team", []string{"help/import-from-slack", "help/invite-new-users"}},
		// The options follow the question's order, whichever part is strong.
		{"invite the rest of the team and import our slack workspace", []string{"help/invite-new-users", "help/import-from-slack"}},
	} {
		res := e.Ask(Query{Text: tc.query})
		var got []string
		for _, o := range res.Options {
			got = append(got, o.DocSlug)
		}
		if res.Status != StatusMulti || !slices.Equal(got, tc.want) {
			t.Errorf("%q: status %s (%s), options %v; want multi %v", tc.query, res.Status, res.Rule, got, tc.want)
		}
	}
	// A part no doc names is circumstance, not a second question.
	if res := e.Ask(Query{Text: "import our slack workspace, the rest is history"}); res.Status == StatusMulti {
		t.Errorf("a part no doc names gave multi: %+v", res.Options)
	}
}

func TestLookupAndContinue(t *testing.T) {
	e := newTestEngine(t, nil)
	res := e.Lookup("widgets/recent")
	if res.Status != StatusFound || len(res.Results) != 1 || res.Results[0].ChunkID != "widgets/recent#chunk-0" {
		t.Fatalf("lookup: %s %v", res.Status, res.Results)
	}
	first := res.Results[0].ChunkID
	next := e.Continue(first, []string{first})
	if next.Status != StatusFound || next.Results[0].ChunkID != "widgets/recent#chunk-1" {
		t.Fatalf("continue: %s %+v", next.Status, next.Results)
	}
	// chunk 2 is heading-only: skipped.
	after := e.Continue("widgets/recent#chunk-1", nil)
	if after.Results[0].ChunkID != "widgets/recent#chunk-3" {
		t.Errorf("after chunk 1: %s, want chunk 3", after.Results[0].ChunkID)
	}
	// Already shown chunks are skipped.
	if r := e.Continue(first, []string{"widgets/recent#chunk-1"}); r.Results[0].ChunkID != "widgets/recent#chunk-3" {
		t.Errorf("shown chunk not skipped: %s", r.Results[0].ChunkID)
	}
	end := e.Continue("widgets/recent#chunk-3", nil)
	if end.Status != StatusNoMatch || end.Rule != RuleEndOfDoc || len(end.Notes) == 0 {
		t.Errorf("end of doc: %s %s %v", end.Status, end.Rule, end.Notes)
	}
	// "tell me more" in Ask is the same path.
	more := e.Ask(Query{Text: "Tell me more", LastChunkID: first, Shown: []string{first}})
	if more.Rule != RuleFollowUp || more.Results[0].ChunkID != "widgets/recent#chunk-1" {
		t.Errorf("tell me more: %s %v", more.Rule, more.Results)
	}
	if r := e.Ask(Query{Text: "more"}); r.Status != StatusNoMatch || r.Rule != RuleNoFollowUpOf {
		t.Errorf("more without history: %s %s", r.Status, r.Rule)
	}
	for _, bad := range []string{"nope/doc", ""} {
		if r := e.Lookup(bad); r.Status != StatusNoMatch || r.Rule != RuleUnknown {
			t.Errorf("Lookup(%q): %s %s", bad, r.Status, r.Rule)
		}
	}
	for _, bad := range []string{"widgets/recent", "widgets/recent#chunk-x", "nope#chunk-1"} {
		if r := e.Continue(bad, nil); r.Status != StatusNoMatch || r.Rule != RuleUnknown {
			t.Errorf("Continue(%q): %s %s", bad, r.Status, r.Rule)
		}
	}
	// A links-only chunk is never an answer.
	if r := e.Continue("widgets/quick-links#chunk-1", nil); r.Status != StatusNoMatch {
		t.Errorf("continued into a links-only chunk: %+v", r.Results)
	}
}

func TestDisabled(t *testing.T) {
	e := newTestEngine(t, func(c *Config) { c.Enabled = false })
	res := e.Ask(Query{Text: "what is a workspace"})
	if res.Status != StatusNoMatch || res.Rule != RuleDisabled || len(res.Results) != 0 {
		t.Errorf("disabled: %s %s %d results", res.Status, res.Rule, len(res.Results))
	}
}

// The fallback chain on the knowledge bases that take it: docs with no
// answerable chunk leave Phase 2 nothing, so Phase 1 answers; a knowledge
// base with a glossary and no docs leaves both phases nothing, so the
// glossary answers, or the generic reply.
func TestFallbackChain(t *testing.T) {
	glossaryOnly, err := New(knowledge.Bundle{Glossary: testGlossary}, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		query    string
		fallback string
		status   Status
		rule     string
	}{
		{"what is a workspace", "glossary", StatusFound, RuleGlossary},
		{"tangerine", "generic", StatusNoMatch, RuleGeneric},
	} {
		res := glossaryOnly.Ask(Query{Text: tt.query})
		if res.Metrics.Fallback != tt.fallback || res.Metrics.Phase != 1 || res.Status != tt.status || res.Rule != tt.rule {
			t.Errorf("%s: got fallback %q phase %d %s %s, want %q 1 %s %s", tt.query, res.Metrics.Fallback, res.Metrics.Phase, res.Status, res.Rule, tt.fallback, tt.status, tt.rule)
		}
		if len(res.Notes) < 2 || !strings.Contains(res.Notes[0], "phase 2 failed") || !strings.Contains(res.Notes[1], "phase 1 failed") {
			t.Errorf("%s: notes should say why: %v", tt.query, res.Notes)
		}
		if tt.rule == RuleGlossary && (res.Results[0].DocSlug != "glossary" || res.Results[0].Title != "Workspace") {
			t.Errorf("glossary answer: %+v", res.Results)
		}
	}
	// Docs without chunks: Phase 2 has nothing, Phase 1 answers.
	docs := testDocs()
	for i := range docs {
		docs[i].Chunks = nil
	}
	e2, err := New(testBundle(docs), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if res := e2.Ask(Query{Text: "what is a workspace"}); res.Metrics.Fallback != "phase1" || res.Results[0].DocSlug != "concepts/workspace" {
		t.Errorf("no chunks: %+v %v", res.Metrics, docsOf(res))
	}
}

func TestPhase1(t *testing.T) {
	e := newTestEngine(t, func(c *Config) { c.Phase = 1 })
	res := e.Ask(Query{Text: "what are quick links"})
	if res.Metrics.Phase != 1 || res.Status != StatusFound || res.Results[0].DocSlug != "widgets/quick-links" {
		t.Fatalf("phase 1: %+v %s %v", res.Metrics, res.Status, docsOf(res))
	}
	if res.Results[0].ChunkIndex != -1 || res.Results[0].ChunkID != "" {
		t.Errorf("whole-doc evidence has chunk identity: %+v", res.Results[0])
	}
}

func TestControlSequencesNeverSurvive(t *testing.T) {
	docs := []knowledge.Doc{makeDoc("concepts/evil", "Evil\x1b[31m Title", []string{"evil"},
		"Evil text \x1b]0;owned\x07with an escape.\x1b[2J It clears the screen.",
		section{"Overview", "More evil \u009b31m here."})}
	e := engineOf(t, knowledge.Bundle{Docs: docs})
	for _, res := range []Result{e.Ask(Query{Text: "evil\x1b[5m title"}), e.Lookup("concepts/evil"), e.Continue("concepts/evil#chunk-0", nil)} {
		for _, s := range append([]string{res.Query}, evidenceStrings(res)...) {
			if strings.ContainsAny(s, "\x1b\x07\u009b") {
				t.Errorf("control sequence survived: %q", s)
			}
		}
	}
}

func evidenceStrings(res Result) []string {
	var out []string
	for _, o := range res.Options {
		out = append(out, o.Label, o.Category)
	}
	for _, ev := range res.Results {
		out = append(out, ev.Title, ev.Snippet, ev.Content, ev.HeaderPath, ev.Category)
	}
	return out
}

func TestNewRejectsBadInput(t *testing.T) {
	docs := testDocs()
	docs = append(docs, docs[0])
	if _, err := New(knowledge.Bundle{Docs: docs}, DefaultConfig()); err == nil || !strings.Contains(err.Error(), `duplicate doc slug "concepts/workspace"`) {
		t.Errorf("duplicate slug: %v", err)
	}
	cfg := DefaultConfig()
	cfg.Phase = 3
	if _, err := New(knowledge.Bundle{Docs: testDocs()}, cfg); err == nil || !strings.Contains(err.Error(), "phase 3") {
		t.Errorf("phase 3: %v", err)
	}
	e, err := New(knowledge.Bundle{}, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if res := e.Ask(Query{Text: "workspace"}); res.Status != StatusNoMatch {
		t.Errorf("empty engine: %s", res.Status)
	}
}

func TestSize(t *testing.T) {
	docs, chunks := newTestEngine(t, nil).Size()
	if docs != 5 || chunks != 15 {
		t.Errorf("size = %d docs, %d chunks", docs, chunks)
	}
}

func TestSearch(t *testing.T) {
	e := newTestEngine(t, nil)
	hits := e.Search("quick links widget", 3)
	if len(hits) == 0 || hits[0].DocSlug != "widgets/quick-links" {
		t.Fatalf("hits = %+v", hits)
	}
	for i := 1; i < len(hits); i++ {
		if hits[i].RankScore > hits[i-1].RankScore {
			t.Errorf("not sorted by rank: %+v", hits)
		}
	}
	if len(e.Search("the", 3)) != 0 || len(e.Search("workspace", 0)) != 0 {
		t.Error("stopword-only query or zero limit should return nothing")
	}
}

func TestConcurrentAsk(t *testing.T) {
	e := newTestEngine(t, nil)
	want := e.Ask(Query{Text: "what is a workspace"})
	done := make(chan Result)
	for i := 0; i < 8; i++ {
		go func() {
			var last Result
			for j := 0; j < 20; j++ {
				e.Ask(Query{Text: "recent and quick links"})
				e.Search("workspace", 3)
				last = e.Ask(Query{Text: "what is a workspace"})
			}
			done <- last
		}()
	}
	for i := 0; i < 8; i++ {
		got := <-done
		if got.Status != want.Status || got.Results[0].ChunkID != want.Results[0].ChunkID {
			t.Errorf("concurrent answer differs: %s %s", got.Status, got.Results[0].ChunkID)
		}
	}
}

// A question that speaks for its asker ("my account") is a reader's task:
// the page written to the reader outranks a reference that names the same
// words more strongly; asked without the first person, the reference keeps
// its place.
func TestReaderPerspective(t *testing.T) {
	docs := []knowledge.Doc{
		makeDoc("methods/accounts", "Accounts API", nil, "Methods concerning accounts.",
			section{"Delete account", "DELETE /api/v1/accounts/:id. Deletes the account. Returns the deleted Account. Token: admin. The account delete request is logged."}),
		makeDoc("user/settings", "Settings", nil, "Your profile and preferences.",
			section{"Delete account", "You can delete your account from the preferences. Your posts are removed after thirty days."}),
	}
	e := engineOf(t, testBundle(docs))
	top := func(q string) Evidence {
		t.Helper()
		res := e.Ask(Query{Text: q})
		if len(res.Results) == 0 {
			t.Fatalf("%q: no results (%s, %s)", q, res.Status, res.Rule)
		}
		return res.Results[0]
	}
	if ev := top("delete account"); ev.DocSlug != "methods/accounts" {
		t.Errorf("delete account: top %s, want the reference (more mentions, no first person)", ev.DocSlug)
	}
	ev := top("how do I delete my account")
	if ev.DocSlug != "user/settings" {
		t.Fatalf("how do I delete my account: top %s, want the page written to the reader", ev.DocSlug)
	}
	if !slices.ContainsFunc(ev.MatchExplain.Biases, func(b string) bool { return strings.HasPrefix(b, "reader ×") }) {
		t.Errorf("biases = %v, want the reader factor explained", ev.MatchExplain.Biases)
	}
}

// A release log names features in passing, as they change: it ranks
// below the page about the feature, and is named in the evidence as
// damped; a question about a version ranks it as any page.
func TestReleaseLogRanksBelowTheFeaturePage(t *testing.T) {
	docs := []knowledge.Doc{
		makeDoc("setup/navigation", "Navigation", nil, "How readers move through the site.",
			section{"Sticky tabs", "Enable sticky tabs so the tabs stay visible under the header while the reader scrolls."}),
		makeDoc("changelog", "Changelog", nil, "Every release.",
			section{"9.5.3 (2024-01-07)", "Fixed: keep the tabs sticky under the header when scrolling. Fixed sticky tabs scrolling under the header. Sticky tabs: header scrolling fix."},
			section{"9.5.2 (2023-12-18)", "Fixed search highlighting."},
			section{"9.5.1", "Fixed the blog plugin."}),
	}
	e := engineOf(t, testBundle(docs))
	res := e.Ask(Query{Text: "keep the tabs sticky under the header when scrolling"})
	if len(res.Results) == 0 || res.Results[0].DocSlug != "setup/navigation" {
		t.Fatalf("top %+v, want the navigation page above the release log", res.Candidates)
	}
	for _, ev := range res.Results {
		if ev.DocSlug == "changelog" && !slices.Contains(ev.MatchExplain.Biases, "release log ×0.5") {
			t.Errorf("changelog evidence biases %v, want the release log damping named", ev.MatchExplain.Biases)
		}
	}
	for _, q := range []string{"sticky tabs fix in 9.5.3", "which release fixed sticky tabs scrolling under the header"} {
		res = e.Ask(Query{Text: q})
		if len(res.Candidates) == 0 || res.Candidates[0].DocSlug != "changelog" {
			t.Errorf("%q, asked about a release: top %+v, want the release log", q, res.Candidates)
		}
	}
}

// A series of release notes, a page per version, is damped as a release
// log: each page names, in passing, every feature its version changed.
func TestReleaseSeriesRanksBelowTheFeaturePage(t *testing.T) {
	docs := []knowledge.Doc{
		makeDoc("topics/auth/customizing", "Customizing authentication", nil, "Custom users.",
			section{"Custom user model", "Set USERNAME_FIELD to log in with an email address instead of a username."}),
	}
	for _, v := range []string{"1.5", "1.5.1", "1.6"} {
		docs = append(docs, makeDoc("releases/"+v, "Framework "+v+" release notes", nil, "What changed.",
			section{"Configurable user model", "Log in with an email address instead of a username: the user model is configurable, so log in with email address instead of username works."}))
	}
	e := engineOf(t, testBundle(docs))
	res := e.Ask(Query{Text: "log in with an email address instead of a username"})
	if len(res.Results) == 0 || res.Results[0].DocSlug != "topics/auth/customizing" {
		t.Fatalf("top %+v, want the guide above the release notes", res.Candidates)
	}
	res = e.Ask(Query{Text: "email address login in 1.5"})
	if len(res.Candidates) == 0 || !strings.HasPrefix(res.Candidates[0].DocSlug, "releases/1.5") {
		t.Errorf("asked about a version: top %+v, want its release notes", res.Candidates)
	}
}

func TestReleaseSeries(t *testing.T) {
	slugs := []string{"releases/3.2", "releases/3.2.1", "releases/3.1", "releases/index", "upgrade/2.0", "upgrade/3.0", "guide/v1.2", "guide/v1.3", "guide/v1.4"}
	titles := []string{"Django 3.2 release notes", "Django 3.2.1 release notes", "Django 3.1 release notes", "Release notes",
		"Upgrading to 2.0", "Upgrading to 3.0", // two: no series
		"Install v1.2", "Install", "Configure v1.4"} // titles that differ beyond the version
	want := []bool{true, true, true, false, false, false, false, false, false}
	if got := releaseSeries(slugs, titles); !slices.Equal(got, want) {
		t.Errorf("releaseSeries = %v, want %v", got, want)
	}
}

func TestReleaseLog(t *testing.T) {
	for _, tc := range []struct {
		md   string
		want bool
	}{
		{"# Changelog\n\n## 2.4.0 (2025-05-12)\n\nA.\n\n## 2.3.1\n\nB.\n\n## v2.3.0\n\nC.", true},
		{"# What's new\n\n## May 12, 2025\n\nA.\n\n## 3 March 2025\n\nB.\n\n## Older\n\nC.", true},
		{"# Upgrading\n\n## From 1.x\n\nA.\n\n## Backups\n\nB.\n\n## Rolling back to 2.0\n\nC.\n\n## Checks\n\nD.", false},
		// Keep a Changelog: each version's changes under their own headings.
		{"# Changelog\n\n## [1.2.0] - 2024-03-01\n\n### Added\n\nA.\n\n### Fixed\n\nB.\n\n## [1.1.0] - 2024-01-10\n\n### Changed\n\nC.\n\n### Removed\n\nD.\n\n## [1.0.0] - 2023-12-01\n\n### Added\n\nE.", true},
		// A guide whose sections are no versions, though one lists some.
		{"# Install\n\n## Linux\n\nA.\n\n## macOS\n\nB.\n\n## Windows\n\nC.\n\n## Versions\n\n### 1.2\n\n### 1.3\n\n### 1.4\n\n### 1.5\n\nD.", false},
		{"## 1.0\n\nA.\n\n## 2.0\n\nB.", false},                                   // fewer than minLogHeadings
		{"# Install\n\n```sh\n# 1.2\n# 1.3\n# 1.4\n```\n\n## Steps\n\nA.", false}, // comments in code are no headings
	} {
		if got := releaseLog(tc.md); got != tc.want {
			t.Errorf("releaseLog(%q) = %v, want %v", tc.md, got, tc.want)
		}
	}
}

// An identifier is an exact name: a question that writes one the docs never
// write ("Next.js") is not answered from a page that only uses its parts
// ("next to", "app.js"); the same question about an identifier the docs do
// write is.
func TestUnknownIdentifier(t *testing.T) {
	docs := []knowledge.Doc{
		makeDoc("setup/rendering", "Rendering", nil, "How pages are rendered.",
			section{"Server-side rendering", "Server-side rendering builds each page on the server. Load app.js next to the page to hydrate it."}),
		themeDoc("setup/theme"),
	}
	e := engineOf(t, testBundle(docs))
	if res := e.Ask(Query{Text: "server-side rendering with app.js"}); res.Status != StatusFound {
		t.Errorf("app.js: %s (%s), want found", res.Status, res.Rule)
	}
	res := e.Ask(Query{Text: "server-side rendering with next.js"})
	if res.Status != StatusNoMatch || res.Rule != RuleUnknownIdentifier {
		t.Errorf("next.js: %s (%s), want no_match by %q", res.Status, res.Rule, RuleUnknownIdentifier)
	}
}

// A bare topic written in camel case ("PgBouncer") is a name, like an
// identifier: a page that only mentions it is no second meaning of it.
// Written in lower case, the same word is a topic like any other.
func TestCamelCaseNameNamesOneThing(t *testing.T) {
	docs := []knowledge.Doc{
		makeDoc("admin/scaling", "Scaling up", nil, "Run more processes as the server grows.",
			section{"PgBouncer", "PgBouncer pools database connections, so many processes share few of them."}),
		makeDoc("admin/troubleshooting", "Troubleshooting", nil, "What to check when the server misbehaves.",
			section{"Too many connections", "Behind PgBouncer, raise the PgBouncer pool size."}),
		themeDoc("admin/theme"),
	}
	e := engineOf(t, testBundle(docs))
	if res := e.Ask(Query{Text: "PgBouncer"}); res.Status != StatusFound || res.Results[0].DocSlug != "admin/scaling" {
		t.Errorf("PgBouncer: %s (%s) %v, want found on admin/scaling", res.Status, res.Rule, docsOf(res))
	}
	if res := e.Ask(Query{Text: "pgbouncer"}); res.Status != StatusAmbiguous {
		t.Errorf("pgbouncer: %s (%s) %v, want ambiguous", res.Status, res.Rule, docsOf(res))
	}
}

// A question that writes a doc's title of two words or more as a phrase
// names that doc: it gets the bias of the doc titled so, though another
// page says the words more often. The same words apart name nothing.
func TestTitlePhraseNamesTheDoc(t *testing.T) {
	docs := []knowledge.Doc{
		makeDoc("admin/object-storage", "Object storage", nil, "Keep uploaded media in a bucket.",
			section{"Configure", "Set the bucket name and the credentials, then restart."}),
		makeDoc("admin/backups", "Backups", nil, "Back up the database and the media.",
			section{"Media", "Media in object storage needs no backup of its own: object storage keeps copies. Set up the database dump."}),
		themeDoc("admin/theme"),
	}
	e := engineOf(t, testBundle(docs))
	res := e.Ask(Query{Text: "how do I set up object storage"})
	if len(res.Results) == 0 || res.Results[0].DocSlug != "admin/object-storage" {
		t.Fatalf("results %v, want admin/object-storage first", docsOf(res))
	}
	if b := res.Results[0].MatchExplain.Biases; len(b) == 0 || !strings.Contains(b[0], "the doc titled so") {
		t.Errorf("biases %v, want the title's", b)
	}
	res = e.Ask(Query{Text: "set up storage for each object"})
	for _, ev := range res.Results {
		if ev.DocSlug == "admin/object-storage" && len(ev.MatchExplain.Biases) > 0 {
			t.Errorf("the title's words apart gave a bias: %v", ev.MatchExplain.Biases)
		}
	}
}

// A longer question that writes a name in camel case is named by the
// page that writes it, in a heading or not: "InsecureRequestWarning" is
// the subject of the question, and a page that writes it is about it.
func TestCamelCaseNameInTextNamesTheDoc(t *testing.T) {
	docs := []knowledge.Doc{
		makeDoc("advanced", "Advanced usage", nil, "Pools, proxies and certificates.",
			section{"Certificates", "Verify certificates with a CA bundle. Without verification, each request emits an InsecureRequestWarning; call disable_warnings to silence the console."}),
		makeDoc("user-guide", "User guide", nil, "Making requests.",
			section{"Logging", "The library logs each new connection at debug level to the console."}),
		themeDoc("theme"),
	}
	e := engineOf(t, testBundle(docs))
	res := e.Ask(Query{Text: "InsecureRequestWarning flooding the console, how to silence it"})
	if res.Status != StatusFound || res.Results[0].DocSlug != "advanced" {
		t.Errorf("status %s (%s) %v, want found on advanced", res.Status, res.Rule, docsOf(res))
	}
	// Written in lower case, the word is a word like any: the page only
	// mentions it.
	if res := e.Ask(Query{Text: "insecurerequestwarning flooding the console, how to silence it"}); res.Status == StatusFound {
		t.Errorf("lower case: %s (%s), want the page not to name it", res.Status, res.Rule)
	}
}

// A found question is answered from a doc ranked within the margin of
// the top that names it at least twice as strongly: ranks that close do
// not tell the docs apart, their headings do.
func TestFoundFromTheDocNamingItMore(t *testing.T) {
	docs := []knowledge.Doc{
		makeDoc("admin/upgrading", "Upgrading Ferrydock", nil, "Upgrade the server in place.",
			section{"Packages", "On Ubuntu, install the new package over the old one: the install keeps your data. Ubuntu installs restart the service, and an Ubuntu install of Ferrydock keeps its settings. Install Ferrydock again on Ubuntu only if asked: an Ubuntu reinstall of Ferrydock is rarely needed."}),
		makeDoc("getting-started/installation", "Installation", nil, "Ferrydock runs on any Linux server.",
			section{"Ubuntu", "Install Ferrydock from our repository."}),
		themeDoc("guide/theme"),
	}
	e := engineOf(t, testBundle(docs))
	res := e.Ask(Query{Text: "install ferrydock on ubuntu"})
	if res.Status != StatusFound || res.Rule != RuleNamedMore || res.Results[0].DocSlug != "getting-started/installation" {
		t.Errorf("status %s (%s) %v, want found from the installation page by %q", res.Status, res.Rule, docsOf(res), RuleNamedMore)
	}
}

func TestKnows(t *testing.T) {
	e := newTestEngine(t, nil)
	for _, tc := range []struct {
		word string
		want bool
	}{
		{"workspace", true},
		{"Workspaces", true}, // a variant of what the docs write
		{"homepage", true},   // a synonym rule's word
		{"zebrafish", false}, // neither
		{"quick links", false},
		{"", false},
	} {
		if got := e.Knows(tc.word); got != tc.want {
			t.Errorf("Knows(%q) = %v, want %v", tc.word, got, tc.want)
		}
	}
	for _, d := range testDocs() {
		for _, w := range strings.Fields(d.Title) {
			if !e.Knows(w) && !analysis.IsStopword(strings.ToLower(w)) {
				t.Errorf("a word of the title %q is unknown: %q", d.Title, w)
			}
		}
	}
}

// "repo" is the docs' "repository": the question is covered, and found.
func TestClippedWordsFindTheFullWord(t *testing.T) {
	docs := append(testDocs(), makeDoc("setup/git", "Adding a git repository", nil,
		"Connect the site to its source repository.",
		section{"Repository stars", "The header shows the number of stars and forks of the repository."}))
	e := engineOf(t, testBundle(docs))
	res := e.Ask(Query{Text: "show the repo stars"})
	if res.Status != StatusFound || len(res.Results) == 0 || res.Results[0].DocSlug != "setup/git" {
		t.Fatalf("status %s (%s), results %v, want setup/git found", res.Status, res.Rule, docsOf(res))
	}
	if c := res.Candidates[0]; c.Coverage < 1 {
		t.Errorf("coverage %v: the docs' repository does not cover the question's repo", c.Coverage)
	}
}

func TestAsksRelease(t *testing.T) {
	for q, want := range map[string]bool{
		"which release fixed the scheduler enqueuing jobs twice": true,
		"what release added dark mode":                           true,
		"when was the streaming API released":                    true,
		"is that in the changelog":                               true,
		"warn readers browsing an outdated release of the docs":  false,
		"release a hold on an order":                             false,
		"how do I publish a new release":                         false,
	} {
		if got := asksRelease(analysis.Tokens(q)); got != want {
			t.Errorf("asksRelease(%q) = %v, want %v", q, got, want)
		}
	}
}
