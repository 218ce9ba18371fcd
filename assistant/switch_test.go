package assistant_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/retrieval"
)

// flipSwitch is a kill switch an admin flips; fail makes reading it fail.
type flipSwitch struct {
	mu    sync.Mutex
	on    bool
	fail  bool
	reads int
}

func (f *flipSwitch) RetrievalEnabled(context.Context) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads++
	if f.fail {
		return false, errors.New("database is down")
	}
	return f.on, nil
}

func (f *flipSwitch) set(on, fail bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.on, f.fail = on, fail
}

func TestKillSwitch(t *testing.T) {
	sw := &flipSwitch{on: true}
	now := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	sink := &eventSink{}
	s := assistant.New(demoEngine(t), &recordingWriter{}, assistant.Options{
		Glossary: kb.Glossary(), Events: sink, Switch: sw, SwitchPoll: time.Second, Now: clock,
	})
	ctx := context.Background()
	ask := func() retrieval.Result { return s.Retrieve(ctx, assistant.Request{Query: "explain workspace"}) }

	if res := ask(); res.Status != retrieval.StatusFound {
		t.Fatalf("switch on: %s, want found", res.Status)
	}
	sw.set(false, false)
	if res := ask(); res.Status != retrieval.StatusFound || sw.reads != 1 {
		t.Fatalf("within the poll interval: %s after %d reads, want the last state and no new read", res.Status, sw.reads)
	}
	now = now.Add(time.Second)
	res := ask()
	if res.Status != retrieval.StatusNoMatch || res.Rule != retrieval.RuleDisabled || len(res.Results) != 0 {
		t.Fatalf("switched off: %s/%q with %d results, want the generic no match", res.Status, res.Rule, len(res.Results))
	}
	if s.RetrievalOn() {
		t.Error("RetrievalOn says on after the switch was read off")
	}
	if assistant.Reply(res) != assistant.Reply(retrieval.Result{Status: retrieval.StatusNoMatch, Rule: retrieval.RuleDisabled}) {
		t.Errorf("reply %q is not the generic one", assistant.Reply(res))
	}
	// The two found turns were recorded as the next turns began, the
	// switched-off one at once.
	if n := len(sink.events); n != 3 || sink.events[2].Action != "no_match" {
		t.Errorf("%d events recorded; the switched-off turn must be recorded as no_match", n)
	}
	// A failing read keeps what was known: off stays off.
	sw.set(true, true)
	now = now.Add(time.Second)
	if res := ask(); res.Rule != retrieval.RuleDisabled {
		t.Errorf("a failed read turned retrieval back on: %s", res.Rule)
	}
	sw.set(true, false)
	now = now.Add(time.Second)
	if res := ask(); res.Status != retrieval.StatusFound {
		t.Errorf("switched on again: %s, want found", res.Status)
	}
}

// Before any good read, a failing switch leaves retrieval on.
func TestKillSwitchUnreadableIsOn(t *testing.T) {
	s := assistant.New(demoEngine(t), &recordingWriter{}, assistant.Options{Glossary: kb.Glossary(), Switch: &flipSwitch{fail: true}})
	if res := s.Retrieve(context.Background(), assistant.Request{Query: "explain workspace"}); res.Status != retrieval.StatusFound {
		t.Fatalf("%s, want found", res.Status)
	}
}
