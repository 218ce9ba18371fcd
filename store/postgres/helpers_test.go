package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
)

const testDatabaseEnv = "DOCENT_TEST_DATABASE_URL"

// adminURL is the database the tests create their own databases from.
// Without one the tests skip, except under CI where skipping would hide
// that they never ran.
func adminURL(tb testing.TB) string {
	tb.Helper()
	u := os.Getenv(testDatabaseEnv)
	if u == "" {
		missingDatabase(tb, testDatabaseEnv+" is not set")
	}
	return u
}

func missingDatabase(tb testing.TB, why string) {
	tb.Helper()
	if os.Getenv("CI") == "true" {
		tb.Fatalf("PostgreSQL tests cannot run under CI: %s", why)
	}
	tb.Skipf("PostgreSQL tests skipped (%s); to run them: %s=postgres://postgres@127.0.0.1:5432/test?sslmode=disable",
		why, testDatabaseEnv)
}

// newDatabase creates an empty database for one test, dropped when the
// test ends, and returns its URL. Separate databases keep parallel tests
// and golang-migrate's bookkeeping apart.
func newDatabase(tb testing.TB) string {
	tb.Helper()
	admin := adminURL(tb)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		missingDatabase(tb, "cannot connect: "+err.Error())
	}
	defer conn.Close(ctx)

	var suffix [6]byte
	_, _ = rand.Read(suffix[:])
	name := "docent_test_" + hex.EncodeToString(suffix[:])
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		tb.Fatalf("create test database: %v", err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, admin)
		if err != nil {
			tb.Errorf("drop test database %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			tb.Errorf("drop test database %s: %v", name, err)
		}
	})
	return withDatabase(tb, admin, name)
}

// withDatabase points a connection string at another database.
func withDatabase(tb testing.TB, connString, name string) string {
	tb.Helper()
	if !strings.Contains(connString, "://") {
		return connString + " dbname=" + name // later keywords win
	}
	u, err := url.Parse(connString)
	if err != nil {
		tb.Fatalf("%s is not a valid URL: %v", testDatabaseEnv, err)
	}
	u.Path = "/" + name
	return u.String()
}

func openStore(tb testing.TB, url string) *Store {
	tb.Helper()
	s, err := Open(context.Background(), url, Options{Migrate: true})
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(s.Close)
	return s
}

func mustSeed(tb testing.TB, s *Store, docs []knowledge.Doc) store.SeedReport {
	tb.Helper()
	r, err := s.Seed(context.Background(), docs)
	if err != nil {
		tb.Fatalf("Seed: %v", err)
	}
	return r
}

func mustCorpus(tb testing.TB, s *Store) []knowledge.Doc {
	tb.Helper()
	docs, err := s.Corpus(context.Background())
	if err != nil {
		tb.Fatalf("Corpus: %v", err)
	}
	return docs
}

// rowVersions maps every doc and chunk row to its physical version (ctid,
// xmin) and updated_at: any UPDATE, or DELETE and re-INSERT, changes it.
func rowVersions(tb testing.TB, s *Store) map[string]string {
	tb.Helper()
	rows, err := s.pool.Query(context.Background(), `
		SELECT 'doc ' || slug, ctid::text || ' ' || xmin::text || ' ' || updated_at::text FROM docs_knowledge
		UNION ALL
		SELECT 'chunk ' || doc_slug || '#' || chunk_index, ctid::text || ' ' || xmin::text || ' ' || updated_at::text
		FROM docs_knowledge_chunks`)
	if err != nil {
		tb.Fatalf("read row versions: %v", err)
	}
	out := map[string]string{}
	var key, version string
	if _, err := pgx.ForEachRow(rows, []any{&key, &version}, func() error {
		out[key] = version
		return nil
	}); err != nil {
		tb.Fatalf("read row versions: %v", err)
	}
	return out
}
