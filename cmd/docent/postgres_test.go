package main

import (
	"context"
	"io"
	"log/slog"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/internal/demo"
	"github.com/docent-sh/docent/internal/syncbuf"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/llm/llmtest"
	"github.com/docent-sh/docent/retrieval"
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
	// Only the seed that wrote moved the knowledge generation, so running
	// sessions rebuild once, not after every start-up's re-seed.
	if gen := knowledgeGeneration(t, dbURL); gen != 1 {
		t.Errorf("knowledge generation after a writing and an unchanged seed = %d, want 1", gen)
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
	if _, errOut, code := c.run("seed"); code != 0 {
		t.Fatalf("seed: exit %d: %s", code, errOut)
	}
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

// A model's reported usage and its price reach the event's columns; the
// offline answer leaves them NULL.
func TestAskRecordsUsageAndCostInPostgres(t *testing.T) {
	dbURL := pgtest.NewDatabase(t)
	srv := llmtest.NewOpenAI(t, llmtest.Script{Chunks: []string{"An area."}, Usage: llmtest.Usage{PromptTokens: 1000, CompletionTokens: 50}})
	c := newCLI(t, "DATABASE_URL", dbURL)
	if _, errOut, code := c.run("seed"); code != 0 {
		t.Fatalf("seed: exit %d: %s", code, errOut)
	}
	c.askJSON("explain workspace")
	c.withConfig("provider: openai\nmodel: priced\nprices:\n  priced: {input-per-mtok: 2, output-per-mtok: 10}\n")
	c.env["OPENAI_BASE_URL"] = srv.BaseURL()
	c.askJSON("explain workspace")

	conn := dbConn(t, dbURL)
	rows, err := conn.Query(t.Context(), `SELECT prompt_tokens, completion_tokens, cost_usd FROM retrieval_events ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	type usage struct {
		Prompt, Completion *int
		Cost               *float64
	}
	got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[usage])
	if err != nil || len(got) != 2 {
		t.Fatalf("events %+v, %v; want 2", got, err)
	}
	if got[0].Prompt != nil || got[0].Completion != nil || got[0].Cost != nil {
		t.Errorf("offline answer's event %+v, want NULL usage", got[0])
	}
	// 1000 × $2 + 50 × $10 per million tokens.
	if u := got[1]; u.Prompt == nil || *u.Prompt != 1000 || u.Completion == nil || *u.Completion != 50 || u.Cost == nil || math.Abs(*u.Cost-0.0025) > 1e-12 {
		t.Errorf("model answer's event %+v, want 1000, 50 and $0.0025", u)
	}
}

func knowledgeGeneration(t *testing.T, dbURL string) int64 {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var gen int64
	if err := conn.QueryRow(ctx, `SELECT generation FROM docs_knowledge_generation`).Scan(&gen); err != nil {
		t.Fatalf("read the knowledge generation: %v", err)
	}
	return gen
}

// startTestApp seeds the embedded demo knowledge base into dbURL, then
// starts docent on it the way the TUI does, with its log in logs.
func startTestApp(t *testing.T, dbURL string, logs *syncbuf.Buffer) *app {
	t.Helper()
	if _, errOut, code := newCLI(t).run("--db", dbURL, "seed"); code != 0 {
		t.Fatalf("seed the demo: exit %d: %s", code, errOut)
	}
	root, e := newRoot(func(string) string { return "" })
	if err := root.ParseFlags([]string{"--db", dbURL}); err != nil {
		t.Fatal(err)
	}
	if err := e.cfg.validate(); err != nil {
		t.Fatal(err)
	}
	e.log = slog.New(slog.NewTextHandler(logs, nil))
	a, err := e.startApp(t.Context(), true, io.Discard)
	if err != nil {
		t.Fatalf("startApp: %v", err)
	}
	t.Cleanup(a.Close)
	return a
}

// A colleague runs `docent seed` against the database a chat is open on:
// the chat's next turn answers from the new docs, and a seed that changes
// nothing costs it no rebuild.
func TestRunningAppSeesAColleaguesSeed(t *testing.T) {
	dbURL := pgtest.NewDatabase(t)
	logs := &syncbuf.Buffer{}
	a := startTestApp(t, dbURL, logs)
	ask := func(q string) retrieval.Result {
		return a.session.Retrieve(t.Context(), assistant.Request{Query: q})
	}
	topSlug := func(res retrieval.Result) string {
		if len(res.Results) == 0 {
			return ""
		}
		return res.Results[0].DocSlug
	}
	if res := ask("explain workspace"); res.Status != retrieval.StatusFound || topSlug(res) != "concepts/workspace" {
		t.Fatalf("explain workspace = %s (%s), want found concepts/workspace", res.Status, topSlug(res))
	}
	if res := ask("explain calendar"); res.Status != retrieval.StatusNoMatch {
		t.Fatalf("before the seed: explain calendar = %s (%s), want no_match", res.Status, topSlug(res))
	}

	// The colleague's knowledge base: the demo one plus a calendar doc.
	dir := t.TempDir()
	if err := os.CopyFS(dir, kb.Docs()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "widgets", "calendar.md"), []byte(demo.CalendarDoc), 0o600); err != nil {
		t.Fatal(err)
	}
	colleague := newCLI(t, "DATABASE_URL", dbURL)
	out, errOut, code := colleague.run("--docs", dir, "seed")
	if code != 0 || !strings.Contains(out, "1 inserted, 0 updated, 19 unchanged, 0 deleted") {
		t.Fatalf("the colleague's seed: exit %d, want 1 doc inserted and 19 unchanged:\n%s%s", code, out, errOut)
	}

	res := ask("explain calendar")
	if res.Status != retrieval.StatusFound || topSlug(res) != "widgets/calendar" {
		t.Fatalf("after the seed: explain calendar = %s (%s), want found widgets/calendar", res.Status, topSlug(res))
	}
	if !strings.Contains(logs.String(), "retrieval index rebuilt") || !strings.Contains(logs.String(), "docs=20") {
		t.Errorf("no rebuild record for 20 docs in the log:\n%s", logs)
	}

	before := knowledgeGeneration(t, dbURL)
	out, errOut, code = colleague.run("--docs", dir, "seed")
	if code != 0 || !strings.Contains(out, "0 inserted, 0 updated, 20 unchanged, 0 deleted") {
		t.Fatalf("the unchanged re-seed: exit %d, want 20 docs unchanged:\n%s%s", code, out, errOut)
	}
	if after := knowledgeGeneration(t, dbURL); after != before {
		t.Errorf("an unchanged re-seed moved the knowledge generation from %d to %d", before, after)
	}
	if res := ask("explain calendar"); topSlug(res) != "widgets/calendar" {
		t.Errorf("after the unchanged re-seed: explain calendar = %s (%s)", res.Status, topSlug(res))
	}
	if n := strings.Count(logs.String(), "retrieval index rebuilt"); n != 1 {
		t.Errorf("%d rebuilds, want 1: the unchanged re-seed must not cause one", n)
	}
}

// The vocabulary travels with the docs into the shared store: a reader
// with no docs folder answers with the seeded knowledge base's synonyms,
// and a seed of a folder without any takes them away again.
func TestSharedStoreKeepsTheSeededVocabulary(t *testing.T) {
	dbURL := pgtest.NewDatabase(t)
	c := newCLI(t, "DATABASE_URL", dbURL)
	if _, errOut, code := c.run("seed"); code != 0 {
		t.Fatalf("seed the demo: exit %d: %s", code, errOut)
	}
	synonyms := func(o askOutput) []retrieval.Rewrite {
		for _, r := range o.Results {
			return r.MatchExplain.Synonyms
		}
		return nil
	}
	o := c.askJSON("what is my homepage")
	if got := synonyms(o); len(got) != 1 || got[0] != (retrieval.Rewrite{From: "homepage", To: "home"}) {
		t.Errorf("on the seeded demo: synonyms %v, want homepage => home", got)
	}
	if o.Context != nil && o.Context.Tokens.Core == 0 {
		t.Error("on the seeded demo: no core-concepts tokens in the prompt, want the demo glossary")
	}

	plain := writeDocs(t, map[string]string{"home.md": "# Home\n\nThe home page lists your recent work and your homepage settings.\n"})
	if _, errOut, code := c.run("seed", "--docs", plain, "--prune"); code != 0 {
		t.Fatalf("seed a folder without vocabulary: exit %d: %s", code, errOut)
	}
	o = c.askJSON("what is my homepage")
	if got := synonyms(o); len(got) != 0 {
		t.Errorf("after seeding a folder without vocabulary: synonyms %v, want none", got)
	}
	if o.Context != nil && o.Context.Tokens.Core != 0 {
		t.Errorf("after seeding a folder without vocabulary: %d core-concepts tokens, want 0", o.Context.Tokens.Core)
	}
}
