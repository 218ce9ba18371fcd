package retrieval

import (
	"testing"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval/retrievaltest"
)

// The small knowledge base lives in retrievaltest, so the packages that
// word results test against the same one.
type section struct{ heading, body string }

func makeDoc(slug, title string, keywords []string, intro string, sections ...section) knowledge.Doc {
	ss := make([]retrievaltest.Section, len(sections))
	for i, s := range sections {
		ss[i] = retrievaltest.Section{Heading: s.heading, Body: s.body}
	}
	return retrievaltest.Doc(slug, title, keywords, intro, ss...)
}

var (
	testDocs     = retrievaltest.Docs
	testBundle   = retrievaltest.Bundle
	testSynonyms = retrievaltest.Synonyms
)

const testGlossary = retrievaltest.Glossary

func newTestEngine(t testing.TB, mutate func(*Config)) *Engine {
	t.Helper()
	cfg := DefaultConfig()
	if mutate != nil {
		mutate(&cfg)
	}
	e, err := New(testBundle(testDocs()), cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return e
}

// engineOf builds an engine on b with the default configuration.
func engineOf(t testing.TB, b knowledge.Bundle) *Engine {
	t.Helper()
	e, err := New(b, DefaultConfig())
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return e
}

// themeDoc is a doc about something else, that a test's knowledge base
// needs so that its words are not in every doc.
func themeDoc(slug string) knowledge.Doc {
	return makeDoc(slug, "Theme", nil, "Colors and fonts.",
		section{"Fonts", "Pick a font for the body text and another for code."})
}

// engineWith builds an engine on the small knowledge base and docs.
func engineWith(t testing.TB, docs ...knowledge.Doc) *Engine {
	t.Helper()
	return engineOf(t, testBundle(append(testDocs(), docs...)))
}

// checkFoundFrom fails t unless e answers q as found from slug, and
// returns the result for further checks.
func checkFoundFrom(t *testing.T, e *Engine, q, slug string) Result {
	t.Helper()
	res := e.Ask(Query{Text: q})
	if res.Status != StatusFound || len(res.Results) == 0 || res.Results[0].DocSlug != slug {
		t.Errorf("%q: %s (%s) %v, want found from %s", q, res.Status, res.Rule, docsOf(res), slug)
	}
	return res
}
