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
	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/kb"
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

func TestPassagesOf(t *testing.T) {
	content := "# Title\n\nFirst sentence is here. Second one, e.g. with an abbreviation, follows! Third?\n\n" +
		"- A list item without a period\n- [x] A done task item here\n1. Numbered step goes here\n\n" +
		"| a | b |\n|---|---|\n| table | row |\n\n> Quoted text is kept too.\n\n" +
		"```go\nfmt.Println(\"code\")\n```\n\n---\n\n### Rename **a** note\n\nSee [the guide](guide.md) and ![img](x.png) `Ctrl+N` <b>now</b> please."
	want := []passage{
		{text: "First sentence is here.", heading: "Title", para: 0},
		{text: "Second one, e.g. with an abbreviation, follows!", heading: "Title", para: 0},
		{text: "A list item without a period", heading: "Title", para: 1, item: true},
		{text: "A done task item here", heading: "Title", para: 2, item: true},
		{text: "Numbered step goes here", heading: "Title", para: 3, item: true},
		{text: "Quoted text is kept too.", heading: "Title", para: 4},
		{text: "See the guide and Ctrl+N now please.", heading: "Rename a note", para: 5},
	}
	if got := passagesOf(content); !slices.Equal(got, want) {
		t.Errorf("passagesOf =\n%+v\nwant\n%+v", got, want)
	}
}

func TestParseIntent(t *testing.T) {
	tests := []struct {
		question string
		kind     questionKind
		subject  string // space-joined normalized words of X
		action   string
	}{
		{"explain workspace", askExplanation, "workspace", ""},
		{"Explain workspaces.", askExplanation, "workspace", ""},
		{"What is Quick Links?", askExplanation, "quick link", ""},
		{"what’s a quick link", askExplanation, "quick link", ""},
		{"whats home", askExplanation, "home", ""},
		{"Tell me about the workspaces", askExplanation, "workspace", ""},
		{"describe the Recent widget", askExplanation, "recent widget", ""},
		{"define entry", askExplanation, "entry", ""},
		{"meaning of dashboard", askExplanation, "dashboard", ""},
		{"what is the meaning of panels", askExplanation, "panel", ""},
		{"What does Continue mean?", askExplanation, "continue", ""},
		{"can you explain what a workspace is", askExplanation, "workspace", ""},
		{"what is a workspace in Notewell", askExplanation, "workspace", ""},
		{"what are archived workspaces", askExplanation, "archive workspace", ""},
		{"what is the shortcut to create a note", askExplanation, "shortcut", "create"},
		{"explain how to archive a workspace", askHowTo, "", "archive"},
		{"how do I rename a workspace?", askHowTo, "", "rename"},
		{"How can I get my deleted notes back", askHowTo, "", "delete"},
		{"what is the way to pin a note", askHowTo, "", "pin"},
		{"delete a workspace", askHowTo, "", "delete"},
		{"Removing widgets", askHowTo, "", "remove"},
		{"Which setting limits the Recent widget to one workspace?", askOther, "", ""},
		{"what does archiving keep", askOther, "", "archive"},
		{"Tell me more", askOther, "", ""},
		{"", askOther, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			in := parseIntent(tt.question)
			if in.kind != tt.kind || strings.Join(in.subject, " ") != tt.subject || in.action != tt.action {
				t.Errorf("parseIntent(%q) = kind %d, subject %q, action %q; want kind %d, subject %q, action %q",
					tt.question, in.kind, strings.Join(in.subject, " "), in.action, tt.kind, tt.subject, tt.action)
			}
		})
	}
}

func TestActionBase(t *testing.T) {
	for word, want := range map[string]string{
		"archive": "archive", "archived": "archive", "archiving": "archive", "archives": "archive",
		"pinned": "pin", "pinning": "pin", "copies": "copy", "copied": "copy", "removal": "remove",
		"creation": "create", "switches": "switch", "renamed": "rename", "added": "add",
		"settings": "", "setting": "", "need": "", "string": "", "notes": "", "workspace": "",
	} {
		got, ok := actionBase(word)
		if got != want || ok != (want != "") {
			t.Errorf("actionBase(%q) = %q, %v; want %q", word, got, ok, want)
		}
	}
}

// block renders one hand-built doc block for a prompt.
func block(id, title, path, content string) string {
	return promptctx.RenderDocBlock(promptctx.DocBlock{ID: id, Title: title, Path: path, Content: content}) + "\n\n"
}

func userMessage(question string, blocks ...string) string {
	return strings.Join(blocks, "") + "Question: " + question
}

// firstSentence returns the answer's first sentence and its citation.
func firstSentence(answer string) (string, string) {
	loc := citation.FindStringSubmatchIndex(answer)
	if loc == nil {
		return answer, ""
	}
	return strings.TrimSpace(answer[:loc[0]]), answer[loc[2]:loc[3]]
}

