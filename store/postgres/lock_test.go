package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/postgres/pgtest"
	"github.com/docent-sh/docent/store/storetest"
)

// holdLock takes an advisory lock on a connection of its own, the way a
// stuck docent would, until the test ends. It returns the holder's pid and
// the start of its transaction.
func holdLock(t *testing.T, url string, key int64, xact bool) (pid int32, since time.Time) {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	take := `SELECT pg_advisory_lock($1)`
	if xact {
		if _, err := conn.Exec(t.Context(), `BEGIN`); err != nil {
			t.Fatal(err)
		}
		take = `SELECT pg_advisory_xact_lock($1)`
	}
	if _, err := conn.Exec(t.Context(), take, key); err != nil {
		t.Fatal(err)
	}
	// An idle session has no transaction: the holder's start is then its
	// session's.
	start := "backend_start"
	if xact {
		start = "xact_start"
	}
	err = conn.QueryRow(t.Context(), `SELECT pg_backend_pid(), `+start+` FROM pg_stat_activity WHERE pid = pg_backend_pid()`).
		Scan(&pid, &since)
	if err != nil {
		t.Fatal(err)
	}
	return pid, since
}

func checkBusy(t *testing.T, err error, what string, pid int32, since time.Time, wait time.Duration) {
	t.Helper()
	var busy *LockBusyError
	if !errors.As(err, &busy) {
		t.Fatalf("error = %v, want a *LockBusyError", err)
	}
	t.Logf("%s", err)
	if busy.What != what || busy.PID != int(pid) || !busy.Since.Equal(since) || busy.Waited != wait {
		t.Errorf("busy = %+v, want %s held by pid %d since %v, after waiting %s", busy, what, pid, since, wait)
	}
	if want := "another " + what + " is running since " + since.Local().Format("2006-01-02 15:04:05"); !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
}

// openWaiting opens a migrated store whose seeds wait at most wait.
func openWaiting(t *testing.T, url string, wait time.Duration) *Store {
	t.Helper()
	s, err := Open(t.Context(), url, Options{Migrate: true, LockWait: wait})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// A seed waits for another seed only so long, then says who holds the lock
// since when, and writes nothing.
func TestSeedGivesUpWaitingForAnotherSeed(t *testing.T) {
	t.Parallel()
	url := newDatabase(t)
	s := openWaiting(t, url, 300*time.Millisecond)
	pid, since := holdLock(t, url, seedLockKey, true)

	start := time.Now()
	_, err := s.Seed(t.Context(), storetest.Fixture(), store.SeedOptions{})
	if took := time.Since(start); took < 300*time.Millisecond {
		t.Errorf("gave up after %s, before the 300ms wait", took)
	}
	checkBusy(t, err, "seed", pid, since, 300*time.Millisecond)
	if docs := mustCorpus(t, s); len(docs) != 0 {
		t.Errorf("a seed that gave up wrote %d docs", len(docs))
	}
	// Reading never waits for the seed lock.
	if _, err := s.Generation(t.Context()); err != nil {
		t.Errorf("Generation while a seed holds the lock: %v", err)
	}
}

// The wait covers the seed lock only: a write that waits for a row lock
// (here a reader holding FOR UPDATE longer than LockWait) still goes
// through under the session's own lock_timeout.
func TestSeedLockWaitDoesNotLimitTheWrites(t *testing.T) {
	t.Parallel()
	url := newDatabase(t)
	s := openWaiting(t, url, 50*time.Millisecond)
	v1 := storetest.Fixture()
	mustSeed(t, s, v1)

	holder, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close(context.Background())
	tx, err := holder.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(t.Context(), `SELECT 1 FROM docs_knowledge WHERE slug = 'billing/invoices' FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	released := make(chan struct{})
	go func() {
		defer close(released)
		time.Sleep(300 * time.Millisecond)
		_ = tx.Rollback(context.Background())
	}()
	defer func() { <-released }() // before the connection closes

	v2 := storetest.CloneDocs(v1)
	v2[2].Title = "Invoices and receipts" // billing/invoices: its row must be updated
	start := time.Now()
	r, err := s.Seed(t.Context(), v2, store.SeedOptions{})
	if err != nil || r.Docs.Updated != 1 {
		t.Fatalf("seed behind a row lock: %v (%s)", err, r)
	}
	if took := time.Since(start); took < 250*time.Millisecond {
		t.Errorf("the seed took %s: it did not wait for the row lock, so this test proves nothing", took)
	}
}

func TestMigrationGivesUpWaitingForAnotherMigration(t *testing.T) {
	t.Parallel()
	url := newDatabase(t)
	pid, since := holdLock(t, url, migrateLockKey, false)
	err := MigrateUp(t.Context(), url, 200*time.Millisecond)
	checkBusy(t, err, "migration", pid, since, 200*time.Millisecond)
	checkStatus(t, url, 0)
}

// Two docents starting on a fresh database at once: the second waits for
// the first one's migrations and finds the schema current. Reading the
// status before taking a lock used to catch the first one half-way.
func TestConcurrentMigratorsOnAFreshDatabase(t *testing.T) {
	t.Parallel()
	url := newDatabase(t)
	admin, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	for range 10 {
		// An empty public schema is a fresh database to docent.
		if _, err := admin.Exec(t.Context(), `DROP SCHEMA public CASCADE; CREATE SCHEMA public`); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i := range errs {
			wg.Go(func() {
				s, err := Open(t.Context(), url, Options{Migrate: true})
				if err == nil {
					s.Close()
				}
				errs[i] = err
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("starter %d: %v", i, err)
			}
		}
		checkStatus(t, url, latest(t))
	}
}

// A role that may only read opens a current schema and reads it; it cannot
// seed, and on a schema that is behind it is told what to run.
func TestReadOnlyRole(t *testing.T) {
	t.Parallel()
	url := newDatabase(t)
	mustSeed(t, openStore(t, url), storetest.Fixture())
	reader := pgtest.NewReadOnlyRole(t, url)

	s, err := Open(t.Context(), reader, Options{Migrate: true})
	if err != nil {
		t.Fatalf("Open as a read-only role on a current schema: %v", err)
	}
	t.Cleanup(s.Close)
	if docs := mustCorpus(t, s); len(docs) != len(storetest.Fixture()) {
		t.Errorf("read %d docs, want %d", len(docs), len(storetest.Fixture()))
	}
	if _, err := s.Seed(t.Context(), storetest.Fixture()[:1], store.SeedOptions{Prune: true}); err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Errorf("Seed as a read-only role: error = %v, want permission denied", err)
	}
	status, err := MigrateStatus(t.Context(), reader)
	if err != nil || status.Version != latest(t) {
		t.Errorf("MigrateStatus as a read-only role: %+v, %v", status, err)
	}

	if err := MigrateDown(t.Context(), url, 1, 0); err != nil {
		t.Fatal(err)
	}
	_, err = Open(t.Context(), reader, Options{Migrate: true})
	if err == nil || !strings.Contains(err.Error(), "may not change it") || !strings.Contains(err.Error(), "docent migrate up") {
		t.Errorf("Open as a read-only role on a schema behind: error = %v, want one saying to run docent migrate up", err)
	}
	behind := fmt.Sprintf("version %d of %d", previous(t), latest(t))
	if _, err := Open(t.Context(), reader, Options{CheckSchema: true}); err == nil || !strings.Contains(err.Error(), behind) {
		t.Errorf("Open with CheckSchema on a schema behind: error = %v, want one naming %s", err, behind)
	}
	checkStatus(t, url, previous(t))
}
