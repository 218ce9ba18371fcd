package assistant_test

import (
	"context"
	"strings"
	"testing"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/retrieval"
)

// TestRequestScopeReachesTheDocs: a request's categories scope the docs
// engine, and its alpha reaches it too (a lexical turn says nothing of
// alpha, so the scope is what is observable here).
func TestRequestScopeReachesTheDocs(t *testing.T) {
	s, _ := newSession(t, &recordingWriter{})
	ctx := context.Background()
	const q = "Widget Manager"
	res := s.Retrieve(ctx, assistant.Request{Query: q})
	if res.Status != retrieval.StatusFound || !strings.HasPrefix(res.Results[0].DocSlug, "widgets/") {
		t.Fatalf("%q unscoped: %s from %v, want found in widgets", q, res.Status, res.Results)
	}
	res = s.Retrieve(ctx, assistant.Request{Query: q, Categories: []string{"concepts"}})
	for _, ev := range res.Results {
		if ev.Category != "concepts" {
			t.Errorf("%q scoped to concepts: evidence %s of %s", q, ev.DocSlug, ev.Category)
		}
	}
	for _, o := range res.Options {
		if o.Category != "concepts" {
			t.Errorf("%q scoped to concepts: option %s of %s", q, o.DocSlug, o.Category)
		}
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), "scope: concepts") {
		t.Errorf("scoped turn: notes %q do not say the scope", res.Notes)
	}
}
