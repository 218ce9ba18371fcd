package postgres

import (
	"testing"
	"time"

	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/storetest"
)

func TestConversationsConformance(t *testing.T) {
	adminURL(t)
	storetest.RunConversations(t, func(t *testing.T) store.Conversations { return openStore(t, newDatabase(t)) })
}

// Listing the events joins the rating of each one's turn.
func TestEventsCarryTheirTurnsRating(t *testing.T) {
	s := openStore(t, newDatabase(t))
	want := storetest.RatedEvents(t, s, s)
	listed, err := s.Events(t.Context(), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	storetest.CheckRatedEvents(t, listed, want)
}
