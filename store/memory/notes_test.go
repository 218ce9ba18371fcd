package memory

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/storetest"
)

func TestNotesConformance(t *testing.T) {
	t.Run("InMemory", func(t *testing.T) {
		storetest.RunNotes(t, func(t *testing.T) store.Notes { return New(Options{}) })
	})
	t.Run("File", func(t *testing.T) {
		storetest.RunNotes(t, func(t *testing.T) store.Notes {
			dir := t.TempDir()
			return New(Options{NotesPath: filepath.Join(dir, "state", "notes.jsonl"), NoteReadsPath: filepath.Join(dir, "state", "note-reads.jsonl")})
		})
	})
}

var (
	alice = knowledge.Scope{Workspace: "acme", User: "alice"}
	bob   = knowledge.Scope{Workspace: "acme", User: "bob"}
)

func addNote(t *testing.T, s *Store, scope knowledge.Scope, v knowledge.Visibility, title, body string) knowledge.Note {
	t.Helper()
	n, err := s.AddNote(t.Context(), scope, storetest.NewNote("", "", v, title, body))
	if err != nil {
		t.Fatalf("AddNote %q: %v", title, err)
	}
	return n
}

// TestNotesSurviveReopen writes through one store and reads through a
// fresh one on the same file: every field, deleted notes and all.
func TestNotesSurviveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.jsonl")
	s := New(Options{NotesPath: path})
	a := addNote(t, s, alice, knowledge.VisibilityPrivate, "Private — café", "One.\n\nTwo 東京.")
	b := addNote(t, s, alice, knowledge.VisibilityWorkspace, "Team", "Shared.")
	gone := addNote(t, s, bob, knowledge.VisibilityWorkspace, "Gone", "Deleted.")
	if err := s.DeleteNote(t.Context(), bob, gone.ID); err != nil {
		t.Fatal(err)
	}
	want, err := s.VisibleNotes(t.Context(), alice)
	if err != nil {
		t.Fatal(err)
	}

	reopened, err := Open(t.Context(), Options{NotesPath: path})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	got, err := reopened.VisibleNotes(t.Context(), alice)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) || len(got) != 2 {
		t.Errorf("after reopening:\n got %+v\nwant %+v (notes %s %s)", got, want, a.ID, b.ID)
	}
	if _, err := reopened.GetNote(t.Context(), bob, gone.ID); !errors.Is(err, store.ErrNoteNotFound) {
		t.Errorf("deleted note after reopening: %v, want ErrNoteNotFound", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if lines := bytes.Count(data, []byte("\n")); lines != 3 {
		t.Errorf("notes file has %d lines, want 3 (the deleted note keeps its line)", lines)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("notes file mode %v (%v), want 0600: notes can be private", info.Mode().Perm(), err)
	}
	leftovers, _ := filepath.Glob(path + ".tmp-*")
	if len(leftovers) != 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
}

// TestCorruptNotesFileIsNeverOverwritten breaks one line: opening names
// the file and line, reads fail with ErrNotesUnavailable, writes refuse
// and leave the file byte for byte, and a fixed file is read again.
func TestCorruptNotesFileIsNeverOverwritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.jsonl")
	s := New(Options{NotesPath: path})
	addNote(t, s, alice, knowledge.VisibilityWorkspace, "First", "One.")
	addNote(t, s, alice, knowledge.VisibilityWorkspace, "Second", "Two.")
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(good), "\n")
	corrupt := []byte(lines[0] + lines[1][:len(lines[1])/2] + "\n") // a torn second line
	if err := os.WriteFile(path, corrupt, 0o600); err != nil {
		t.Fatal(err)
	}

	if _, err := Open(t.Context(), Options{NotesPath: path}); err == nil || !strings.Contains(err.Error(), path+", line 2") {
		t.Errorf("Open on a corrupt file: %v, want an error naming %s, line 2", err, path)
	}
	if _, err := s.VisibleNotes(t.Context(), alice); !errors.Is(err, store.ErrNotesUnavailable) || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("VisibleNotes on a corrupt file: %v, want ErrNotesUnavailable naming line 2", err)
	}
	if _, err := s.AddNote(t.Context(), alice, storetest.NewNote("", "", knowledge.VisibilityWorkspace, "Third", "Three.")); err == nil {
		t.Error("AddNote over a corrupt file succeeded")
	}
	if _, err := s.ImportNotes(t.Context(), []knowledge.Note{storetest.NewNote("acme", "alice", knowledge.VisibilityWorkspace, "Fourth", "Four.")}, nil); err == nil {
		t.Error("ImportNotes over a corrupt file succeeded")
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, corrupt) {
		t.Fatal("a write changed the corrupt file")
	}

	if err := os.WriteFile(path, good, 0o600); err != nil {
		t.Fatal(err)
	}
	if notes, err := s.VisibleNotes(t.Context(), alice); err != nil || len(notes) != 2 {
		t.Errorf("after fixing the file: %d notes, %v", len(notes), err)
	}
	addNote(t, s, alice, knowledge.VisibilityWorkspace, "Third", "Three.")
}

