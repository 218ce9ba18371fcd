package retrieval_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/internal/demo"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
)

func slugs(res retrieval.Result) []string {
	var out []string
	for _, ev := range res.Results {
		out = append(out, ev.DocSlug)
	}
	return out
}

func optionSlugs(res retrieval.Result) []string {
	var out []string
	for _, o := range res.Options {
		out = append(out, o.DocSlug)
	}
	return out
}

// bodyOnlyWord is the "tell me about X" word: it must occur in some doc's
// body and in no title or keyword, which TestAcceptance checks first.
const bodyOnlyWord = "snapshot"

// TestAcceptance checks what the acceptance table asks beyond a status and
// the docs shown: statuses and docs are cases in testdata/acceptance.jsonl,
// which the eval package's TestAcceptanceCases and `docent eval decisions`
// run through the same code.
func TestAcceptance(t *testing.T) {
	docs := demo.Docs(t)
	checkBodyOnly(t, docs, bodyOnlyWord)
	checkCaseListed(t, "tell me about "+bodyOnlyWord)
	e := demo.Engine(t)

	type check func(t *testing.T, res retrieval.Result)
	first := func(slug string) check {
		return func(t *testing.T, res retrieval.Result) {
			if len(res.Results) == 0 || res.Results[0].DocSlug != slug {
				t.Errorf("first result %v, want %s", slugs(res), slug)
			}
		}
	}
	reply := func(want string) check {
		return func(t *testing.T, res retrieval.Result) {
			if got := assistant.Reply(res); got != want {
				t.Errorf("reply %q, want %q", got, want)
			}
		}
	}
	headerPath := func(t *testing.T, res retrieval.Result) {
		if len(res.Results) == 0 || res.Results[0].HeaderPath == "" {
			t.Errorf("first result has no header_path: %+v", res.Results)
		}
	}
	multiOf := func(docsAllowed ...[]string) check {
		return func(t *testing.T, res retrieval.Result) {
			if res.Status != retrieval.StatusMulti {
				t.Fatalf("status %s (%s), want multi", res.Status, res.Rule)
			}
			got := optionSlugs(res)
			if len(got) != 2 || got[0] == got[1] {
				t.Fatalf("want two parts from two different docs, options %v", got)
			}
			// Each part is answered from its own doc: option i's evidence
			// comes i-th.
			if len(res.Results) < 2 || res.Results[0].DocSlug != got[0] || res.Results[1].DocSlug != got[1] {
				t.Errorf("evidence %v does not lead with the options' docs %v", slugs(res), got)
			}
			for i, allowed := range docsAllowed {
				if !slices.ContainsFunc(allowed, func(s string) bool { return slices.Contains(got, s) }) {
					t.Errorf("options %v: want one of %v (part %d)", got, allowed, i+1)
				}
			}
		}
	}

	tests := []struct {
		query  string
		checks []check
	}{
		{"explain workspace", []check{headerPath}},
		{"shortcuts", []check{first("widgets/quick-links")}},
		{"explain calendar", []check{reply("I couldn't find anything about calendar in these docs.")}},
		{"workspace and widgets", []check{multiOf()}},
		{"open notes + quick links", []check{multiOf([]string{"concepts/notes", "actions/notes"}, []string{"widgets/quick-links"})}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			checkCaseListed(t, tt.query)
			res := e.Ask(retrieval.Query{Text: tt.query})
			for _, c := range tt.checks {
				c(t, res)
			}
		})
	}

	t.Run("wrkspace behaves like workspace", func(t *testing.T) {
		typo := e.Ask(retrieval.Query{Text: "wrkspace"})
		exact := e.Ask(retrieval.Query{Text: "workspace"})
		if typo.Status != exact.Status || !slices.Equal(optionSlugs(typo), optionSlugs(exact)) {
			t.Errorf("wrkspace: %s %v; workspace: %s %v", typo.Status, optionSlugs(typo), exact.Status, optionSlugs(exact))
		}
		if len(typo.Results) == 0 || !slices.Contains(typo.Results[0].MatchExplain.TypoFixes, retrieval.Rewrite{From: "wrkspace", To: "workspace"}) {
			t.Errorf("match_explain should record the typo fix: %+v", typo.Results)
		}
	})

	t.Run("--doc concepts/workspace, then --after", func(t *testing.T) {
		look := e.Lookup("concepts/workspace")
		if look.Status != retrieval.StatusFound || len(look.Results) != 1 {
			t.Fatalf("lookup: %s %+v", look.Status, look.Results)
		}
		chunk := chunkByID(t, docs, look.Results[0].ChunkID)
		if chunk.HeadingOnly || chunk.DocSlug != "concepts/workspace" {
			t.Fatalf("lookup chunk %s is heading-only or from another doc", chunk.ID())
		}
		next := e.Continue(look.Results[0].ChunkID, nil)
		if next.Status != retrieval.StatusFound || len(next.Results) != 1 {
			t.Fatalf("continue: %s %+v", next.Status, next.Results)
		}
		nc := chunkByID(t, docs, next.Results[0].ChunkID)
		if nc.HeadingOnly || nc.DocSlug != "concepts/workspace" || nc.Index <= chunk.Index {
			t.Errorf("continue gave %s after %s", nc.ID(), chunk.ID())
		}
		// Nothing answerable was skipped between the two.
		for _, c := range docByChunk(docs, chunk).Chunks {
			if c.Index > chunk.Index && c.Index < nc.Index && !c.HeadingOnly {
				t.Errorf("skipped chunk %s with body text", c.ID())
			}
		}
	})
}

