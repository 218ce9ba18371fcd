package retrieval

import "testing"

func TestDecide(t *testing.T) {
	th := thresholds{minScore: 3, minConf: 0.3, minGap: 2, minMatched: 2}
	strong := func(doc string, score float64) candidate {
		return candidate{doc: doc, score: score, matched: 2, fieldHit: true}
	}
	tests := []struct {
		name      string
		ranked    []candidate
		status    Status
		rule      string
		rival     int
		wantConf  float64
		checkConf bool
	}{
		{"no results", nil, StatusNoMatch, RuleTopZero, -1, 0, false},
		{"top is zero", []candidate{{doc: "a", score: 0}}, StatusNoMatch, RuleTopZero, -1, 0, false},
		{"one matched term", []candidate{{doc: "a", score: 9, matched: 1, fieldHit: true}}, StatusWeak, RuleMatched, -1, 0, false},
		{"body-only match", []candidate{{doc: "a", score: 9, matched: 3}}, StatusWeak, RuleNoFieldHit, -1, 0, false},
		{"exact phrase stands in for a field hit", []candidate{{doc: "a", score: 9, matched: 2, phrase: true}}, StatusFound, RuleFound, -1, 1, true},
		{"below MIN_SCORE", []candidate{strong("a", 2.5)}, StatusWeak, RuleMinScore, -1, 0, false},
		{"gap below MIN_GAP", []candidate{strong("a", 5), strong("b", 4)}, StatusAmbiguous, RuleGap, 1, 0.2, true},
		{"gap of exactly MIN_GAP is enough", []candidate{strong("a", 2+1.7741935483870968), strong("b", 1.7741935483870968)}, StatusFound, RuleFound, 1, 0, false},
		{"low confidence", []candidate{strong("a", 10), strong("b", 7.5)}, StatusAmbiguous, RuleConfidence, 1, 0.25, true},
		{"found", []candidate{strong("a", 10), strong("b", 4)}, StatusFound, RuleFound, 1, 0.6, true},
		{"single result: second is 0", []candidate{strong("a", 4)}, StatusFound, RuleFound, -1, 1, true},
		{"lone top under MIN_GAP", []candidate{strong("a", 1.5)}, StatusWeak, RuleMinScore, -1, 0, false},
		{"same-doc chunks do not compete", []candidate{strong("a", 10), strong("a", 9.5), strong("b", 1)}, StatusFound, RuleFound, 2, 0.9, true},
		{"cross-doc override", []candidate{strong("a", 5), strong("a", 4.9), strong("b", 4)}, StatusAmbiguous, RuleCrossDoc, 2, 0.2, true},
		{"cross-doc override wins over weak", []candidate{strong("a", 2), strong("a", 1.9), strong("b", 1)}, StatusAmbiguous, RuleCrossDoc, 2, 0.5, true},
		{"weak matched terms still wins over cross-doc", []candidate{{doc: "a", score: 5, matched: 1, fieldHit: true}, strong("a", 4), strong("b", 4)}, StatusWeak, RuleMatched, 2, 0, false},
		{"rival ranked first beats a higher-scoring later doc", []candidate{strong("a", 10), strong("b", 1), strong("c", 9)}, StatusFound, RuleFound, 1, 0.9, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := decide(tt.ranked, th)
			if d.status != tt.status || d.rule != tt.rule {
				t.Errorf("decide = %s (%s), want %s (%s)", d.status, d.rule, tt.status, tt.rule)
			}
			if d.rival != tt.rival {
				t.Errorf("rival = %d, want %d", d.rival, tt.rival)
			}
			if tt.checkConf && (d.confidence < tt.wantConf-1e-9 || d.confidence > tt.wantConf+1e-9) {
				t.Errorf("confidence = %v, want %v", d.confidence, tt.wantConf)
			}
		})
	}
}

func TestDecideThresholdsAreConfigurable(t *testing.T) {
	ranked := []candidate{{doc: "a", score: 4, matched: 2, fieldHit: true}, {doc: "b", score: 1, matched: 2, fieldHit: true}}
	if d := decide(ranked, thresholds{minScore: 3, minConf: 0.3, minGap: 2, minMatched: 2}); d.status != StatusFound {
		t.Fatalf("defaults: %s", d.status)
	}
	if d := decide(ranked, thresholds{minScore: 5, minConf: 0.3, minGap: 2, minMatched: 2}); d.rule != RuleMinScore {
		t.Errorf("MIN_SCORE 5: rule %s", d.rule)
	}
	if d := decide(ranked, thresholds{minScore: 3, minConf: 0.3, minGap: 4, minMatched: 2}); d.rule != RuleGap {
		t.Errorf("MIN_GAP 4: rule %s", d.rule)
	}
	if d := decide(ranked, thresholds{minScore: 3, minConf: 0.8, minGap: 2, minMatched: 2}); d.rule != RuleConfidence {
		t.Errorf("MIN_CONF 0.8: rule %s", d.rule)
	}
	if d := decide(ranked, thresholds{minScore: 3, minConf: 0.3, minGap: 2, minMatched: 3}); d.rule != RuleMatched {
		t.Errorf("MIN_MATCHED_TERMS 3: rule %s", d.rule)
	}
}
