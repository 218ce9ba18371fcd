package analysis

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
		if got := Tokens(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStopwords(t *testing.T) {
	for _, w := range []string{"a", "an", "the", "is", "what", "how", "my", "do", "explain", "tell", "me", "about", "thing", "happens", "no", "nothing", "specific", "certain", "particular", "already", "still", "also", "say", "says", "said", "told", "explained", "described", "helped", "know", "somewhere", "anywhere", "bunch", "couple", "able", "give", "gave", "given", "put", "take", "took", "taken"} {
		if !IsStopword(w) {
			t.Errorf("%q should be a stopword", w)
		}
	}
	// Words that name things or actions in a product must survive.
	for _, w := range []string{"home", "open", "new", "list", "up", "back", "next", "notes", "search", "settings", "move", "add", "known", "lot"} {
		if IsStopword(w) {
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
		if got := Singular(tt.in); got != tt.want {
			t.Errorf("stemPlural(%q) = %q, want %q", tt.in, got, tt.want)
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
		if got := EditDistance(tt.a, tt.b, 10); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	if got := EditDistance("kitten", "sitting", 1); got <= 1 {
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
		{"what does 2FA mean?", true},
		{"What do the icons in the sidebar mean", true},
		{"what does SSO stand for", true},
		{"so what does the experimental marker mean", true},
		{"what does archiving a workspace do", false}, // what doing it does
		{"what does cargo vendor do", true},           // what a thing is for
		{"What does AUTHORIZED_FETCH do?", true},
		{"what does the Can comment permission let someone do", true},
		{"what does do", false},
		{"what does it mean to create a workspace", false}, // action word
		{"what does mean", false},
		{"what are workspace actions", false}, // action word
		{"explain how to create a workspace", false},
		{"how do I open notes", false},
		{"workspace", false},
	}
	for _, tt := range tests {
		if got := IsDefinitional(Tokens(tt.query)); got != tt.want {
			t.Errorf("isDefinitional(%q) = %v, want %v", tt.query, got, tt.want)
		}
	}
}

func TestFollowUpAndIntents(t *testing.T) {
	for _, s := range []string{"tell me more", "More.", "go on", "Continue!"} {
		if !IsFollowUp(s) {
			t.Errorf("%q should be a follow-up", s)
		}
	}
	for _, s := range []string{"continue widget", "more about home", ""} {
		if IsFollowUp(s) {
			t.Errorf("%q is not a follow-up", s)
		}
	}
	tests := []struct {
		in   string
		want []string
	}{
		{"workspace and widgets", []string{"workspace", "widgets"}},
		// A list the question ends with is its items, not questions.
		{"run the tests on stable, beta and nightly", nil},
		{"export, archive and delete", []string{"export", "archive", "delete"}}, // no longer words before the list
		{"set up sso, add a user and invite", []string{"set up sso", "add a user", "invite"}},
		{"open notes + quick links", []string{"open notes", "quick links"}},
		{"home, recent & navigator", []string{"home", "recent", "navigator"}},
		{"notes+links", []string{"notes", "links"}},
		{"what are widgets? also how do I pin a note", []string{"what are widgets", "how do I pin a note"}},
		{"pin a note, then share it", []string{"pin a note", "share it"}},
		{"pin a note; share a workspace", []string{"pin a note", "share a workspace"}},
		{"what is a widget?", nil},
		{"what if we send more than 2,000 parcels", nil}, // a number
		{"2,000 parcels, 1,5 kg", []string{"2,000 parcels", "1,5 kg"}},
		{"workspace", nil},
		{"and", nil},
		// What happened, then the question: one question.
		{"customer archived their repo, can they still publish from it?", nil},
		{"a client says she never got her reminder, what should I check?", nil},
		{"my friend can't make it, can she go instead", nil},
		{"i think i found a vulnerability, should i open an issue?", nil}, // a subject pronoun states
		{"we forgot the console password and nobody can log in", nil},     // across "and" too
		{"it's offline & the till shows an error", nil},
		// A comparison, an example or a scope goes on with the part before.
		{"what happens if I call close(), versus destroy()?", nil},
		{"can I use a variable in .npmrc, like ${TOKEN}", nil},
		{"uninstall it and including leftover files", nil},
		// Two things to do, or two questions, stay two.
		{"restore a deleted file, request admin rights", []string{"restore a deleted file", "request admin rights"}},
		{"how do I pin a note, and how do I share it", []string{"how do I pin a note", "how do I share it"}},
		// A verb with no subject of its own after "and" goes on with the
		// subject before it: one situation, not two asks.
		{"client paid twice and wants a refund", nil},
		{"npm cache clean refuses to run and tells me to use --force, why?", nil},
		{"generate a fine grained token and cancel a run", []string{"generate a fine grained token", "cancel a run"}},
		{"a client says hi, thanks & bye", []string{"a client says hi, thanks", "bye"}},
		// A request in the asker's words is a question of its own.
		{"I need a standing appointment, how is detention worked out", []string{"I need a standing appointment", "how is detention worked out"}},
		// Across "and", a participle is no statement: two asks.
		{"generate a fine grained token and cancel a run", []string{"generate a fine grained token", "cancel a run"}},
	}
	for _, tt := range tests {
		if got := SplitIntents(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("splitIntents(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCompileSynonyms(t *testing.T) {
	tab := CompileSynonyms([]knowledge.Synonym{
		{From: "shortcuts", To: "quick links"},
		{From: "sign in page", To: "home"},
		{From: "?!", To: "home"},                 // no word on the left: dropped
		{From: "quick-links", To: "quick links"}, // maps to itself once tokenized: dropped
		{From: "Sign-in page", To: "login"},      // same words as an earlier phrase: replaces it
		{From: "shortcuts", To: "bookmarks"},     // a later rule for the same word wins
	})
	word := func(w string) string { return strings.Join(tab.Words[w].To, " ") }
	if word("shortcuts") != "bookmarks" || word("shortcut") != "bookmarks" {
		t.Errorf("shortcuts → %q, shortcut → %q; want the later rule, bookmarks, for both", word("shortcuts"), word("shortcut"))
	}
	if _, ok := tab.Words["quick"]; ok || len(tab.Words) != 2 {
		t.Errorf("words %v: want only shortcuts and its singular", tab.Words)
	}
	if len(tab.Phrases) != 1 || strings.Join(tab.Phrases[0].To, " ") != "login" {
		t.Errorf("phrases %v: want one, sign in page → login", tab.Phrases)
	}
	// A rule for a singular is not replaced by another rule's plural.
	tab = CompileSynonyms([]knowledge.Synonym{{From: "shortcut", To: "hotkey"}, {From: "shortcuts", To: "quick links"}})
	if word("shortcut") != "hotkey" || word("shortcuts") != "quick links" {
		t.Errorf("shortcut → %q, shortcuts → %q", word("shortcut"), word("shortcuts"))
	}
}

// A clipped word and its full form are one word to the index and to the
// coverage; a clip with another reading stays a word of its own.
func TestStemKeyJoinsClippedWords(t *testing.T) {
	for _, p := range [][2]string{{"repo", "repository"}, {"repos", "repositories"}, {"config", "configuring"},
		{"admin", "administrators"}, {"prefs", "preference"}, {"sync", "synchronizing"},
		{"cert", "certificates"}, {"convos", "conversation"}, {"hrs", "hour"}, {"perms", "permission"}} {
		if StemKey(p[0]) != StemKey(p[1]) {
			t.Errorf("StemKey(%q) = %q, StemKey(%q) = %q: want one key", p[0], StemKey(p[0]), p[1], StemKey(p[1]))
		}
	}
	for _, p := range [][2]string{{"auth", "authentication"}, {"docs", "documentation"}, {"org", "organization"},
		{"min", "minutes"}, {"min", "minimum"}, {"prod", "production"}, {"ep", "episode"}} {
		if StemKey(p[0]) == StemKey(p[1]) {
			t.Errorf("StemKey(%q) = StemKey(%q): a clip with two readings must not join either", p[0], p[1])
		}
	}
}

func TestStopwordTypo(t *testing.T) {
	for _, tc := range []struct{ word, want string }{
		{"wher", "where"}, {"shoud", "should"}, {"becuase", "because"}, // one edit from a long stopword
		{"waht", "what"}, {"tihs", "this"}, // a swap in a four-letter one
		{"come", ""}, {"wire", ""}, {"whet", ""}, // a word one letter from a four-letter stopword
		{"what", ""}, {"the", ""}, {"wiki", ""},
	} {
		got, ok := StopwordTypo(tc.word)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("StopwordTypo(%q) = %q, %v; want %q", tc.word, got, ok, tc.want)
		}
	}
}

func FuzzStopwordTypo(f *testing.F) {
	for _, s := range []string{"wher", "waht", "come", "becuase", "ünïc", "whatt"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, w string) {
		fixed, ok := StopwordTypo(w)
		if !ok {
			return
		}
		if !IsStopword(fixed) || IsStopword(w) || len(fixed) < 4 {
			t.Fatalf("StopwordTypo(%q) = %q", w, fixed)
		}
		if EditDistance(w, fixed, 2) > 1 {
			t.Fatalf("StopwordTypo(%q) = %q, more than one edit away", w, fixed)
		}
	})
}

// FuzzSplitIntents checks what a split may be: nothing, or two parts or
// more, each trimmed and not empty, whose words are the question's in its
// order.
func FuzzSplitIntents(f *testing.F) {
	for _, s := range []string{"workspace and widgets", "on stable, beta and nightly", "2,000 parcels, 1,5 kg", "a,b", ",,", "x? also y", "between a and b", "1,000,000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		parts := SplitIntents(s)
		if len(parts) == 1 {
			t.Fatalf("SplitIntents(%q) = one part %q", s, parts)
		}
		var words []string
		for _, p := range parts {
			if p == "" || p != strings.TrimSpace(p) {
				t.Fatalf("SplitIntents(%q): part %q", s, p)
			}
			words = append(words, Tokens(p)...)
		}
		all := Tokens(s)
		i := 0
		for _, w := range words {
			for i < len(all) && all[i] != w {
				i++
			}
			if i == len(all) {
				t.Fatalf("SplitIntents(%q) = %q: %q is not the question's, in order", s, parts, w)
			}
			i++
		}
	})
}

func TestQuotes(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{`it says "Your card does not support this type of purchase". Why?`, []string{"Your card does not support this type of purchase"}},
		{"a customer's CI job fails with 'error: token expired' even though nobody changed anything", []string{"error: token expired"}},
		{"the status says ‘Held by customs – documentation required’ for a week", []string{"Held by customs – documentation required"}},
		{"“Sync paused” and “Sync failed” both show", []string{"Sync paused", "Sync failed"}},
		{"I can't take the service charge off a table's bill, it won't let her", nil},
		{"what's the fee, and how long do refunds take to show on the customer's statement?", nil},
		{"the customers' orders and the admins' notes", nil},
		{`an unclosed "quote`, nil},
		{"('new')", []string{"new"}},
	} {
		if got := Quotes(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Quotes(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestQuoteSpans(t *testing.T) {
	text := `fails on "a" and ‘b c’`
	got := QuoteSpans(text)
	if len(got) != 2 || text[got[0][0]:got[0][1]] != `"a"` || text[got[1][0]:got[1][1]] != "‘b c’" {
		t.Fatalf("QuoteSpans(%q) = %v", text, got)
	}
}

// FuzzQuotes checks that every quote is a trimmed, non-empty part of the
// question.
func TestMessages(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{`FATAL:  no pg_hba.conf entry for host "10.2.3.44", user "webapp"`, []string{`no pg_hba.conf entry for host "10.2.3.44", user "webapp"`}},
		{"app gets ERROR: could not serialize access due to concurrent update. Is that expected?", []string{"could not serialize access due to concurrent update"}},
		{"sqlite3.OperationalError: database is locked\nwhat now", []string{"database is locked"}},
		{"error[E0382]: borrow of moved value: `config`", []string{"borrow of moved value: `config`"}},
		{"warning: x! and Error: y", []string{"x", "y"}},
		{"the error: it is gone", []string{"it is gone"}},
		{"what does error mean here? error rate: 5%", nil},
		{"ERRORS: none", nil},
	} {
		if got := Messages(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Messages(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// A message a question pastes is one thing, whatever commas it holds.
func TestSplitIntentsKeepsMessagesWhole(t *testing.T) {
	if got := SplitIntents(`FATAL: no pg_hba.conf entry for host "10.2.3.44", user "webapp", database "orders"`); got != nil {
		t.Errorf("split a pasted message into %q", got)
	}
	if got := SplitIntents("ERROR: disk full, and how do I add a replica?"); len(got) != 2 {
		t.Errorf("parts %q, want the message and the question after it", got)
	}
}

// TestSplitIntentsKeepsEnclosedSpansWhole: what a question puts in
// brackets, backticks or quotes is one thing, whatever commas or "and" it
// holds; an unclosed bracket encloses nothing.
func TestSplitIntentsKeepsEnclosedSpansWhole(t *testing.T) {
	for _, q := range []string{
		"what does EXPLAIN (ANALYZE, BUFFERS) print",
		"set `ports: [80, 443]` in the config",
		`the banner says "sync paused and retrying"`,
		"what is [alpha and beta] in the roadmap",
	} {
		if got := SplitIntents(q); got != nil {
			t.Errorf("SplitIntents(%q) = %q, want one question", q, got)
		}
	}
	if got := SplitIntents("what is (alpha and how do I pin a note"); len(got) != 2 {
		t.Errorf("unclosed bracket: %q, want two parts", got)
	}
	if got := SplitIntents("run EXPLAIN (ANALYZE, BUFFERS), and how do I read the output?"); len(got) != 2 {
		t.Errorf("a break after the brackets: %q, want two parts", got)
	}
}

func FuzzMessages(f *testing.F) {
	for _, s := range []string{"ERROR: a, b. c", "x.YError: z\ny", "error[E1]: q", "Error:  ", "a error: b? c", "(a, and b) `c, d` [e", "\"x and y\" AND"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range Messages(s) {
			if m == "" || !strings.Contains(s, m) || strings.ContainsRune(m, '\n') {
				t.Fatalf("Messages(%q) gave %q", s, m)
			}
		}
		if got, masked := len(s), len(maskMessageBreaks(s)); got != masked {
			t.Fatalf("maskMessageBreaks changed the length of %q", s)
		}
	})
}

func FuzzQuotes(f *testing.F) {
	for _, s := range []string{`say "a b c"`, "x 'y z' w", "can't won't", "“a” ‘b’", `"`, "'a'b'c'", "( 'x' )"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, q := range Quotes(s) {
			if q == "" || q != strings.TrimSpace(q) || !strings.Contains(s, q) {
				t.Fatalf("Quotes(%q) gave %q", s, q)
			}
		}
	})
}

func TestFixSlip(t *testing.T) {
	words := map[string]bool{"receive": true, "default": true, "automatically": true, "caching": true, "address": true, "until": true, "planning": true}
	f := NewTypoFixer(words, func(string) int { return 1 })
	for _, tc := range []struct{ word, want string }{
		{"recieve", "receive"}, {"defualt", "default"}, // two letters swapped
		{"automaticaly", "automatically"}, {"adress", "address"}, // a doubled letter written once
		{"untill", "until"},     // a letter written twice
		{"coaching", ""},        // a letter more, not a repeat: a word of its own
		{"receive", ""},         // the word itself is no slip
		{"reveice", ""},         // two letters apart swapped
		{"planing", "planning"}, // the cost: a real word, one doubled letter short
		{"xyzzy", ""},
	} {
		got, ok := f.FixSlip(tc.word)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("FixSlip(%q) = %q, %v; want %q", tc.word, got, ok, tc.want)
		}
	}
}

func FuzzFixSlip(f *testing.F) {
	for _, s := range []string{"recieve", "adress", "untill", "coaching", "ééa", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, w string) {
		words := map[string]bool{"receive": true, "address": true, "until": true, "aéé": true}
		fixed, ok := NewTypoFixer(words, func(string) int { return 1 }).FixSlip(w)
		if !ok {
			return
		}
		if !words[fixed] || fixed == w || EditDistance(w, fixed, 2) != 1 {
			t.Fatalf("FixSlip(%q) = %q", w, fixed)
		}
	})
}
