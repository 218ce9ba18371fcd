package retrieval

import (
	"testing"

	"github.com/docent-sh/docent/knowledge"
)

func TestBetween(t *testing.T) {
	cfg := DefaultConfig()
	res := func(status Status, coverage, naming float64) Result {
		return Result{Status: status, Candidates: []Candidate{{Coverage: coverage, Naming: naming, Rank: 3}}}
	}
	none := Result{Status: StatusNoMatch, Rule: RuleCoverage}
	for _, tt := range []struct {
		name        string
		docs, notes Result
		want        knowledge.Corpus
	}{
		{"both name it alike", res(StatusFound, 1, 1), res(StatusFound, 1, 1), ""},
		{"within the margin", res(StatusFound, 1, 0.9), res(StatusWeak, 0.85, 0.85), ""},
		{"notes only mention it", res(StatusFound, 1, 1), res(StatusWeak, 1, 0), knowledge.CorpusDocs},
		{"notes cover more", res(StatusWeak, 0.5, 0.5), res(StatusFound, 1, 1), knowledge.CorpusNotes},
		{"no notes match", res(StatusFound, 1, 1), none, knowledge.CorpusDocs},
		{"no docs match", none, res(StatusFound, 0.6, 0.6), knowledge.CorpusNotes},
		{"neither", none, none, knowledge.CorpusDocs},
		{"small talk", Result{Status: StatusNoMatch, Rule: RuleSmallTalk}, res(StatusFound, 1, 1), knowledge.CorpusNotes},
	} {
		got := cfg.Between(tt.docs, tt.notes)
		if got.Corpus != tt.want {
			t.Errorf("%s: %+v, want %q", tt.name, got, tt.want)
		}
		if got.Gap < 0 || got.Gap > 1 {
			t.Errorf("%s: gap %v out of [0, 1]", tt.name, got.Gap)
		}
	}
}
