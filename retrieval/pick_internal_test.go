package retrieval

import "testing"

// A heading-only chunk never takes an evidence slot, even when its
// heading is the question's word: a pick, a question and a continuation
// all pass over it.
func TestHeadingOnlyChunksAreNeverEvidence(t *testing.T) {
	e := newTestEngine(t, nil)
	for name, res := range map[string]Result{
		"pick":     e.Pick("widgets/recent", "empty recent"),
		"ask":      e.Ask(Query{Text: "recent"}),
		"continue": e.Continue("widgets/recent#chunk-1", nil),
	} {
		if len(res.Results) == 0 {
			t.Errorf("%s: no evidence (%s %s)", name, res.Status, res.Rule)
		}
		for _, ev := range res.Results {
			if ev.HeadingOnly || ev.ChunkID == "widgets/recent#chunk-2" {
				t.Errorf("%s: heading-only chunk %s is evidence", name, ev.ChunkID)
			}
		}
	}
}
