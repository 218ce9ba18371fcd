package postgres

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/storetest"
)

func TestParseChange(t *testing.T) {
	for _, tc := range []struct {
		payload string
		want    store.Change
		err     string
	}{
		{payload: "retrieval_enabled=false", want: store.Change{Kind: store.ChangeSwitch, Enabled: false}},
		{payload: "retrieval_enabled=true", want: store.Change{Kind: store.ChangeSwitch, Enabled: true}},
		{payload: "generation=0", want: store.Change{Kind: store.ChangeGeneration}},
		{payload: "generation=9223372036854775807", want: store.Change{Kind: store.ChangeGeneration, Generation: 1<<63 - 1}},
		{payload: "", err: "want KEY=VALUE"},
		{payload: "retrieval_enabled=TRUE", err: "want true or false"},
		{payload: "generation=-1", err: "whole number"},
		{payload: "generation=+1", err: "whole number"},
		{payload: "generation=01", err: "whole number"},
		{payload: "generation=9223372036854775808", err: "whole number"},
		{payload: "seeded=3", err: "unknown kind"},
		{payload: "evil=\x1b[31m", err: "unknown kind"},
	} {
		got, err := parseChange(tc.payload)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("parseChange(%q) = %+v, %v; want an error saying %q", tc.payload, got, err, tc.err)
			}
			if err != nil && strings.ContainsRune(err.Error(), 0x1b) {
				t.Errorf("parseChange(%q): the error carries a control character", tc.payload)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("parseChange(%q) = %+v, %v; want %+v", tc.payload, got, err, tc.want)
		}
		if back := formatChange(got); back != tc.payload {
			t.Errorf("formatChange(parseChange(%q)) = %q", tc.payload, back)
		}
	}
}

// Anyone who may connect can notify on the channel: whatever the payload,
// parsing neither panics nor accepts what formatChange would not write.
func FuzzParseChange(f *testing.F) {
	for _, seed := range []string{"retrieval_enabled=false", "generation=42", "generation=", "=", "x=y=z", "generation=1e3"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, payload string) {
		c, err := parseChange(payload)
		if err != nil {
			if strings.ContainsFunc(err.Error(), func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				t.Fatalf("error %q carries a control character", err)
			}
			return
		}
		if back := formatChange(c); back != payload {
			t.Fatalf("parseChange(%q) accepted %+v, which formats as %q", payload, c, back)
		}
	})
}

// watchTimeout bounds waiting for one change: notifications arrive in
// milliseconds, a reconnection within reconnectMax.
const watchTimeout = reconnectMax + 5*time.Second

func nextChange(t *testing.T, changes <-chan store.Change) store.Change {
	t.Helper()
	select {
	case c, ok := <-changes:
		if !ok {
			t.Fatal("the change feed closed")
		}
		return c
	case <-time.After(watchTimeout):
		t.Fatalf("no change within %s", watchTimeout)
	}
	panic("unreachable")
}

func expectChange(t *testing.T, changes <-chan store.Change, want store.Change) {
	t.Helper()
	if got := nextChange(t, changes); got.Kind != want.Kind || got.Enabled != want.Enabled || got.Generation != want.Generation {
		t.Fatalf("change %s %+v, want %s %+v", got.Kind, got, want.Kind, want)
	}
}

