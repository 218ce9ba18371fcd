package assistant_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store"
)

// feed is a change feed the test speaks for.
type feed chan store.Change

func (f feed) Watch(context.Context) <-chan store.Change { return f }

// follow starts s following f until the test ends.
func follow(t *testing.T, s *assistant.Session, f feed) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Follow(t.Context(), f)
	}()
	t.Cleanup(func() {
		close(f)
		<-done
	})
}

// tell hands c to the following session and returns once it applied it:
// the zero Change after it, which Follow ignores, is taken only then.
func (f feed) tell(c store.Change) {
	f <- c
	f <- store.Change{}
}

// eventually fails unless ok holds within 5 seconds: what the feed says
// is applied once Follow takes it, a moment after the send.
func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !ok(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 5 s", what)
		}
	}
}

func (f *flipSwitch) readCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reads
}

// While the feed listens the switch is never polled and a flip it tells
// holds at once; lost, the session polls as it does without one, and a
// failed read keeps what was known.
func TestFollowSwitch(t *testing.T) {
	sw := &flipSwitch{on: true}
	now := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	var clock = make(chan time.Time, 1)
	clock <- now
	nowFn := func() time.Time { t := <-clock; clock <- t; return t }
	advance := func(d time.Duration) { clock <- (<-clock).Add(d) }
	s := assistant.New(demoEngine(t), &recordingWriter{}, assistant.Options{
		Glossary: kb.Glossary(), Switch: sw, SwitchPoll: time.Second, Now: nowFn,
	})
	f := make(feed)
	follow(t, s, f)
	ask := func() retrieval.Result {
		return s.Retrieve(context.Background(), assistant.Request{Query: "explain workspace"})
	}
	fork := s.Fork(context.Background(), knowledge.Scope{})
	askFork := func() retrieval.Result {
		return fork.Retrieve(context.Background(), assistant.Request{Query: "explain workspace"})
	}

	f <- store.Change{Kind: store.ChangeListening}
	// Connected, the session reads the switch once to catch up, by itself.
	eventually(t, "the catch-up read", func() bool { return sw.readCount() == 1 })
	for range 3 {
		advance(time.Hour)
		if res := ask(); res.Status != retrieval.StatusFound {
			t.Fatalf("switch on: %s", res.Status)
		}
	}
	if n := sw.readCount(); n != 1 {
		t.Fatalf("%d reads of the switch while the feed listens, want only the catch-up", n)
	}

	sw.set(false, false)
	f.tell(store.Change{Kind: store.ChangeSwitch, Enabled: false})
	if ask().Rule != retrieval.RuleDisabled {
		t.Fatal("the told flip did not hold at once")
	}
	if askFork().Rule != retrieval.RuleDisabled || s.RetrievalOn() {
		t.Error("the fork or RetrievalOn did not follow the told flip")
	}
	if n := sw.readCount(); n != 1 {
		t.Fatalf("%d reads of the switch, want still 1: the flip was told", n)
	}

	// Lost: the last state holds for a poll interval, then it is polled.
	f.tell(store.Change{Kind: store.ChangeLost, Err: errors.New("connection reset")})
	sw.set(true, false) // a flip the feed cannot tell
	if res := ask(); res.Rule != retrieval.RuleDisabled || sw.readCount() != 1 {
		t.Fatalf("lost, within the poll interval: %s after %d reads, want the last state and no read", res.Rule, sw.readCount())
	}
	advance(time.Second)
	if res := ask(); res.Status != retrieval.StatusFound || sw.readCount() != 2 {
		t.Fatalf("lost, after the poll interval: %s after %d reads, want found by a second read", res.Status, sw.readCount())
	}
	sw.set(false, true)
	advance(time.Second)
	if res := ask(); res.Status != retrieval.StatusFound {
		t.Fatalf("a failed poll changed the state: %s", res.Status)
	}

	// Back: the catch-up read fails, so nothing is trusted and each turn
	// reads until one succeeds; from then on the feed's word holds again.
	reads := sw.readCount()
	f <- store.Change{Kind: store.ChangeListening}
	eventually(t, "the catch-up read", func() bool { return sw.readCount() == reads+1 })
	if res := ask(); res.Status != retrieval.StatusFound || sw.readCount() != reads+2 {
		t.Fatalf("listening, unread: %s after %d reads, want found by a read of its own", res.Status, sw.readCount()-reads)
	}
	sw.set(false, false)
	if res := ask(); res.Rule != retrieval.RuleDisabled || sw.readCount() != reads+3 {
		t.Fatalf("listening, read at last: %s after %d reads", res.Rule, sw.readCount()-reads)
	}
	for range 3 {
		ask()
	}
	if n := sw.readCount(); n != reads+3 {
		t.Errorf("%d more reads once a read since the reconnection succeeded, want none", n-reads-3)
	}
}

// While the feed listens no turn asks the generation; a told seed
// rebuilds the engine before any turn asks for it; lost, every turn asks
// again.
func TestFollowGeneration(t *testing.T) {
	s, k, b, _ := refreshingSession(t)
	f := make(feed)
	follow(t, s, f)
	f <- store.Change{Kind: store.ChangeListening}
	genReads := func() int { k.mu.Lock(); defer k.mu.Unlock(); return k.genReads }
	eventually(t, "the catch-up read", func() bool { return genReads() == 1 })
	for range 3 {
		ask(s, "explain workspace")
	}
	if n := genReads(); n != 1 {
		t.Fatalf("%d generation reads while the feed listens, want only the catch-up", n)
	}

	k.seed(withCalendar(t, demoDocs(t)))
	f.tell(store.Change{Kind: store.ChangeGeneration, Generation: 2})
	eventually(t, "the rebuild", func() bool { return s.Generation() == 2 })
	if b.count() != 2 {
		t.Fatalf("%d builds, want 2", b.count())
	}
	res := ask(s, "explain calendar")
	if res.Status != retrieval.StatusFound || topSlug(res) != "widgets/calendar" || genReads() != 1 {
		t.Fatalf("after the told seed: %s (%s) after %d generation reads, want the calendar and no read", res.Status, topSlug(res), genReads())
	}

	f.tell(store.Change{Kind: store.ChangeLost, Err: errors.New("connection reset")})
	eventually(t, "polling again", func() bool {
		before := genReads()
		ask(s, "explain workspace")
		return genReads() == before+1
	})
	if b.count() != 2 {
		t.Errorf("%d builds after the loss, want still 2", b.count())
	}
}

// Follow returns once the feed closes, and the session polls from then on.
func TestFollowEnds(t *testing.T) {
	s, k, _, _ := refreshingSession(t)
	f := make(feed)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Follow(t.Context(), f)
	}()
	f <- store.Change{Kind: store.ChangeListening}
	close(f)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Follow did not return once the feed closed")
	}
	k.mu.Lock()
	before := k.genReads
	k.mu.Unlock()
	ask(s, "explain workspace")
	ask(s, "explain workspace")
	k.mu.Lock()
	defer k.mu.Unlock()
	if n := k.genReads - before; n != 2 {
		t.Errorf("%d generation reads in two turns after the feed ended, want 2", n)
	}
}
