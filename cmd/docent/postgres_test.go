package main

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/store/postgres/pgtest"
)

// The foundation's acceptance: seeding the demo knowledge base into
// PostgreSQL twice leaves the second report all unchanged, and docs list
// shows all 19 docs with their chunk counts.
func TestSeedTwiceAndListOnPostgres(t *testing.T) {
	dbURL := pgtest.NewDatabase(t)
	c := newCLI(t, "DATABASE_URL", dbURL)

	out, errOut, code := c.run("seed")
	if code != 0 {
		t.Fatalf("first seed: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "19 inserted, 0 updated, 0 unchanged, 0 deleted") {
		t.Fatalf("first seed report:\n%s", out)
	}
	out, errOut, code = c.run("seed")
	if code != 0 {
		t.Fatalf("second seed: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "0 inserted, 0 updated, 19 unchanged, 0 deleted") {
		t.Fatalf("second seed report, want 19 docs unchanged:\n%s", out)
	}

	out, errOut, code = c.run("docs", "list")
	if code != 0 {
		t.Fatalf("docs list: exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")[1:]
	if len(lines) != 19 {
		t.Fatalf("docs list: %d docs, want 19:\n%s", len(lines), out)
	}
	row := regexp.MustCompile(`^\S+/\S+\s+\S+\s+.+\s+[1-9]\d*\s+[0-9a-f]{8}$`)
	for _, l := range lines {
		if !row.MatchString(l) {
			t.Errorf("docs list line %q: want slug, category, title, a chunk count > 0, 8 hex", l)
		}
	}
}

func TestMigrateCommands(t *testing.T) {
	dbURL := pgtest.NewDatabase(t)
	c := newCLI(t)
	out, errOut, code := c.run("--db", dbURL, "migrate", "up")
	if code != 0 || !strings.Contains(out, "pending:  none") {
		t.Fatalf("migrate up: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = c.run("--db", dbURL, "migrate", "down", "1")
	if code != 0 || strings.Contains(out, "pending:  none") {
		t.Fatalf("migrate down 1: exit %d, want one pending migration\n%s%s", code, out, errOut)
	}
	if _, errOut, code = c.run("--db", dbURL, "migrate", "down", "x"); code != 2 {
		t.Fatalf("migrate down x: exit %d, want 2 (%s)", code, errOut)
	}
	out, _, code = c.run("--db", dbURL, "migrate", "status")
	if code != 0 || !strings.Contains(out, "pending:") {
		t.Fatalf("migrate status: exit %d\n%s", code, out)
	}
}

// A wrong password never shows up in what docent prints.
func TestConnectionErrorHidesPassword(t *testing.T) {
	u, err := url.Parse(pgtest.AdminURL(t))
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword("docent_nobody", "s3cret-pw")
	u.Host = "127.0.0.1:1" // nothing listens there
	_, errOut, code := newCLI(t).run("--db", u.String(), "docs", "list")
	if code == 0 {
		t.Fatal("docs list on a closed port succeeded")
	}
	if strings.Contains(errOut, "s3cret-pw") {
		t.Fatalf("error shows the password: %s", errOut)
	}
	if !strings.Contains(errOut, "127.0.0.1:1") {
		t.Errorf("error %q does not name the host", errOut)
	}
}

func TestAskRecordsRetrievalEventsInPostgres(t *testing.T) {
	dbURL := pgtest.NewDatabase(t)
	c := newCLI(t, "DATABASE_URL", dbURL)
	c.askJSON("explain workspace")

	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var query, action string
	var tokens []string
	var phase int
	err = conn.QueryRow(ctx, `SELECT query, action, normalized_tokens, phase FROM retrieval_events`).Scan(&query, &action, &tokens, &phase)
	if err != nil {
		t.Fatalf("read the event: %v", err)
	}
	if query != "explain workspace" || action != "found" || len(tokens) == 0 || phase != 2 {
		t.Fatalf("event: query %q, action %q, tokens %v, phase %d", query, action, tokens, phase)
	}
}
