package main

import (
	"context"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/internal/demo"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/migrations"
	"github.com/docent-sh/docent/store/postgres"
	"github.com/docent-sh/docent/store/postgres/pgtest"
)

// writeDocs writes n small docs under dir, spread over a few folders; doc i
// is <folder>/doc-<i>.md.
func writeGeneratedDocs(t *testing.T, dir string, n int) {
	t.Helper()
	folders := []string{"guides", "concepts", "reference", "billing"}
	topics := []string{"dashboard", "invoice", "webhook", "workspace", "report", "member"}
	verbs := []string{"export", "share", "archive", "rename", "restore"}
	for i := range n {
		topic, verb := topics[i%len(topics)], verbs[(i/len(topics))%len(verbs)]
		writeFile(t, filepath.Join(dir, docPath(folders, i)), fmt.Sprintf(
			"---\ntitle: %s the %s %d\n---\n## Overview\n\nHow to %s the %s number %d from Settings.\n\n## Steps\n\nOpen **Settings → %s**, choose *%s*, confirm.\n",
			verb, topic, i, verb, topic, i, topic, verb))
	}
}

func docPath(folders []string, i int) string {
	return filepath.Join(folders[i%len(folders)], fmt.Sprintf("doc-%05d.md", i))
}

// dbConn connects to dbURL for the test to look at what docent wrote.
func dbConn(t *testing.T, dbURL string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// storedState is what a test compares before and after: the docs, their
// stored versions and the knowledge generation.
func storedState(t *testing.T, dbURL string) string {
	t.Helper()
	var state string
	err := dbConn(t, dbURL).QueryRow(t.Context(), `SELECT
		(SELECT count(*) FROM docs_knowledge)::text || ' docs, ' ||
		(SELECT count(*) FROM docs_knowledge_chunks)::text || ' chunks, hash ' ||
		(SELECT coalesce(md5(string_agg(slug || ':' || content_hash || ':' || version || ':' || xmin::text, ',' ORDER BY slug)), '') FROM docs_knowledge) ||
		', generation ' || coalesce((SELECT generation FROM docs_knowledge_generation)::text, 'none')`).Scan(&state)
	if err != nil {
		t.Fatal(err)
	}
	return state
}

func mustRun(t *testing.T, c *cli, args ...string) (stdout, stderr string) {
	t.Helper()
	out, errOut, code := c.run(args...)
	if code != 0 {
		t.Fatalf("docent %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out, errOut
}

// The shared-store scenario: a team seeds 10,000 docs, then someone asks
// with another docs folder. Reading leaves the store exactly as it was.
func TestReadingNeverWritesTheSharedStore(t *testing.T) {
	dbURL := pgtest.NewDatabase(t)
	tenK := filepath.Join(t.TempDir(), "ten_k")
	writeGeneratedDocs(t, tenK, 10_000)
	other := t.TempDir()
	writeGeneratedDocs(t, other, 3)
	c := newCLI(t)

	start := time.Now()
	out, _ := mustRun(t, c, "seed", "--docs", tenK, "--db", dbURL)
	t.Logf("seeding 10,000 docs took %s", time.Since(start).Round(time.Millisecond))
	if !strings.Contains(out, "10000 inserted") {
		t.Fatalf("seed report:\n%s", out)
	}
	before := storedState(t, dbURL)

	start = time.Now()
	out, errOut := mustRun(t, c, "ask", "--docs", other, "--db", dbURL, "how to export the dashboard")
	t.Logf("ask on 10,000 docs took %s", time.Since(start).Round(time.Millisecond))
	if strings.TrimSpace(out) == "" {
		t.Error("ask printed no answer")
	}
	if !strings.Contains(errOut, "ignoring the docs folder "+other) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("stderr %q: want one line saying the docs folder is ignored", errOut)
	}
	mustRun(t, c, "docs", "list", "--docs", other, "--db", dbURL)
	if after := storedState(t, dbURL); after != before {
		t.Errorf("reading changed the store:\nbefore %s\nafter  %s", before, after)
	}
	if !strings.HasPrefix(before, "10000 docs") {
		t.Errorf("state %s, want 10000 docs", before)
	}
}

// An empty database says how to fill it, with the URL given but not its
// password; nothing gets written.
func TestEmptyStoreSaysSeedFirst(t *testing.T) {
	dbURL := pgtest.NewDatabase(t)
	// A URL with a password: the test's own, or, on a server that trusts
	// the test's connections without one, a made-up one it ignores.
	withPassword, password := dbURL, postgres.Secrets(dbURL)
	if len(password) == 0 {
		u, err := url.Parse(dbURL)
		if err != nil || u.Scheme == "" {
			t.Skipf("%s is not a URL; this test needs one", pgtest.Env)
		}
		password = []string{"s3cret-pw"}
		withPassword = pgtest.WithUser(t, dbURL, u.User.Username(), password[0])
	}
	_, errOut, code := newCLI(t).run("ask", "--db", withPassword, "explain workspace")
	if code != 2 || !strings.Contains(errOut, "no docs seeded yet") || !strings.Contains(errOut, "run docent seed --db ") {
		t.Errorf("ask on an empty store: exit %d, stderr %q; want 2 and how to seed", code, errOut)
	}
	if strings.Contains(errOut, password[0]) {
		t.Errorf("the password reached stderr: %q", errOut)
	}
	if state := storedState(t, dbURL); !strings.HasPrefix(state, "0 docs") || !strings.HasSuffix(state, "generation 0") {
		t.Errorf("state after asking an empty store: %s", state)
	}
}

// A role that may only SELECT can ask and list; only seeding needs more.
func TestReadOnlyRoleCanAsk(t *testing.T) {
	dbURL := pgtest.NewDatabase(t)
	mustRun(t, newCLI(t), "seed", "--db", dbURL)
	reader := pgtest.NewReadOnlyRole(t, dbURL)
	c := newCLI(t, "DATABASE_URL", reader)
	out, errOut := mustRun(t, c, "ask", "explain workspace")
	if !strings.Contains(out, "A workspace is") || !strings.Contains(out, "[1] Workspace") {
		t.Errorf("answer:\n%s\nstderr:\n%s", out, errOut)
	}
	if out, _ := mustRun(t, c, "docs", "list"); strings.Count(out, "\n") != 20 {
		t.Errorf("docs list as the reader:\n%s", out)
	}
	// An unchanged seed only reads; one that writes is refused by the server.
	mustRun(t, c, "seed")
	dir := t.TempDir()
	if err := os.CopyFS(dir, kb.Docs()); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "widgets", "calendar.md"), demo.CalendarDoc)
	if _, errOut, code := c.run("seed", "--docs", dir); code != 1 || !strings.Contains(errOut, "permission denied") {
		t.Errorf("seed as the reader: exit %d, stderr %q; want 1, permission denied", code, errOut)
	}
}

