package store

import (
	"context"
	"time"
)

// RetrievalSwitch is the team-wide kill switch for retrieval, kept in the
// store every docent of a team shares, so that `docent admin retrieval
// off` reaches each running one: a session asks at most every
// SwitchPollInterval and, while retrieval is off, answers every question
// with the generic reply, as --retrieval=false does for one process. A
// store that never had it set says enabled.
type RetrievalSwitch interface {
	RetrievalEnabled(ctx context.Context) (bool, error)
	SetRetrievalEnabled(ctx context.Context, enabled bool) error
}

// SwitchPollInterval is how often a session asks the store for the kill
// switch at most: an admin's flip reaches every running docent within it
// (and the turn's own time), and a busy server asks once a second, not
// once a request. A store that notifies (the PostgreSQL store's Watch)
// reaches a following session at once, and it polls only while its
// listener is down.
const SwitchPollInterval = time.Second