// checkCaseListed fails when the acceptance cases file has no case for
// query: the checks here complement those cases, they do not replace them.
func checkCaseListed(t *testing.T, query string) {
	t.Helper()
	src, err := os.ReadFile("../testdata/acceptance.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	quoted, _ := json.Marshal(query)
	if !strings.Contains(string(src), `"query": `+string(quoted)) {
		t.Errorf("testdata/acceptance.jsonl has no case for %s", quoted)
	}
}

func checkBodyOnly(t *testing.T, docs []knowledge.Doc, word string) {
	t.Helper()
	inBody := false
	for _, d := range docs {
		for _, field := range append([]string{d.Title}, d.Keywords...) {
			if strings.Contains(strings.ToLower(field), word) {
				t.Fatalf("%q is in a title or keyword of %s (%q): pick another body-only word", word, d.Slug, field)
			}
		}
		if strings.Contains(strings.ToLower(d.Content), word) {
			inBody = true
		}
	}
	if !inBody {
		t.Fatalf("%q appears in no doc body: pick another body-only word", word)
	}
}

func chunkByID(t *testing.T, docs []knowledge.Doc, id string) knowledge.Chunk {
	t.Helper()
	for _, d := range docs {
		for _, c := range d.Chunks {
			if c.ID() == id {
				return c
			}
		}
	}
	t.Fatalf("no chunk %q in the demo KB", id)
	return knowledge.Chunk{}
}

func docByChunk(docs []knowledge.Doc, c knowledge.Chunk) knowledge.Doc {
	for _, d := range docs {
		if d.Slug == c.DocSlug {
			return d
		}
	}
	return knowledge.Doc{}
}

// Definitions come first in docs: for "what is X" the lead chunk of X's
// doc is the first evidence, though its later sections repeat X more.
func TestDefinitionalQuestionsLeadWithTheDefinition(t *testing.T) {
	e := demo.Engine(t)
	for _, tc := range []struct{ query, slug string }{
		{"explain workspace", "concepts/workspace"},
		{"what is a workspace", "concepts/workspace"},
		{"what are panels", "concepts/panels"},
		{"tell me about widgets", "concepts/widgets"},
		{"what is quick links", "widgets/quick-links"},
		{"explain the widget manager", "widgets/widget-manager"},
		{"meaning of dashboard", "concepts/dashboard"},
		{"what do panels mean?", "concepts/panels"},
		{"what does quick links stand for", "widgets/quick-links"},
	} {
		res := e.Ask(retrieval.Query{Text: tc.query})
		lead := e.Lookup(tc.slug) // the doc's first chunk with body text
		if len(res.Results) == 0 || len(lead.Results) == 0 {
			t.Fatalf("%q: no results", tc.query)
		}
		if got, want := res.Results[0].ChunkID, lead.Results[0].ChunkID; got != want {
			t.Errorf("%q: first evidence %s, want the lead chunk %s", tc.query, got, want)
		}
	}
	// Questions that are not definitional keep plain ranking.
	res := e.Ask(retrieval.Query{Text: "how do I archive a workspace"})
	if len(res.Results) == 0 || res.Results[0].DocSlug != "actions/workspaces" {
		t.Errorf("how-to question: results %v, want actions/workspaces first", slugs(res))
	}
}