func TestExtractiveExplanation(t *testing.T) {
	steps := block("concepts/workspace#chunk-3", "Workspace", "Workspace > How it works",
		"## How it works\n\n- Opening a workspace shows its notes in the main view.\n- `Ctrl+N` creates a note in the workspace you are in.")
	overview := block("concepts/workspace#chunk-1", "Workspace", "Workspace > Overview",
		"## Overview\n\nEntries are broad. Workspace settings let you rename a workspace. An archived workspace becomes read-only. "+
			"The Inbox workspace is where Quick Capture files notes. Each workspace belongs to exactly one entry.")
	lead := block("concepts/workspace#chunk-0", "Workspace", "Workspace",
		"## Workspace\n\nA **workspace** is an area inside an entry that holds a set of related notes.")
	actions := block("actions/workspaces#chunk-1", "Workspace Actions", "Workspace Actions > Overview",
		"## Overview\n\nA workspace belongs to an entry and holds notes.")
	quickOverview := block("widgets/quick-links#chunk-1", "Quick Links", "Quick Links > Overview",
		"## Overview\n\nRecent fills itself; Quick Links holds only what you put there. A quick link can point to a note or a workspace. "+
			"A Quick Links widget holds up to 30 links.")
	quickLead := block("widgets/quick-links#chunk-0", "Quick Links", "Quick Links",
		"## Quick Links\n\nThe Quick Links widget holds shortcuts that you pin yourself.")

	tests := []struct {
		name      string
		user      string
		wantFirst string // the answer's first sentence
		wantCite  string // and its citation
	}{
		{
			// Ranked last, the lead still opens the answer: it is the only
			// sentence whose subject is X followed by "is".
			name:      "definition beats higher-ranked steps and modified subjects",
			user:      userMessage("explain workspace", steps, overview, lead),
			wantFirst: "A workspace is an area inside an entry that holds a set of related notes.",
			wantCite:  "concepts/workspace#chunk-0",
		},
		{
			// "Each workspace belongs …" states a rule about every one.
			name:      "without an outright definition, a description of X",
			user:      userMessage("what are workspaces", steps, overview, actions),
			wantFirst: "A workspace belongs to an entry and holds notes.",
			wantCite:  "actions/workspaces#chunk-1",
		},
		{
			name: "among descriptions, the top-ranked doc's",
			user: userMessage("tell me about workspaces", steps, block("concepts/workspace#chunk-2", "Workspace", "Workspace > More",
				"## More\n\nEntries are broad. Workspaces divide an entry into focused areas."), actions),
			wantFirst: "Workspaces divide an entry into focused areas.",
			wantCite:  "concepts/workspace#chunk-2",
		},
		{
			name:      "multi-word term, the doc's lead before its other definitions",
			user:      userMessage("what is quick links", quickOverview, quickLead),
			wantFirst: "The Quick Links widget holds shortcuts that you pin yourself.",
			wantCite:  "widgets/quick-links#chunk-0",
		},
		{
			name: "singular question, plural docs, any case",
			user: userMessage("What's a Quick Link?", block("widgets/quick-links#chunk-4", "Quick Links", "Quick Links > Tips",
				"## Tips\n\nPin what you visit daily. QUICK LINKS are shortcuts you pin yourself.")),
			wantFirst: "QUICK LINKS are shortcuts you pin yourself.",
			wantCite:  "widgets/quick-links#chunk-4",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			answer := ExtractiveAnswer(tt.user)
			first, cite := firstSentence(answer)
			if first != tt.wantFirst || cite != tt.wantCite {
				t.Errorf("first sentence = %q [%s], want %q [%s]\nanswer: %s", first, cite, tt.wantFirst, tt.wantCite, answer)
			}
			if n := len(citationsOf(answer)); n < 1 || n > maxAnswerSentences {
				t.Errorf("answer has %d citations: %s", n, answer)
			}
		})
	}
}

// The sentences after a definition come from the definition's doc and
// are about X, not steps.
func TestExtractiveExplanationSupport(t *testing.T) {
	user := userMessage("explain panels",
		block("concepts/panels#chunk-3", "Panels", "Panels > How to use it",
			"## How to use it\n\n- Press `Esc` to close the panel that has focus.\n- An unpinned panel slides shut when you click in the main view.\n"+
				"- Drag a panel's inner edge to resize it."),
		block("concepts/panels#chunk-0", "Panels", "Panels", "## Panels\n\nPanels are side areas that open next to the main view."),
		block("concepts/widgets#chunk-0", "Widgets", "Widgets", "## Widgets\n\nWidgets are small panels of functionality on a dashboard."),
	)
	answer := ExtractiveAnswer(user)
	want := "Panels are side areas that open next to the main view. [concepts/panels#chunk-0] " +
		"An unpinned panel slides shut when you click in the main view. [concepts/panels#chunk-3]"
	if answer != want {
		t.Errorf("answer =\n%s\nwant\n%s", answer, want)
	}
}

