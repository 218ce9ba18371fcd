package extractive

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/docent-sh/docent/prompt"
	"github.com/docent-sh/docent/retrieval"
)

// workspaceEvidence is two chunks written like the demo knowledge base.
func workspaceEvidence() []retrieval.Evidence {
	return []retrieval.Evidence{
		{
			DocSlug: "concepts/workspace", Title: "Workspace", ChunkID: "concepts/workspace#chunk-0",
			HeaderPath: "Workspace", Score: 9,
			Content: "## Workspace\n\nA **workspace** is an area inside an [entry](../concepts/entry.md) that holds a set of related notes.",
		},
		{
			DocSlug: "concepts/workspace", Title: "Workspace", ChunkID: "concepts/workspace#chunk-3",
			HeaderPath: "Workspace > Archived workspaces", Score: 7,
			Content: "### Archived workspaces\n\nArchiving a workspace you no longer work in keeps its notes without cluttering your view. " +
				"An archived workspace becomes read-only, e.g. for old projects. You can restore an archived workspace from the archive tray at any time.\n\n" +
				"```\nworkspace archive --all\n```",
		},
		{
			DocSlug: "widgets/recent", Title: "Recent", ChunkID: "widgets/recent#chunk-1",
			HeaderPath: "Recent > Settings", Score: 3,
			Content: "The Recent widget lists the notes you edited last. Its scope setting limits it to one workspace.",
		},
	}
}

func buildPrompt(question string, evidence []retrieval.Evidence) prompt.Prompt {
	return prompt.Builder{}.Build(prompt.Input{Question: question, Evidence: evidence})
}

var citation = regexp.MustCompile(`\[([^\[\]\s]+#chunk-\d+)\]`)

func citationsOf(answer string) []string {
	var ids []string
	for _, m := range citation.FindAllStringSubmatch(answer, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

func TestAnswer(t *testing.T) {
	tests := []struct {
		question  string
		wantCited string // must be cited
		wantIn    []string
		notIn     []string
	}{
		{
			question:  "What is a workspace?",
			wantCited: "concepts/workspace#chunk-0",
			wantIn:    []string{"A workspace is an area inside an entry that holds a set of related notes."},
			notIn:     []string{"**", "](", "##"},
		},
		{
			question:  "How do I restore an archived workspace?",
			wantCited: "concepts/workspace#chunk-3",
			wantIn:    []string{"You can restore an archived workspace from the archive tray at any time."},
			notIn:     []string{"workspace archive --all", "```"},
		},
		{
			question:  "Which setting limits the Recent widget to one workspace?",
			wantCited: "widgets/recent#chunk-1",
			wantIn:    []string{"Its scope setting limits it to one workspace."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			p := buildPrompt(tt.question, workspaceEvidence())
			answer := Answer(p)
			cited := citationsOf(answer)
			if len(cited) < 1 || len(cited) > maxAnswerSentences {
				t.Fatalf("answer has %d citations, want 1–3: %s", len(cited), answer)
			}
			if !slices.Contains(cited, tt.wantCited) {
				t.Errorf("answer does not cite %s: %s", tt.wantCited, answer)
			}
			for _, id := range cited {
				if !slices.ContainsFunc(p.Docs, func(b prompt.DocBlock) bool { return b.ID == id }) {
					t.Errorf("answer cites %s, which is not in the prompt", id)
				}
			}
			for _, want := range tt.wantIn {
				if !strings.Contains(answer, want) {
					t.Errorf("answer lacks %q: %s", want, answer)
				}
			}
			for _, bad := range tt.notIn {
				if strings.Contains(answer, bad) {
					t.Errorf("answer holds %q: %s", bad, answer)
				}
			}
			// Every sentence is followed by its citation.
			if !strings.HasSuffix(answer, "]") {
				t.Errorf("answer does not end with a citation: %s", answer)
			}
		})
	}
}

func TestAnswerWithoutDocs(t *testing.T) {
	p := buildPrompt("How do I export to PDF?", nil)
	if got := Answer(p); got != NoCoverageAnswer {
		t.Errorf("answer without docs = %q, want %q", got, NoCoverageAnswer)
	}
	if got := Answer(prompt.Prompt{}); got != NoCoverageAnswer {
		t.Errorf("answer to nothing = %q", got)
	}
}

// A question in other words than the docs still gets the top chunk's
// opening, because retrieval ranked it first.
func TestAnswerWithoutSharedWords(t *testing.T) {
	p := buildPrompt("Tell me more", workspaceEvidence())
	answer := Answer(p)
	if !strings.HasPrefix(answer, "A workspace is an area") || !strings.Contains(answer, "[concepts/workspace#chunk-0]") {
		t.Errorf("answer = %s", answer)
	}
}

func TestAnswerHeadingOnlyChunk(t *testing.T) {
	ev := []retrieval.Evidence{{DocSlug: "concepts/home", Title: "Home", ChunkID: "concepts/home#chunk-0", Content: "# Home\n\n## Overview"}}
	answer := Answer(buildPrompt("what is home", ev))
	if !strings.Contains(answer, "[concepts/home#chunk-0]") || !strings.Contains(answer, "no explanatory text") {
		t.Errorf("answer = %s", answer)
	}
}

// block renders one hand-built doc block for a prompt.
func block(id, title, path, content string) prompt.DocBlock {
	return prompt.DocBlock{ID: id, Title: title, Path: path, Content: content}
}

// userMessage is a prompt that asks question over blocks, in rank order.
func userMessage(question string, blocks ...prompt.DocBlock) prompt.Prompt {
	return prompt.Prompt{Docs: blocks, Question: question}
}

// firstSentence returns the answer's first sentence and its citation.
func firstSentence(answer string) (string, string) {
	loc := citation.FindStringSubmatchIndex(answer)
	if loc == nil {
		return answer, ""
	}
	return strings.TrimSpace(answer[:loc[0]]), answer[loc[2]:loc[3]]
}
