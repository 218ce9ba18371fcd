package retrieval

import (
	"slices"
	"testing"

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
