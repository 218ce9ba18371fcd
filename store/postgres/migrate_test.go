package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/knowledge"
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

func checkStatus(t *testing.T, url string, wantVersion uint) MigrationStatus {
	t.Helper()
	st, err := MigrateStatus(t.Context(), url)
	if err != nil {
		t.Fatalf("MigrateStatus: %v", err)
	}
	if st.Version != wantVersion || st.Dirty {
		t.Errorf("status version %d dirty %v, want version %d, clean", st.Version, st.Dirty, wantVersion)
	}
	if want := latest(t); st.Latest != want {
		t.Errorf("latest = %d, want %d", st.Latest, want)
	}
	if got := append(slices.Clone(st.Applied), st.Pending...); !slices.Equal(got, shipped(t)) {
		t.Errorf("applied %v + pending %v are not the shipped migrations %v", st.Applied, st.Pending, shipped(t))
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
	// Sorted by name, as tablesIn lists them.
	all := []string{"api_tokens", "conversations", "docent_settings", "docs_knowledge", "docs_knowledge_chunks", "docs_knowledge_generation",
		"docs_vocabulary", "note_reads", "notes", "notes_generations", "notes_knowledge_chunks", "retrieval_events", "turns"}
	// Versions after 10 add these tables.
	since11 := map[string]bool{"api_tokens": true, "conversations": true, "docent_settings": true, "turns": true}
	upTo10 := slices.DeleteFunc(slices.Clone(all), func(n string) bool { return since11[n] })
	// Version 8 adds the notes tables.
	docsOnly := slices.DeleteFunc(slices.Clone(upTo10), func(n string) bool { return strings.HasPrefix(n, "note") })

	st := checkStatus(t, url, 0)
	if !slices.Equal(st.Pending, shipped(t)) {
		t.Errorf("pending on a fresh database = %v, want every shipped migration %v", st.Pending, shipped(t))
	}

	if err := MigrateUp(t.Context(), url, 0); err != nil {
		t.Fatalf("MigrateUp: %v", err)
	}
	st = checkStatus(t, url, latest(t))
	var names []string
	for _, m := range st.Applied[:6] {
		names = append(names, m.Name)
	}
	if want := []string{"docs_knowledge", "docs_knowledge_chunks", "retrieval_events", "docs_knowledge_generation", "chunk_text", "docs_vocabulary"}; !slices.Equal(names, want) {
		t.Errorf("first applied names = %v, want %v", names, want)
	}
	if got, want := tablesIn(t, url), all; !slices.Equal(got, want) {
		t.Fatalf("tables after up = %v, want %v", got, want)
	}
	if err := MigrateUp(t.Context(), url, 0); err != nil {
		t.Fatalf("MigrateUp on an up-to-date schema: %v", err)
	}

	if !hasColumn(t, url, "docs_knowledge_chunks", "text") || !hasColumn(t, url, "docs_knowledge", "description") {
		t.Error("after up: no chunk text or doc description column")
	}
	if !hasColumn(t, url, "retrieval_events", "notes_fallback_reason") {
		t.Error("after up: retrieval events have no notes telemetry (009)")
	}
	for _, col := range []string{"embedding", "embedding_model", "embedding_dim"} {
		if !hasColumn(t, url, "docs_knowledge_chunks", col) {
			t.Errorf("after up: chunks have no %s column (010)", col)
		}
	}
	// Down to version 9, which has no chunk embeddings (10).
	if err := MigrateDown(t.Context(), url, stepsDownTo(t, 9), 0); err != nil {
		t.Fatalf("MigrateDown %d: %v", stepsDownTo(t, 9), err)
	}
	checkStatus(t, url, 9)
	for _, col := range []string{"embedding", "embedding_model", "embedding_dim"} {
		if hasColumn(t, url, "docs_knowledge_chunks", col) {
			t.Errorf("at version 9: the chunk %s column is still there", col)
		}
	}
	if got := tablesIn(t, url); !slices.Equal(got, upTo10) {
		t.Fatalf("tables at version 9 = %v, want %v", got, upTo10)
	}
	// Down to version 7, which has no notes (8) nor their telemetry (9), to 6, then one at a time.
	steps := stepsDownTo(t, 7) - stepsDownTo(t, 9) // counted from the latest, and we are at 9
	if err := MigrateDown(t.Context(), url, steps, 0); err != nil {
		t.Fatalf("MigrateDown %d: %v", steps, err)
	}
	checkStatus(t, url, 7)
	if got := tablesIn(t, url); !slices.Equal(got, docsOnly) {
		t.Fatalf("tables at version 7 = %v, want %v", got, docsOnly)
	}
	if hasColumn(t, url, "retrieval_events", "notes_fallback_reason") || hasColumn(t, url, "retrieval_events", "corpus") {
		t.Error("at version 7: the notes telemetry columns are still there")
	}
	if err := MigrateDown(t.Context(), url, 1, 0); err != nil {
		t.Fatalf("MigrateDown 1: %v", err)
	}
	checkStatus(t, url, 6)
	if err := MigrateDown(t.Context(), url, 1, 0); err != nil {
		t.Fatalf("MigrateDown 1: %v", err)
	}
	checkStatus(t, url, 5)
	withoutVocabulary := slices.DeleteFunc(slices.Clone(docsOnly), func(n string) bool { return n == "docs_vocabulary" })
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
		t.Fatalf("tables at version 3 = %v, want %v", got, withoutGeneration)
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
	checkStatus(t, url, latest(t))
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
	if err := MigrateDown(t.Context(), url, len(shipped(t))+1, 0); err != nil {
		t.Fatalf("MigrateDown %d: %v", len(shipped(t))+1, err)
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
	last := latest(t)
	if !st.Dirty || st.Version != last {
		t.Errorf("status = %+v, want dirty at %d", st, last)
	}
	for name, err := range map[string]error{
		"MigrateUp":   MigrateUp(t.Context(), url, 0),
		"MigrateDown": MigrateDown(t.Context(), url, 1, 0),
	} {
		if want := fmt.Sprintf("dirty at version %d", last); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s on a dirty schema: error = %v, want one saying it is %s", name, err, want)
		}
	}
	if _, err := Open(t.Context(), url, Options{Migrate: true}); err == nil || !strings.Contains(err.Error(), "docent migrate force V") {
		t.Errorf("Open with Migrate on a dirty schema: error = %v, want one naming docent migrate force", err)
	}

	// Once repaired by hand, force records the version it is really at.
	if err := MigrateForce(t.Context(), url, last+1, 0); err == nil {
		t.Error("MigrateForce to a version this docent does not ship succeeded")
	}
	for v := uint(1); v < last; v++ {
		if slices.Contains(versions(shipped(t)), v) {
			continue
		}
		if err := MigrateForce(t.Context(), url, v, 0); err == nil || !strings.Contains(err.Error(), "ships no migration") {
			t.Errorf("MigrateForce %d, between two shipped versions: error = %v, want one saying no such migration ships", v, err)
		}
	}
	if err := MigrateForce(t.Context(), url, last, 0); err != nil {
		t.Fatalf("MigrateForce %d: %v", last, err)
	}
	checkStatus(t, url, last)
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

// Migration 007 adds the usage columns to retrieval_events and its down
// removes them, keeping the events.
func TestEventUsageColumnsMigration(t *testing.T) {
	t.Parallel()
	url := newDatabase(t)
	s := openStore(t, url)
	usageColumns := func() []string {
		t.Helper()
		rows, err := s.pool.Query(t.Context(), `SELECT column_name FROM information_schema.columns
			WHERE table_name = 'retrieval_events' AND column_name IN ('prompt_tokens', 'completion_tokens', 'cost_usd')
			ORDER BY column_name`)
		if err != nil {
			t.Fatal(err)
		}
		cols, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		return cols
	}
	if got, want := usageColumns(), []string{"completion_tokens", "cost_usd", "prompt_tokens"}; !slices.Equal(got, want) {
		t.Fatalf("usage columns after up = %v, want %v", got, want)
	}
	tokens := 12
	if err := s.RecordRetrieval(t.Context(), knowledge.RetrievalEvent{Query: "kept", PromptTokens: &tokens}); err != nil {
		t.Fatal(err)
	}
	var before uint
	for _, m := range shipped(t) {
		if m.Version < 7 {
			before = m.Version
		}
	}
	if err := MigrateDown(t.Context(), url, stepsDownTo(t, before), 0); err != nil {
		t.Fatal(err)
	}
	if got := usageColumns(); len(got) != 0 {
		t.Errorf("usage columns after down = %v, want none", got)
	}
	var n int
	if err := s.pool.QueryRow(t.Context(), `SELECT count(*) FROM retrieval_events WHERE query = 'kept'`).Scan(&n); err != nil || n != 1 {
		t.Errorf("events after down: %d, %v; want the recorded one kept", n, err)
	}
}
