package retrieval

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval/analysis"
)

func TestNormalizeSynonyms(t *testing.T) {
	b := testBundle(testDocs())
	b.Synonyms = append(b.Synonyms, knowledge.Synonym{From: "sign in page", To: "home"})
	e, err := New(b, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, query string
		want        []string
		rewrites    int
	}{
		{"word rule", "where are my shortcuts", []string{"quick", "link"}, 1},
		{"singular of a plural rule", "shortcut", []string{"quick", "link"}, 1},
		{"word rule to a known term", "homepage", []string{"home"}, 1},
		{"phrase rule with a stopword inside", "the sign in page", []string{"home"}, 1},
		{"no rule", "workspace", []string{"workspace"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := e.norm.normalize(tt.query)
			if !slices.Equal(q.terms, tt.want) {
				t.Errorf("terms = %q, want %q", q.terms, tt.want)
			}
			if len(q.synonyms) != tt.rewrites {
				t.Errorf("synonym rewrites = %v, want %d", q.synonyms, tt.rewrites)
			}
		})
	}
}

func TestSynonymNeverRewritesKnownTerm(t *testing.T) {
	docs := append(testDocs(), makeDoc("concepts/dashboard", "Dashboard", []string{"dashboard"},
		"A dashboard is a page of widgets that belongs to an entry."))
	e := engineOf(t, testBundle(docs))
	q := e.norm.normalize("dashboard")
	if !slices.Equal(q.terms, []string{"dashboard"}) || len(q.synonyms) != 0 {
		t.Errorf("with a Dashboard doc, dashboard must stay: terms %q, rewrites %v", q.terms, q.synonyms)
	}
	// Without that doc the bundle's rule applies.
	e2 := newTestEngine(t, nil)
	q = e2.norm.normalize("dashboard")
	if !slices.Equal(q.terms, []string{"home"}) {
		t.Errorf("without a Dashboard doc: terms %q, want [home]", q.terms)
	}
}

func TestNormalizeStemming(t *testing.T) {
	e := newTestEngine(t, nil)
	q := e.norm.normalize("pinned addresses")
	if !slices.Equal(q.terms, []string{"pinned", "address"}) {
		t.Errorf("terms = %q", q.terms)
	}
	if !slices.Contains(q.stemmed, Rewrite{From: "addresses", To: "address"}) {
		t.Errorf("stemmed = %v, want addresses → address recorded", q.stemmed)
	}
	// A known term (a keyword) stems like any word, so "workspaces"
	// meets a doc titled "Workspace".
	q = e.norm.normalize("workspaces")
	if !slices.Equal(q.terms, []string{"workspace"}) {
		t.Errorf("terms = %q, want [workspace]", q.terms)
	}
}

func TestNormalizeTypos(t *testing.T) {
	e := newTestEngine(t, nil)
	tests := []struct {
		query, want string
		fixed       bool
	}{
		{"wrkspace", "workspace", true},       // 8 letters: distance 1 here
		{"wokrspace", "workspace", true},      // transposition
		{"wrkspce", "workspace", false},       // 7 letters, distance 2: too far
		{"wrkspacs", "workspace", true},       // 8 letters, distance 2
		{"recnt", "recent", true},             // 5 letters, distance 1
		{"hme", "hme", false},                 // under 4 letters: never fixed
		{"zebra", "zebra", false},             // nothing close
		{"tangerine", "tangerine", false},     // in the vocabulary: left alone
		{"coworkspace", "coworkspace", false}, // a prefix on a word the docs write: a word of its own
		{"unrecent", "unrecent", false},
	}
	for _, tt := range tests {
		q := e.norm.normalize(tt.query)
		got := strings.Join(q.terms, " ")
		if tt.fixed {
			if got != tt.want || len(q.typos) != 1 || q.typos[0].To != tt.want {
				t.Errorf("%q: terms %q typos %v, want fix to %q", tt.query, got, q.typos, tt.want)
			}
		} else if len(q.typos) != 0 {
			t.Errorf("%q: unexpected typo fix %v", tt.query, q.typos)
		}
	}
}

