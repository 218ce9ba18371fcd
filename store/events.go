package store

import (
	"context"
	"time"

	"github.com/docent-sh/docent/knowledge"
)

// EventLister lists the retrieval events a store recorded, for reports
// (`docent report`). Both stores keep it, and store/storetest holds them
// to it; it is apart from Store because only reports read events back.
type EventLister interface {
	// Events returns the events recorded at or after since (the zero
	// time: all of them), oldest first.
	Events(ctx context.Context, since time.Time) ([]knowledge.RetrievalEvent, error)
}