// seededDocs seeds n docs written by writeDocs into a database of the
// test's own, and returns it, the docs folder and a CLI set to use both.
func seededDocs(t *testing.T, n int) (dbURL, dir string, c *cli) {
	t.Helper()
	dbURL, dir = pgtest.NewDatabase(t), t.TempDir()
	writeGeneratedDocs(t, dir, n)
	c = newCLI(t, "DATABASE_URL", dbURL)
	mustRun(t, c, "seed", "--docs", dir)
	return dbURL, dir, c
}

// A file that breaks keeps its stored doc; --strict writes nothing at all.
func TestBrokenFileKeepsItsStoredDoc(t *testing.T) {
	dbURL, dir, c := seededDocs(t, 6)

	broken := filepath.Join(dir, "reference", "doc-00002.md")
	writeFile(t, broken, "---\ntitle: [unclosed\n---\n## Overview\n")
	out, errOut := mustRun(t, c, "seed", "--docs", dir)
	if !strings.Contains(out, "0 inserted, 0 updated, 5 unchanged, 0 deleted, 1 kept") || !strings.Contains(errOut, "reference/doc-00002.md") {
		t.Errorf("seed with a broken file:\n%s%s", out, errOut)
	}
	list, _ := mustRun(t, c, "docs", "list")
	if !strings.Contains(list, "reference/doc-00002") {
		t.Errorf("the broken file's doc is gone:\n%s", list)
	}

	// --strict: another doc changed and one file broken; nothing is written.
	before := storedState(t, dbURL)
	writeFile(t, filepath.Join(dir, "guides", "doc-00000.md"), "---\ntitle: Changed\n---\n## Overview\n\nNew text.\n")
	out, errOut, code := c.run("seed", "--strict", "--docs", dir)
	if code != 1 || !strings.Contains(errOut, "nothing was written") || out != "" {
		t.Errorf("seed --strict: exit %d\n%s%s", code, out, errOut)
	}
	if after := storedState(t, dbURL); after != before {
		t.Errorf("seed --strict wrote:\nbefore %s\nafter  %s", before, after)
	}
}

