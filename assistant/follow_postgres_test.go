package assistant_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/postgres"
	"github.com/docent-sh/docent/store/postgres/pgtest"
)

// pgSession is a session over a PostgreSQL store seeded with the demo
// docs, following its change feed until the test ends, with the switch
// polled every poll; admin is a second docent's store on the same
// database, and conn a connection to the database the tests create
// theirs from, for what the test does as the database's operator.
func pgSession(t *testing.T, poll time.Duration) (s *assistant.Session, admin *postgres.Store, conn *pgx.Conn, dbName string) {
	t.Helper()
	url := pgtest.NewDatabase(t)
	open := func() *postgres.Store {
		st, err := postgres.Open(t.Context(), url, postgres.Options{Migrate: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(st.Close)
		return st
	}
	pg := open()
	admin = open()
	if _, err := admin.Seed(t.Context(), demoDocs(t), store.SeedOptions{Vocabulary: &knowledge.Vocabulary{Glossary: kb.Glossary()}}); err != nil {
		t.Fatal(err)
	}
	gen, err := pg.Generation(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b := &engineBuilder{}
	engine, err := b.build(knowledge.Bundle{Docs: demoDocs(t), Glossary: kb.Glossary()})
	if err != nil {
		t.Fatal(err)
	}
	s = assistant.New(engine, &recordingWriter{}, assistant.Options{
		Glossary: kb.Glossary(), Switch: pg, SwitchPoll: poll,
		Refresh: assistant.Refresh{Knowledge: pg, Build: b.build, Generation: gen},
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Follow(ctx, pg)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	conn, err = pgx.Connect(t.Context(), pgtest.AdminURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	return s, admin, conn, cfg.Database
}

// listeners counts the change listeners connected to the database.
func listeners(t *testing.T, conn *pgx.Conn, db string) int {
	t.Helper()
	var n int
	err := conn.QueryRow(t.Context(), `SELECT count(*) FROM pg_stat_activity
		WHERE datname = $1 AND application_name = 'docent listener'`, db).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// timed fails unless ok holds within limit, and says how long it took.
func timed(t *testing.T, what string, limit time.Duration, ok func() bool) time.Duration {
	t.Helper()
	began := time.Now()
	for !ok() {
		if time.Since(began) > limit {
			t.Fatalf("%s: not within %v", what, limit)
		}
		time.Sleep(5 * time.Millisecond)
	}
	took := time.Since(began)
	t.Logf("%s after %v", what, took.Round(time.Millisecond))
	return took
}

// With a poll interval of an hour, only the notification can flip the
// switch or bring a seed: both reach the session at once.
func TestFollowPostgresNotifies(t *testing.T) {
	s, admin, conn, db := pgSession(t, time.Hour)
	ctx := context.Background()
	askQ := func(q string) retrieval.Result { return s.Retrieve(ctx, assistant.Request{Query: q}) }
	timed(t, "listening", 10*time.Second, func() bool { return listeners(t, conn, db) == 1 })
	if res := askQ("explain workspace"); res.Status != retrieval.StatusFound {
		t.Fatalf("switch on: %s", res.Status)
	}

	if err := admin.SetRetrievalEnabled(ctx, false); err != nil {
		t.Fatal(err)
	}
	timed(t, "switched off", time.Second, func() bool { return askQ("explain workspace").Rule == retrieval.RuleDisabled })
	if err := admin.SetRetrievalEnabled(ctx, true); err != nil {
		t.Fatal(err)
	}
	timed(t, "switched on", time.Second, func() bool { return askQ("explain workspace").Status == retrieval.StatusFound })

	before := s.Generation()
	if _, err := admin.Seed(ctx, withCalendar(t, demoDocs(t)), store.SeedOptions{Prune: true}); err != nil {
		t.Fatal(err)
	}
	// The rebuild starts on the notification, before any turn asks.
	timed(t, "rebuilt after the seed", 5*time.Second, func() bool { return s.Generation() != before })
	if res := askQ("explain calendar"); res.Status != retrieval.StatusFound || topSlug(res) != "widgets/calendar" {
		t.Fatalf("after the seed: explain calendar = %s (%s)", res.Status, topSlug(res))
	}
}

// The listener's backend is terminated and it cannot reconnect: polling
// covers the gap; once it is back, notifications hold again.
func TestFollowPostgresPollsWhileTheListenerIsDown(t *testing.T) {
	poll := 200 * time.Millisecond
	s, admin, conn, db := pgSession(t, poll)
	ctx := context.Background()
	askQ := func(q string) retrieval.Result { return s.Retrieve(ctx, assistant.Request{Query: q}) }
	timed(t, "listening", 10*time.Second, func() bool { return listeners(t, conn, db) == 1 })
	askQ("explain workspace") // the pools now hold a connection each

	// No new connection to the database from now on: the listener cannot
	// come back, while the stores' pools keep the ones they have.
	if _, err := conn.Exec(ctx, "ALTER DATABASE "+db+" ALLOW_CONNECTIONS false"); err != nil {
		t.Fatal(err)
	}
	allow := func() {
		if _, err := conn.Exec(context.Background(), "ALTER DATABASE "+db+" ALLOW_CONNECTIONS true"); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(allow)
	if _, err := conn.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = $1 AND application_name = 'docent listener'`, db); err != nil {
		t.Fatal(err)
	}
	timed(t, "listener gone", 5*time.Second, func() bool { return listeners(t, conn, db) == 0 })

	if err := admin.SetRetrievalEnabled(ctx, false); err != nil {
		t.Fatal(err)
	}
	timed(t, "switched off by polling", poll+time.Second, func() bool { return askQ("explain workspace").Rule == retrieval.RuleDisabled })
	if n := listeners(t, conn, db); n != 0 {
		t.Fatalf("%d listeners: the flip may have come by notification", n)
	}

	allow()
	timed(t, "listening again", 20*time.Second, func() bool { return listeners(t, conn, db) == 1 })
	if err := admin.SetRetrievalEnabled(ctx, true); err != nil {
		t.Fatal(err)
	}
	timed(t, "switched on", poll+time.Second, func() bool { return askQ("explain workspace").Status == retrieval.StatusFound })
}
