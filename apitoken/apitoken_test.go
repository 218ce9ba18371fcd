package apitoken_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docent-sh/docent/apitoken"
	"github.com/docent-sh/docent/apitoken/apitokentest"
	"github.com/docent-sh/docent/knowledge"
)

func TestFileStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "docent", "api-tokens.json")
	apitokentest.Run(t, apitoken.NewFileStore(path))

	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("token file mode %o, want 600", perm)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), apitoken.Prefix) {
		t.Errorf("token file holds something token-shaped:\n%s", data)
	}
	// No temporary file is left beside it.
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("files beside the token file: %v", entries)
	}
}

func TestFileStoreStoresOnlyTheHash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tokens.json")
	st := apitoken.NewFileStore(path)
	tok, rec, err := apitoken.New(knowledge.Scope{Workspace: "acme", User: "alice"}, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateToken(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), strings.TrimPrefix(tok, apitoken.Prefix)) {
		t.Fatal("the token file holds the token")
	}
}

func TestFileStoreCorrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tokens.json")
	os.WriteFile(path, []byte(`{"tokens":[{"id":"x","sha256":"zz"}]}`), 0o600)
	_, err := apitoken.NewFileStore(path).LookupToken(context.Background(), apitoken.Hash{})
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("corrupt file: err %v, want one naming %s", err, path)
	}
}

func TestNewRefusesBadInput(t *testing.T) {
	if _, _, err := apitoken.New(knowledge.Scope{User: "alice"}, "", time.Now()); err == nil {
		t.Error("a token without a workspace")
	}
	if _, _, err := apitoken.New(knowledge.Scope{Workspace: "acme", User: "alice"}, "a\x1b[2Jb", time.Now()); err == nil {
		t.Error("a name with an escape sequence")
	}
}

// A token created or revoked by another process (another FileStore on the
// same file) counts at once for a store that cached the file.
func TestFileStoreSeesOtherWriters(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tokens.json")
	server, admin := apitoken.NewFileStore(path), apitoken.NewFileStore(path)
	tok, rec, err := apitoken.New(knowledge.Scope{Workspace: "acme", User: "alice"}, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := apitoken.Check(ctx, server, tok); err == nil {
		t.Fatal("a token not created yet passed")
	}
	if err := admin.CreateToken(ctx, rec); err != nil {
		t.Fatal(err)
	}
	for range 3 { // the second and third read come from the cache
		if _, err := apitoken.Check(ctx, server, tok); err != nil {
			t.Fatalf("a token another store created: %v", err)
		}
	}
	if err := admin.RevokeToken(ctx, rec.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := apitoken.Check(ctx, server, tok); !errors.Is(err, apitoken.ErrRevoked) {
		t.Fatalf("a token another store revoked: err %v", err)
	}
}
