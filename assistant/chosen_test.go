package assistant_test

import (
	"context"
	"slices"
	"testing"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/retrieval"
)

func TestChosenKeepsOnlyTheChosenChunksInOrder(t *testing.T) {
	res := retrieval.Result{
		Query:   "q",
		Status:  retrieval.StatusAmbiguous,
		Rule:    retrieval.RuleSecondMeaning,
		Options: []retrieval.Option{{DocSlug: "a"}, {DocSlug: "b"}},
		Results: []retrieval.Evidence{{ChunkID: "a#1"}, {ChunkID: "b#1"}, {ChunkID: "c#1"}},
	}
	got, ok := assistant.Chosen(res, func(id string) bool { return id != "b#1" })
	if !ok {
		t.Fatal("two chunks kept, yet not ok")
	}
	var ids []string
	for _, ev := range got.Results {
		ids = append(ids, ev.ChunkID)
	}
	if !slices.Equal(ids, []string{"a#1", "c#1"}) {
		t.Errorf("kept %v, want [a#1 c#1]", ids)
	}
	if got.Status != retrieval.StatusFound || got.Rule != retrieval.RuleChosen || got.Options != nil {
		t.Errorf("status %s rule %q options %v, want found by the user's choice and no options", got.Status, got.Rule, got.Options)
	}
	if len(res.Results) != 3 {
		t.Error("Chosen changed the result it was given")
	}
	if _, ok := assistant.Chosen(res, func(string) bool { return false }); ok {
		t.Error("nothing kept, yet ok")
	}
}

// The prompt the writer gets holds the kept chunks and not the dropped one.
func TestChosenEvidenceIsWhatThePromptHolds(t *testing.T) {
	w := &recordingWriter{}
	s, _ := newSession(t, w)
	ctx := context.Background()
	res := s.Retrieve(ctx, assistant.Request{Query: "how do I create a workspace"})
	if len(res.Results) < 2 {
		t.Fatalf("want two chunks of evidence to choose from, got %d", len(res.Results))
	}
	dropped := res.Results[0].ChunkID
	chosen, ok := assistant.Chosen(res, func(id string) bool { return id != dropped })
	if !ok {
		t.Fatal("not ok")
	}
	ans, err := s.Answer(ctx, chosen, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.prompts) != 1 {
		t.Fatalf("%d prompts, want 1", len(w.prompts))
	}
	var inPrompt []string
	for _, d := range w.prompts[0].Docs {
		inPrompt = append(inPrompt, d.ID)
	}
	if slices.Contains(inPrompt, dropped) || !slices.Contains(inPrompt, chosen.Results[0].ChunkID) {
		t.Errorf("prompt holds %v: want %s in and %s out", inPrompt, chosen.Results[0].ChunkID, dropped)
	}
	for _, src := range ans.Sources {
		if src.ID == dropped {
			t.Errorf("the excluded chunk %s is among the answer's sources", dropped)
		}
	}
}