// TestTwoProcessesShareTheNotesFile runs two stores on one file, as the
// TUI and `docent notes add` would: each sees the other's writes (and its
// generation changes), and concurrent writers lose nothing.
func TestTwoProcessesShareTheNotesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.jsonl")
	tui, cli := New(Options{NotesPath: path}), New(Options{NotesPath: path})
	addNote(t, tui, alice, knowledge.VisibilityWorkspace, "From the TUI", "One.")
	gen, err := tui.NotesGeneration(t.Context(), "acme")
	if err != nil {
		t.Fatal(err)
	}
	other, err := tui.NotesGeneration(t.Context(), "globex")
	if err != nil {
		t.Fatal(err)
	}
	added := addNote(t, cli, bob, knowledge.VisibilityWorkspace, "From the CLI", "Two.")
	if g, err := tui.NotesGeneration(t.Context(), "acme"); err != nil || g == gen {
		t.Errorf("the TUI's generation after the CLI wrote: %d (was %d), %v; want a change", g, gen, err)
	}
	if g, _ := tui.NotesGeneration(t.Context(), "globex"); g != other {
		t.Errorf("globex's generation moved from %d to %d with a write in acme", other, g)
	}
	if _, err := tui.GetNote(t.Context(), alice, added.ID); err != nil {
		t.Errorf("the TUI reading the CLI's note: %v", err)
	}

	const each = 15
	var wg sync.WaitGroup
	for w, s := range []*Store{tui, cli} {
		wg.Go(func() {
			for i := range each {
				if _, err := s.AddNote(t.Context(), alice, storetest.NewNote("", "", knowledge.VisibilityWorkspace,
					fmt.Sprintf("writer %d note %d", w, i), "Body.")); err != nil {
					t.Errorf("AddNote: %v", err)
				}
			}
		})
	}
	wg.Wait()
	fresh, err := Open(t.Context(), Options{NotesPath: path})
	if err != nil {
		t.Fatal(err)
	}
	notes, err := fresh.VisibleNotes(t.Context(), alice)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 2+2*each {
		t.Errorf("%d notes after concurrent writers, want %d: a write was lost", len(notes), 2+2*each)
	}
}

// TestNotesLockWaitIsBounded holds the lock as another process would and
// checks that a write gives up after NotesLockWait, writing nothing.
func TestNotesLockWaitIsBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.jsonl")
	release, err := lockFile(t.Context(), path+".lock", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	s := New(Options{NotesPath: path, NotesLockWait: 50 * time.Millisecond})
	start := time.Now()
	_, err = s.AddNote(t.Context(), alice, storetest.NewNote("", "", knowledge.VisibilityWorkspace, "Blocked", "Body."))
	if err == nil || !strings.Contains(err.Error(), path+".lock") {
		t.Errorf("AddNote while another process holds the lock: %v, want an error naming the lock file", err)
	}
	if waited := time.Since(start); waited > 2*time.Second {
		t.Errorf("waited %s for a 50ms limit", waited)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the notes file exists after a refused write: %v", err)
	}
}

func TestNoteReadsAuditFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit", "note-reads.jsonl")
	s := New(Options{NoteReadsPath: path})
	at := time.Date(2026, 11, 26, 5, 0, 0, 0, time.UTC)
	reads := []knowledge.NoteRead{
		{User: "alice", NoteID: "7c9e6679-7425-40de-944b-e07fc1f90ae7", Time: at, Reason: knowledge.ReadAsk},
		{User: "bob", NoteID: "7c9e6679-7425-40de-944b-e07fc1f90ae7", Time: at, Reason: knowledge.ReadFollowUp},
	}
	if err := s.RecordNoteReads(t.Context(), reads); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"time":"2026-11-26T05:00:00Z","user":"alice","note_id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","reason":"ask"}` + "\n" +
		`{"time":"2026-11-26T05:00:00Z","user":"bob","note_id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","reason":"follow-up"}` + "\n"
	if string(got) != want {
		t.Errorf("audit file:\n%s\nwant\n%s", got, want)
	}

	inMemory := New(Options{})
	if err := inMemory.RecordNoteReads(t.Context(), reads); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(inMemory.notes.reads, reads) {
		t.Errorf("in-memory audit %+v, want %+v", inMemory.notes.reads, reads)
	}

	// An unwritable audit file is reported, naming it.
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	bad := New(Options{NoteReadsPath: filepath.Join(blocked, "reads.jsonl")})
	if err := bad.RecordNoteReads(t.Context(), reads); err == nil || !strings.Contains(err.Error(), blocked) {
		t.Errorf("RecordNoteReads to an impossible path: %v, want an error naming it", err)
	}
}

// sampleNotesFile is a file as docent writes it: two notes, one deleted.
func sampleNotesFile(t testing.TB) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "notes.jsonl")
	s := New(Options{NotesPath: path})
	n, err := s.AddNote(context.Background(), alice, storetest.NewNote("", "", knowledge.VisibilityPrivate, "Tags & \"quotes\"", "One <b>.\n\nTwo 東京 é.", "Vpn", "x"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddNote(context.Background(), bob, storetest.NewNote("", "", knowledge.VisibilityWorkspace, "Team", "Shared.")); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteNote(context.Background(), alice, n.ID); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestNotesFileRoundTripIsByteExact(t *testing.T) {
	data := sampleNotesFile(t)
	records, err := decodeNotes("notes.jsonl", data)
	if err != nil {
		t.Fatal(err)
	}
	again, err := encodeNotes(records)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, data) {
		t.Errorf("re-encoding changed the file:\n%s\nwant\n%s", again, data)
	}
}

func TestCorruptLinesAreNamed(t *testing.T) {
	data := sampleNotesFile(t)
	first, _, _ := bytes.Cut(data, []byte("\n"))
	cases := map[string][]byte{
		"not JSON":          []byte("{\n"),
		"invalid UTF-8":     append(bytes.Clone(first[:len(first)-2]), []byte("\xff\"}")...),
		"unknown field":     bytes.Replace(first, []byte(`{"id"`), []byte(`{"colour":"red","id"`), 1),
		"bad visibility":    bytes.Replace(first, []byte(`"private"`), []byte(`"public"`), 1),
		"duplicate id":      append(append(bytes.Clone(first), '\n'), first...),
		"two values":        append(bytes.Clone(first), []byte(" {}")...),
		"upper-case id":     bytes.ToUpper(first[:20]),
		"not a note object": []byte(`[1,2]`),
	}
	for what, content := range cases {
		_, err := decodeNotes("x/notes.jsonl", append([]byte("\n"), content...)) // after a blank line 1
		if err == nil || !strings.Contains(err.Error(), "x/notes.jsonl, line ") {
			t.Errorf("%s: %v, want an error naming the file and line", what, err)
		}
	}
}

// contents drops the encoding cache from records, leaving what they hold.
func contents(records []*storedNote) []storedNote {
	out := make([]storedNote, len(records))
	for i, r := range records {
		out[i] = storedNote{note: r.note, deletedAt: r.deletedAt}
	}
	return out
}

// FuzzDecodeNotes feeds the notes file loader arbitrary bytes: it never
// panics, refuses what it cannot read with an error naming the file, and
// what it accepts re-encodes to a file that decodes to the same notes and
// re-encodes byte for byte the same.
func FuzzDecodeNotes(f *testing.F) {
	sample := sampleNotesFile(f)
	f.Add(sample)
	f.Add([]byte{})
	f.Add([]byte("\n\n"))
	f.Add(sample[:len(sample)/2])
	f.Add(bytes.ReplaceAll(sample, []byte("é"), []byte("\xff")))
	f.Add(bytes.ReplaceAll(sample, []byte(`"Z"`), []byte(`"+02:00"`)))
	f.Add([]byte(`{"id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","workspace":"a","owner":"b","visibility":"workspace","title":"\ud800","body":"","format":"markdown","tags":["A"],"created_at":"2026-01-01T00:00:00.123456789+02:00","updated_at":"0001-01-01T00:00:00Z","content_hash":"","chunks":[{"index":3,"header_path":"","content":"","text":"","hash":"","body_chars":0}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		records, err := decodeNotes("fuzz.jsonl", data)
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.jsonl, line ") {
				t.Fatalf("error without the file and line: %v", err)
			}
			return
		}
		encoded, err := encodeNotes(records)
		if err != nil {
			t.Fatalf("encode what was decoded: %v", err)
		}
		again, err := decodeNotes("fuzz.jsonl", encoded)
		if err != nil {
			t.Fatalf("decode what was encoded: %v\n%s", err, encoded)
		}
		if !reflect.DeepEqual(contents(again), contents(records)) {
			t.Fatalf("round trip changed the notes:\n got %+v\nwant %+v", again, records)
		}
		reencoded, err := encodeNotes(again)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(reencoded, encoded) {
			t.Fatalf("re-encoding is not byte-exact:\n%q\n%q", reencoded, encoded)
		}
	})
}

