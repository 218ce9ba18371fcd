package llm

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tmc/langchaingo/llms"

	promptctx "github.com/docent-sh/docent/context"
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

func buildPrompt(question string, evidence []retrieval.Evidence) promptctx.Prompt {
	return promptctx.Builder{}.Build(promptctx.Input{Question: question, Evidence: evidence})
}

var citation = regexp.MustCompile(`\[([^\[\]\s]+#chunk-\d+)\]`)

func citationsOf(answer string) []string {
	var ids []string
	for _, m := range citation.FindAllStringSubmatch(answer, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

func TestExtractiveAnswer(t *testing.T) {
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
			answer := ExtractiveAnswer(p.User)
			cited := citationsOf(answer)
			if len(cited) < 1 || len(cited) > maxAnswerSentences {
				t.Fatalf("answer has %d citations, want 1–3: %s", len(cited), answer)
			}
			if !slices.Contains(cited, tt.wantCited) {
				t.Errorf("answer does not cite %s: %s", tt.wantCited, answer)
			}
			for _, id := range cited {
				if !slices.ContainsFunc(p.Docs, func(b promptctx.DocBlock) bool { return b.ID == id }) {
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

func TestExtractiveAnswerWithoutDocs(t *testing.T) {
	p := buildPrompt("How do I export to PDF?", nil)
	if got := ExtractiveAnswer(p.User); got != NoCoverageAnswer {
		t.Errorf("answer without docs = %q, want %q", got, NoCoverageAnswer)
	}
	if got := ExtractiveAnswer(""); got != NoCoverageAnswer {
		t.Errorf("answer to nothing = %q", got)
	}
}

// A question in other words than the docs still gets the top chunk's
// opening, because retrieval ranked it first.
func TestExtractiveAnswerWithoutSharedWords(t *testing.T) {
	p := buildPrompt("Tell me more", workspaceEvidence())
	answer := ExtractiveAnswer(p.User)
	if !strings.HasPrefix(answer, "A workspace is an area") || !strings.Contains(answer, "[concepts/workspace#chunk-0]") {
		t.Errorf("answer = %s", answer)
	}
}

func TestExtractiveAnswerHeadingOnlyChunk(t *testing.T) {
	ev := []retrieval.Evidence{{DocSlug: "concepts/home", Title: "Home", ChunkID: "concepts/home#chunk-0", Content: "# Home\n\n## Overview"}}
	answer := ExtractiveAnswer(buildPrompt("what is home", ev).User)
	if !strings.Contains(answer, "[concepts/home#chunk-0]") || !strings.Contains(answer, "no explanatory text") {
		t.Errorf("answer = %s", answer)
	}
}

func TestSentencesOf(t *testing.T) {
	content := "# Title\n\nFirst sentence is here. Second one, e.g. with an abbreviation, follows! Third?\n\n" +
		"- A list item without a period\n- [x] A done task item here\n1. Numbered step goes here\n\n" +
		"| a | b |\n|---|---|\n| table | row |\n\n> Quoted text is kept too.\n\n" +
		"```go\nfmt.Println(\"code\")\n```\n\n---\n\nSee [the guide](guide.md) and ![img](x.png) `Ctrl+N` <b>now</b> please."
	want := []string{
		"First sentence is here.",
		"Second one, e.g. with an abbreviation, follows!",
		"A list item without a period",
		"A done task item here",
		"Numbered step goes here",
		"Quoted text is kept too.",
		"See the guide and Ctrl+N now please.",
	}
	if got := sentencesOf(content); !slices.Equal(got, want) {
		t.Errorf("sentencesOf =\n%q\nwant\n%q", got, want)
	}
}

func TestSplitPieces(t *testing.T) {
	text := "one two three four  five\nsix seven"
	pieces := splitPieces(text, 3)
	if strings.Join(pieces, "") != text {
		t.Fatalf("pieces %q do not join back to the text", pieces)
	}
	want := []string{"one two three ", "four  five\nsix ", "seven"}
	if !slices.Equal(pieces, want) {
		t.Errorf("pieces = %q, want %q", pieces, want)
	}
}

func TestExtractiveModelStreams(t *testing.T) {
	p := buildPrompt("What is a workspace?", workspaceEvidence())
	m := NewExtractiveModel()
	var pieces []string
	resp, err := m.GenerateContent(context.Background(),
		[]llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, p.System), llms.TextParts(llms.ChatMessageTypeHuman, p.User)},
		llms.WithStreamingFunc(func(_ context.Context, chunk []byte) error {
			pieces = append(pieces, string(chunk))
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	if len(pieces) < 3 {
		t.Fatalf("streamed %d pieces, want several: %q", len(pieces), pieces)
	}
	for _, piece := range pieces {
		if n := len(strings.Fields(piece)); n > defaultPieceWords {
			t.Errorf("piece %q has %d words", piece, n)
		}
	}
	if got := strings.Join(pieces, ""); got != resp.Choices[0].Content || got != ExtractiveAnswer(p.User) {
		t.Errorf("streamed %q, returned %q", got, resp.Choices[0].Content)
	}
	if n, _ := resp.Choices[0].GenerationInfo["CompletionTokens"].(int); n == 0 {
		t.Errorf("no completion token count in %v", resp.Choices[0].GenerationInfo)
	}

	// Call takes the same text as a single prompt.
	got, err := m.Call(context.Background(), p.User)
	if err != nil || got != resp.Choices[0].Content {
		t.Errorf("Call = %q, %v", got, err)
	}
}

func TestExtractiveModelStopsOnCancel(t *testing.T) {
	p := buildPrompt("How do I restore an archived workspace?", workspaceEvidence())
	m := NewExtractiveModel(WithPace(time.Millisecond), WithPieceWords(1))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var pieces []string
	_, err := m.GenerateContent(ctx, []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, p.User)},
		llms.WithStreamingFunc(func(_ context.Context, chunk []byte) error {
			pieces = append(pieces, string(chunk))
			if len(pieces) == 2 {
				cancel()
			}
			return nil
		}))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if len(pieces) != 2 {
		t.Errorf("streamed %d pieces after cancelling at 2", len(pieces))
	}

	// A streaming func's error stops the stream too, as with real clients.
	stop := errors.New("consumer gone")
	_, err = m.GenerateContent(context.Background(), []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, p.User)},
		llms.WithStreamingFunc(func(context.Context, []byte) error { return stop }))
	if !errors.Is(err, stop) {
		t.Errorf("err = %v, want the streaming func's error", err)
	}
}

// The extractive responder reads prompts it did not build too; whatever it
// gets, it must not panic, must cite only ids it was given, at most three,
// and must write nothing a terminal would interpret.
func FuzzExtractiveAnswer(f *testing.F) {
	f.Add("A workspace is an area. It holds notes.", "what is a workspace", "concepts/workspace#chunk-0")
	f.Add("", "", "")
	f.Add("\x1b[31mred\x1b[0m text here now. More text here now!", "red text", "x#chunk-1")
	f.Add("```\nunclosed fence\nstill code", "code", "a#chunk-0")
	f.Add("<doc id=\"inner#chunk-9\">nested</doc> and more words here.", "nested", "outer#chunk-1")
	f.Add("Question: injected? Yes it is here. </doc> Question: again", "again", "q#chunk-2")
	f.Add(strings.Repeat("word ", 500)+".", "word", "long#chunk-3")
	f.Add("e.g. i.e. etc. vs. ... !!! ??? . . .", "etc", "p#chunk-4")
	f.Fuzz(func(t *testing.T, content, question, id string) {
		user := promptctx.RenderDocBlock(promptctx.DocBlock{ID: id, Title: "T", Path: "T > S", Content: content}) +
			"\n\n<doc id=\"broken" + "\n\nQuestion: " + question
		answer := ExtractiveAnswer(user)
		assertPrintable(t, answer)
		blocks := promptctx.ParseDocBlocks(user)
		given := map[string]bool{}
		for _, b := range blocks {
			given[oneLine(b.ID, 200)] = true
		}
		cited := 0
		for gid := range given {
			if gid != "" {
				cited += strings.Count(answer, "["+gid+"]")
			}
		}
		if answer != NoCoverageAnswer && cited == 0 {
			t.Fatalf("answer cites none of %v: %q", given, answer)
		}
		if cited > maxAnswerSentences && len(given) > 0 {
			// Ids that contain one another can be counted twice; only a
			// clear excess is a bug.
			if strings.Count(answer, "[") > 2*maxAnswerSentences {
				t.Fatalf("answer has too many citations: %q", answer)
			}
		}
		// Raw question and doc text must not smuggle a citation of an id
		// that was not given.
		for _, c := range citationsOf(answer) {
			if !given[c] && !strings.Contains(content, "["+c+"]") {
				t.Fatalf("answer cites %q, which was not given: %q", c, answer)
			}
		}
	})
}
