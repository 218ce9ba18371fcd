// Package apitokentest holds every apitoken.Store to one contract: the
// token file and PostgreSQL's api_tokens table run the same tests.
package apitokentest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/docent-sh/docent/apitoken"
	"github.com/docent-sh/docent/knowledge"
)

// Run tests a fresh, empty store.
func Run(t *testing.T, st apitoken.Store) {
	ctx := context.Background()
	now := time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC)
	tokA, recA, err := apitoken.New(knowledge.Scope{Workspace: "acme", User: "alice"}, "laptop", now)
	if err != nil {
		t.Fatal(err)
	}
	tokB, recB, err := apitoken.New(knowledge.Scope{Workspace: "globex", User: "bob"}, "", now.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if tokA == tokB || recA.ID == recB.ID {
		t.Fatalf("two tokens alike: %q %q, ids %q %q", tokA, tokB, recA.ID, recB.ID)
	}
	for _, r := range []apitoken.Record{recB, recA} { // created out of order: list sorts by time
		if err := st.CreateToken(ctx, r); err != nil {
			t.Fatalf("create %s: %v", r.ID, err)
		}
	}
	if err := st.CreateToken(ctx, recA); err == nil {
		t.Error("creating the same token twice: no error")
	}

	got, err := apitoken.Check(ctx, st, tokA)
	if err != nil {
		t.Fatalf("check a valid token: %v", err)
	}
	if got.ID != recA.ID || got.Scope() != recA.Scope() || got.Name != "laptop" || !got.CreatedAt.Equal(recA.CreatedAt) {
		t.Errorf("check returned %+v, want %+v", got, recA)
	}
	for _, bad := range []string{"", tokA + "x", tokA[:len(tokA)-1], "Bearer " + tokA, recA.ID} {
		if _, err := apitoken.Check(ctx, st, bad); !errors.Is(err, apitoken.ErrNotFound) {
			t.Errorf("check %q: err %v, want ErrNotFound", bad, err)
		}
	}

	list, err := st.ListTokens(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != recA.ID || list[1].ID != recB.ID {
		t.Fatalf("list = %+v, want A then B", list)
	}

	if err := st.RevokeToken(ctx, recA.ID); err != nil {
		t.Fatalf("revoke: %v", err)
	}
	if _, err := apitoken.Check(ctx, st, tokA); !errors.Is(err, apitoken.ErrRevoked) {
		t.Errorf("check a revoked token: err %v, want ErrRevoked", err)
	}
	if err := st.RevokeToken(ctx, recA.ID); err != nil {
		t.Errorf("revoking twice: %v", err)
	}
	if err := st.RevokeToken(ctx, "nosuchid"); !errors.Is(err, apitoken.ErrNotFound) {
		t.Errorf("revoke an unknown id: err %v, want ErrNotFound", err)
	}
	if _, err := apitoken.Check(ctx, st, tokB); err != nil {
		t.Errorf("revoking A touched B: %v", err)
	}
	list, err = st.ListTokens(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || !list[0].Revoked() || list[1].Revoked() {
		t.Errorf("after revoking A, list = %+v", list)
	}
}
