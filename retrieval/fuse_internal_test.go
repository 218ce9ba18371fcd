package retrieval

import (
	"math"
	"testing"
)

func TestFuse(t *testing.T) {
	for _, tt := range []struct {
		name                        string
		alpha, rank, best, cosine   float64
		inVector                    bool
		wantFused, wantLex, wantVec float64
	}{
		{"both, best lexical", 0.5, 10, 10, 0.8, true, 0.9, 1, 0.8},
		{"both, half the best rank", 0.5, 5, 10, 0.4, true, 0.45, 0.5, 0.4},
		{"lexical only: not among the vector hits", 0.5, 5, 10, 0.9, false, 0.25, 0.5, 0},
		{"vector only: no word of the question", 0.5, 0, 10, 0.6, true, 0.3, 0, 0.6},
		{"negative cosine clamped at 0", 0.5, 8, 10, -0.7, true, 0.4, 0.8, 0},
		{"alpha 0: lexical alone", 0, 4, 10, 0.9, true, 0.4, 0.4, 0.9},
		{"alpha 1: vector alone", 1, 4, 10, 0.9, true, 0.9, 0.4, 0.9},
		{"alpha 0.25", 0.25, 10, 10, 0.2, true, 0.8, 1, 0.2},
		{"rank above the best (rounding) capped at 1", 0.5, 10.0000001, 10, 0, false, 0.5, 1, 0},
		{"cosine above 1 (rounding) capped at 1", 0.5, 0, 10, 1.0000001, true, 0.5, 0, 1},
		{"no lexical hit in the turn", 0.5, 0, 0, 0.5, true, 0.25, 0, 0.5},
		{"nothing", 0.5, 0, 0, 0, false, 0, 0, 0},
	} {
		f, l, v := fuse(tt.alpha, tt.rank, tt.best, tt.cosine, tt.inVector)
		if math.Abs(f-tt.wantFused) > 1e-9 || math.Abs(l-tt.wantLex) > 1e-9 || math.Abs(v-tt.wantVec) > 1e-9 {
			t.Errorf("%s: fuse(%v, %v, %v, %v, %v) = %v, %v, %v; want %v, %v, %v",
				tt.name, tt.alpha, tt.rank, tt.best, tt.cosine, tt.inVector, f, l, v, tt.wantFused, tt.wantLex, tt.wantVec)
		}
		if f < 0 || f > 1 {
			t.Errorf("%s: fused %v outside [0, 1]", tt.name, f)
		}
	}
}

func TestFusedSource(t *testing.T) {
	for _, tt := range []struct {
		f    fusedScore
		want Source
	}{
		{fusedScore{keyword: true}, SourceKeyword},
		{fusedScore{embedding: true}, SourceEmbedding},
		{fusedScore{keyword: true, embedding: true}, SourceHybrid},
	} {
		if got := tt.f.source(); got != tt.want {
			t.Errorf("%+v: source %s, want %s", tt.f, got, tt.want)
		}
	}
}

func TestLeadWith(t *testing.T) {
	evs := []Evidence{{DocSlug: "a"}, {DocSlug: "b"}, {DocSlug: "c"}, {DocSlug: "b"}}
	leadWith(evs, "c")
	got := ""
	for _, ev := range evs {
		got += ev.DocSlug
	}
	if got != "cabb" {
		t.Fatalf("leadWith c: %s, want cabb", got)
	}
	leadWith(evs, "zz") // absent: unchanged
	leadWith(evs, "c")  // first already: unchanged
	got = ""
	for _, ev := range evs {
		got += ev.DocSlug
	}
	if got != "cabb" {
		t.Fatalf("leadWith of an absent or leading doc changed the order: %s", got)
	}
}

func FuzzFuse(f *testing.F) {
	f.Add(0.5, 3.0, 10.0, 0.4, true)
	f.Add(1.0, math.Inf(1), math.Inf(1), math.NaN(), true)
	f.Add(0.0, -1.0, 0.0, -2.0, false)
	f.Fuzz(func(t *testing.T, alpha, rank, best, cosine float64, inVector bool) {
		if !(alpha >= 0 && alpha <= 1) {
			alpha = 0.5 // Config.Validate keeps alpha in [0, 1]
		}
		fused, lex, vec := fuse(alpha, rank, best, cosine, inVector)
		for _, v := range []float64{fused, lex, vec} {
			if !(v >= 0 && v <= 1+1e-12) {
				t.Fatalf("fuse(%v, %v, %v, %v, %v) = %v, %v, %v: out of [0, 1]", alpha, rank, best, cosine, inVector, fused, lex, vec)
			}
		}
		if !inVector && vec != 0 || !(rank > 0) && lex != 0 {
			t.Fatalf("fuse(%v, %v, %v, %v, %v): a missing side scored %v, %v", alpha, rank, best, cosine, inVector, lex, vec)
		}
	})
}
