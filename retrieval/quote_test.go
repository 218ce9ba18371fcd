package retrieval

import (
	"slices"
	"testing"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval/retrievaltest"
)

// A question that pastes a message a doc writes word for word is about
// that doc, whatever else it tells of the customer: the troubleshooting
// page listing the error answers, though the question's other words
// (a CI job, a customer, nobody changing anything) point elsewhere or
// nowhere.
func TestQuotedMessage(t *testing.T) {
	docs := append(testDocs(),
		retrievaltest.Doc("troubleshooting", "Troubleshooting", nil, "Errors the command line prints, and what to do.",
			retrievaltest.Section{Heading: "error: token expired", Body: "The access token is older than ninety days. Create a new one under Settings > Tokens and update the secret."},
			retrievaltest.Section{Heading: "error: no such project", Body: "Check the project name with ferry projects list."}),
		retrievaltest.Doc("guide/pipelines", "Deploying from pipelines", nil, "Run deploys from a pipeline job every morning or on every push.",
			retrievaltest.Section{Heading: "Jobs", Body: "A pipeline job that fails stops the deploy. Customers see the last release."}))
	e := engineOf(t, testBundle(docs))
	for _, q := range []string{
		"Hi, a customer's pipeline job started failing this morning with 'error: token expired' though nobody changed anything. What should they do?",
		`pipeline job fails with "Error: Token expired!" every morning`,
	} {
		res := e.Ask(Query{Text: q})
		if res.Status != StatusFound || res.Rule != RuleQuoted || len(res.Results) == 0 || res.Results[0].DocSlug != "troubleshooting" {
			t.Errorf("%q: %s (%s) %v, want found from troubleshooting on the quote", q, res.Status, res.Rule, docsOf(res))
		}
	}
	// A quote no doc writes as quoted, or of fewer than three words,
	// leaves the question as asked.
	for _, q := range []string{
		"pipeline job fails with 'error: token revoked' every morning",
		"what does 'expired' mean in a pipeline job",
	} {
		if res := e.Ask(Query{Text: q}); res.Rule == RuleQuoted {
			t.Errorf("%q: answered on the quote: %v", q, docsOf(res))
		}
	}
	if res := e.Ask(Query{Text: "error token expired"}); res.Rule == RuleQuoted || !slices.Contains(docsOf(res), "troubleshooting") {
		t.Errorf("unquoted: %s (%s) %v", res.Status, res.Rule, docsOf(res))
	}
}

// A message pasted after its severity, without quotes, is answered on
// as a quote is, when the doc writes its first half at least: the
// values it quotes (a host, a user) and the words after it are the
// asker's. Its commas split nothing.
func TestPastedMessage(t *testing.T) {
	docs := append(testDocs(),
		retrievaltest.Doc("troubleshooting", "Troubleshooting", nil, "Errors the command line prints, and what to do.",
			retrievaltest.Section{Heading: "No access rule for host", Body: `The server answers FATAL: no access rule for host "192.0.2.1", user "ana", database "shop" when no rule matches the connection. Add a rule for the client's address and reload.`},
			retrievaltest.Section{Heading: "Disk", Body: "Free space before the next run."}),
		retrievaltest.Doc("guide/access", "Client access", nil, "Which clients may connect.",
			retrievaltest.Section{Heading: "Addresses", Body: "List the addresses of the clients that may connect."}))
	e := engineOf(t, testBundle(docs))
	q := `our app logs FATAL: no access rule for host "10.2.3.44", user "webapp", database "orders". What now?`
	res := e.Ask(Query{Text: q})
	if res.Status != StatusFound || res.Rule != RuleQuoted || len(res.Results) == 0 || res.Results[0].DocSlug != "troubleshooting" {
		t.Errorf("%q: %s (%s) %v, want found from troubleshooting on the message", q, res.Status, res.Rule, docsOf(res))
	}
	// A message no doc writes leaves the question as asked.
	if res := e.Ask(Query{Text: "ERROR: access rule table is corrupt, how do I rebuild it"}); res.Rule == RuleQuoted {
		t.Errorf("answered on a message no doc writes: %v", docsOf(res))
	}

	// The page about the thing the message names ranks above the page
	// listing the message: the page that writes it answers.
	docs = append(docs, retrievaltest.Doc("guide/rules", "Access rules", nil, "Which clients may connect, as which user, to which database.",
		retrievaltest.Section{Heading: "Access rule fields", Body: "Each access rule names a host, a user and a database. Rules are read in order; the first rule that matches a host, a user and a database decides."}))
	e = engineOf(t, testBundle(docs))
	if res := e.Ask(Query{Text: q}); res.Status != StatusFound || res.Rule != RuleQuoted || len(res.Results) == 0 || res.Results[0].DocSlug != "troubleshooting" {
		t.Errorf("beside the rules' page: %s (%s) %v, want found from troubleshooting on the message", res.Status, res.Rule, docsOf(res))
	}
}

