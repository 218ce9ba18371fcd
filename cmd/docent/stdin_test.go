package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/docent-sh/docent/llm/llmtest"
	"github.com/docent-sh/docent/retrieval"
)

// `echo QUESTION | docent ask` reads the question from stdin, and so does
// `docent ask -`, even from a terminal.
func TestAskReadsTheQuestionFromStdin(t *testing.T) {
	c := newCLI(t)
	for _, tc := range []struct {
		name  string
		stdin interface{ Read([]byte) (int, error) }
		args  []string
	}{
		{"piped", strings.NewReader("explain workspace\n"), []string{"ask", "--json"}},
		{"dash", confirmingInput{strings.NewReader("explain workspace\n")}, []string{"ask", "--json", "-"}},
	} {
		out, errOut, code := c.runWithInput(t.Context(), tc.stdin, tc.args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.name, code, errOut)
		}
		var o askOutput
		if err := json.Unmarshal([]byte(out), &o); err != nil {
			t.Fatal(err)
		}
		if o.Query != "explain workspace" || o.Status != "found" || len(o.Notes) != 0 {
			t.Errorf("%s: query %q, status %s, notes %v; want the piped question answered", tc.name, o.Query, o.Status, o.Notes)
		}
	}
}

func TestAskStdinMistakes(t *testing.T) {
	cases := []struct {
		name  string
		stdin interface{ Read([]byte) (int, error) }
		args  []string
		want  string
	}{
		{"terminal, no question", confirmingInput{strings.NewReader("explain workspace\n")}, []string{"ask"}, "ask needs a question"},
		{"empty pipe", strings.NewReader(" \n\n"), []string{"ask"}, "stdin was empty"},
		{"dash and --after", strings.NewReader("explain workspace"), []string{"ask", "--after", "concepts/workspace#chunk-0", "-"}, "--after or a question"},
		{"too much", strings.NewReader(strings.Repeat("x", maxStdinBytes+1)), []string{"ask"}, "more than 1048576 bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := newCLI(t).runWithInput(t.Context(), tc.stdin, tc.args...)
			if code != 2 || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, tc.want)
			}
		})
	}
	// --doc with a pipe that is not a terminal does not read it; with -
	// it reads the question to answer from the doc.
	if _, errOut, code := newCLI(t).runWithInput(t.Context(), strings.NewReader("ignored"), "ask", "--doc", "concepts/workspace"); code != 0 {
		t.Errorf("--doc with piped stdin: exit %d: %s", code, errOut)
	}
	out, errOut, code := newCLI(t).runWithInput(t.Context(), strings.NewReader("how do I create a workspace\n"), "ask", "--json", "--doc", "actions/workspaces", "-")
	var o askOutput
	if err := json.Unmarshal([]byte(out), &o); code != 0 || err != nil {
		t.Fatalf("--doc with -: exit %d (%v): %s", code, err, errOut)
	}
	if o.Query != "how do I create a workspace" || o.Rule != retrieval.RulePick {
		t.Errorf("--doc with -: query %q, rule %q; want the piped question answered from the doc", o.Query, o.Rule)
	}
}

// A whole customer ticket piped in is answered from the customer's own
// words: the model gets them, not the quoted thread, and the output says
// what was left out (stderr in text mode, a note in --json).
func TestAskAnswersAPipedTicket(t *testing.T) {
	srv := llmtest.NewOpenAI(t, llmtest.Script{Chunks: []string{"A workspace is an area. [concepts/workspace#chunk-0]"}})
	c := newCLI(t, "DOCENT_PROVIDER", "openai", "OPENAI_BASE_URL", srv.BaseURL())
	ticket := "Subject: Workspace\n\nPlease explain workspace.\n\nThanks,\nAnn\n\n" +
		"On Tue, 3 Jun 2025, Support <help@example.com> wrote:\n" +
		strings.Repeat("> Your invoice and billing details are attached; the refund takes five days.\n", 80)

	out, errOut, code := c.runWithInput(t.Context(), strings.NewReader(ticket), "ask")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "A workspace is an area.") || strings.Contains(out, "note:") {
		t.Errorf("stdout %q, want the answer alone", out)
	}
	if !strings.Contains(errOut, "note: the text has") || !strings.Contains(errOut, "without quoted replies") {
		t.Errorf("stderr %q, want a note saying the ticket was reduced", errOut)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("the server got %d requests, want 1", len(reqs))
	}
	msgs, err := srv.Messages(reqs[0])
	if err != nil {
		t.Fatal(err)
	}
	user := msgs[len(msgs)-1].Text
	if !strings.Contains(user, "Question: Workspace Please explain workspace.") || strings.Contains(user, "refund") || strings.Contains(user, "Thanks") {
		t.Errorf("the model was asked %q, want the customer's own words without the thread", user)
	}

	out, errOut, code = c.runWithInput(t.Context(), strings.NewReader(ticket), "ask", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var o askOutput
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatal(err)
	}
	if len(o.Notes) == 0 || !strings.Contains(o.Notes[0], "over the 4000 a question may have") || strings.Contains(errOut, "note:") {
		t.Errorf("notes %v, stderr %q; want the note in the JSON", o.Notes, errOut)
	}
}
