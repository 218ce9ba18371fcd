package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/golang-migrate/migrate/v4"
	pgxmigrate "github.com/golang-migrate/migrate/v4/database/pgx/v5"
	"github.com/golang-migrate/migrate/v4/source/iofs"
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

// MigrateUp applies every pending migration. An up-to-date schema is not
// an error.
func MigrateUp(ctx context.Context, url string) error {
	return withMigrator(ctx, url, migrateUp)
}

// MigrateDown rolls back the last n migrations, or all of them when n <= 0
// or n exceeds the number applied.
func MigrateDown(ctx context.Context, url string, n int) error {
	return withMigrator(ctx, url, func(ctx context.Context, m *migrator) error {
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

// MigrateStatus reports the schema version and the applied and pending
// migrations.
func MigrateStatus(ctx context.Context, url string) (MigrationStatus, error) {
	var status MigrationStatus
	err := withMigrator(ctx, url, func(ctx context.Context, m *migrator) error {
		var err error
		status, err = m.status()
		return err
	})
	return status, err
}

func migrateUp(ctx context.Context, m *migrator) error {
	before, err := m.status()
	if err != nil {
		return err
	}
	if before.Dirty {
		return dirtyError(before.Version)
	}
	if before.Version > before.Latest {
		return fmt.Errorf("schema is at version %d but this docent only knows migrations up to %d: upgrade docent",
			before.Version, before.Latest)
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
		"repair the schema by hand, then record the version it is really at with `migrate force`", version)
}

// migrator is golang-migrate bound to one database and docent's embedded
// migrations.
type migrator struct {
	m         *migrate.Migrate
	available []Migration
	where     string
}

// withMigrator connects to url, runs fn with a migrator and releases
// everything. Errors name the database and never carry its password.
func withMigrator(ctx context.Context, url string, fn func(context.Context, *migrator) error) error {
	t, err := parseTarget(url)
	if err != nil {
		return err
	}
	// golang-migrate needs only one connection (it holds its lock on it).
	t.config.MaxConns = 2
	pool, err := connect(ctx, t)
	if err != nil {
		return err
	}
	defer pool.Close()
	if err := migrateWithPool(ctx, pool, t.where, fn); err != nil {
		return t.redact.Error(fmt.Errorf("migrate postgres %s: %w", t.where, err))
	}
	return nil
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
	s := MigrationStatus{}
	if n := len(m.available); n > 0 {
		s.Latest = m.available[n-1].Version
	}
	v, dirty, err := m.m.Version()
	switch {
	case errors.Is(err, migrate.ErrNilVersion):
	case err != nil:
		return s, fmt.Errorf("read schema version: %w", err)
	default:
		s.Version, s.Dirty = v, dirty
	}
	for _, mig := range m.available {
		if mig.Version <= s.Version {
			s.Applied = append(s.Applied, mig)
		} else {
			s.Pending = append(s.Pending, mig)
		}
	}
	return s, nil
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
