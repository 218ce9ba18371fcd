package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DefaultLockWait is how long a seed or a migration waits for another one
// to finish before it gives up: long enough for a normal seed of a large
// knowledge base, short enough that a script never hangs on a stuck one.
const DefaultLockWait = 30 * time.Second

// Advisory lock keys. Every docent seeder takes seedLockKey in its
// transaction, every docent migrator migrateLockKey for its session, so
// each kind runs one at a time.
const (
	seedLockKey    int64 = 0x646f63656e74   // "docent"
	migrateLockKey int64 = 0x646f63656e7401 // "docent" 1
)

// lockNotAvailable is SQLSTATE 55P03, what a lock wait past lock_timeout
// ends with.
const lockNotAvailable = "55P03"

// LockBusyError is a seed or a migration that gave up waiting for another
// one to finish. Nothing was written.
type LockBusyError struct {
	What   string        // "seed" or "migration"
	Waited time.Duration // how long it waited
	// Since is when the holder's transaction (or, for a migration, its
	// session) started; zero when the holder finished in the meantime or
	// this role may not see other sessions.
	Since time.Time
	PID   int // the holder's server process, 0 when unknown
}

func (e *LockBusyError) Error() string {
	if e.Since.IsZero() {
		return fmt.Sprintf("another %s held the lock for over %s (its start time is not visible to this role, or it has just finished); nothing was written",
			e.What, e.Waited)
	}
	return fmt.Sprintf("another %s is running since %s (server pid %d, for %s); gave up waiting after %s, nothing was written",
		e.What, e.Since.Local().Format("2006-01-02 15:04:05 MST"), e.PID, time.Since(e.Since).Round(time.Second), e.Waited)
}

// lockTimeoutSetting renders a wait for lock_timeout, in milliseconds; at
// least 1, since 0 would mean no limit.
func lockTimeoutSetting(wait time.Duration) string {
	return strconv.FormatInt(max(wait.Milliseconds(), 1), 10) + "ms"
}

// takeXactLock takes a transaction-scoped advisory lock, waiting at most
// wait. The limit applies to this wait only: the rest of the transaction
// runs under the session's own lock_timeout. The wait runs in a savepoint,
// so after a timeout the transaction can still ask who holds the lock
// (with a pool of one connection there is no other to ask on).
func takeXactLock(ctx context.Context, tx pgx.Tx, key int64, wait time.Duration, what string) error {
	var previous string
	if err := tx.QueryRow(ctx, `SELECT current_setting('lock_timeout')`).Scan(&previous); err != nil {
		return fmt.Errorf("read lock_timeout: %w", err)
	}
	sp, err := tx.Begin(ctx)
	if err != nil {
		return fmt.Errorf("wait for another %s: %w", what, err)
	}
	_, err = sp.Exec(ctx, `SELECT set_config('lock_timeout', $1, true)`, lockTimeoutSetting(wait))
	if err == nil {
		_, err = sp.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, key)
	}
	if err != nil {
		if rbErr := sp.Rollback(ctx); rbErr != nil || !isLockTimeout(err) {
			return fmt.Errorf("wait for another %s: %w", what, err)
		}
		return busy(ctx, tx, key, wait, what)
	}
	// Releasing the savepoint keeps the lock: it belongs to the transaction.
	if err := sp.Commit(ctx); err != nil {
		return fmt.Errorf("wait for another %s: %w", what, err)
	}
	if _, err := tx.Exec(ctx, `SELECT set_config('lock_timeout', $1, true)`, previous); err != nil {
		return fmt.Errorf("restore lock_timeout: %w", err)
	}
	return nil
}

// takeSessionLock takes a session-scoped advisory lock on a connection of
// its own, outside the pool (which may hold a single connection), waiting
// at most wait, and returns the function that releases it.
func takeSessionLock(ctx context.Context, pool *pgxpool.Pool, key int64, wait time.Duration, what string) (release func(), err error) {
	cfg := pool.Config().ConnConfig.Copy()
	// The setting is for this session, which does nothing but hold the lock.
	cfg.RuntimeParams["lock_timeout"] = lockTimeoutSetting(wait)
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to take the %s lock: %w", what, err)
	}
	closeConn := func() {
		// Closing the session releases its locks; the caller's context may
		// be what ended the work, so it cannot bound this.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rollbackTimeout)
		defer cancel()
		_ = conn.Close(ctx)
	}
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, key); err != nil {
		if isLockTimeout(err) {
			err = busy(ctx, conn, key, wait, what)
		} else {
			err = fmt.Errorf("wait for another %s: %w", what, err)
		}
		closeConn()
		return nil, err
	}
	return closeConn, nil
}

type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func isLockTimeout(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == lockNotAvailable
}

// busy builds the error for a lock wait that timed out, naming the holder
// when the server shows it: pg_locks has the advisory lock (a bigint key
// is split into classid and objid, objsubid 1), pg_stat_activity its
// session.
func busy(ctx context.Context, q querier, key int64, wait time.Duration, what string) error {
	e := &LockBusyError{What: what, Waited: wait}
	var since *time.Time
	var pid int32
	err := q.QueryRow(ctx, `SELECT a.pid, COALESCE(a.xact_start, a.backend_start)
		FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
		WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
			AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
			AND l.classid = ($1::bigint >> 32)::oid AND l.objid = ($1::bigint & 4294967295)::oid
		LIMIT 1`, key).Scan(&pid, &since)
	if err == nil && since != nil {
		e.Since, e.PID = *since, int(pid)
	}
	return e
}