// A pasted message whose values (a quoted name, a number) come before
// the half the doc must write is found where the doc prints it with
// values of its own.
func TestPastedMessageWithTheAskersValues(t *testing.T) {
	docs := append(testDocs(),
		retrievaltest.Doc("routine-cleaning", "Routine cleaning", nil, "Why the server needs cleaning, and how.",
			retrievaltest.Section{Heading: "Counter wraparound", Body: `When the counter nears its limit the server warns: WARNING: shelf "north" must be cleaned within 39985967 turns. Clean the whole shelf as its owner.`}),
		retrievaltest.Doc("guide/shelves", "Shelves", nil, "What a shelf holds and how it is cleaned.",
			retrievaltest.Section{Heading: "Cleaning a shelf", Body: "A shelf is cleaned turn by turn; cleaning frees the turns it used."}))
	e := engineOf(t, testBundle(docs))
	q := `logs are full of WARNING: shelf "prod" must be cleaned within 9831207 turns. how bad is this?`
	if res := e.Ask(Query{Text: q}); res.Status != StatusFound || res.Rule != RuleQuoted || len(res.Results) == 0 || res.Results[0].DocSlug != "routine-cleaning" {
		t.Errorf("%q: %s (%s) %v, want found from routine-cleaning on the message", q, res.Status, res.Rule, docsOf(res))
	}
}

func TestMessagePattern(t *testing.T) {
	p := messagePattern(`database "prod" must be vacuumed within 9831207 transactions`)
	if want := (wordPattern{"database", hole, "must", "be", "vacuumed", "within", hole, "transactions"}); !slices.Equal(p, want) {
		t.Fatalf("pattern %q, want %q", p, want)
	}
	if p.words() != 6 {
		t.Errorf("%d words, want 6", p.words())
	}
	if got, want := p.upTo(3), (wordPattern{"database", hole, "must", "be"}); !slices.Equal(got, want) {
		t.Errorf("upTo(3) %q, want %q", got, want)
	}
	for _, tc := range []struct {
		content string
		want    bool
	}{
		{`WARNING:  database "mydb" must be vacuumed within 39985967 transactions`, true},
		{`database "public.orders" must be vacuumed within 1 transactions`, true},
		{`the database must be vacuumed within days`, false},                       // a hole takes a word at least
		{`database "a b c d e f g" must be vacuumed within 1 transactions`, false}, // … and no sentence
		{`database "mydb" must be analyzed within 2 transactions`, false},
	} {
		if got := p.writtenIn(tc.content); got != tc.want {
			t.Errorf("writtenIn(%q) = %t, want %t", tc.content, got, tc.want)
		}
	}
	// A quoted value is cut where it is quoted, not where its letters
	// first occur: "a" is in "fails" too.
	if got, want := messagePattern(`fails on "a" at startup`), (wordPattern{"fails", "on", hole, "at", "startup"}); !slices.Equal(got, want) {
		t.Errorf("value written earlier: %q, want %q", got, want)
	}
	if got, want := withoutQuotes(`fails on "a" at startup`), `fails on   at startup`; got != want {
		t.Errorf("withoutQuotes: %q, want %q", got, want)
	}
	// Holes at the start are dropped; a quote has none.
	if got := messagePattern(`"orders" table is locked`); !slices.Equal(got, wordPattern{"table", "is", "locked"}) {
		t.Errorf("leading value: %q", got)
	}
	if got := quotePattern(`error 42: token expired`); !slices.Equal(got, wordPattern{"error", "42", "token", "expired"}) {
		t.Errorf("quote: %q", got)
	}
}

