// Package pgtest gives tests of any package a private PostgreSQL database:
// it reads DOCENT_TEST_DATABASE_URL, creates a uniquely named database and
// drops it when the test ends. Without the variable tests skip, except
// under CI=true where skipping would hide that they never ran.
package pgtest

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
)

// Env names the variable holding the admin URL tests create databases from.
const Env = "DOCENT_TEST_DATABASE_URL"

// AdminURL is the database the tests create their own databases from.
// Without one the tests skip, except under CI where skipping would hide
// that they never ran.
func AdminURL(tb testing.TB) string {
	tb.Helper()
	u := os.Getenv(Env)
	if u == "" {
		missingDatabase(tb, Env+" is not set")
	}
	return u
}

func missingDatabase(tb testing.TB, why string) {
	tb.Helper()
	if os.Getenv("CI") == "true" {
		tb.Fatalf("PostgreSQL tests cannot run under CI: %s", why)
	}
	tb.Skipf("PostgreSQL tests skipped (%s); to run them: %s=postgres://postgres@127.0.0.1:5432/test?sslmode=disable",
		why, Env)
}

// NewDatabase creates an empty database for one test, dropped when the
// test ends, and returns its URL. Separate databases keep parallel tests
// and golang-migrate's bookkeeping apart.
func NewDatabase(tb testing.TB) string {
	tb.Helper()
	admin := AdminURL(tb)
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
	cleanup(tb, admin, "drop test database "+name, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	return WithDatabase(tb, admin, name)
}

// cleanup runs queries on connString when the test ends, in order,
// stopping at the first that fails.
func cleanup(tb testing.TB, connString, what string, queries ...string) {
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, connString)
		if err != nil {
			tb.Errorf("%s: %v", what, err)
			return
		}
		defer conn.Close(ctx)
		for _, q := range queries {
			if _, err := conn.Exec(ctx, q); err != nil {
				tb.Errorf("%s: %s: %v", what, q, err)
				return
			}
		}
	})
}

// WithDatabase points a connection string at another database.
func WithDatabase(tb testing.TB, connString, name string) string {
	tb.Helper()
	if !strings.Contains(connString, "://") {
		return connString + " dbname=" + name // later keywords win
	}
	u, err := url.Parse(connString)
	if err != nil {
		tb.Fatalf("%s is not a valid URL: %v", Env, err)
	}
	u.Path = "/" + name
	return u.String()
}

// NewReadOnlyRole creates a login role that may only read the tables that
// exist now in dbURL's public schema (SELECT, nothing else), dropped when
// the test ends, and returns dbURL with that role's credentials. The
// admin role needs CREATEROLE.
func NewReadOnlyRole(tb testing.TB, dbURL string) string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		tb.Fatalf("connect to create a read-only role: %v", err)
	}
	defer conn.Close(ctx)

	var random [8]byte
	_, _ = rand.Read(random[:])
	name := "docent_reader_" + hex.EncodeToString(random[:4])
	password := hex.EncodeToString(random[:])
	if _, err := conn.Exec(ctx, "CREATE ROLE "+name+" LOGIN PASSWORD '"+password+"'"); err != nil {
		tb.Fatalf("create read-only role (the %s role needs CREATEROLE): %v", Env, err)
	}
	// The role owns nothing; once its grants are gone it can be dropped
	// by an admin with CREATEROLE alone (DROP OWNED would need membership).
	cleanup(tb, dbURL, "drop role "+name, "REVOKE ALL ON ALL TABLES IN SCHEMA public FROM "+name, "DROP ROLE "+name)
	if _, err := conn.Exec(ctx, "GRANT SELECT ON ALL TABLES IN SCHEMA public TO "+name); err != nil {
		tb.Fatalf("grant SELECT to %s: %v", name, err)
	}
	return WithUser(tb, dbURL, name, password)
}

// WithUser sets the user and password of a connection string.
func WithUser(tb testing.TB, connString, user, password string) string {
	tb.Helper()
	if !strings.Contains(connString, "://") {
		return connString + " user=" + user + " password=" + password // later keywords win
	}
	u, err := url.Parse(connString)
	if err != nil {
		tb.Fatalf("%s is not a valid URL: %v", Env, err)
	}
	u.User = url.UserPassword(user, password)
	return u.String()
}
