package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/docent-sh/docent/store/storetest"
)

func hasColumn(t *testing.T, url, table, column string) bool {
	t.Helper()
	s, err := Open(context.Background(), url, Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer s.Close()
	var n int
	err = s.pool.QueryRow(context.Background(),
		`SELECT count(*) FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 AND column_name = $2`,
		table, column).Scan(&n)
	if err != nil {
		t.Fatalf("look for %s.%s: %v", table, column, err)
	}
	return n == 1
}

func tablesIn(t *testing.T, url string) []string {
	t.Helper()
	s, err := Open(context.Background(), url, Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer s.Close()
	rows, err := s.pool.Query(context.Background(),
		`SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations' ORDER BY tablename`)
	if err != nil {
		t.Fatalf("list tables: %v", err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return names
}

func versions(ms []Migration) []uint {
	out := make([]uint, len(ms))
	for i, m := range ms {
		out[i] = m.Version
	}
	return out
}

// latestMigration is the last migration in migrations/.
const latestMigration = 6

func checkStatus(t *testing.T, url string, wantVersion uint) MigrationStatus {
	t.Helper()
	st, err := MigrateStatus(t.Context(), url)
	if err != nil {
		t.Fatalf("MigrateStatus: %v", err)
	}
	if st.Version != wantVersion || st.Dirty {
		t.Errorf("status version %d dirty %v, want version %d, clean", st.Version, st.Dirty, wantVersion)
	}
	if st.Latest != latestMigration {
		t.Errorf("latest = %d, want %d", st.Latest, latestMigration)
	}
	if len(st.Applied)+len(st.Pending) != int(st.Latest) {
		t.Errorf("applied %v + pending %v do not cover all %d migrations", st.Applied, st.Pending, st.Latest)
	}
	for _, m := range st.Applied {
		if m.Version > wantVersion || m.Name == "" {
			t.Errorf("applied %+v, want versions up to %d with names", m, wantVersion)
		}
	}
	for _, m := range st.Pending {
		if m.Version <= wantVersion {
			t.Errorf("pending %+v, want versions after %d", m, wantVersion)
		}
	}
	return st
}

func TestMigrationsRoundTrip(t *testing.T) {
	t.Parallel()
	url := newDatabase(t)
	// In version order; tablesIn lists them sorted by name, which here is the same.
	all := []string{"docs_knowledge", "docs_knowledge_chunks", "docs_knowledge_generation", "docs_vocabulary", "retrieval_events"}

	st := checkStatus(t, url, 0)
	if !slices.Equal(versions(st.Pending), []uint{1, 2, 3, 4, 5, 6}) {
		t.Errorf("pending on a fresh database = %v, want [1 2 3 4 5 6]", st.Pending)
	}

	if err := MigrateUp(t.Context(), url, 0); err != nil {
		t.Fatalf("MigrateUp: %v", err)
	}
	st = checkStatus(t, url, 6)
	var names []string
	for _, m := range st.Applied {
		names = append(names, m.Name)
	}
	if want := []string{"docs_knowledge", "docs_knowledge_chunks", "retrieval_events", "docs_knowledge_generation", "chunk_text", "docs_vocabulary"}; !slices.Equal(names, want) {
		t.Errorf("applied names = %v, want %v", names, want)
	}
	if got := tablesIn(t, url); !slices.Equal(got, all) {
		t.Fatalf("tables after up = %v, want %v", got, all)
	}
	if err := MigrateUp(t.Context(), url, 0); err != nil {
		t.Fatalf("MigrateUp on an up-to-date schema: %v", err)
	}

	if !hasColumn(t, url, "docs_knowledge_chunks", "text") || !hasColumn(t, url, "docs_knowledge", "description") {
		t.Error("after up: no chunk text or doc description column")
	}
	if err := MigrateDown(t.Context(), url, 1, 0); err != nil {
		t.Fatalf("MigrateDown 1: %v", err)
	}
	checkStatus(t, url, 5)
	withoutVocabulary := slices.DeleteFunc(slices.Clone(all), func(n string) bool { return n == "docs_vocabulary" })
	if got := tablesIn(t, url); !slices.Equal(got, withoutVocabulary) {
		t.Fatalf("tables after one down = %v, want %v", got, withoutVocabulary)
	}
	if err := MigrateDown(t.Context(), url, 1, 0); err != nil {
		t.Fatalf("MigrateDown 1: %v", err)
	}
	checkStatus(t, url, 4)
	if hasColumn(t, url, "docs_knowledge_chunks", "text") || hasColumn(t, url, "docs_knowledge", "description") {
		t.Error("after one down: the chunk text or doc description column is still there")
	}
	if err := MigrateDown(t.Context(), url, 1, 0); err != nil {
		t.Fatalf("MigrateDown 1: %v", err)
	}
	checkStatus(t, url, 3)
	withoutGeneration := slices.DeleteFunc(slices.Clone(withoutVocabulary), func(n string) bool { return n == "docs_knowledge_generation" })
	if got := tablesIn(t, url); !slices.Equal(got, withoutGeneration) {
		t.Fatalf("tables after one down = %v, want %v", got, withoutGeneration)
	}

	if err := MigrateDown(t.Context(), url, 0, 0); err != nil {
		t.Fatalf("MigrateDown all: %v", err)
	}
	checkStatus(t, url, 0)
	if got := tablesIn(t, url); len(got) != 0 {
		t.Fatalf("tables after all downs = %v, want none", got)
	}
	if err := MigrateDown(t.Context(), url, 0, 0); err != nil {
		t.Fatalf("MigrateDown with nothing applied: %v", err)
	}

	if err := MigrateUp(t.Context(), url, 0); err != nil {
		t.Fatalf("MigrateUp again: %v", err)
	}
	checkStatus(t, url, 6)
	if got := tablesIn(t, url); !slices.Equal(got, all) {
		t.Fatalf("tables after up again = %v, want %v", got, all)
	}
	// The schema works after the round trip, the generation row included.
	s := openStore(t, url)
	if gen := mustGeneration(t, s); gen != 0 {
		t.Errorf("knowledge generation of a fresh schema = %d, want 0", gen)
	}
	mustSeed(t, s, storetest.Fixture())
	if gen := mustGeneration(t, s); gen != 1 {
		t.Errorf("knowledge generation after the first seed = %d, want 1", gen)
	}

	// Asking for more downs than applied rolls everything back.
	s.Close()
	if err := MigrateDown(t.Context(), url, 10, 0); err != nil {
		t.Fatalf("MigrateDown 10: %v", err)
	}
	checkStatus(t, url, 0)
}

func TestDirtySchemaIsReported(t *testing.T) {
	t.Parallel()
	url := newDatabase(t)
	s := openStore(t, url)
	if _, err := s.pool.Exec(t.Context(), `UPDATE schema_migrations SET dirty = true`); err != nil {
		t.Fatal(err)
	}
	st, err := MigrateStatus(t.Context(), url)
	if err != nil {
		t.Fatalf("MigrateStatus: %v", err)
	}
	if !st.Dirty || st.Version != latestMigration {
		t.Errorf("status = %+v, want dirty at %d", st, latestMigration)
	}
	for name, err := range map[string]error{
		"MigrateUp":   MigrateUp(t.Context(), url, 0),
		"MigrateDown": MigrateDown(t.Context(), url, 1, 0),
	} {
		if want := fmt.Sprintf("dirty at version %d", latestMigration); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s on a dirty schema: error = %v, want one saying it is %s", name, err, want)
		}
	}
	if _, err := Open(t.Context(), url, Options{Migrate: true}); err == nil || !strings.Contains(err.Error(), "docent migrate force V") {
		t.Errorf("Open with Migrate on a dirty schema: error = %v, want one naming docent migrate force", err)
	}

	// Once repaired by hand, force records the version it is really at.
	if err := MigrateForce(t.Context(), url, latestMigration+1, 0); err == nil {
		t.Error("MigrateForce to a version this docent does not ship succeeded")
	}
	if err := MigrateForce(t.Context(), url, 4, 0); err != nil {
		t.Fatalf("MigrateForce 4: %v", err)
	}
	checkStatus(t, url, 4)
	if err := MigrateForce(t.Context(), url, 0, 0); err != nil {
		t.Fatalf("MigrateForce 0: %v", err)
	}
	checkStatus(t, url, 0)
}

func TestNewerSchemaIsReported(t *testing.T) {
	t.Parallel()
	url := newDatabase(t)
	s := openStore(t, url)
	if _, err := s.pool.Exec(t.Context(), `UPDATE schema_migrations SET version = 99`); err != nil {
		t.Fatal(err)
	}
	err := MigrateUp(t.Context(), url, 0)
	if err == nil || !strings.Contains(err.Error(), "version 99") || !strings.Contains(err.Error(), "upgrade docent") {
		t.Errorf("MigrateUp on a newer schema: error = %v, want one naming version 99 and asking to upgrade", err)
	}
}

func TestMigrateHonorsCancelledContext(t *testing.T) {
	t.Parallel()
	url := newDatabase(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := MigrateUp(ctx, url, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("MigrateUp with a cancelled context: error = %v, want context.Canceled", err)
	}
	checkStatus(t, url, 0)
}