// A seed that would delete more than the allowed share refuses, saying how
// many and where; --prune deletes them.
func TestLargeDeletionNeedsPrune(t *testing.T) {
	dbURL, dir, c := seededDocs(t, 10)
	before := storedState(t, dbURL)

	// A checkout that lost three files (two in guides, one in concepts).
	for _, i := range []int{0, 4, 5} {
		if err := os.Remove(filepath.Join(dir, docPath([]string{"guides", "concepts", "reference", "billing"}, i))); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code := c.run("seed", "--docs", dir)
	if code != 1 || out != "" {
		t.Errorf("seed deleting 3 of 10: exit %d, stdout %q; want 1 and no report", code, out)
	}
	for _, want := range []string{"refusing to delete 3 of 10 stored docs (30%; the limit is 20%): 2 in guides, 1 in concepts", "nothing was written", "--prune"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q does not say %q", errOut, want)
		}
	}
	if after := storedState(t, dbURL); after != before {
		t.Errorf("a refused seed wrote:\nbefore %s\nafter  %s", before, after)
	}
	out, _ = mustRun(t, c, "seed", "--docs", dir, "--max-delete-share", "0.3")
	if !strings.Contains(out, "7 unchanged, 3 deleted") {
		t.Errorf("seed with --max-delete-share 0.3:\n%s", out)
	}
	// Now a folder that holds one doc of the seven: 6 of 7 need --prune.
	for i := 2; i < 10; i++ {
		_ = os.Remove(filepath.Join(dir, docPath([]string{"guides", "concepts", "reference", "billing"}, i)))
	}
	if _, errOut, code := c.run("seed", "--docs", dir); code != 1 || !strings.Contains(errOut, "refusing to delete 6 of 7") {
		t.Errorf("seed deleting 6 of 7 without --prune: exit %d, stderr %q; want 1 and a refusal", code, errOut)
	}
	out, _ = mustRun(t, c, "seed", "--docs", dir, "--prune")
	if !strings.Contains(out, "0 inserted, 0 updated, 1 unchanged, 6 deleted") {
		t.Errorf("seed --prune:\n%s", out)
	}
}

// Two docents starting on a fresh database at once, fifty times: the
// migrations take turns and both seeds succeed, one writing, one finding
// everything in place.
func TestFreshDatabaseStartsTakeTurns(t *testing.T) {
	const rounds = 50
	dbURL := pgtest.NewDatabase(t)
	admin := dbConn(t, dbURL)
	start := time.Now()
	for round := range rounds {
		// An empty public schema is a fresh database to docent, and much
		// quicker to make than another database.
		if _, err := admin.Exec(t.Context(), `DROP SCHEMA public CASCADE; CREATE SCHEMA public`); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		outs, errOuts, codes := make([]string, 2), make([]string, 2), make([]int, 2)
		for i := range 2 {
			wg.Go(func() { outs[i], errOuts[i], codes[i] = newCLI(t).run("seed", "--db", dbURL) })
		}
		wg.Wait()
		for i := range 2 {
			if codes[i] != 0 {
				t.Fatalf("round %d, starter %d: exit %d: %s", round, i, codes[i], errOuts[i])
			}
		}
		report := outs[0] + outs[1]
		if !strings.Contains(report, "19 inserted") || !strings.Contains(report, "19 unchanged") {
			t.Fatalf("round %d: want one seed to insert and one to find everything in place:\n%s", round, report)
		}
	}
	t.Logf("%d rounds of two concurrent starts on a fresh database: no failure, %s", rounds, time.Since(start).Round(time.Millisecond))
}

