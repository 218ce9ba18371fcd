package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/golang-migrate/migrate/v4"
	pgxmigrate "github.com/golang-migrate/migrate/v4/database/pgx/v5"
	"github.com/golang-migrate/migrate/v4/source/iofs"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/docent-sh/docent/migrations"
)

// Migration is one schema migration shipped with docent.
type Migration struct {
	Version uint
	Name    string // e.g. "docs_knowledge"
}

// String names the migration like its files, e.g. "001_docs_knowledge".
func (m Migration) String() string { return fmt.Sprintf("%03d_%s", m.Version, m.Name) }

// MigrationStatus is where a database's schema stands.
type MigrationStatus struct {
	Version uint // last applied migration; 0 when none is
	Dirty   bool // a migration failed half-way and needs a manual fix
	Latest  uint // last migration this docent ships
	Applied []Migration
	Pending []Migration
}

// current reports whether the schema is exactly what this docent expects.
func (s MigrationStatus) current() bool {
	return !s.Dirty && s.Version == s.Latest
}

// check says what is wrong with a schema a store is about to use.
func (s MigrationStatus) check() error {
	switch {
	case s.Dirty:
		return dirtyError(s.Version)
	case s.Version > s.Latest:
		return fmt.Errorf("schema is at version %d but this docent only knows migrations up to %d: upgrade docent",
			s.Version, s.Latest)
	case len(s.Pending) > 0:
		return fmt.Errorf("schema is at version %d of %d (pending: %s): run `docent migrate up`",
			s.Version, s.Latest, migrationList(s.Pending))
	}
	return nil
}

func migrationList(ms []Migration) string {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.String()
	}
	return strings.Join(names, ", ")
}

// MigrateUp applies every pending migration. An up-to-date schema is not
// an error. It waits at most lockWait (DefaultLockWait when 0) for another
// migrator.
func MigrateUp(ctx context.Context, url string, lockWait time.Duration) error {
	return withLockedMigrator(ctx, url, lockWait, migrateUp)
}

// MigrateDown rolls back the last n migrations, or all of them when n <= 0
// or n exceeds the number applied.
func MigrateDown(ctx context.Context, url string, n int, lockWait time.Duration) error {
	return withLockedMigrator(ctx, url, lockWait, func(ctx context.Context, m *migrator) error {
		status, err := m.status()
		if err != nil {
			return err
		}
		if len(status.Applied) == 0 {
			return nil
		}
		if status.Dirty {
			return dirtyError(status.Version)
		}
		err = m.run(ctx, func() error {
			if n <= 0 || n >= len(status.Applied) {
				return m.m.Down()
			}
			return m.m.Steps(-n)
		})
		if err != nil && !errors.Is(err, migrate.ErrNoChange) {
			return fmt.Errorf("roll back migrations: %w", err)
		}
		after, err := m.status()
		if err != nil {
			return err
		}
		slog.InfoContext(ctx, "rolled back database migrations", "database", m.where, "from", status.Version, "to", after.Version)
		return nil
	})
}

// MigrateForce records that the schema is at version (0: no migration
// applied) and clean, without running any migration: the way out of a
// dirty schema once it has been repaired by hand.
func MigrateForce(ctx context.Context, url string, version uint, lockWait time.Duration) error {
	return withLockedMigrator(ctx, url, lockWait, func(ctx context.Context, m *migrator) error {
		before, err := m.status()
		if err != nil {
			return err
		}
		if version > before.Latest {
			return fmt.Errorf("cannot force version %d: this docent only knows migrations up to %d", version, before.Latest)
		}
		// Versions need not be contiguous (branches reserve numbers), and
		// a version between two shipped ones names no schema.
		if version > 0 && !slices.ContainsFunc(m.available, func(mig Migration) bool { return mig.Version == version }) {
			return fmt.Errorf("cannot force version %d: this docent ships no migration %d (it ships %s)", version, version, migrationList(m.available))
		}
		v := int(version)
		if version == 0 {
			v = -1 // golang-migrate's "no version"
		}
		if err := m.m.Force(v); err != nil {
			return fmt.Errorf("force version %d: %w", version, err)
		}
		slog.InfoContext(ctx, "forced the schema version", "database", m.where, "from", before.Version, "dirty", before.Dirty, "to", version)
		return nil
	})
}