// A spelling slip of a word only a doc's text writes (no title or heading
// has it) is that word; another edit is not, since without a dictionary a
// word one letter from the docs' is as likely a word of its own.
func TestNormalizeSlips(t *testing.T) {
	e := newTestEngine(t, nil)
	// "template" and "onboarding" are only in the text of Workspace's
	// settings and overview.
	// "onbaorded" is a slip in another form of the word: its stem is a
	// slip of "onboarding"'s.
	for _, tc := range []struct{ query, word string }{{"tempalte", "template"}, {"onbaording", "onboarding"}, {"onbaorded", "onboarding"}, {"templae", ""}} {
		q := e.norm.normalize(tc.query)
		fixed := slices.Contains(q.typos, Rewrite{From: tc.query, To: tc.word})
		if tc.word != "" && !fixed || tc.word == "" && len(q.typos) != 0 {
			t.Errorf("%q: terms %q typos %v, want fixed to %q", tc.query, q.terms, q.typos, tc.word)
		}
	}
}

// A slip of a function word is read as the function word, and weighs
// nothing; a known term it might be a slip of is the likelier meant.
func TestNormalizeStopwordTypos(t *testing.T) {
	e := newTestEngine(t, nil)
	q := e.norm.normalize("wher is the recent widget")
	if !slices.Equal(q.terms, []string{"recent", "widget"}) || len(q.typos) != 1 || q.typos[0] != (Rewrite{From: "wher", To: "where"}) {
		t.Errorf("terms %q typos %v, want [recent widget] with wher read as where", q.terms, q.typos)
	}
	// "waht" is a swap in "what"; "come" is a word, not a slip of "some"
	// (this knowledge base reads it as its "home").
	q = e.norm.normalize("waht is come")
	if slices.ContainsFunc(q.typos, func(r Rewrite) bool { return r.To == "some" }) || !slices.Contains(q.typos, Rewrite{From: "waht", To: "what"}) {
		t.Errorf("typos %v, want waht read as what and come not as some", q.typos)
	}
}

// A common word one letter from a function word is meant as typed: "world"
// is no slip of "would", nor "night" of "might", though the docs write
// neither. Dropped as a slip, it would leave the question to its other
// words; kept, it weighs as a word the docs do not cover.
func TestNormalizeCommonWordIsNoStopwordSlip(t *testing.T) {
	e := newTestEngine(t, nil)
	q := e.norm.normalize("widget night world")
	if !slices.Contains(q.terms, "night") || !slices.Contains(q.terms, "world") || len(q.typos) != 0 {
		t.Errorf("terms %q typos %v, want night and world kept as typed", q.terms, q.typos)
	}
}

