package retrieval_test

import (
	"math"
	"strings"
	"testing"

	"github.com/docent-sh/docent/retrieval"
)

func TestAlphaValidated(t *testing.T) {
	if a := retrieval.DefaultConfig().Alpha; a != 0.5 {
		t.Fatalf("default alpha %v, want 0.5", a)
	}
	for _, tt := range []struct {
		alpha float64
		ok    bool
	}{{0, true}, {0.5, true}, {1, true}, {-0.01, false}, {1.01, false}, {math.NaN(), false}, {math.Inf(1), false}} {
		cfg := retrieval.DefaultConfig()
		cfg.Alpha = tt.alpha
		err := cfg.Validate()
		if (err == nil) != tt.ok {
			t.Errorf("alpha %v: err %v, want ok=%v", tt.alpha, err, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "alpha") {
			t.Errorf("alpha %v: error %q does not name alpha", tt.alpha, err)
		}
	}
}
