package assistant

import (
	"context"
	"sync"
	"time"

	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/textsafe"
)

// Switch is the team-wide retrieval kill switch a session obeys
// (store.RetrievalSwitch): while it says off, every question gets the
// generic reply, as an engine built with retrieval disabled gives.
type Switch interface {
	RetrievalEnabled(ctx context.Context) (bool, error)
}

// DefaultSwitchPoll is how often a session asks its Switch at most when
// Options.SwitchPoll is 0: an admin's flip reaches it within that.
const DefaultSwitchPoll = time.Second

// switchState is what a session knows of its Switch, shared with its
// forks: what it last read, or what the change feed told (Follow).
type switchState struct {
	// poll lets one turn at a time read the switch: a busy server asks
	// once per interval, not once per request that finds it stale.
	poll    sync.Mutex
	mu      sync.Mutex
	read    time.Time // of the last read or telling; zero: never known
	enabled bool
	told    told
}

// retrievalEnabled reports whether retrieval is on for this turn. While
// the change feed keeps the switch current it answers at once; otherwise
// it asks the switch when the last answer is older than the poll
// interval. A failed or slow read keeps what was known (on, before
// anything was): the switch exists to turn retrieval off on purpose, and
// a database hiccup must not do that by accident.
func (s *Session) retrievalEnabled(ctx context.Context) bool {
	sw := s.opts.Switch
	if sw == nil {
		return true
	}
	poll := s.opts.SwitchPoll
	if poll <= 0 {
		poll = DefaultSwitchPoll
	}
	st := s.switchState
	// While the feed listens, what it keeps current holds, and anything
	// else is read at once: only a read since it connected can be trusted.
	fresh := func(now time.Time) bool {
		if st.told.listening {
			return st.told.current
		}
		return !st.read.IsZero() && now.Sub(st.read) < poll
	}
	st.mu.Lock()
	if fresh(s.opts.Now()) {
		defer st.mu.Unlock()
		return st.enabled
	}
	st.mu.Unlock()

	st.poll.Lock()
	defer st.poll.Unlock()
	st.mu.Lock()
	now := s.opts.Now()
	if fresh(now) { // another turn read it meanwhile
		defer st.mu.Unlock()
		return st.enabled
	}
	epoch := st.told.epoch
	st.mu.Unlock()

	cctx, cancel := context.WithTimeout(ctx, generationCheckTimeout)
	on, err := sw.RetrievalEnabled(cctx)
	cancel()
	st.mu.Lock()
	defer st.mu.Unlock()
	if err != nil {
		s.log.WarnContext(ctx, "read the retrieval switch; keeping the last state", "err", err, "enabled", st.enabled || st.read.IsZero())
		if st.read.IsZero() {
			return true
		}
		return st.enabled
	}
	if st.told.epoch != epoch && st.told.trusted() {
		// The feed told the switch during the read, which may be older
		// than what it said.
		return st.enabled
	}
	if !st.read.IsZero() && on != st.enabled {
		s.log.InfoContext(ctx, "retrieval switch changed", "enabled", on)
	}
	st.read, st.enabled = now, on
	st.told.read(epoch)
	return on
}

func (st *switchState) connected(listening bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.told.connected(listening)
}

// tell records the switch as the change feed told it.
func (st *switchState) tell(s *Session, on bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.read.IsZero() && on != st.enabled {
		s.log.Info("retrieval switch changed", "enabled", on, "via", "notification")
	}
	st.read, st.enabled = s.opts.Now(), on
	st.told.tell()
}

// RetrievalOn is what the session last knew of its kill switch, without
// asking: true before anything was known and without a switch. Metrics
// read it.
func (s *Session) RetrievalOn() bool {
	st := s.switchState
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.read.IsZero() || st.enabled
}

// switchedOff is a turn's result while the kill switch is off: no match
// by rule RuleDisabled, which the reply words as the generic answer.
func switchedOff(query string) retrieval.Result {
	return retrieval.Result{
		Query:            textsafe.Clip(textsafe.Line(query), retrieval.MaxQueryChars),
		NormalizedTokens: []string{},
		Status:           retrieval.StatusNoMatch,
		Rule:             retrieval.RuleDisabled,
		Options:          []retrieval.Option{},
		Results:          []retrieval.Evidence{},
		Notes:            []string{"retrieval is turned off for the team (docent admin retrieval on turns it back on)"},
	}
}

// off answers a turn while the kill switch is off, recorded as any turn
// is: the team can see what was asked meanwhile.
func (s *Session) off(ctx context.Context, question string) retrieval.Result {
	res := switchedOff(question)
	s.mu.Lock()
	s.stats.record(res)
	ev := s.event(ctx, res, routed{res: res})
	unanswered := s.pending
	s.pending = nil
	s.mu.Unlock()
	if unanswered != nil {
		s.record(ctx, *unanswered)
	}
	s.record(ctx, ev)
	return res
}
