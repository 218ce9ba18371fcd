package retrieval_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/internal/demo"
	"github.com/docent-sh/docent/internal/evaldata"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
)

// docTitled is the slug of the one doc titled title, found in the docs
// rather than written down, so a renamed file does not break the test.
func docTitled(t *testing.T, docs []knowledge.Doc, title string) knowledge.Doc {
	t.Helper()
	for _, d := range docs {
		if d.Title == title {
			return d
		}
	}
	t.Fatalf("no doc titled %q", title)
	return knowledge.Doc{}
}

// chunkWith is the chunk of d whose content holds text.
func chunkWith(t *testing.T, d knowledge.Doc, text string) knowledge.Chunk {
	t.Helper()
	for _, c := range d.Chunks {
		if strings.Contains(c.Content, text) {
			return c
		}
	}
	t.Fatalf("no chunk of %s holds %q", d.Slug, text)
	return knowledge.Chunk{}
}

// A pill picked for "how do I create a workspace" answers with the doc's
// Create steps, the section that matches the question, not with the doc's
// one-line introduction; the question stays the turn's query.
func TestPickAnswersTheQuestionFromThePickedDoc(t *testing.T) {
	docs := demo.Docs(t)
	e := demo.Engine(t)
	d := docTitled(t, docs, "Workspace Actions")
	create := chunkWith(t, d, "### Create a workspace")
	const question = "how do I create a workspace"

	res := e.Pick(d.Slug, question)
	if res.Status != retrieval.StatusFound || res.Rule != retrieval.RulePick {
		t.Fatalf("pick: %s %s %v", res.Status, res.Rule, res.Notes)
	}
	if res.Query != question {
		t.Errorf("query %q, want the question", res.Query)
	}
	if len(res.Results) < 2 {
		t.Fatalf("pick gave %d chunks, want the doc's matching chunks", len(res.Results))
	}
	if res.Results[0].ChunkID != create.ID() {
		t.Errorf("first evidence %s (%s), want the Create section %s", res.Results[0].ChunkID, res.Results[0].HeaderPath, create.ID())
	}
	for _, ev := range res.Results {
		if ev.DocSlug != d.Slug {
			t.Errorf("evidence %s from outside the picked doc", ev.ChunkID)
		}
	}

	// Without a question the doc's overview is the answer, as before.
	bare := e.Pick(d.Slug, "")
	if bare.Rule != retrieval.RuleLookup || len(bare.Results) != 1 || bare.Results[0].ChunkID == create.ID() || bare.Query != d.Slug {
		t.Errorf("bare pick: %s %s %+v", bare.Rule, bare.Query, bare.Results)
	}
	if look := e.Lookup(d.Slug); look.Results[0].ChunkID != bare.Results[0].ChunkID {
		t.Errorf("Lookup %s, Pick without a question %s", look.Results[0].ChunkID, bare.Results[0].ChunkID)
	}
	// A question the doc says nothing about gets the overview, and a note.
	off := e.Pick(d.Slug, "zebra migration")
	if off.Status != retrieval.StatusFound || off.Results[0].ChunkID != bare.Results[0].ChunkID || len(off.Notes) == 0 {
		t.Errorf("unmatched question: %s %+v %v", off.Status, off.Results, off.Notes)
	}
	if r := e.Pick("nope/doc", question); r.Status != retrieval.StatusNoMatch || r.Rule != retrieval.RuleUnknown {
		t.Errorf("unknown doc: %s %s", r.Status, r.Rule)
	}
}

// On documentation written elsewhere: "how do I delete my account" picked
// to the page about moving accounts answers from its "Deleting your
// account" section, which is not the page's first.
func TestPickOnRealDocs(t *testing.T) {
	dir := filepath.Join(evaldata.Dir(t, "mastodon-docs"), "docs")
	b, _, err := ingest.LoadBundle(context.Background(), os.DirFS(dir), dir)
	if err != nil {
		t.Fatal(err)
	}
	e, err := retrieval.New(b, retrieval.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var moving knowledge.Doc
	for _, d := range b.Docs {
		if d.Slug == "user/moving" {
			moving = d
		}
	}
	if moving.Slug == "" {
		t.Fatal("no user/moving in the Mastodon docs")
	}
	res := e.Pick(moving.Slug, "how do I delete my account")
	if len(res.Results) == 0 {
		t.Fatalf("pick: %s %s, no results", res.Status, res.Rule)
	}
	if got := res.Results[0].HeaderPath; !strings.HasSuffix(got, "Deleting your account") {
		t.Errorf("first evidence %s (%s), want the Deleting your account section", res.Results[0].ChunkID, got)
	}
}
