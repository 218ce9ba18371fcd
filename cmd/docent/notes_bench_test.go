package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docent-sh/docent/store/postgres/pgtest"
)

// benchNotes is the import size: `docent notes import` of 10,000
// markdown notes into PostgreSQL should take at most 10 s.
const benchNotes = 10_000

// writeBenchNotes writes n markdown notes of a few sections and about 150
// to 300 words each, in 100 folders, as a note-taking app exports them.
func writeBenchNotes(tb testing.TB, dir string, n int) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("account billing refund invoice login password reset workspace member role admin " +
		"export import csv report sync worker queue timeout retry webhook token api key plan upgrade downgrade " +
		"trial seat license domain sso saml email bounce notification mobile browser cache cookie session")
	para := func() string {
		var b strings.Builder
		for i := range 30 + rng.IntN(40) {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[rng.IntN(len(words))])
		}
		b.WriteString(".")
		return b.String()
	}
	for i := range n {
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntags: [%s, %s]\n---\n# Note %d: %s %s\n\n%s\n", words[rng.IntN(len(words))], words[rng.IntN(len(words))],
			i, words[rng.IntN(len(words))], words[rng.IntN(len(words))], para())
		for s := range 1 + rng.IntN(3) {
			fmt.Fprintf(&b, "\n## Step %d\n\n%s\n", s+1, para())
		}
		path := filepath.Join(dir, fmt.Sprintf("f%02d", i%100), fmt.Sprintf("note-%05d.md", i))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkNotesImport10kPostgres times the whole command, reading,
// chunking and storing, into a fresh migrated database each time:
//
//	DOCENT_TEST_DATABASE_URL=... go test -run '^$' -bench NotesImport -benchtime 3x ./cmd/docent
func BenchmarkNotesImport10kPostgres(b *testing.B) {
	pgtest.AdminURL(b) // skips without a database, before 10,000 files are written
	dir := b.TempDir()
	writeBenchNotes(b, dir, benchNotes)
	state := b.TempDir()
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		env := map[string]string{
			"XDG_STATE_HOME": state, "DATABASE_URL": pgtest.NewDatabase(b),
			"DOCENT_WORKSPACE": "bench", "DOCENT_USER": "bench",
		}
		getenv := func(k string) string { return env[k] }
		var out, errOut bytes.Buffer
		if code := run(ctx, []string{"migrate", "up"}, strings.NewReader(""), &out, &errOut, getenv); code != 0 {
			b.Fatalf("migrate up: exit %d: %s", code, errOut.String())
		}
		out.Reset()
		b.StartTimer()
		code := run(ctx, []string{"notes", "import", dir}, strings.NewReader(""), &out, &errOut, getenv)
		b.StopTimer()
		want := fmt.Sprintf("imported %d notes, ", benchNotes)
		if code != 0 || !strings.Contains(out.String(), want) {
			b.Fatalf("notes import: exit %d, want %q\n%s%s", code, want, out.String(), errOut.String())
		}
		b.Logf("%s", strings.TrimSpace(out.String()))
		b.StartTimer()
	}
	b.ReportMetric(float64(benchNotes)*float64(b.N)/b.Elapsed().Seconds(), "notes/s")
}
