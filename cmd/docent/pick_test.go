package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/docent-sh/docent/internal/demo"
	"github.com/docent-sh/docent/internal/evaldata"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/llm/llmtest"
	"github.com/docent-sh/docent/prompt"
	"github.com/docent-sh/docent/retrieval"
)

const createQuestion = "how do I create a workspace"

// workspaceActions is the demo doc titled Workspace Actions and its chunk
// with the Create steps, found in the docs rather than written down.
func workspaceActions(t *testing.T) (knowledge.Doc, knowledge.Chunk) {
	t.Helper()
	for _, d := range demo.Docs(t) {
		if d.Title != "Workspace Actions" {
			continue
		}
		for _, c := range d.Chunks {
			if strings.Contains(c.Content, "### Create a workspace") {
				return d, c
			}
		}
	}
	t.Fatal("no Workspace Actions doc with a Create section in the demo docs")
	return knowledge.Doc{}, knowledge.Chunk{}
}

// `docent ask --doc SLUG QUESTION` answers the question from that doc's
// sections that match it: the Create steps, not the doc's introduction.
func TestAskDocWithQuestion(t *testing.T) {
	d, create := workspaceActions(t)
	c := newCLI(t)
	o := c.askJSON("--doc", d.Slug, createQuestion)
	if o.Status != retrieval.StatusFound || o.Rule != retrieval.RulePick || o.Query != createQuestion {
		t.Fatalf("status %s, rule %q, query %q; want the question answered from the doc", o.Status, o.Rule, o.Query)
	}
	if len(o.Results) < 2 || o.Results[0].ChunkID != create.ID() {
		t.Fatalf("results %v, want %s first and more of the doc", resultChunks(o), create.ID())
	}
	for _, ev := range o.Results {
		if ev.DocSlug != d.Slug {
			t.Errorf("evidence %s from outside the picked doc", ev.ChunkID)
		}
	}
	// The Create steps' first lines, however the answer words them.
	for _, want := range []string{"Ctrl+Alt+N", "New workspace"} {
		if !strings.Contains(o.Reply, want) {
			t.Errorf("reply %q lacks %q", o.Reply, want)
		}
	}

	// Without a question the doc's overview is the answer, as before.
	bare := c.askJSON("--doc", d.Slug)
	if bare.Rule != retrieval.RuleLookup || len(bare.Results) != 1 || bare.Results[0].ChunkID == create.ID() {
		t.Errorf("bare --doc: rule %q, results %v", bare.Rule, resultChunks(bare))
	}
}

// The model is asked the question itself, over more than one chunk of the
// picked doc.
func TestAskDocPromptCarriesTheQuestion(t *testing.T) {
	d, create := workspaceActions(t)
	srv := llmtest.NewOpenAI(t, llmtest.Script{Chunks: []string{"Press Ctrl+Alt+N. [" + create.ID() + "]"}})
	c := newCLI(t, "DOCENT_PROVIDER", "openai", "OPENAI_BASE_URL", srv.BaseURL())
	o := c.askJSON("--doc", d.Slug, createQuestion)
	if !o.LLM.Called || o.LLM.Fallback {
		t.Fatalf("llm %+v, want the server's answer", o.LLM)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("server got %d requests, want 1", len(reqs))
	}
	msgs, err := srv.Messages(reqs[0])
	if err != nil {
		t.Fatal(err)
	}
	user := msgs[len(msgs)-1]
	if user.Role != "user" {
		t.Fatalf("last message is %s, want the user's", user.Role)
	}
	if got := prompt.ParseQuestion(user.Text); got != createQuestion {
		t.Errorf("prompt question %q, want %q", got, createQuestion)
	}
	var ids []string
	for _, b := range prompt.ParseDocBlocks(user.Text) {
		if strings.HasPrefix(b.ID, d.Slug+"#") {
			ids = append(ids, b.ID)
		}
	}
	if len(ids) < 2 || ids[0] != create.ID() {
		t.Errorf("prompt blocks of %s: %v, want %s first and more", d.Slug, ids, create.ID())
	}
}

// On documentation written elsewhere, the page about moving accounts
// picked for "how do I delete my account" answers from its "Deleting your
// account" section, the one retrieval ranks first for the question.
func TestAskDocWithQuestionOnRealDocs(t *testing.T) {
	docs := filepath.Join(evaldata.Dir(t, "mastodon-docs"), "docs")
	o := newCLI(t).askJSON("--docs", docs, "--doc", "user/moving", "how do I delete my account")
	if len(o.Results) == 0 || !strings.HasSuffix(o.Results[0].HeaderPath, "Deleting your account") {
		t.Fatalf("results %v, want the Deleting your account section first", resultChunks(o))
	}
	if !strings.Contains(o.Reply, "["+o.Results[0].ChunkID+"]") {
		t.Errorf("reply %q does not cite %s", o.Reply, o.Results[0].ChunkID)
	}
}

func resultChunks(o askOutput) []string {
	var out []string
	for _, ev := range o.Results {
		out = append(out, ev.ChunkID+" ("+ev.HeaderPath+")")
	}
	return out
}

// A question the docs do not cover is told so by name, and the docs whose
// titles share one of its words are offered as commands that pick them
// for the same question.
func TestAskNoMatchOffersTitlesThatShareAWord(t *testing.T) {
	const question = "how do I print notes"
	out, errOut, code := newCLI(t).run("ask", question)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "I couldn't find anything about print notes in these docs.") {
		t.Errorf("no plain no-match reply in:\n%s", out)
	}
	picks := false
	for _, line := range strings.Split(out, "\n") {
		picks = picks || strings.Contains(line, "→ docent ask --doc actions/notes ") && strings.HasSuffix(line, " '"+question+"'")
	}
	if !picks {
		t.Errorf("no command picking a notes doc for the question in:\n%s", out)
	}
}
