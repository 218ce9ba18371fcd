package postgres

import (
	"testing"

	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/storetest"
)

func TestSwitchConformance(t *testing.T) {
	storetest.RunSwitch(t, func(t *testing.T) (store.RetrievalSwitch, store.RetrievalSwitch) {
		url := newDatabase(t)
		return openStore(t, url), openStore(t, url)
	})
}
