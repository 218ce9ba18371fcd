package memory

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t,
		func(t *testing.T) store.Store {
			s := New(Options{EventsPath: filepath.Join(t.TempDir(), "state", "docent", "events.jsonl")})
			t.Cleanup(s.Close)
			return s
		},
		func(t *testing.T, s store.Store) []knowledge.RetrievalEvent {
			return readEvents(t, s.(*Store).opts.EventsPath)
		})
}

func readEvents(t *testing.T, path string) []knowledge.RetrievalEvent {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("open events file: %v", err)
	}
	defer f.Close()
	var events []knowledge.RetrievalEvent
	lines := bufio.NewScanner(f)
	for n := 1; lines.Scan(); n++ {
		var ev knowledge.RetrievalEvent
		if err := json.Unmarshal(lines.Bytes(), &ev); err != nil {
			t.Fatalf("%s:%d: not a JSON event: %v: %q", path, n, err, lines.Text())
		}
		events = append(events, ev)
	}
	if err := lines.Err(); err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return events
}

func TestConcurrentEventsKeepLinesWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	s := New(Options{EventsPath: path})
	const writers, each = 8, 40
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				ev := knowledge.RetrievalEvent{Query: fmt.Sprintf("writer %d question %d %s", w, i, strings.Repeat("x", 500))}
				if err := s.RecordRetrieval(t.Context(), ev); err != nil {
					t.Errorf("RecordRetrieval: %v", err)
					return
				}
			}
		})
	}
	wg.Wait()

	events := readEvents(t, path)
	if len(events) != writers*each {
		t.Fatalf("read %d events, want %d", len(events), writers*each)
	}
	seen := map[string]bool{}
	for _, ev := range events {
		seen[ev.Query] = true
	}
	if len(seen) != writers*each {
		t.Errorf("%d distinct events, want %d", len(seen), writers*each)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		t.Errorf("events file mode %v: queries must not be readable by other users", perm)
	}
}

// The events file is rotated by size: one previous file is kept, every
// line lands whole in one of the two, and the current file stays under
// the limit.
func TestEventsFileRotatesBySize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	const limit = 4096
	s := New(Options{EventsPath: path, EventsMaxBytes: limit})
	const n = 60 // about 150 bytes each: a little over two files' worth
	for i := range n {
		if err := s.RecordRetrieval(t.Context(), knowledge.RetrievalEvent{Query: fmt.Sprintf("question %03d %s", i, strings.Repeat("x", 60))}); err != nil {
			t.Fatal(err)
		}
	}
	current, previous := readEvents(t, path), readEvents(t, path+".1")
	for _, p := range []string{path, path + ".1"} {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if info.Size() > limit {
			t.Errorf("%s is %d bytes, over the %d limit", p, info.Size(), limit)
		}
	}
	if len(current) == 0 || len(previous) == 0 {
		t.Fatalf("%d current and %d previous events, want both files used", len(current), len(previous))
	}
	// The newest events are in the current file, the ones before them in
	// the previous one, with nothing missing in between.
	all := append(previous, current...)
	for i, ev := range all {
		want := fmt.Sprintf("question %03d ", n-len(all)+i)
		if !strings.HasPrefix(ev.Query, want) {
			t.Fatalf("event %d of the last %d is %q, want %q…", i, len(all), ev.Query, want)
		}
	}
	if len(all) >= n {
		t.Errorf("kept %d of %d events: the oldest should have gone with the second rotation", len(all), n)
	}
}

func TestWithoutEventsPathNothingIsWritten(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	s := New(Options{})
	if err := s.RecordRetrieval(t.Context(), knowledge.RetrievalEvent{Query: "q"}); err != nil {
		t.Fatalf("RecordRetrieval: %v", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("files written without an events path: %v", entries)
	}
}

func TestUnwritableEventsPathNamesThePath(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(blocker, "events.jsonl")
	err := New(Options{EventsPath: path}).RecordRetrieval(t.Context(), knowledge.RetrievalEvent{Query: "q"})
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("error = %v, want one naming %s", err, path)
	}
}

// The store must own its state: callers editing what they passed in or got
// back cannot change it.
func TestStateIsIsolatedFromCallers(t *testing.T) {
	s := New(Options{})
	docs := storetest.Fixture()
	if _, err := s.Seed(t.Context(), docs, store.SeedOptions{Prune: true}); err != nil {
		t.Fatal(err)
	}
	docs[0].Title = "edited input"
	docs[0].Chunks[0].Keywords = append(docs[0].Chunks[0].Keywords[:0], "edited")

	got, err := s.Corpus(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got[0].Title = "edited output"
	got[0].Chunks[0].Content = "edited output"

	again, err := s.Corpus(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range again {
		if strings.HasPrefix(d.Title, "edited") {
			t.Errorf("doc %s title %q leaked a caller's edit", d.Slug, d.Title)
		}
		for _, c := range d.Chunks {
			if strings.HasPrefix(c.Content, "edited") || (len(c.Keywords) > 0 && c.Keywords[0] == "edited") {
				t.Errorf("doc %s chunk %d leaked a caller's edit", d.Slug, c.Index)
			}
		}
	}
	r, err := s.Seed(t.Context(), storetest.Fixture(), store.SeedOptions{Prune: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Changed() {
		t.Errorf("re-seed after caller edits reports changes: %s", r)
	}
}

func BenchmarkSeed1000Docs(b *testing.B) {
	docs := storetest.GenerateDocs(1000)
	for b.Loop() {
		if _, err := New(Options{}).Seed(b.Context(), docs, store.SeedOptions{Prune: true}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(docs)*b.N)/b.Elapsed().Seconds(), "docs/s")
}

func BenchmarkReseedUnchanged1000Docs(b *testing.B) {
	docs := storetest.GenerateDocs(1000)
	s := New(Options{})
	if _, err := s.Seed(b.Context(), docs, store.SeedOptions{Prune: true}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		r, err := s.Seed(b.Context(), docs, store.SeedOptions{Prune: true})
		if err != nil {
			b.Fatal(err)
		}
		if r.Changed() {
			b.Fatalf("unchanged re-seed wrote: %s", r)
		}
	}
}

// Events reads the rotated file too, and a line that is no event fails
// the listing with the file and line.
func TestEventsReadsRotatedFileAndNamesBadLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	s := New(Options{EventsPath: path, EventsMaxBytes: 400})
	day := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	for i := range 6 {
		ev := knowledge.RetrievalEvent{Time: day.Add(time.Duration(i) * time.Hour), Query: fmt.Sprintf("question %d %s", i, strings.Repeat("x", 100))}
		if err := s.RecordRetrieval(t.Context(), ev); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(path + ".1"); err != nil {
		t.Fatalf("no rotated file: %v", err)
	}
	evs, err := s.Events(t.Context(), day.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	// At 400 bytes each file holds one event: the listing is the rotated
	// file's (question 4) and the current one's (question 5).
	if len(evs) != 2 || !strings.HasPrefix(evs[0].Query, "question 4") || !strings.HasPrefix(evs[1].Query, "question 5") {
		t.Fatalf("events = %+v", evs)
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].Time.Before(evs[i-1].Time) {
			t.Fatalf("events out of order: %v", evs)
		}
	}
	if n := len(readEvents(t, path)) + len(readEvents(t, path+".1")); len(evs) != n {
		t.Errorf("%d events listed, %d in the two files", len(evs), n)
	}

	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("{not json\n")
	f.Close()
	_, err = s.Events(t.Context(), time.Time{})
	if err == nil || !strings.Contains(err.Error(), path+":") {
		t.Fatalf("err = %v, want the file and line", err)
	}
}
