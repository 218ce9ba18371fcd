package reference

import (
	"context"
	"errors"
	"fmt"
	neturl "net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docent-sh/docent/store/postgres"
	"github.com/docent-sh/docent/store/postgres/pgtest"
)

// rankingDocs is a corpus whose order for "running shoes" follows from
// English stemming and cover density: the closer the two terms, the
// higher the rank.
var rankingDocs = []TextDoc{
	{ID: "far", Title: "Road notes", Text: "Running is how I spend my mornings, and after many long miles on the road I always need good shoes"},
	{ID: "bread", Title: "Baking bread", Text: "A recipe for sourdough with a long rise"},
	{ID: "close", Title: "Gear", Text: "New running shoes for the trail"},
	{ID: "stem", Title: "Diary", Text: "He runs in his old shoes"},
	{ID: "single", Title: "Morning", Text: "She runs every morning before work"},
	{ID: "titled", Title: "Shoes", Text: "Notes on running in the rain"},
}

func TestTextSearchRanking(t *testing.T) {
	t.Parallel()
	s := openStore(t, pgtest.NewDatabase(t))
	ts := mustTextSearch(t, s, rankingDocs)

	for _, c := range []struct {
		query string
		want  []string
	}{
		// "close" has the terms adjacent, "titled" three apart (the title
		// counts), "stem" four apart and matches only through stemming
		// (runs, shoes), "far" nineteen apart; "single" lacks shoes.
		{"running shoes", []string{"close", "titled", "stem", "far"}},
		{"sourdough", []string{"bread"}},
		{"volcano", nil},
	} {
		if got := mustSearch(t, ts, c.query, 10); !slices.Equal(got, c.want) {
			t.Errorf("Search(%q) = %q, want %q", c.query, got, c.want)
		}
	}
}

func TestTextSearchTiesLimitAndSyntax(t *testing.T) {
	t.Parallel()
	s := openStore(t, pgtest.NewDatabase(t))
	// Identical docs rank equally. Their IDs sort differently from their
	// insertion order, and a bounded sort (LIMIT) does not keep input
	// order, so only the ord tie-breaker gives this order.
	tied := []string{"tie-07", "tie-03", "tie-11", "tie-01", "tie-09", "tie-05", "tie-12", "tie-02", "tie-08", "tie-04", "tie-10", "tie-06"}
	docs := slices.Clone(rankingDocs)
	for _, id := range tied {
		docs = append(docs, TextDoc{ID: id, Title: "Umbrella", Text: "An umbrella for the rain"})
	}
	ts := mustTextSearch(t, s, docs)

	for _, c := range []struct {
		query string
		limit int
		want  []string
	}{
		{"umbrella", 100, tied},
		{"umbrella", 5, tied[:5]},
		{"umbrella", 1, tied[:1]},
		{"running shoes", 2, []string{"close", "titled"}},
		{"running shoes", 0, nil},
		{"running shoes", -1, nil},
		{"the of", 10, nil}, // stopwords only
		{"", 10, nil},
		{`"running shoes"`, 10, []string{"close"}},
		{`"shoes running"`, 10, nil},
		{"runs -shoes", 10, []string{"single"}},
		// One match each ranks equally, so insertion order decides.
		{"sourdough or notes", 10, []string{"far", "bread", "titled"}},
	} {
		got := mustSearch(t, ts, c.query, c.limit)
		if !slices.Equal(got, c.want) {
			t.Errorf("Search(%q, %d) = %q, want %q", c.query, c.limit, got, c.want)
		}
	}
}

func TestTextSearchRejectsInvalidDocs(t *testing.T) {
	t.Parallel()
	s := openStore(t, withMaxConns(t, pgtest.NewDatabase(t), 1))
	for _, c := range []struct {
		name    string
		docs    []TextDoc
		mention []string
	}{
		{"empty id", []TextDoc{{ID: "a", Text: "x"}, {ID: "", Text: "y"}}, []string{"doc 1", "empty id"}},
		{"duplicate id", []TextDoc{{ID: "a"}, {ID: "b"}, {ID: "a"}}, []string{"doc 2", `"a"`, "doc 0"}},
		{"NUL in text", []TextDoc{{ID: "a"}, {ID: "nul", Text: "x\x00y"}}, []string{"doc 1", `"nul"`, "text"}},
		{"invalid UTF-8 title", []TextDoc{{ID: "bad", Title: "\xff"}}, []string{"doc 0", `"bad"`, "title"}},
	} {
		_, err := NewTextSearch(t.Context(), s.Pool(), s.Describe(), c.docs)
		if err == nil {
			t.Errorf("%s: NewTextSearch succeeded", c.name)
			continue
		}
		for _, m := range c.mention {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%s: error %q does not mention %s", c.name, err, m)
			}
		}
		if _, hasTable := nextConn(t, s); hasTable {
			t.Errorf("%s: the pool's connection holds an index table", c.name)
		}
	}
	ts := mustTextSearch(t, s, rankingDocs)
	if got := mustSearch(t, ts, "sourdough", 10); !slices.Equal(got, []string{"bread"}) {
		t.Errorf("Search after rejections = %q, want [bread]", got)
	}
}

