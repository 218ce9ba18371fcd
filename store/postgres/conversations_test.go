package postgres

import (
	"testing"

	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/storetest"
)

func TestConversationsConformance(t *testing.T) {
	adminURL(t)
	storetest.RunConversations(t, func(t *testing.T) store.Conversations { return openStore(t, newDatabase(t)) })
}
