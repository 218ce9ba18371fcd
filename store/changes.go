package store

// Change is one event of a store's change feed: what a running docent
// must follow without asking the store before every question. A feed
// says when it listens and when it lost its connection, because only
// while it listens does the absence of news mean that nothing changed.
type Change struct {
	Kind ChangeKind
	// Enabled is the kill switch's new state, for ChangeSwitch.
	Enabled bool
	// Generation is the knowledge generation a seed committed, for
	// ChangeGeneration.
	Generation int64
	// Err is why the feed stopped listening, for ChangeLost.
	Err error
}

// ChangeKind says what a Change tells.
type ChangeKind int

const (
	// ChangeListening: the feed (re)connected, and every change committed
	// from now on is told. What changed while it was down is not: a
	// follower reads the store once to catch up.
	ChangeListening ChangeKind = iota + 1
	// ChangeLost: the feed is down until the next ChangeListening, and
	// changes go untold meanwhile.
	ChangeLost
	// ChangeSwitch: the retrieval kill switch was set (RetrievalSwitch).
	ChangeSwitch
	// ChangeGeneration: a seed raised the knowledge generation.
	ChangeGeneration
)

func (k ChangeKind) String() string {
	switch k {
	case ChangeListening:
		return "listening"
	case ChangeLost:
		return "lost"
	case ChangeSwitch:
		return "switch"
	case ChangeGeneration:
		return "generation"
	}
	return "unknown"
}