func TestSynonymsComeOnlyFromTheBundle(t *testing.T) {
	e, err := New(knowledge.Bundle{Docs: testDocs(), Glossary: testGlossary}, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, query := range []string{"where are my shortcuts", "homepage", "dashboard"} {
		if q := e.norm.normalize(query); len(q.synonyms) != 0 {
			t.Errorf("%q rewritten %v by a bundle without synonyms", query, q.synonyms)
		}
	}
}

// "The following" and "as follows" point at the next lines of a doc; a
// question about following someone must not match them, in the doc or in
// the question.
func TestPointerWordsNameNothing(t *testing.T) {
	docs := []knowledge.Doc{
		makeDoc("admin/replicas", "Replicas", nil, "Edit the production section as follows, then run the following commands on another server.",
			section{"Servers", "Each server reads the following settings, set as follows."}),
		makeDoc("user/people", "People", nil, "Find someone on another server.",
			section{"Following", "Follow someone to see their posts on your home feed."}),
	}
	e := engineOf(t, testBundle(docs))
	res := e.Ask(Query{Text: "follow someone on another server"})
	for _, r := range res.Results {
		if r.DocSlug == "admin/replicas" && slices.Contains(r.MatchedTerms, "follow") {
			t.Errorf("%s matched follow through a pointer phrase: %v", r.ChunkID, r.MatchedTerms)
		}
	}
	if len(res.Candidates) == 0 || res.Candidates[0].DocSlug != "user/people" {
		t.Errorf("top doc = %+v, want user/people", res.Candidates)
	}
	if q := e.norm.normalize("what are the following settings"); slices.Contains(q.terms, "following") {
		t.Errorf("terms = %q: the pointer is no term of a question either", q.terms)
	}
}

// The abbreviations of running text name nothing: "e.g." and "i.e." leave
// single letters, "etc" and "vs" a word no doc needs. A question with them
// decides as it does without them; before, the letters were words no doc
// held and sank the question's coverage to no match.
func TestAbbreviationsNameNothing(t *testing.T) {
	e := newTestEngine(t, nil)
	for plain, noisy := range map[string]string{
		"what is a workspace":         "what is a workspace, e.g. an area?",
		"explain quick links":         "explain quick links i.e. shortcuts etc",
		"what is a workspace or home": "what is a workspace vs. home",
	} {
		want, got := e.Ask(Query{Text: plain}), e.Ask(Query{Text: noisy})
		if got.Status != want.Status || len(got.Results) == 0 || len(want.Results) == 0 || got.Results[0].DocSlug != want.Results[0].DocSlug {
			t.Errorf("%q: %s %v, want as %q: %s %v", noisy, got.Status, docsOf(got), plain, want.Status, docsOf(want))
		}
	}
}

// The verb of "what does X mean / stand for" asks for a definition: it
// weighs nothing in coverage, like "meaning". Elsewhere it is a word of
// the question like any other.
func TestNormalizeMeaningVerbsAreIntent(t *testing.T) {
	e, err := New(testBundle(testDocs()), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	intentOf := func(query string) []string {
		q := e.norm.normalize(query)
		var out []string
		for i, k := range q.keys {
			if q.intent&(1<<i) != 0 {
				out = append(out, k)
			}
		}
		return out
	}
	if got := intentOf("what does the widget stand for"); len(got) != 1 || !strings.HasSuffix(got[0], "stand") {
		t.Errorf("intent keys of a meaning question = %q, want [stand]", got)
	}
	if got := intentOf("stand up meeting widget"); len(got) != 0 {
		t.Errorf("intent keys of a plain question = %q, want none", got)
	}
}

// A number typed against its unit is the number and the unit, as docs
// write them, when the docs know the unit and not the joined word.
func TestNormalizeSplitsQuantities(t *testing.T) {
	docs := testDocs()
	docs[0].Chunks[0].Text += " Attachments up to 10 MB sync over 5 GHz Wi-Fi; the 2fa code and 4k video are words of their own."
	e := engineOf(t, testBundle(docs))
	checkTerms(t, e, []termsCase{
		{"10mb attachments", []string{"10", "mb", "attachment"}},
		{"5ghz wifi", []string{"5", "ghz", "wifi"}},
		{"2fa code", []string{"2fa", "code"}}, // the docs write it joined
		{"30xyz", []string{"30xyz"}},          // an unknown unit stays as typed
	})
}

// A word the docs never write is read as two words they write side by
// side, when it is the two closed up; not when they write the two words
// only apart, nor when they write the closed-up word.
func TestNormalizeSplitsCompounds(t *testing.T) {
	docs := testDocs()
	docs[0].Chunks[0].Text += " Ask on Stack Overflow with the tag. Pick a time zone. The end of the week is quiet; a username is a user name."
	e := engineOf(t, testBundle(docs))
	checkTerms(t, e, []termsCase{
		{"stackoverflow tag", []string{"stack", "overflow", "tag"}},
		{"timezone", []string{"time", "zone"}},
		{"weekend", []string{"weekend"}},   // "week" and "end" only apart
		{"username", []string{"username"}}, // the docs write it joined
	})
}

// "Turn on" and "switch off" are read as "enable" and "disable" where the
// docs write those and never the phrase the question does.
func TestNormalizeToggles(t *testing.T) {
	docs := testDocs()
	docs[0].Chunks[0].Text += " Enable two-factor sign-in, or disable it again."
	e := engineOf(t, testBundle(docs))
	checkTerms(t, e, []termsCase{
		{"how do I turn on two-factor", []string{"enable", "two", "factor"}},
		{"switched off two-factor", []string{"disable", "two", "factor"}},
		{"turn the widget on", []string{"turn", "widget"}}, // not written as a phrase
	})
	docs[0].Chunks[0].Text += " Turn on the widget."
	e = engineOf(t, testBundle(docs))
	if q := e.norm.normalize("how do I turn on two-factor"); !slices.Equal(q.terms, []string{"turn", "two", "factor"}) {
		t.Errorf("docs that write the phrase: terms %q, want it kept", q.terms)
	}
}

// A phrase is looked up in the docs once, and the memory of lookups is
// bounded: question words are outside input.
func TestRememberPhrases(t *testing.T) {
	calls := 0
	writes := rememberPhrases(func(a, b string) bool { calls++; return a == "turn" })
	for range 3 {
		if !writes("turn", "on") || writes("switch", "on") {
			t.Fatal("a remembered answer differs from the lookup's")
		}
	}
	if calls != 2 {
		t.Errorf("%d lookups for two phrases asked three times each", calls)
	}
	for i := range maxRememberedPhrases + 10 {
		writes("w"+strconv.Itoa(i), "x")
	}
	before := calls
	writes("w"+strconv.Itoa(maxRememberedPhrases+5), "x")
	if calls != before+1 {
		t.Error("a phrase beyond the bound was remembered")
	}
}

// The prefix of a hyphenated word names nothing unless the docs write it
// as a word: "co-maintainer" asks about maintainers.
func TestNormalizeHyphenPrefixes(t *testing.T) {
	docs := testDocs()
	docs[0].Chunks[0].Text += " Add a maintainer. Multi accounts share a widget."
	e := engineOf(t, testBundle(docs))
	checkTerms(t, e, []termsCase{
		{"add a co-maintainer", []string{"add", "maintainer"}},
		{"multi-maintainer widget", []string{"multi", "maintainer", "widget"}}, // the docs write "multi"
	})
}

// termsCase is a question and the terms it normalizes to.
type termsCase struct {
	query string
	terms []string
}

// checkTerms fails for each case e normalizes to other terms.
func checkTerms(t *testing.T, e *Engine, cases []termsCase) {
	t.Helper()
	for _, tc := range cases {
		if q := e.norm.normalize(tc.query); !slices.Equal(q.terms, tc.terms) {
			t.Errorf("%q: terms %q, want %q", tc.query, q.terms, tc.terms)
		}
	}
}

// A word neither the docs nor the common words hold is rare, unless the
// question writes it as a name: a rare string weighs half (see
// index.Weigh), a common word the docs lack ("gmail") weighs whole.
func TestNormalizeRareWords(t *testing.T) {
	e := newTestEngine(t, nil)
	for _, c := range []struct {
		query string
		word  string
		rare  bool
	}{
		{"does the widget show an emjoi", "emjoi", true},
		{"reset my gmail password", "gmail", false},
		{"does it integrate with Jira", "jira", false},
		{"does it integrate with jira", "jira", true},
		{"Jira integration?", "jira", true}, // a sentence's first word is capitalized anyway
		{"does the widget show an emoji", "emoji", false},
	} {
		q := e.norm.normalize(c.query)
		i := slices.Index(q.keys, analysis.StemKey(c.word))
		if i < 0 {
			t.Errorf("%q: keys %q lack %q", c.query, q.keys, c.word)
			continue
		}
		if got := q.rare&(1<<i) != 0; got != c.rare {
			t.Errorf("%q: %q rare = %v, want %v", c.query, c.word, got, c.rare)
		}
	}
}

// The compounds after a possessive are kept by their words' keys, after
// typo fixes: what Engine.othersThing weighs.
func TestNormalizeOwned(t *testing.T) {
	e := newTestEngine(t, nil)
	for _, tc := range []struct {
		query string
		want  [][2]string
	}{
		{"reset my gmail password", [][2]string{{"~gmail", "~password"}}},
		{"open our wrkspace settings", [][2]string{{"~workspac", "~set"}}}, // the slip fixed
		{"their recent notes and his pinned widgets", [][2]string{{"~recent", "~note"}, {"~pin", "~widget"}}},
		{"remind her friday morning", nil}, // "her" is as often an object
		{"open my workspace", nil},         // no compound: one word
		{"open the notes of my team", nil}, // no compound after it
		{"delete your recent notes", nil},  // a reply's "your" is the reader's
	} {
		if got := e.norm.normalize(tc.query).owned; !slices.Equal(got, tc.want) {
			t.Errorf("%q: owned %q, want %q", tc.query, got, tc.want)
		}
	}
}
