package extractive

import (
	"slices"
	"testing"
)

func TestPassagesOf(t *testing.T) {
	content := "# Title\n\nFirst sentence is here. Second one, e.g. with an abbreviation, follows! Third?\n\n" +
		"- A list item without a period\n- [x] A done task item here\n1. Numbered step goes here\n\n" +
		"| a | b |\n|---|---|\n| table | row |\n\n> Quoted text is kept too.\n\n" +
		"```go\nfmt.Println(\"code\")\n```\n\n---\n\n### Rename **a** note[\u200b](#rename \"Direct link\")\n\nSee [the guide](guide.md) and ![img](x.png) `Ctrl+N` <b>now</b> please [¶](#rename) [below](#keys)."
	want := []passage{
		{text: "First sentence is here.", heading: "Title", section: "Title", para: 0},
		{text: "Second one, e.g. with an abbreviation, follows!", heading: "Title", section: "Title", para: 0},
		{text: "A list item without a period", heading: "Title", section: "Title", para: 1, item: true},
		{text: "A done task item here", heading: "Title", section: "Title", para: 2, item: true},
		{text: "Numbered step goes here", heading: "Title", section: "Title", para: 3, item: true, number: 1},
		{text: "Quoted text is kept too.", heading: "Title", section: "Title", para: 4},
		{text: "See the guide and Ctrl+N now please below.", heading: "Rename a note", section: "Title > Rename a note", para: 5},
	}
	if got := passagesOf(content); !slices.Equal(got, want) {
		t.Errorf("passagesOf =\n%+v\nwant\n%+v", got, want)
	}
}

// An indented paragraph after a list item goes on with that item, so the
// list around it stays one list; an unindented one ends the list.
func TestPassagesOfItemContinuation(t *testing.T) {
	content := "## Steps\n\n1. Make an alias first.\n\n   You have only prepared so far.\n\n2. Redirect the old account.\n\nThat is all for now."
	want := []passage{
		{text: "Make an alias first.", heading: "Steps", section: "Steps", para: 0, item: true, number: 1},
		{text: "You have only prepared so far.", heading: "Steps", section: "Steps", para: 0, item: true, number: 1},
		{text: "Redirect the old account.", heading: "Steps", section: "Steps", para: 1, item: true, number: 2},
		{text: "That is all for now.", heading: "Steps", section: "Steps", para: 2},
	}
	if got := passagesOf(content); !slices.Equal(got, want) {
		t.Errorf("passagesOf =\n%+v\nwant\n%+v", got, want)
	}
}
