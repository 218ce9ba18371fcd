package postgres

import (
	"context"
	"strings"
	"testing"

	"github.com/docent-sh/docent/apitoken/apitokentest"
)

func TestAPITokens(t *testing.T) {
	st := openStore(t, newDatabase(t))
	if err := st.Ready(context.Background()); err != nil {
		t.Fatalf("ready after migrating: %v", err)
	}
	apitokentest.Run(t, st.APITokens())
}

func TestReadyNamesPendingMigrations(t *testing.T) {
	ctx := context.Background()
	url := newDatabase(t)
	st := openStore(t, url)
	if _, err := st.pool.Exec(ctx, `UPDATE schema_migrations SET version = 10`); err != nil {
		t.Fatal(err)
	}
	err := st.Ready(ctx)
	if err == nil || !strings.Contains(err.Error(), "011_api_tokens") {
		t.Fatalf("ready with 011 pending: err %v", err)
	}
}