// A pasted message is answered from the chunk that prints it, when the
// page is about problems in general and its headings name nothing of
// the message: the policy alone finds that page only mentions the
// message's words. The message is longer than the doc's, as a newer
// server's is ("…, no encryption"): its first half is what must be
// written.
func TestPastedMessageOnAPageThatDoesNotNameIt(t *testing.T) {
	docs := append(testDocs(),
		retrievaltest.Doc("client-problems", "Client problems", nil, "What goes wrong when clients connect.",
			retrievaltest.Section{Heading: "Common errors", Body: `FATAL: no access rule for host "192.0.2.1", user "ana", database "shop". This means the server was reached but would not let the client in: add a line for the client's address to the rules file and reload the server. FATAL: too many clients already. The server has run out of slots.`}),
		retrievaltest.Doc("guide/access-rules", "Access rules", nil, "Which host, user and database may connect, and how.",
			retrievaltest.Section{Heading: "Access rule fields", Body: "Each access rule names a host, a user and a database, and the encryption the connection needs. Rules are read in order; the first rule that matches the host, the user and the database decides."},
			retrievaltest.Section{Heading: "Access rules and encryption", Body: "A rule can require encryption for a host, a user or a database."}))
	e := engineOf(t, testBundle(docs))
	q := `FATAL:  no access rule for host "10.2.3.44", user "webapp", database "orders", no encryption`
	res := e.Ask(Query{Text: q})
	if res.Status != StatusFound || res.Rule != RuleQuoted || len(res.Results) == 0 || res.Results[0].DocSlug != "client-problems" {
		t.Errorf("%q: %s (%s) %v, want found from client-problems on the message", q, res.Status, res.Rule, docsOf(res))
	}
}

// messageWriter finds the page that prints a message however it ranks,
// outside a release log first, within the turn's scope.
func TestMessageWriter(t *testing.T) {
	var docs []knowledge.Doc
	for _, v := range []string{"1.1", "1.2", "1.3"} {
		docs = append(docs, retrievaltest.Doc("release/"+v, "Release "+v, nil, "What changed.",
			retrievaltest.Section{Heading: "Fixes", Body: `Fixed: the error "no access rule for host" was printed for allowed hosts. Version ` + v + `.`}))
	}
	docs = append(docs, retrievaltest.Doc("troubleshooting", "Troubleshooting", nil, "Errors.",
		retrievaltest.Section{Heading: "Errors", Body: `FATAL: no access rule for host "192.0.2.1", user "ana": add a rule.`}))
	e := engineOf(t, testBundle(append(testDocs(), docs...)))
	p := messagePattern(`no access rule for host "10.2.3.44"`)
	if w := e.messageWriter(p, nil); w < 0 || e.docs[w].slug != "troubleshooting" {
		t.Errorf("writer %d, want troubleshooting, not a release log", w)
	}
	only := make([]bool, len(e.docs))
	only[e.bySlug["release/1.2"]] = true
	if w := e.messageWriter(p, only); w < 0 || e.docs[w].slug != "release/1.2" {
		t.Errorf("writer in scope %d, want release/1.2", w)
	}
	if w := e.messageWriter(messagePattern("no access rule for planet"), nil); w >= 0 {
		t.Errorf("a message with a word no doc writes has writer %s", e.docs[w].slug)
	}
}