func TestTextSearchFailedBuildLeavesNothing(t *testing.T) {
	t.Parallel()
	s := openStore(t, withMaxConns(t, pgtest.NewDatabase(t), 1))
	// Over 1 MB of distinct lexemes: the server refuses the tsvector while
	// loading, after the table was created.
	var huge strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&huge, "q%07d ", i)
	}
	_, err := NewTextSearch(t.Context(), s.Pool(), s.Describe(), []TextDoc{{ID: "ok", Text: "fine"}, {ID: "huge", Text: huge.String()}})
	if err == nil {
		t.Fatal("NewTextSearch accepted a doc PostgreSQL cannot index")
	}
	t.Logf("NewTextSearch: %v", err)
	if !strings.Contains(err.Error(), s.Describe()) || !strings.Contains(err.Error(), "too long for tsvector") {
		t.Errorf("error %q does not name the database %s and the cause", err, s.Describe())
	}
	// With one connection, a leaked connection makes this time out and a
	// released one that kept its table shows it.
	if _, hasTable := nextConn(t, s); hasTable {
		t.Error("the pool's connection holds the failed index's table")
	}
	ts := mustTextSearch(t, s, rankingDocs)
	if got := mustSearch(t, ts, "sourdough", 10); !slices.Equal(got, []string{"bread"}) {
		t.Errorf("Search after a failed build = %q, want [bread]", got)
	}
}

func TestTextSearchConcurrentIndexesAreSeparate(t *testing.T) {
	t.Parallel()
	s := openStore(t, pgtest.NewDatabase(t))
	corpora := map[string][]TextDoc{
		"a": {{ID: "a-1", Text: "shared word alpha"}, {ID: "a-2", Text: "shared word"}},
		"b": {{ID: "b-1", Text: "shared word beta"}, {ID: "b-2", Text: "shared word"}, {ID: "b-3", Text: "shared"}},
	}
	type built struct {
		name string
		ts   *TextSearch
		err  error
	}
	start := make(chan struct{})
	results := make(chan built)
	for name, docs := range corpora {
		go func() {
			<-start
			ts, err := NewTextSearch(t.Context(), s.Pool(), s.Describe(), docs)
			results <- built{name, ts, err}
		}()
	}
	close(start)
	indexes := map[string]*TextSearch{}
	for range corpora {
		r := <-results
		if r.err != nil {
			t.Errorf("NewTextSearch %s: %v", r.name, r.err)
			continue
		}
		t.Cleanup(func() { _ = r.ts.Close(context.Background()) })
		indexes[r.name] = r.ts
	}
	if t.Failed() {
		t.FailNow()
	}
	// Both are open at once, each on its own session.
	for name, ts := range indexes {
		var want []string
		for _, d := range corpora[name] {
			want = append(want, d.ID)
		}
		if got := mustSearch(t, ts, "shared", 10); !slices.Equal(got, want) {
			t.Errorf("index %s: Search(shared) = %q, want %q", name, got, want)
		}
	}
}

