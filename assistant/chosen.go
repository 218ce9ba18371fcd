package assistant

import (
	"github.com/docent-sh/docent/retrieval"
)

// Chosen is res to be answered again from the evidence the user kept
// (keep says which chunk ids), in the order retrieval gave it. The user's
// choice stands over the policy's: whatever res decided, the result is
// found with rule RuleChosen, no options, and the evidence kept, so the
// writer, the prompt and the context report see only those chunks. ok is
// false when nothing is kept: there is nothing to write from.
func Chosen(res retrieval.Result, keep func(chunkID string) bool) (retrieval.Result, bool) {
	var kept []retrieval.Evidence
	for _, ev := range res.Results {
		if keep(ev.ChunkID) {
			kept = append(kept, ev)
		}
	}
	if len(kept) == 0 {
		return res, false
	}
	res.Results = kept
	res.Status, res.Rule = retrieval.StatusFound, retrieval.RuleChosen
	res.Options, res.Topic, res.Talk = nil, nil, ""
	return res, true
}
