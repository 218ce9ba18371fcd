package retrieval

import (
	"reflect"
	"testing"
)

// An engine derived with other settings answers exactly as one built
// from scratch with them, in both phases: it shares the indexes, not
// the settings.
func TestWithSettingsAnswersAsABuiltEngine(t *testing.T) {
	for _, phase := range []int{1, 2} {
		base := newTestEngine(t, func(c *Config) { c.Phase = phase })
		derived, err := base.WithSettings(12, 0.8)
		if err != nil {
			t.Fatal(err)
		}
		built := newTestEngine(t, func(c *Config) { c.Phase, c.TopK, c.Alpha = phase, 12, 0.8 })
		if derived.Config() != built.Config() {
			t.Fatalf("config %+v, want %+v", derived.Config(), built.Config())
		}
		if base.Config().TopK != DefaultConfig().TopK {
			t.Fatalf("the base engine's top-k changed to %d", base.Config().TopK)
		}
		wider := false
		for _, d := range testDocs() {
			// The last: a question many chunks answer.
			for _, q := range []string{d.Title, "how do I use " + d.Title, "home recent workspace links actions notes"} {
				got, want := derived.Ask(Query{Text: q}), built.Ask(Query{Text: q})
				got.Metrics.RetrievalMS, want.Metrics.RetrievalMS = 0, 0
				if !reflect.DeepEqual(got, want) {
					t.Errorf("phase %d, %q: derived %+v\nbuilt %+v", phase, q, got, want)
				}
				if len(got.Results) > base.Config().TopK {
					wider = true
				}
			}
		}
		if phase == 2 && !wider {
			t.Error("no question gave more evidence than the base top-k: the test shows nothing")
		}
	}
	e := newTestEngine(t, nil)
	for _, bad := range []struct {
		k     int
		alpha float64
	}{{0, 0.5}, {101, 0.5}, {5, 1.5}, {5, -0.1}} {
		if _, err := e.WithSettings(bad.k, bad.alpha); err == nil {
			t.Errorf("WithSettings(%d, %v) accepted", bad.k, bad.alpha)
		}
	}
}