// A seed behind another one waits --lock-wait, then says since when the
// other one runs and that nothing was written.
func TestSeedGivesUpWaitingWithAMessage(t *testing.T) {
	dbURL := pgtest.NewDatabase(t)
	c := newCLI(t, "DATABASE_URL", dbURL)
	mustRun(t, c, "migrate", "up")
	holder := dbConn(t, dbURL)
	if _, err := holder.Exec(t.Context(), `BEGIN`); err != nil {
		t.Fatal(err)
	}
	if _, err := holder.Exec(t.Context(), `SELECT pg_advisory_xact_lock(`+fmt.Sprint(int64(0x646f63656e74))+`)`); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, errOut, code := c.run("seed", "--lock-wait", "500ms")
	took := time.Since(start)
	t.Logf("stderr after %s: %s", took.Round(time.Millisecond), errOut)
	if code != 1 || !strings.Contains(errOut, "another seed is running since ") || !strings.Contains(errOut, "gave up waiting after 500ms") ||
		!strings.Contains(errOut, "--lock-wait") {
		t.Errorf("exit %d, stderr %q; want 1 and who holds the lock since when", code, errOut)
	}
	if took < 500*time.Millisecond {
		t.Errorf("gave up after %s, before the 500ms wait", took)
	}
}

func TestMigrateDownAllAndForce(t *testing.T) {
	dbURL := pgtest.NewDatabase(t)
	c := newCLI(t, "DATABASE_URL", dbURL)
	mustRun(t, c, "seed")
	out, errOut, code := c.runWithInput(t.Context(), confirmingInput{strings.NewReader("yes\n")}, "migrate", "down")
	if code != 0 || !strings.Contains(out, "version:  0 of") {
		t.Fatalf("migrate down, confirmed: exit %d\n%s%s", code, out, errOut)
	}
	mustRun(t, c, "migrate", "up")
	if _, err := dbConn(t, dbURL).Exec(t.Context(), `UPDATE schema_migrations SET dirty = true`); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = c.run("migrate", "status")
	if code != 1 || !strings.Contains(out, "docent migrate force V") {
		t.Errorf("status of a dirty schema: exit %d\n%s%s", code, out, errOut)
	}
	latest := strconv.Itoa(latestMigration(t))
	if out, _ := mustRun(t, c, "migrate", "force", latest); !strings.Contains(out, "pending:  none") {
		t.Errorf("migrate force %s:\n%s", latest, out)
	}
	if out, _ := mustRun(t, c, "migrate", "down", "--all"); !strings.Contains(out, "version:  0 of") {
		t.Errorf("migrate down --all:\n%s", out)
	}
}

// latestMigration is the version of the last migration docent ships.
// Versions need not be contiguous, so it is the highest number, not the
// count of files.
func latestMigration(t *testing.T) int {
	t.Helper()
	ups, err := fs.Glob(migrations.FS, "*.up.sql")
	if err != nil || len(ups) == 0 {
		t.Fatalf("list migrations: %v (%d found)", err, len(ups))
	}
	latest := 0
	for _, name := range ups {
		v, err := strconv.Atoi(name[:strings.IndexByte(name, '_')])
		if err != nil {
			t.Fatalf("migration %s: no version number: %v", name, err)
		}
		latest = max(latest, v)
	}
	return latest
}
