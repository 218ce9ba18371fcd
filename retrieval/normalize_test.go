package retrieval

import (
	"slices"
	"strings"
	"testing"

	"github.com/docent-sh/docent/knowledge"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"What is a Workspace?", []string{"what", "is", "a", "workspace"}},
		{"quick-links, HOME!", []string{"quick", "links", "home"}},
		{"user's don’t", []string{"users", "dont"}},
		{"'quoted' ctrl+shift+h", []string{"quoted", "ctrl", "shift", "h"}},
		{"Überblick café 42", []string{"überblick", "café", "42"}},
		{"?!.,;", nil},
	}
	for _, tt := range tests {
		if got := tokenize(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStopwords(t *testing.T) {
	for _, w := range []string{"a", "an", "the", "is", "what", "how", "my", "do", "explain", "tell", "me", "about", "thing", "happens", "no", "nothing"} {
		if !isStopword(w) {
			t.Errorf("%q should be a stopword", w)
		}
	}
	// Words that name things or actions in a product must survive.
	for _, w := range []string{"home", "open", "new", "list", "up", "back", "next", "notes", "search", "settings", "move", "add"} {
		if isStopword(w) {
			t.Errorf("%q is a domain word and must not be a stopword", w)
		}
	}
}

func TestStemPlural(t *testing.T) {
	tests := []struct{ in, want string }{
		{"entries", "entry"},   // ies → y
		{"boxes", "box"},       // es after x
		{"switches", "switch"}, // es after ch
		{"classes", "class"},   // es after ss
		{"widgets", "widget"},  // s
		{"pages", "page"},      // s (not es: no sibilant)
		{"status", "status"},   // us is not a plural
		{"class", "class"},     // ss is not a plural
		{"analysis", "analysis"},
		{"tabs", "tab"},   // four letters: stems
		{"bus", "bus"},    // under 4 characters
		{"its", "its"},    // under 4 characters
		{"notes", "note"}, // a feature's name stems like any word
	}
	for _, tt := range tests {
		if got := stemPlural(tt.in); got != tt.want {
			t.Errorf("stemPlural(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

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
	e, err := New(testBundle(docs), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
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
		{"wrkspace", "workspace", true},   // 8 letters: distance 1 here
		{"wokrspace", "workspace", true},  // transposition
		{"wrkspce", "workspace", false},   // 7 letters, distance 2: too far
		{"wrkspacs", "workspace", true},   // 8 letters, distance 2
		{"recnt", "recent", true},         // 5 letters, distance 1
		{"hme", "hme", false},             // under 4 letters: never fixed
		{"zebra", "zebra", false},         // nothing close
		{"tangerine", "tangerine", false}, // in the vocabulary: left alone
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

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"workspace", "workspace", 0},
		{"wrkspace", "workspace", 1},
		{"wokrspace", "workspace", 1},
		{"kitten", "sitting", 3},
		{"", "abc", 3},
	}
	for _, tt := range tests {
		if got := editDistance([]rune(tt.a), []rune(tt.b), 10); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	if got := editDistance([]rune("kitten"), []rune("sitting"), 1); got <= 1 {
		t.Errorf("bounded distance = %d, want > 1", got)
	}
}

func TestDefinitionalIntent(t *testing.T) {
	tests := []struct {
		query string
		want  bool
	}{
		{"what is home", true},
		{"What are widgets?", true},
		{"what's a workspace", true},
		{"explain notes", true},
		{"define entry", true},
		{"tell me about quick links", true},
		{"what are workspace actions", false}, // action word
		{"explain how to create a workspace", false},
		{"how do I open notes", false},
		{"workspace", false},
	}
	for _, tt := range tests {
		if got := isDefinitional(tokenize(tt.query)); got != tt.want {
			t.Errorf("isDefinitional(%q) = %v, want %v", tt.query, got, tt.want)
		}
	}
}

func TestFollowUpAndIntents(t *testing.T) {
	for _, s := range []string{"tell me more", "More.", "go on", "Continue!"} {
		if !isFollowUp(s) {
			t.Errorf("%q should be a follow-up", s)
		}
	}
	for _, s := range []string{"continue widget", "more about home", ""} {
		if isFollowUp(s) {
			t.Errorf("%q is not a follow-up", s)
		}
	}
	tests := []struct {
		in   string
		want []string
	}{
		{"workspace and widgets", []string{"workspace", "widgets"}},
		{"open notes + quick links", []string{"open notes", "quick links"}},
		{"home, recent & navigator", []string{"home", "recent", "navigator"}},
		{"notes+links", []string{"notes", "links"}},
		{"workspace", nil},
		{"and", nil},
	}
	for _, tt := range tests {
		if got := splitIntents(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("splitIntents(%q) = %q, want %q", tt.in, got, tt.want)
		}
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

func TestCompileSynonyms(t *testing.T) {
	tab := compileSynonyms([]knowledge.Synonym{
		{From: "shortcuts", To: "quick links"},
		{From: "sign in page", To: "home"},
		{From: "?!", To: "home"},                 // no word on the left: dropped
		{From: "quick-links", To: "quick links"}, // maps to itself once tokenized: dropped
		{From: "Sign-in page", To: "login"},      // same words as an earlier phrase: replaces it
		{From: "shortcuts", To: "bookmarks"},     // a later rule for the same word wins
	})
	word := func(w string) string { return strings.Join(tab.words[w].to, " ") }
	if word("shortcuts") != "bookmarks" || word("shortcut") != "bookmarks" {
		t.Errorf("shortcuts → %q, shortcut → %q; want the later rule, bookmarks, for both", word("shortcuts"), word("shortcut"))
	}
	if _, ok := tab.words["quick"]; ok || len(tab.words) != 2 {
		t.Errorf("words %v: want only shortcuts and its singular", tab.words)
	}
	if len(tab.phrases) != 1 || strings.Join(tab.phrases[0].to, " ") != "login" {
		t.Errorf("phrases %v: want one, sign in page → login", tab.phrases)
	}
	// A rule for a singular is not replaced by another rule's plural.
	tab = compileSynonyms([]knowledge.Synonym{{From: "shortcut", To: "hotkey"}, {From: "shortcuts", To: "quick links"}})
	if word("shortcut") != "hotkey" || word("shortcuts") != "quick links" {
		t.Errorf("shortcut → %q, shortcuts → %q", word("shortcut"), word("shortcuts"))
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
	e, err := New(testBundle(docs), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
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
