package storetest

import (
	"context"
	"testing"

	"github.com/docent-sh/docent/store"
)

// OpenSwitches opens two handles on one fresh backing store, as two docent
// processes on one database (or one settings file) would have.
type OpenSwitches func(t *testing.T) (a, b store.RetrievalSwitch)

// RunSwitch holds a store to the kill switch's contract: on until turned
// off, and a flip through one handle is what the other reads next.
func RunSwitch(t *testing.T, open OpenSwitches) {
	t.Helper()
	ctx := context.Background()
	a, b := open(t)
	read := func(s store.RetrievalSwitch, want bool, what string) {
		t.Helper()
		got, err := s.RetrievalEnabled(ctx)
		if err != nil {
			t.Fatalf("%s: RetrievalEnabled: %v", what, err)
		}
		if got != want {
			t.Fatalf("%s: retrieval enabled %v, want %v", what, got, want)
		}
	}
	read(b, true, "never set")
	for _, step := range []struct {
		on   bool
		what string
	}{{false, "turned off"}, {false, "turned off twice"}, {true, "turned on again"}} {
		if err := a.SetRetrievalEnabled(ctx, step.on); err != nil {
			t.Fatalf("%s: SetRetrievalEnabled(%v): %v", step.what, step.on, err)
		}
		read(b, step.on, step.what+", read by the other handle")
		read(a, step.on, step.what)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := a.SetRetrievalEnabled(cancelled, false); err == nil {
		t.Error("a set with a cancelled context succeeded")
	}
	read(b, true, "after a cancelled set")
}