// BenchmarkImport10000NotesToFile imports 10,000 small notes into an
// empty notes file: the file is rewritten once per batch.
func BenchmarkImport10000NotesToFile(b *testing.B) {
	notes := storetest.GenerateNotes(10_000)
	for b.Loop() {
		b.StopTimer()
		s := New(Options{NotesPath: filepath.Join(b.TempDir(), "notes.jsonl")})
		b.StartTimer()
		r, err := s.ImportNotes(context.Background(), notes, nil)
		if err != nil {
			b.Fatal(err)
		}
		if r.Notes != len(notes) {
			b.Fatalf("import: %s", r)
		}
	}
}

// TestReadsNeverWriteTheNotesFile reads in every way and checks that the
// file and its lock file are untouched: reading takes no file lock and
// rewrites nothing, so a reader works beside a writer in another process.
func TestReadsNeverWriteTheNotesFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "notes.jsonl")
	s := New(Options{NotesPath: path})
	n := addNote(t, s, alice, knowledge.VisibilityPrivate, "Mine", "One.\n\nTwo.")
	before, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	infoBefore, _ := os.Stat(path)
	lockBefore, _ := os.Stat(path + ".lock")

	// A store that only reads, as the TUI mostly does.
	reader := New(Options{NotesPath: path})
	for _, r := range []*Store{s, reader} {
		if _, err := r.GetNote(t.Context(), alice, n.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := r.VisibleNotes(t.Context(), bob); err != nil {
			t.Fatal(err)
		}
		if _, err := r.ListNotes(t.Context(), alice); err != nil {
			t.Fatal(err)
		}
		if _, err := r.NotesGeneration(t.Context(), "acme"); err != nil {
			t.Fatal(err)
		}
	}
	after, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	infoAfter, _ := os.Stat(path)
	lockAfter, _ := os.Stat(path + ".lock")
	if len(after) != len(before) || stampOf(infoAfter) != stampOf(infoBefore) || !lockAfter.ModTime().Equal(lockBefore.ModTime()) {
		t.Errorf("reads changed the directory: %d entries before, %d after; file %v → %v", len(before), len(after),
			stampOf(infoBefore), stampOf(infoAfter))
	}
}
