package extractive

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/docent-sh/docent/internal/demo"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/prompt"
	"github.com/docent-sh/docent/retrieval"
)

// demoCase is a question on the demo knowledge base and what its answer
// must show.
type demoCase struct {
	question string
	doc      string         // the first citation's doc
	chunk    string         // when set, the first citation exactly
	defines  *regexp.Regexp // explanation: the first sentence says what X is
	mentions string         // how-to: the answer holds this step (case-insensitive)
}

// definition builds the pattern of a sentence that opens with term as its
// subject and says what it is.
func definition(term string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:a |an |the )?(?:` + term + `)(?: widget| panel)? (?:simply |also )?` +
		`(?:is|are|means|holds|lists|shows|lets|divide|divides|reopens|tracks|belongs)\b`)
}

var demoCases = []demoCase{
	{question: "explain workspace", doc: "concepts/workspace", defines: definition(`workspaces?`)},
	{question: "what is quick links", doc: "widgets/quick-links", chunk: "widgets/quick-links#chunk-0", defines: definition(`quick links?`)},
	{question: "describe quick links", doc: "widgets/quick-links", chunk: "widgets/quick-links#chunk-0", defines: definition(`quick links?`)},
	{question: "what are widgets", doc: "concepts/widgets", chunk: "concepts/widgets#chunk-0", defines: definition(`widgets?`)},
	{question: "define entry", doc: "concepts/entry", defines: definition(`entry|entries`)},
	{question: "meaning of dashboard", doc: "concepts/dashboard", defines: definition(`dashboards?`)},
	{question: "what's home", doc: "concepts/home", defines: definition(`home`)},
	{question: "explain panels", doc: "concepts/panels", chunk: "concepts/panels#chunk-0", defines: definition(`panels?`)},
	{question: "tell me about continue", doc: "widgets/continue", chunk: "widgets/continue#chunk-0", defines: definition(`continue`)},
	{question: "what is the navigator", doc: "widgets/navigator", chunk: "widgets/navigator#chunk-0", defines: definition(`navigator`)},
	{question: "what is the recent widget", doc: "widgets/recent", chunk: "widgets/recent#chunk-0", defines: definition(`recent`)},
	{question: "how do I rename a workspace", doc: "actions/workspaces", mentions: "F2"},
	{question: "how do I create a note", doc: "actions/notes", mentions: "Ctrl+N"},
	{question: "how do I move a note", doc: "actions/notes", mentions: "Move note"},
	{question: "delete a workspace", doc: "actions/workspaces", mentions: "Delete workspace"},
	{question: "how to add a widget", doc: "actions/widgets", mentions: "click Add"},
	{question: "how do I pin a note to quick links", doc: "widgets/quick-links", mentions: "Pin to Quick Links"},
	{question: "how do I restore an archived workspace", doc: "actions/workspaces", mentions: "Restore"},
}

var markdownLeft = regexp.MustCompile("\\*\\*|\\]\\(|`|(?m)^#|<[a-z/]")

// TestAnswerOnDemoKB runs the whole pipeline docent runs:
// retrieval on the demo knowledge base, the prompt, the extractive answer.
func TestAnswerOnDemoKB(t *testing.T) {
	eng := demo.Engine(t)
	m := New()
	for _, tt := range demoCases {
		t.Run(tt.question, func(t *testing.T) {
			res := eng.Ask(retrieval.Query{Text: tt.question})
			p := prompt.Builder{}.Build(prompt.Input{Question: tt.question, Glossary: kb.Glossary(), Evidence: res.Results})
			answer, err := m.Stream(context.Background(), p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if answer != Answer(p) {
				t.Fatalf("the model answered %q, Answer %q", answer, Answer(p))
			}
			cited := citationsOf(answer)
			if len(cited) < 1 || len(cited) > maxAnswerSentences {
				t.Fatalf("answer has %d citations, want 1–3: %s", len(cited), answer)
			}
			for _, id := range cited {
				if !slices.ContainsFunc(p.Docs, func(b prompt.DocBlock) bool { return b.ID == id }) {
					t.Errorf("answer cites %s, which is not in the prompt", id)
				}
			}
			// Each sentence is followed by its citation: the text between
			// two citations is one sentence.
			for _, part := range citation.Split(answer, -1)[:len(cited)] {
				if s := strings.TrimSpace(part); !strings.ContainsAny(s[len(s)-1:], ".!?…") {
					t.Errorf("citation follows %q, not a sentence", s)
				}
			}
			if loc := markdownLeft.FindStringIndex(answer); loc != nil {
				t.Errorf("answer keeps markdown %q: %s", answer[loc[0]:loc[1]], answer)
			}
			first, firstCite := firstSentence(answer)
			if doc, _, _ := strings.Cut(firstCite, "#"); doc != tt.doc {
				t.Errorf("first citation %s, want a chunk of %s\nanswer: %s", firstCite, tt.doc, answer)
			}
			if tt.chunk != "" && firstCite != tt.chunk {
				t.Errorf("first citation %s, want %s\nanswer: %s", firstCite, tt.chunk, answer)
			}
			if tt.defines != nil && !tt.defines.MatchString(first) {
				t.Errorf("first sentence %q does not say what the term is (%s)", first, tt.defines)
			}
			if tt.mentions != "" && !strings.Contains(strings.ToLower(answer), strings.ToLower(tt.mentions)) {
				t.Errorf("answer does not mention %q: %s", tt.mentions, answer)
			}
			if tt.mentions != "" && strings.Contains(answer, "How to ") {
				t.Errorf("answer quotes a doc's summary of procedures instead of a step: %s", answer)
			}
		})
	}
}