func TestTextSearchCloseDropsTable(t *testing.T) {
	t.Parallel()
	s := openStore(t, withMaxConns(t, pgtest.NewDatabase(t), 1))
	ts := mustTextSearch(t, s, rankingDocs)
	pid := ts.conn.Conn().PgConn().PID()
	mustSearch(t, ts, "shoes", 10)
	if err := ts.Close(t.Context()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := ts.Close(t.Context()); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := ts.Search(t.Context(), "shoes", 10); err == nil {
		t.Error("Search after Close succeeded")
	}
	// The pool's only connection is the index's, given back without its table.
	nextPID, hasTable := nextConn(t, s)
	if nextPID != pid {
		t.Fatalf("the pool handed out backend %d, not the index's %d", nextPID, pid)
	}
	if hasTable {
		t.Error("the connection given back still holds the index table")
	}
	// And it can hold the next index, whose search statement pgx has
	// already prepared against the dropped table.
	ts = mustTextSearch(t, s, []TextDoc{{ID: "new", Text: "shoes"}})
	if got := mustSearch(t, ts, "shoes", 10); !slices.Equal(got, []string{"new"}) {
		t.Errorf("Search on the reused connection = %q, want [new]", got)
	}
}

func TestTextSearchReplacesLeftoverTable(t *testing.T) {
	t.Parallel()
	s := openStore(t, withMaxConns(t, pgtest.NewDatabase(t), 1))
	// A table left on the pool's only connection, as by an index whose
	// Close never ran.
	if _, err := s.Pool().Exec(t.Context(), `CREATE TEMPORARY TABLE docent_text_search (stale int)`); err != nil {
		t.Fatalf("create leftover table: %v", err)
	}
	ts := mustTextSearch(t, s, rankingDocs)
	if got := mustSearch(t, ts, "sourdough", 10); !slices.Equal(got, []string{"bread"}) {
		t.Errorf("Search = %q, want [bread]", got)
	}
}

func TestTextSearchCloseWithCancelledContextClosesConnection(t *testing.T) {
	t.Parallel()
	s := openStore(t, withMaxConns(t, pgtest.NewDatabase(t), 1))
	ts := mustTextSearch(t, s, rankingDocs)
	pid := ts.conn.Conn().PgConn().PID()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err := ts.Close(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Close with a cancelled context = %v, want context.Canceled", err)
	}
	// The table could not be dropped, so the connection must not return.
	nextPID, hasTable := nextConn(t, s)
	if nextPID == pid || hasTable {
		t.Errorf("the pool handed the index's connection back (backend %d, table %v)", nextPID, hasTable)
	}
	if err := ts.Close(t.Context()); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestTextSearchCancelledSearch(t *testing.T) {
	t.Parallel()
	s := openStore(t, pgtest.NewDatabase(t))
	ts := mustTextSearch(t, s, rankingDocs)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	ids, err := ts.Search(ctx, "running shoes", 10)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Search with a cancelled context = %q, %v; want context.Canceled", ids, err)
	}
	if !strings.Contains(err.Error(), s.Describe()) {
		t.Errorf("error %q does not name the database %s", err, s.Describe())
	}
	if got := mustSearch(t, ts, "sourdough", 10); !slices.Equal(got, []string{"bread"}) {
		t.Errorf("Search after a cancelled one = %q, want [bread]", got)
	}
}

func TestTextSearchLostConnection(t *testing.T) {
	t.Parallel()
	s := openStore(t, withMaxConns(t, pgtest.NewDatabase(t), 1))
	ts := mustTextSearch(t, s, rankingDocs)
	pid := ts.conn.Conn().PgConn().PID()
	if err := ts.conn.Conn().Close(t.Context()); err != nil {
		t.Fatalf("close the index's connection: %v", err)
	}
	if _, err := ts.Search(t.Context(), "shoes", 10); err == nil {
		t.Error("Search on a closed connection succeeded")
	}
	// The session, and its table with it, is gone: nothing to report.
	if err := ts.Close(t.Context()); err != nil {
		t.Errorf("Close: %v", err)
	}
	if nextPID, _ := nextConn(t, s); nextPID == pid {
		t.Errorf("the pool handed out the closed connection (backend %d)", pid)
	}
}

func mustTextSearch(tb testing.TB, s *postgres.Store, docs []TextDoc) *TextSearch {
	tb.Helper()
	ts, err := NewTextSearch(context.Background(), s.Pool(), s.Describe(), docs)
	if err != nil {
		tb.Fatalf("NewTextSearch: %v", err)
	}
	// Before the store closes: cleanups run last registered first.
	tb.Cleanup(func() {
		if err := ts.Close(context.Background()); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return ts
}

func mustSearch(tb testing.TB, ts *TextSearch, query string, limit int) []string {
	tb.Helper()
	ids, err := ts.Search(context.Background(), query, limit)
	if err != nil {
		tb.Fatalf("Search(%q, %d): %v", query, limit, err)
	}
	return ids
}

// nextConn acquires a connection and reports its backend and whether it
// holds an index table. A connection never given back makes it fail
// rather than hang.
func nextConn(tb testing.TB, s *postgres.Store) (pid uint32, hasTable bool) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := s.Pool().Acquire(ctx)
	if err != nil {
		tb.Fatalf("acquire a connection: %v", err)
	}
	defer conn.Release()
	var backend int32
	if err := conn.QueryRow(ctx, `SELECT pg_backend_pid(), to_regclass('pg_temp.docent_text_search') IS NOT NULL`).
		Scan(&backend, &hasTable); err != nil {
		tb.Fatalf("inspect connection: %v", err)
	}
	return uint32(backend), hasTable
}

// withMaxConns limits the pool, so tests know which connection comes next.
func withMaxConns(tb testing.TB, connString string, n int) string {
	tb.Helper()
	if !strings.Contains(connString, "://") {
		return connString + " pool_max_conns=" + strconv.Itoa(n)
	}
	u, err := neturl.Parse(connString)
	if err != nil {
		tb.Fatalf("parse database URL: %v", err)
	}
	q := u.Query()
	q.Set("pool_max_conns", strconv.Itoa(n))
	u.RawQuery = q.Encode()
	return u.String()
}

func openStore(tb testing.TB, url string) *postgres.Store {
	tb.Helper()
	s, err := postgres.Open(context.Background(), url, postgres.Options{})
	if err != nil {
		tb.Fatalf("open: %v", err)
	}
	tb.Cleanup(s.Close)
	return s
}