func TestExtractiveHowTo(t *testing.T) {
	toc := block("actions/workspaces#chunk-0", "Workspace Actions", "Workspace Actions",
		"## Workspace Actions\n\nHow to create, rename, archive and delete the workspaces of an entry.")
	steps := block("actions/workspaces#chunk-3", "Workspace Actions", "Workspace Actions > Steps",
		"## Steps\n\n### Create a workspace\n\n1. Press `Ctrl+Alt+N` to start.\n2. Type a name of up to 80 characters.\n\n"+
			"### Rename a workspace\n\nChoose **More > Workspace settings** and change **Name**. Links to its notes keep working.\n\n"+
			"### Archive a workspace\n\n1. Open the workspace and choose **More > Archive workspace**.\n2. Confirm the archive.\n\n"+
			"To bring it back, open the archive tray and click **Restore**.")
	noteSteps := block("actions/notes#chunk-3", "Note Actions", "Note Actions > Steps",
		"## Steps\n\n### Rename a note\n\nClick the title at the top of the note and type a new one. Links keep working after a rename.")
	widget := block("widgets/quick-links#chunk-3", "Quick Links", "Quick Links > How to use it",
		"## How to use it\n\n- **Reorder**: drag a link by its handle.\n- **Pin the note you are reading**: press `Ctrl+Shift+P`. "+
			"The link goes to the first Quick Links widget.\n- **Pin a workspace**: right-click it in the Navigator.")
	lead := block("widgets/quick-links#chunk-0", "Quick Links", "Quick Links",
		"## Quick Links\n\nThe Quick Links widget holds shortcuts that you pin yourself.")

	tests := []struct {
		name string
		user string
		want string
	}{
		{
			name: "the procedure whose heading names the action and object, from its first step",
			user: userMessage("how do I rename a workspace?", toc, noteSteps, steps),
			want: "Choose More > Workspace settings and change Name. [actions/workspaces#chunk-3] " +
				"Links to its notes keep working. [actions/workspaces#chunk-3]",
		},
		{
			name: "numbered steps in order",
			user: userMessage("create a workspace", toc, steps),
			want: "Press Ctrl+Alt+N to start. [actions/workspaces#chunk-3] Type a name of up to 80 characters. [actions/workspaces#chunk-3]",
		},
		{
			name: "an action without its own heading: the step that names it",
			user: userMessage("How can I restore an archived workspace", toc, steps),
			want: "To bring it back, open the archive tray and click Restore. [actions/workspaces#chunk-3]",
		},
		{
			name: "a list item with its continuation, not the doc's lead",
			user: userMessage("how do I pin a note to quick links", lead, widget),
			want: "Pin the note you are reading: press Ctrl+Shift+P. [widgets/quick-links#chunk-3] " +
				"The link goes to the first Quick Links widget. [widgets/quick-links#chunk-3]",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ExtractiveAnswer(tt.user); got != tt.want {
				t.Errorf("answer =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

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

// demoEngine is the engine on the embedded demo knowledge base.
func demoEngine(t *testing.T) *retrieval.Engine {
	t.Helper()
	loaded, err := ingest.Load(context.Background(), kb.Docs(), "kb")
	if err != nil {
		t.Fatal(err)
	}
	eng, err := retrieval.New(loaded.Docs, kb.Glossary(), retrieval.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

var markdownLeft = regexp.MustCompile("\\*\\*|\\]\\(|`|(?m)^#|<[a-z/]")

// TestExtractiveAnswerOnDemoKB runs the whole pipeline docent runs:
// retrieval on the demo knowledge base, the prompt, the extractive answer.
func TestExtractiveAnswerOnDemoKB(t *testing.T) {
	eng := demoEngine(t)
	m := NewExtractiveModel()
	for _, tt := range demoCases {
		t.Run(tt.question, func(t *testing.T) {
			res := eng.Ask(retrieval.Query{Text: tt.question})
			p := promptctx.Builder{}.Build(promptctx.Input{Question: tt.question, Glossary: kb.Glossary(), Evidence: res.Results})
			answer, err := m.Call(context.Background(), p.User)
			if err != nil {
				t.Fatal(err)
			}
			if answer != ExtractiveAnswer(p.User) {
				t.Fatalf("the model answered %q, ExtractiveAnswer %q", answer, ExtractiveAnswer(p.User))
			}
			cited := citationsOf(answer)
			if len(cited) < 1 || len(cited) > maxAnswerSentences {
				t.Fatalf("answer has %d citations, want 1–3: %s", len(cited), answer)
			}
			for _, id := range cited {
				if !slices.ContainsFunc(p.Docs, func(b promptctx.DocBlock) bool { return b.ID == id }) {
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
	f.Add("0", "0", "[0#chunk-0")
	f.Add("### Rename a workspace\n\n1. Press F2 to rename it.\n2. Type the new name here.", "how do I rename a workspace", "w#chunk-3")
	f.Add("A workspace is an area. Workspaces divide entries.", "explain what a workspace is", "c#chunk-0")
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
