package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
)

// askJSON runs `docent ask --json` as user and decodes its output.
func (c *notesCLI) askJSON(user string, args ...string) askOutput {
	c.t.Helper()
	out, errOut, code := c.as(user, append([]string{"ask", "--json"}, args...)...)
	if code != 0 {
		c.t.Fatalf("ask %v as %s: exit %d: %s", args, user, code, errOut)
	}
	var o askOutput
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		c.t.Fatalf("ask --json: %v\n%s", err, out)
	}
	return o
}

// The chat's notes reach `docent ask`: explicit intent, both corpora and
// their pills, --corpus and --note, and nobody else's private note.
func TestAskAnswersFromNotes(t *testing.T) {
	c := newNotesCLI(t, "")
	out, errOut, code := c.stdin("In our team a workspace is the customer's tenant.\n\n## Stale data\n\nRestart the sync agent from the admin console.\n",
		"notes", "add", "--title", "Workspace", "-")
	if code != 0 {
		t.Fatalf("notes add: exit %d: %s", code, errOut)
	}
	teamID := strings.TrimSpace(out)
	if _, errOut, code := c.stdin("Escalate refunds to finance with the zebracorn form.\n",
		"notes", "add", "--private", "--title", "Refund escalation", "-"); code != 0 {
		t.Fatalf("notes add --private: exit %d: %s", code, errOut)
	}

	o := c.askJSON("alice", "search my notes for workspace")
	if o.Corpus != knowledge.CorpusNotes || len(o.Options) != 0 || len(o.Results) == 0 ||
		o.Results[0].ResourceID != teamID || o.Results[0].Corpus != knowledge.CorpusNotes {
		t.Errorf("search my notes: corpus %q status %s options %v results %+v", o.Corpus, o.Status, o.Options, o.Results)
	}
	if r := o.Results[0]; r.ChunkID == "" || r.HeaderPath == "" || r.BodyChars == 0 {
		t.Errorf("note evidence lacks the contract's fields: %+v", r)
	}

	o = c.askJSON("alice", "what is workspace")
	if o.Rule != retrieval.RuleCrossCorpus || len(o.Options) != 2 || !strings.HasPrefix(o.Options[1].Label, "Notes: ") {
		t.Fatalf("what is workspace: %s (%s) options %+v, want Docs and Notes pills", o.Status, o.Rule, o.Options)
	}
	o = c.askJSON("alice", "--corpus", "docs", "what is workspace")
	if o.Corpus != knowledge.CorpusDocs || o.Status != retrieval.StatusFound {
		t.Errorf("--corpus docs: %s %s", o.Corpus, o.Status)
	}
	o = c.askJSON("alice", "--note", teamID)
	if o.Corpus != knowledge.CorpusNotes || len(o.Results) == 0 || o.Results[0].ResourceID != teamID {
		t.Errorf("--note %s: %s %s %+v", teamID, o.Corpus, o.Status, o.Results)
	}

	// Bob, in the same workspace, never sees alice's private note.
	for _, q := range []string{"zebracorn refund escalation", "search my notes for zebracorn"} {
		out, _, code := c.as("bob", "ask", "--json", q)
		if code != 0 || strings.Contains(out, "Refund escalation") || strings.Contains(out, "finance") {
			t.Errorf("bob asking %q: exit %d, sees alice's private note: %s", q, code, out)
		}
	}
	// Without a workspace, "my notes" leaves the docs to answer.
	delete(c.env, "DOCENT_WORKSPACE")
	o = c.askJSON("alice", "how do I find my notes?")
	if o.Corpus != knowledge.CorpusDocs || slices.ContainsFunc(o.Results, func(r retrieval.Evidence) bool { return r.Corpus == knowledge.CorpusNotes }) {
		t.Errorf("no workspace: %s %s %+v, want the docs", o.Corpus, o.Status, o.Results)
	}
}