// Another docent's writes reach a watcher as they commit: the switch, and
// a seed's generation; a seed that writes nothing tells nothing.
func TestWatchTellsCommittedChanges(t *testing.T) {
	t.Parallel()
	url := newDatabase(t)
	watcher, writer := openStore(t, url), openStore(t, url)
	ctx, cancel := context.WithCancel(t.Context())
	changes := watcher.Watch(ctx)
	expectChange(t, changes, store.Change{Kind: store.ChangeListening})

	if err := writer.SetRetrievalEnabled(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	expectChange(t, changes, store.Change{Kind: store.ChangeSwitch, Enabled: false})

	docs := storetest.GenerateDocs(3)
	mustSeed(t, writer, docs)
	gen := mustGeneration(t, writer)
	expectChange(t, changes, store.Change{Kind: store.ChangeGeneration, Generation: gen})

	// An unchanged re-seed bumps nothing and tells nothing: the next
	// change is the switch's.
	mustSeed(t, writer, storetest.CloneDocs(docs))
	if err := writer.SetRetrievalEnabled(t.Context(), true); err != nil {
		t.Fatal(err)
	}
	expectChange(t, changes, store.Change{Kind: store.ChangeSwitch, Enabled: true})

	// A stranger's payload is skipped, not passed on.
	if _, err := writer.pool.Exec(t.Context(), `SELECT pg_notify($1, 'reindex=now')`, ChangesChannel); err != nil {
		t.Fatal(err)
	}
	mustSeed(t, writer, storetest.GenerateDocs(4))
	expectChange(t, changes, store.Change{Kind: store.ChangeGeneration, Generation: gen + 1})

	cancel()
	select {
	case c, ok := <-changes:
		if ok {
			t.Fatalf("after the watch ended: %s %+v, want the channel closed", c.Kind, c)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the change feed did not close within 5 s of its context ending")
	}
}

// A listener whose backend is killed says so, comes back by itself and
// tells what commits after.
func TestWatchReconnects(t *testing.T) {
	t.Parallel()
	url := newDatabase(t)
	watcher, writer := openStore(t, url), openStore(t, url)
	changes := watcher.Watch(t.Context())
	expectChange(t, changes, store.Change{Kind: store.ChangeListening})

	for round := range 2 {
		tag, err := writer.pool.Exec(t.Context(), `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
			WHERE datname = current_database() AND application_name = $1`, listenerName)
		if err != nil {
			t.Fatal(err)
		}
		if tag.RowsAffected() != 1 {
			t.Fatalf("round %d: terminated %d listener backends, want 1", round, tag.RowsAffected())
		}
		lost := nextChange(t, changes)
		if lost.Kind != store.ChangeLost || lost.Err == nil {
			t.Fatalf("round %d: after the backend was terminated: %s %+v, want lost with its reason", round, lost.Kind, lost)
		}
		began := time.Now()
		expectChange(t, changes, store.Change{Kind: store.ChangeListening})
		t.Logf("round %d: listening again after %v (lost: %v)", round, time.Since(began).Round(time.Millisecond), lost.Err)

		if err := writer.SetRetrievalEnabled(t.Context(), round%2 == 1); err != nil {
			t.Fatal(err)
		}
		expectChange(t, changes, store.Change{Kind: store.ChangeSwitch, Enabled: round%2 == 1})
	}
}

// A wait for a notification that times out leaves the connection as it
// was: the listener pings it and goes on listening, telling no loss.
func TestWatchQuietWaitsKeepTheConnection(t *testing.T) {
	t.Parallel()
	url := newDatabase(t)
	watcher, writer := openStore(t, url), openStore(t, url)
	watcher.listenIdle = 20 * time.Millisecond
	changes := watcher.Watch(t.Context())
	expectChange(t, changes, store.Change{Kind: store.ChangeListening})
	// The listener's last statement is its ping once a wait timed out.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var query string
		if err := writer.pool.QueryRow(t.Context(), `SELECT query FROM pg_stat_activity
			WHERE datname = current_database() AND application_name = $1`, listenerName).Scan(&query); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(query, "LISTEN") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no ping within 10 s: the quiet waits did not time out")
		}
	}
	time.Sleep(10 * watcher.listenIdle) // more quiet waits and pings
	if err := writer.SetRetrievalEnabled(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	expectChange(t, changes, store.Change{Kind: store.ChangeSwitch, Enabled: false})
}

// A listener that cannot connect says so once, and listens as soon as the
// database lets it.
func TestWatchUnreachableSaysLost(t *testing.T) {
	t.Parallel()
	url := newDatabase(t)
	s := openStore(t, url)
	// Connecting as a role that does not exist fails the way a database
	// that is down does, for the listener alone.
	s.connConfig = s.connConfig.Copy()
	s.connConfig.User = "docent_no_such_role"
	changes := s.Watch(t.Context())
	lost := nextChange(t, changes)
	if lost.Kind != store.ChangeLost || lost.Err == nil || !strings.Contains(lost.Err.Error(), "change listener") {
		t.Fatalf("%s %+v, want lost, saying the listener could not connect", lost.Kind, lost)
	}
	select {
	case c := <-changes:
		t.Fatalf("a failing reconnection told %s %+v; it changes nothing for the follower", c.Kind, c)
	case <-time.After(time.Second):
	}
}
