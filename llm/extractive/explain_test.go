package extractive

import (
	"testing"

	"github.com/docent-sh/docent/prompt"
)

func TestExplanation(t *testing.T) {
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
		user      prompt.Prompt
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
			answer := Answer(tt.user)
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
func TestExplanationSupport(t *testing.T) {
	user := userMessage("explain panels",
		block("concepts/panels#chunk-3", "Panels", "Panels > How to use it",
			"## How to use it\n\n- Press `Esc` to close the panel that has focus.\n- An unpinned panel slides shut when you click in the main view.\n"+
				"- Drag a panel's inner edge to resize it."),
		block("concepts/panels#chunk-0", "Panels", "Panels", "## Panels\n\nPanels are side areas that open next to the main view."),
		block("concepts/widgets#chunk-0", "Widgets", "Widgets", "## Widgets\n\nWidgets are small panels of functionality on a dashboard."),
	)
	answer := Answer(user)
	want := "Panels are side areas that open next to the main view. [concepts/panels#chunk-0] " +
		"An unpinned panel slides shut when you click in the main view. [concepts/panels#chunk-3]"
	if answer != want {
		t.Errorf("answer =\n%s\nwant\n%s", answer, want)
	}
}
