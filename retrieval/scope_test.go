package retrieval_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
)

// demoBundle is the demo knowledge base, each chunk embedded with the
// hashed test embedder so that scoped hybrid turns run too.
func demoBundle(t *testing.T) knowledge.Bundle {
	t.Helper()
	b, _, err := ingest.LoadBundle(context.Background(), kb.Docs(), "kb")
	if err != nil {
		t.Fatalf("load the demo knowledge base: %v", err)
	}
	for i := range b.Docs {
		for j := range b.Docs[i].Chunks {
			c := &b.Docs[i].Chunks[j]
			c.Embedding = &knowledge.Embedding{Model: hashed.Model(), Vector: embedOne(t, c.Content)}
		}
	}
	return b
}

// TestScopeNeverLeaves asks random questions, made of words of the demo
// docs, under random scopes, lexical and hybrid: no evidence, option or
// candidate may be of a doc outside the scope. In a lexical turn the
// scope is applied before scoring, so the docs of the scope keep the rank
// and coverage they have unscoped, and the unscoped candidates of the
// scope come first among the scoped ones, in the same order.
func TestScopeNeverLeaves(t *testing.T) {
	b := demoBundle(t)
	e, err := retrieval.New(b, retrieval.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	cats := e.Categories()
	if len(cats) < 2 {
		t.Fatalf("demo categories %v: want at least two for a scope to leave something out", cats)
	}
	category := map[string]string{}
	var words []string
	for _, d := range b.Docs {
		category[d.Slug] = d.Category
		words = append(words, strings.Fields(d.Title)...)
		for _, c := range d.Chunks {
			words = append(words, strings.Fields(c.Text)...)
		}
	}
	r := rand.New(rand.NewPCG(19, 7))
	const turns = 300
	scopedFound := 0
	for n := range turns {
		q := make([]string, 1+r.IntN(5))
		for i := range q {
			q[i] = words[r.IntN(len(words))]
		}
		text := strings.Join(q, " ")
		var scope []string
		for _, c := range cats {
			if r.IntN(2) == 0 {
				scope = append(scope, c)
			}
		}
		if len(scope) == 0 || len(scope) == len(cats) {
			scope = []string{cats[n%len(cats)]}
		}
		in := func(slug string) bool { return slices.Contains(scope, category[slug]) }
		check := func(kind string, res retrieval.Result) {
			t.Helper()
			for _, ev := range res.Results {
				if !in(ev.DocSlug) {
					t.Errorf("%s %q in scope %v: evidence of %s (%s)", kind, text, scope, ev.DocSlug, category[ev.DocSlug])
				}
			}
			for _, o := range res.Options {
				if !in(o.DocSlug) {
					t.Errorf("%s %q in scope %v: option %s (%s)", kind, text, scope, o.DocSlug, category[o.DocSlug])
				}
			}
			for _, c := range res.Candidates {
				if !in(c.DocSlug) {
					t.Errorf("%s %q in scope %v: candidate %s (%s)", kind, text, scope, c.DocSlug, category[c.DocSlug])
				}
			}
		}
		scoped := e.Ask(retrieval.Query{Text: text, Categories: scope})
		check("lexical", scoped)
		if scoped.Status == retrieval.StatusFound {
			scopedFound++
		}
		hq := hybridQuery(t, text)
		hq.Categories = scope
		check("hybrid", e.Ask(hq))
		for _, h := range e.SearchQuery(hq, 20) {
			if !in(h.DocSlug) {
				t.Errorf("SearchQuery %q in scope %v: hit of %s", text, scope, h.DocSlug)
			}
		}

		whole := e.Ask(retrieval.Query{Text: text})
		var want []retrieval.Candidate
		for _, c := range whole.Candidates {
			if in(c.DocSlug) {
				want = append(want, c)
			}
		}
		if len(want) > len(scoped.Candidates) {
			t.Errorf("%q in scope %v: %d candidates, fewer than the %d of the scope unscoped", text, scope, len(scoped.Candidates), len(want))
			continue
		}
		for i, c := range want {
			got := scoped.Candidates[i]
			if got.DocSlug != c.DocSlug || got.Rank != c.Rank || got.Coverage != c.Coverage {
				t.Errorf("%q in scope %v: candidate %d is %s (rank %v, coverage %v), unscoped %s (rank %v, coverage %v)",
					text, scope, i, got.DocSlug, got.Rank, got.Coverage, c.DocSlug, c.Rank, c.Coverage)
			}
		}
	}
	// Not a vacuous property: some scoped turns answer.
	if scopedFound == 0 {
		t.Errorf("no scoped question of %d was found: the property checked nothing but empty results", turns)
	}
}

// TestScopeDecidesOverTheScope: a question answered by a doc of one
// category is no answer from that doc under another category's scope,
// and the decision is the scope's own.
func TestScopeDecidesOverTheScope(t *testing.T) {
	b := demoBundle(t)
	e, err := retrieval.New(b, retrieval.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, d := range b.Docs {
		res := e.Ask(retrieval.Query{Text: d.Title})
		if res.Status != retrieval.StatusFound || res.Results[0].DocSlug != d.Slug {
			continue
		}
		same := e.Ask(retrieval.Query{Text: d.Title, Categories: []string{d.Category}})
		if same.Status != retrieval.StatusFound || same.Results[0].DocSlug != d.Slug {
			t.Errorf("%q in its own category %s: %s from %v, want found from %s", d.Title, d.Category, same.Status, same.Results, d.Slug)
		}
		for _, other := range e.Categories() {
			if other == d.Category {
				continue
			}
			res := e.Ask(retrieval.Query{Text: d.Title, Categories: []string{other}})
			for _, c := range res.Candidates {
				if c.DocSlug == d.Slug {
					t.Errorf("%q scoped to %s weighed %s, of %s", d.Title, other, d.Slug, d.Category)
				}
			}
			if res.Status == retrieval.StatusFound && res.Results[0].DocSlug == d.Slug {
				t.Errorf("%q scoped to %s answered from %s", d.Title, other, d.Slug)
			}
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no demo doc is found by its title: nothing checked")
	}
}

func TestCheckCategories(t *testing.T) {
	known := []string{"actions", "concepts", "widgets"}
	if err := retrieval.CheckCategories(known, []string{"widgets", "actions"}); err != nil {
		t.Errorf("known categories: %v", err)
	}
	err := retrieval.CheckCategories(known, []string{"widgets", "billing", "billing"})
	if err == nil {
		t.Fatal("unknown category: no error")
	}
	for _, want := range []string{`"billing"`, "actions, concepts, widgets"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
	if got := retrieval.ParseCategories(" a, b,,a ,"); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("ParseCategories = %q, want [a b]", got)
	}
}

// TestQueryAlpha: a turn's own alpha overrides the config's, and alpha 0
// on the turn turns its vector side off.
func TestQueryAlpha(t *testing.T) {
	e := hybridEngine(t, nil)
	q := hybridQuery(t, "how do I retrun a widget")
	zero := 0.0
	q.Alpha = &zero
	res := e.Ask(q)
	if !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "alpha 0") }) {
		t.Errorf("alpha 0 on the turn: notes %q do not say the hybrid is off", res.Notes)
	}
	one := 1.0
	q.Alpha = &one
	res = e.Ask(q)
	if !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "(alpha 1)") }) {
		t.Errorf("alpha 1 on the turn: notes %q do not say so", res.Notes)
	}
}