// MigrateStatus reports the schema version and the applied and pending
// migrations. It only reads: any role that may read the schema can ask.
func MigrateStatus(ctx context.Context, url string) (MigrationStatus, error) {
	t, err := parseTarget(url)
	if err != nil {
		return MigrationStatus{}, err
	}
	pool, err := connect(ctx, t)
	if err != nil {
		return MigrationStatus{}, err
	}
	defer pool.Close()
	status, err := readStatus(ctx, pool)
	if err != nil {
		return status, t.redact.Error(fmt.Errorf("migrate postgres %s: %w", t.where, err))
	}
	return status, nil
}

// readStatus reads the version golang-migrate recorded with one query, so
// a read-only role can check the schema without creating or locking
// anything.
func readStatus(ctx context.Context, pool *pgxpool.Pool) (MigrationStatus, error) {
	available, err := availableMigrations()
	if err != nil {
		return MigrationStatus{}, err
	}
	var (
		version int64
		dirty   bool
		exists  bool
	)
	if err := pool.QueryRow(ctx, `SELECT to_regclass('schema_migrations') IS NOT NULL`).Scan(&exists); err != nil {
		return MigrationStatus{}, fmt.Errorf("read schema version: %w", err)
	}
	if exists {
		err := pool.QueryRow(ctx, `SELECT version, dirty FROM schema_migrations LIMIT 1`).Scan(&version, &dirty)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return MigrationStatus{}, fmt.Errorf("read schema version: %w", err)
		}
	}
	return newStatus(available, max(version, 0), dirty), nil
}

func newStatus(available []Migration, version int64, dirty bool) MigrationStatus {
	s := MigrationStatus{Version: uint(version), Dirty: dirty}
	if n := len(available); n > 0 {
		s.Latest = available[n-1].Version
	}
	for _, mig := range available {
		if mig.Version <= s.Version {
			s.Applied = append(s.Applied, mig)
		} else {
			s.Pending = append(s.Pending, mig)
		}
	}
	return s
}

// ensureSchema makes the schema current for a store about to use it. A
// current schema costs one read and no lock, so readers with SELECT alone
// pass; otherwise the pending migrations are applied under the migration
// lock, and a role that may not apply them is told what to run.
func ensureSchema(ctx context.Context, pool *pgxpool.Pool, where string, lockWait time.Duration, apply bool) error {
	status, err := readStatus(ctx, pool)
	if err != nil {
		return err
	}
	if status.current() {
		return nil
	}
	if !apply {
		return status.check()
	}
	err = lockedMigrate(ctx, pool, where, lockWait, migrateUp)
	if isInsufficientPrivilege(err) {
		return fmt.Errorf("schema is at version %d of %d and this role may not change it: run `docent migrate up` as one that may: %w",
			status.Version, status.Latest, err)
	}
	return err
}

// insufficientPrivilege is SQLSTATE 42501.
const insufficientPrivilege = "42501"

// isInsufficientPrivilege also reads the code from the text: golang-migrate
// wraps database errors in a type that cannot be unwrapped.
func isInsufficientPrivilege(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == insufficientPrivilege
	}
	return err != nil && strings.Contains(err.Error(), "(SQLSTATE "+insufficientPrivilege+")")
}

func migrateUp(ctx context.Context, m *migrator) error {
	// Read under the lock: a status read before it could catch another
	// migrator half-way, when its migration is marked dirty.
	before, err := m.status()
	if err != nil {
		return err
	}
	if before.Dirty || before.Version > before.Latest {
		return before.check()
	}
	if len(before.Pending) == 0 {
		return nil
	}
	err = m.run(ctx, m.m.Up)
	if err != nil && !errors.Is(err, migrate.ErrNoChange) {
		return fmt.Errorf("apply migrations: %w", err)
	}
	after, err := m.status()
	if err != nil {
		return err
	}
	slog.InfoContext(ctx, "applied database migrations", "database", m.where, "from", before.Version, "to", after.Version)
	return nil
}

func dirtyError(version uint) error {
	return fmt.Errorf("schema is dirty at version %d: that migration failed half-way; "+
		"repair the schema by hand, then record the version it is really at with `docent migrate force V`", version)
}

// migrator is golang-migrate bound to one database and docent's embedded
// migrations.
type migrator struct {
	m         *migrate.Migrate
	available []Migration
	where     string
}

