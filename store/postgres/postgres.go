// Package postgres is docent's PostgreSQL knowledge store: documents,
// chunks and retrieval events in the schema of the migrations package,
// written through pgx.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/docent-sh/docent/internal/redact"
	"github.com/docent-sh/docent/store"
)

// Options configures Open.
type Options struct {
	// Migrate applies pending migrations before the store is returned. A
	// current schema is only read, so a role with SELECT alone can open it.
	Migrate bool
	// CheckSchema, without Migrate, refuses a schema that is behind, newer
	// or dirty, saying what to run. Without either, Open leaves the schema
	// alone (for a caller that uses only temporary tables).
	CheckSchema bool
	// LockWait bounds waiting for another seed or migration to finish;
	// 0 means DefaultLockWait.
	LockWait time.Duration
}

// Store is a PostgreSQL knowledge store, safe for concurrent use.
type Store struct {
	pool     *pgxpool.Pool
	where    string
	redact   *redact.Redactor
	lockWait time.Duration
	// connConfig and timeout are for the change listener's connection of
	// its own (Watch), and listenIdle how long it waits before a ping.
	connConfig *pgx.ConnConfig
	timeout    time.Duration
	listenIdle time.Duration
}

// Store keeps the contract the commands rely on.
var _ store.Store = (*Store)(nil)

// Open connects to the database at url (a postgres:// URL or keyword/value
// string) and checks it answers, within 2 seconds unless the URL sets
// connect_timeout. Errors name host, port and database, never the password.
func Open(ctx context.Context, url string, opts Options) (*Store, error) {
	t, err := parseTarget(url)
	if err != nil {
		return nil, err
	}
	pool, err := connect(ctx, t)
	if err != nil {
		return nil, err
	}
	if opts.LockWait <= 0 {
		opts.LockWait = DefaultLockWait
	}
	if opts.Migrate || opts.CheckSchema {
		if err := ensureSchema(ctx, pool, t.where, opts.LockWait, opts.Migrate); err != nil {
			pool.Close()
			return nil, t.redact.Error(fmt.Errorf("migrate postgres %s: %w", t.where, err))
		}
	}
	return &Store{pool: pool, where: t.where, redact: t.redact, lockWait: opts.LockWait,
		connConfig: t.config.ConnConfig, timeout: t.timeout, listenIdle: defaultListenIdle}, nil
}

// Describe names the database for the status bar, e.g.
// "postgres 127.0.0.1:5432/docent"; it never includes credentials.
func (s *Store) Describe() string { return "postgres " + s.where }

// DescribeURL names the database a URL points at the way Describe does,
// without connecting, for messages about a store not yet open.
func DescribeURL(url string) string {
	t, err := parseTarget(url)
	if err != nil {
		return "postgres (invalid URL)"
	}
	return "postgres " + t.where
}

// Close closes every connection.
func (s *Store) Close() { s.pool.Close() }

// Pool is the store's connection pool, for a caller that runs its own SQL
// on the same database without touching the schema: the evaluation
// harness's full-text reference engine, which lives outside the product.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// fail wraps an operation's error with the database it ran against, with
// any secret masked. When ctx ended, the error also matches ctx.Err(): a
// cancel request surfaces from the server as "canceling statement due to
// user request", and callers should not have to know that.
func (s *Store) fail(ctx context.Context, op string, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
		err = fmt.Errorf("%w: %w", ctxErr, err)
	}
	return s.redact.Error(fmt.Errorf("%s (postgres %s): %w", op, s.where, err))
}
