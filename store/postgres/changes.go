package postgres

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/store"
)

// ChangesChannel is the channel every write that running docents must
// follow notifies on (LISTEN/NOTIFY): the kill switch and the knowledge
// generation. The notification is sent in the writing transaction, so it
// arrives only if, and once, the write committed.
const ChangesChannel = "docent_changes"

// The payloads are "KEY=VALUE": small, and readable in psql's LISTEN.
const (
	payloadSwitch     = "retrieval_enabled"
	payloadGeneration = "generation"
)

// formatChange is a change's payload; "" for a kind nothing notifies.
func formatChange(c store.Change) string {
	switch c.Kind {
	case store.ChangeSwitch:
		return payloadSwitch + "=" + strconv.FormatBool(c.Enabled)
	case store.ChangeGeneration:
		return payloadGeneration + "=" + strconv.FormatInt(c.Generation, 10)
	}
	return ""
}

// parseChange reads a payload. Anyone who may connect can notify on the
// channel, so the payload is outside input: anything but the exact forms
// formatChange writes is refused.
func parseChange(payload string) (store.Change, error) {
	key, value, ok := strings.Cut(payload, "=")
	if !ok {
		return store.Change{}, fmt.Errorf("change %q: want KEY=VALUE", clipPayload(payload))
	}
	switch key {
	case payloadSwitch:
		switch value {
		case "true", "false":
			return store.Change{Kind: store.ChangeSwitch, Enabled: value == "true"}, nil
		}
		return store.Change{}, fmt.Errorf("change %q: want true or false", clipPayload(payload))
	case payloadGeneration:
		gen, err := strconv.ParseInt(value, 10, 64)
		if err != nil || gen < 0 || strconv.FormatInt(gen, 10) != value {
			return store.Change{}, fmt.Errorf("change %q: want a generation, a whole number from 0", clipPayload(payload))
		}
		return store.Change{Kind: store.ChangeGeneration, Generation: gen}, nil
	}
	return store.Change{}, fmt.Errorf("change %q: unknown kind", clipPayload(payload))
}

func clipPayload(p string) string {
	p = printable(p)
	if len(p) > 64 {
		return p[:64] + "…"
	}
	return p
}

// notify queues c on ChangesChannel in tx: PostgreSQL delivers it when
// tx commits, and never if it rolls back.
func notify(ctx context.Context, tx pgx.Tx, c store.Change) error {
	if _, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, ChangesChannel, formatChange(c)); err != nil {
		return fmt.Errorf("notify %s: %w", c.Kind, err)
	}
	return nil
}

// How the change listener keeps its connection.
const (
	// listenerName is the listener's application_name, so an operator (or
	// a test) can tell its connection in pg_stat_activity.
	listenerName = "docent listener"
	// defaultListenIdle bounds one wait for a notification; after a quiet
	// one the connection is pinged, so a link that died without a word (a
	// firewall dropping it) is found within this and the ping's timeout.
	defaultListenIdle = 15 * time.Second
	// Reconnecting waits from reconnectMin, doubling to reconnectMax, so a
	// database that is down is not hammered by every docent at once.
	reconnectMin = 250 * time.Millisecond
	reconnectMax = 15 * time.Second
	// stableFor is how long a connection must have listened for the next
	// drop to be retried at once again.
	stableFor = time.Minute
	// closeTimeout bounds saying goodbye to the server.
	closeTimeout = time.Second
)

// Watch tells of the kill switch and of seeds as other docents commit
// them, until ctx ends, when the channel closes. It listens on a
// connection of its own (not the pool's, whose connections come and go),
// reconnects with a growing pause when that connection drops, and says so
// with ChangeListening and ChangeLost: between a loss and the next
// ChangeListening, changes go untold, and the follower polls.
func (s *Store) Watch(ctx context.Context) <-chan store.Change {
	out := make(chan store.Change)
	go s.watch(ctx, out)
	return out
}

func (s *Store) watch(ctx context.Context, out chan<- store.Change) {
	defer close(out)
	send := func(c store.Change) bool {
		select {
		case out <- c:
			return true
		case <-ctx.Done():
			return false
		}
	}
	pause := reconnectMin
	for attempt := 0; ; attempt++ {
		began := time.Now()
		listened, err := s.listen(ctx, send)
		if ctx.Err() != nil {
			return
		}
		if listened && time.Since(began) >= stableFor {
			pause = reconnectMin
		}
		// A drop is told once, and so is a first connection that failed;
		// a reconnection that fails again changes nothing for the follower.
		if listened || attempt == 0 {
			if !send(store.Change{Kind: store.ChangeLost, Err: err}) {
				return
			}
		}
		// Jitter, so that docents that lost one database at once do not
		// come back in step.
		wait := pause/2 + rand.N(pause/2+1)
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return
		}
		pause = min(2*pause, reconnectMax)
	}
}

// listen connects, listens and passes on notifications until the
// connection fails or ctx ends. listened says whether it got as far as
// telling ChangeListening; err is why it stopped, nil when ctx ended.
func (s *Store) listen(ctx context.Context, send func(store.Change) bool) (listened bool, err error) {
	cfg := s.connConfig.Copy()
	cfg.RuntimeParams["application_name"] = listenerName
	connectCtx, cancel := context.WithTimeout(ctx, s.timeout)
	conn, err := pgx.ConnectConfig(connectCtx, cfg)
	cancel()
	if err != nil {
		return false, s.fail(ctx, "connect the change listener", err)
	}
	defer func() {
		closeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), closeTimeout)
		defer cancel()
		_ = conn.Close(closeCtx)
	}()
	listenCtx, cancel := context.WithTimeout(ctx, s.timeout)
	_, err = conn.Exec(listenCtx, "LISTEN "+ChangesChannel)
	cancel()
	if err != nil {
		return false, s.fail(ctx, "listen for changes", err)
	}
	if !send(store.Change{Kind: store.ChangeListening}) {
		return true, nil
	}
	for {
		waitCtx, cancel := context.WithTimeout(ctx, s.listenIdle)
		n, err := conn.WaitForNotification(waitCtx)
		quiet := waitCtx.Err() != nil
		cancel()
		switch {
		case ctx.Err() != nil:
			return true, nil
		case err == nil:
			c, perr := parseChange(n.Payload)
			if perr != nil {
				// A newer docent's kind, or a stranger's: nothing this one
				// follows.
				continue
			}
			if !send(c) {
				return true, nil
			}
		case quiet && !conn.IsClosed():
			pingCtx, cancel := context.WithTimeout(ctx, s.timeout)
			err := conn.Ping(pingCtx)
			cancel()
			if err != nil && ctx.Err() == nil {
				return true, s.fail(ctx, "ping the change listener", err)
			}
		default:
			return true, s.fail(ctx, "wait for changes", err)
		}
	}
}