// withLockedMigrator connects to url, runs fn with a migrator under the
// migration lock and releases everything. Errors name the database and
// never carry its password.
func withLockedMigrator(ctx context.Context, url string, lockWait time.Duration, fn func(context.Context, *migrator) error) error {
	t, err := parseTarget(url)
	if err != nil {
		return err
	}
	// golang-migrate needs only one connection (it holds its lock on it);
	// docent's migration lock is held on a connection outside the pool.
	t.config.MaxConns = 2
	pool, err := connect(ctx, t)
	if err != nil {
		return err
	}
	defer pool.Close()
	if err := lockedMigrate(ctx, pool, t.where, lockWait, fn); err != nil {
		return t.redact.Error(fmt.Errorf("migrate postgres %s: %w", t.where, err))
	}
	return nil
}

// lockedMigrate runs fn while holding docent's migration lock, so two
// docents starting on a fresh database take turns: the second finds the
// schema current instead of half-way.
func lockedMigrate(ctx context.Context, pool *pgxpool.Pool, where string, lockWait time.Duration, fn func(context.Context, *migrator) error) error {
	if lockWait <= 0 {
		lockWait = DefaultLockWait
	}
	release, err := takeSessionLock(ctx, pool, migrateLockKey, lockWait, "migration")
	if err != nil {
		return err
	}
	defer release()
	return migrateWithPool(ctx, pool, where, fn)
}

func migrateWithPool(ctx context.Context, pool *pgxpool.Pool, where string, fn func(context.Context, *migrator) error) error {
	available, err := availableMigrations()
	if err != nil {
		return err
	}
	src, err := iofs.New(migrations.FS, ".")
	if err != nil {
		return fmt.Errorf("read embedded migrations: %w", err)
	}
	db := stdlib.OpenDBFromPool(pool) // closing it leaves the pool open
	driver, err := pgxmigrate.WithInstance(db, &pgxmigrate.Config{})
	if err != nil {
		_ = db.Close()
		_ = src.Close()
		return fmt.Errorf("prepare migration driver: %w", err)
	}
	m, err := migrate.NewWithInstance("iofs", src, "pgx5", driver)
	if err != nil {
		_ = driver.Close()
		_ = src.Close()
		return fmt.Errorf("prepare migrations: %w", err)
	}
	m.Log = migrateLogger{ctx: ctx}
	defer func() {
		if srcErr, dbErr := m.Close(); srcErr != nil || dbErr != nil {
			slog.WarnContext(ctx, "closing migrator", "database", where, "source_error", srcErr, "database_error", dbErr)
		}
	}()
	return fn(ctx, &migrator{m: m, available: available, where: where})
}

// run runs one golang-migrate operation, asking it to stop between
// migrations once ctx is done: golang-migrate takes no context, and a
// migration it has started always runs to its end (each is atomic).
func (m *migrator) run(ctx context.Context, op func() error) error {
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			m.m.GracefulStop <- true
		case <-done:
		}
	}()
	err := op()
	if err == nil && ctx.Err() != nil {
		return fmt.Errorf("stopped before finishing: %w", ctx.Err())
	}
	return err
}

func (m *migrator) status() (MigrationStatus, error) {
	v, dirty, err := m.m.Version()
	switch {
	case errors.Is(err, migrate.ErrNilVersion):
		return newStatus(m.available, 0, false), nil
	case err != nil:
		return MigrationStatus{}, fmt.Errorf("read schema version: %w", err)
	}
	return newStatus(m.available, int64(v), dirty), nil
}

// availableMigrations lists the embedded migrations in version order.
func availableMigrations() ([]Migration, error) {
	src, err := iofs.New(migrations.FS, ".")
	if err != nil {
		return nil, fmt.Errorf("read embedded migrations: %w", err)
	}
	defer src.Close()
	var out []Migration
	v, err := src.First()
	for err == nil {
		r, name, rerr := src.ReadUp(v)
		if rerr != nil {
			return nil, fmt.Errorf("read embedded migration %d: %w", v, rerr)
		}
		_ = r.Close()
		out = append(out, Migration{Version: v, Name: name})
		v, err = src.Next(v)
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("list embedded migrations: %w", err)
	}
	return out, nil
}

// migrateLogger sends golang-migrate's chatter to slog at debug level.
type migrateLogger struct{ ctx context.Context }

func (l migrateLogger) Printf(format string, v ...any) {
	slog.DebugContext(l.ctx, "migrate: "+fmt.Sprintf(format, v...))
}

func (l migrateLogger) Verbose() bool { return false }
