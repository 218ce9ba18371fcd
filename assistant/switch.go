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

// switchState is what a session last read of its Switch.
type switchState struct {
	mu      sync.Mutex
	read    time.Time // zero: never read
	enabled bool
}

// retrievalEnabled reports whether retrieval is on for this turn, asking
// the switch when the last answer is older than the poll interval. A
// failed or slow read keeps what was known (on, before any read): the
// switch exists to turn retrieval off on purpose, and a database hiccup
// must not do that by accident.
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
	st.mu.Lock()
	defer st.mu.Unlock()
	now := s.opts.Now()
	if !st.read.IsZero() && now.Sub(st.read) < poll {
		return st.enabled
	}
	cctx, cancel := context.WithTimeout(ctx, generationCheckTimeout)
	on, err := sw.RetrievalEnabled(cctx)
	cancel()
	if err != nil {
		s.log.Warn("read the retrieval switch; keeping the last state", "err", err, "enabled", st.enabled || st.read.IsZero())
		if st.read.IsZero() {
			return true
		}
		return st.enabled
	}
	if !st.read.IsZero() && on != st.enabled {
		s.log.Info("retrieval switch changed", "enabled", on)
	}
	st.read, st.enabled = now, on
	return on
}

// RetrievalOn is what the session last read of its kill switch, without
// asking: true before any read and without a switch. Metrics read it.
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
	ev := s.event(res, routed{res: res})
	unanswered := s.pending
	s.pending = nil
	s.mu.Unlock()
	if unanswered != nil {
		s.record(ctx, *unanswered)
	}
	s.record(ctx, ev)
	return res
}
