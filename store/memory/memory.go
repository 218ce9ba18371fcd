// Package memory is docent's default knowledge store: the knowledge base
// lives in process memory and retrieval events go to an optional JSONL
// file, so docent runs with no database at all.
package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
)

// DefaultEventsMaxBytes is the size past which the events file is
// rotated: months of questions for a team, still quick to grep.
const DefaultEventsMaxBytes = 10 << 20

// Options configures a Store.
type Options struct {
	// EventsPath is the JSONL file retrieval events are appended to; its
	// parent directories are created as needed. Empty records nothing.
	EventsPath string
	// EventsMaxBytes rotates the events file once an event would take it
	// past this size: it becomes EventsPath + ".1" (replacing the previous
	// one) and a new file starts. 0 means DefaultEventsMaxBytes.
	EventsMaxBytes int64

	// NotesPath is the JSON Lines file team notes are kept in, one note
	// with its chunks per line, rewritten whole (temporary file, fsync,
	// rename) on every write; its parent directories are created as
	// needed. Several docent processes may share it: each rereads it when
	// it changed and writes under an advisory lock on NotesPath + ".lock".
	// Empty keeps notes in memory only.
	NotesPath string
	// NoteReadsPath is the JSONL file reads of private notes are appended
	// to, the audit log. Empty keeps them in memory.
	NoteReadsPath string
	// NotesLockWait bounds a write's wait for another process writing the
	// notes file; 0 means DefaultNotesLockWait.
	NotesLockWait time.Duration

	// SettingsPath is the JSON file of the team-wide settings, the
	// retrieval kill switch, so that `docent admin retrieval off` reaches
	// every docent on this machine's embedded store; replaced whole on
	// every write. Empty keeps them in memory only.
	SettingsPath string
}

// Store is an in-memory knowledge store, safe for concurrent use.
type Store struct {
	opts Options

	// seedMu serializes seeds, so concurrent seeders end in the state one
	// would have produced. Readers never take it: they load the current
	// snapshot, which is never modified once published.
	seedMu sync.Mutex
	state  atomic.Pointer[snapshot]

	events eventQueue // the events being appended

	notes notesStore

	settingsMu   sync.Mutex
	retrievalOff bool // the kill switch, without a SettingsPath
}

// Store keeps the contract the commands rely on.
var _ store.Store = (*Store)(nil)

// snapshot is one immutable state of the knowledge base.
type snapshot struct {
	docs  map[string]*entry
	slugs []string // sorted, for ordered reads
	// generation counts the seeds that wrote; it travels with the content
	// so a reader never sees one without the other.
	generation int64
	vocabulary knowledge.Vocabulary
}

// entry is one stored doc (chunks sorted by index) with its planning summary.
type entry struct {
	doc    knowledge.Doc
	stored store.StoredDoc
}

// New returns an empty store.
func New(opts Options) *Store {
	s := &Store{opts: opts}
	s.state.Store(&snapshot{docs: map[string]*entry{}})
	return s
}

// cancelCheckEvery bounds how long a cancelled seed keeps building.
const cancelCheckEvery = 256

// Seed makes the store hold exactly docs, the complete knowledge base, save
// for the stored docs opts keeps. The new state is built aside and
// published at once, so a failed, refused or cancelled seed leaves the
// previous state in place.
func (s *Store) Seed(ctx context.Context, docs []knowledge.Doc, opts store.SeedOptions) (store.SeedReport, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return store.SeedReport{}, fmt.Errorf("seed: %w", err)
	}
	if err := store.ValidateSnapshot(docs); err != nil {
		return store.SeedReport{}, fmt.Errorf("seed: %w", err)
	}

	s.seedMu.Lock()
	defer s.seedMu.Unlock()

	current := s.state.Load()
	stored := make(map[string]store.StoredDoc, len(current.docs))
	for slug, e := range current.docs {
		stored[slug] = e.stored
	}
	plan, err := store.Plan(stored, docs, opts)
	if err != nil {
		return store.SeedReport{}, fmt.Errorf("seed: %w", err)
	}
	vocabularyChanged := opts.VocabularyChanged(current.vocabulary)
	if !plan.HasWrites() && !vocabularyChanged {
		return plan.Report(time.Since(start)), nil
	}

	next := &snapshot{docs: make(map[string]*entry, len(docs)), generation: current.generation + 1, vocabulary: current.vocabulary}
	if vocabularyChanged {
		next.vocabulary = cloneVocabulary(*opts.Vocabulary)
	}
	for slug, e := range current.docs {
		next.docs[slug] = e // entries are immutable, so sharing is safe
	}
	for _, slug := range plan.Delete {
		delete(next.docs, slug)
	}
	changed := make([]knowledge.Doc, 0, len(plan.Insert)+len(plan.Update))
	changed = append(changed, plan.Insert...)
	for _, u := range plan.Update {
		changed = append(changed, u.Doc)
	}
	for i, d := range changed {
		if i%cancelCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return store.SeedReport{}, fmt.Errorf("seed: %w", err)
			}
		}
		e := newEntry(d)
		if old := current.docs[d.Slug]; old != nil {
			keepEmbeddings(e, old)
		}
		next.docs[d.Slug] = e
	}
	next.slugs = make([]string, 0, len(next.docs))
	for slug := range next.docs {
		next.slugs = append(next.slugs, slug)
	}
	slices.Sort(next.slugs)

	if err := ctx.Err(); err != nil {
		return store.SeedReport{}, fmt.Errorf("seed: %w", err)
	}
	s.state.Store(next)
	r := plan.Report(time.Since(start))
	r.Vocabulary = vocabularyChanged
	return r, nil
}

func cloneVocabulary(v knowledge.Vocabulary) knowledge.Vocabulary {
	v.Synonyms = slices.Clone(v.Synonyms)
	v.Concepts = slices.Clone(v.Concepts)
	return v
}

// Vocabulary returns the glossary, synonyms and concept docs the last seed
// that carried them stored.
func (s *Store) Vocabulary(ctx context.Context) (knowledge.Vocabulary, error) {
	if err := ctx.Err(); err != nil {
		return knowledge.Vocabulary{}, err
	}
	return cloneVocabulary(s.state.Load().vocabulary), nil
}

// newEntry copies d so later edits by the caller cannot reach the store.
func newEntry(d knowledge.Doc) *entry {
	d = d.Clone()
	slices.SortFunc(d.Chunks, func(a, b knowledge.Chunk) int { return a.Index - b.Index })
	return &entry{doc: d, stored: store.StoredDocOf(d)}
}

// keepEmbeddings gives the chunks of a rewritten doc that bring no
// embedding the stored one, where store.KeepsEmbedding says it stays. e
// is fresh from newEntry, not yet shared, so it may still be edited.
func keepEmbeddings(e, old *entry) {
	stored := make(map[int]knowledge.Chunk, len(old.doc.Chunks))
	for _, c := range old.doc.Chunks {
		stored[c.Index] = c
	}
	for i := range e.doc.Chunks {
		c := &e.doc.Chunks[i]
		prev, ok := stored[c.Index]
		if ok && prev.Embedding != nil && store.KeepsEmbedding(*c, prev.Hash) {
			// Entries are immutable, so the vector can be shared.
			c.Embedding = prev.Embedding
			e.stored.Embeddings[c.Index] = store.EmbeddingKey(c.Embedding)
		}
	}
}

// Generation returns the knowledge generation: the number of seeds that
// wrote anything. An unchanged re-seed leaves it alone.
func (s *Store) Generation(ctx context.Context) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("read knowledge generation: %w", err)
	}
	return s.state.Load().generation, nil
}

// ListDocs summarizes every doc, ordered by slug.
func (s *Store) ListDocs(ctx context.Context) ([]knowledge.DocSummary, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("list docs: %w", err)
	}
	snap := s.state.Load()
	out := make([]knowledge.DocSummary, 0, len(snap.slugs))
	for _, slug := range snap.slugs {
		d := snap.docs[slug].doc
		out = append(out, knowledge.DocSummary{
			Slug: d.Slug, Category: d.Category, Title: d.Title,
			ChunkCount: len(d.Chunks), ContentHash: d.ContentHash, Version: d.Version,
		})
	}
	return out, nil
}

// Corpus returns a copy of every doc with its chunks, ordered by slug and
// chunk index.
func (s *Store) Corpus(ctx context.Context) ([]knowledge.Doc, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	snap := s.state.Load()
	out := make([]knowledge.Doc, 0, len(snap.slugs))
	for _, slug := range snap.slugs {
		out = append(out, snap.docs[slug].doc.Clone())
	}
	return out, nil
}

// RecordRetrieval appends ev as one JSON line to the events file, if any.
// The file is opened for each write: no handle is left to leak. Under
// `docent serve` events come from many requests at once, so they are
// written in groups (see appendEvents): a request never waits for a lock
// held across another request's file system calls.
func (s *Store) RecordRetrieval(ctx context.Context, ev knowledge.RetrievalEvent) error {
	ev, err := store.PrepareEvent(ev, time.Now())
	if err != nil {
		return err
	}
	if s.opts.EventsPath == "" {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("record retrieval event: %w", err)
	}
	line, err := json.Marshal(ev)
	if err != nil {
		return fmt.Errorf("record retrieval event: encode: %w", err)
	}
	line = append(line, '\n')
	if err := s.events.append(line, s.writeEvents); err != nil {
		return fmt.Errorf("record retrieval event: %w", err)
	}
	return nil
}

// eventQueue groups the events concurrent callers record (group commit):
// one caller at a time writes every line queued until then, with one
// round of file system calls, while the others wait for the outcome.
// Holding a mutex across those calls instead made every request of a busy
// server queue behind each other's syscalls; once the mutex turned to
// handing itself over waiter by waiter, each request also waited for a
// scheduler round, and the tail grew to seconds.
type eventQueue struct {
	mu      sync.Mutex
	queued  []queuedEvent
	writing bool // a caller is writing; the next writer is handed the turn
}

type queuedEvent struct {
	line []byte
	done chan eventOutcome // capacity 1
}

// eventOutcome is a queued event's outcome, or the turn to write (lead).
type eventOutcome struct {
	lead bool
	err  error
}

// append queues line and returns once it is written (or failed to be), by
// write itself or by the caller writing at the time. A writer writes one
// group, its own line in it, then hands the turn to the first caller
// queued meanwhile, so no caller writes for others indefinitely.
func (q *eventQueue) append(line []byte, write func(lines [][]byte) error) error {
	me := queuedEvent{line: line, done: make(chan eventOutcome, 1)}
	q.mu.Lock()
	q.queued = append(q.queued, me)
	lead := !q.writing
	q.writing = true
	q.mu.Unlock()
	if !lead {
		if out := <-me.done; !out.lead {
			return out.err
		}
	}
	q.mu.Lock()
	group := q.queued
	q.queued = nil
	q.mu.Unlock()
	lines := make([][]byte, len(group))
	for i, e := range group {
		lines[i] = e.line
	}
	err := write(lines)
	for _, e := range group {
		e.done <- eventOutcome{err: err}
	}
	q.mu.Lock()
	if len(q.queued) > 0 {
		next := q.queued[0]
		q.mu.Unlock()
		next.done <- eventOutcome{lead: true}
	} else {
		q.writing = false
		q.mu.Unlock()
	}
	return (<-me.done).err
}

// writeEvents appends lines to the events file, rotating it (see
// rotateEvents) before a line that would take it past the limit, as if
// each were appended alone. Lines between rotations go in one write: with
// O_APPEND they land whole even when another docent process appends to
// the same file.
func (s *Store) writeEvents(lines [][]byte) error {
	path := s.opts.EventsPath
	// Queries can carry customer details: keep the log private to the user.
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create directory for %s: %w", path, err)
	}
	limit := s.opts.EventsMaxBytes
	if limit <= 0 {
		limit = DefaultEventsMaxBytes
	}
	size, err := fileSize(path)
	if err != nil {
		return err
	}
	var buf []byte
	for _, line := range lines {
		if size > 0 && size+int64(len(line)) > limit {
			if err := appendFile(path, buf); err != nil {
				return err
			}
			buf = buf[:0]
			if err := rotateEvents(path); err != nil {
				return err
			}
			size = 0
		}
		buf = append(buf, line...)
		size += int64(len(line))
	}
	return appendFile(path, buf)
}

// fileSize is the size of the file at path, 0 when there is none.
func fileSize(path string) (int64, error) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return 0, nil
	case err != nil:
		return 0, fmt.Errorf("check the size of %s: %w", path, err)
	}
	return info.Size(), nil
}

// appendFile appends data to the file at path, creating it private to the
// user, in one write.
func appendFile(path string, data []byte) error {
	if len(data) == 0 {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr != nil {
		return fmt.Errorf("write %s: %w", path, werr)
	}
	if cerr != nil {
		return fmt.Errorf("close %s: %w", path, cerr)
	}
	return nil
}

// rotateEvents moves the events file aside, keeping one previous file.
// Two processes rotating at once can lose that previous file, never a
// line of the current one: a rename is atomic and appends go to whichever
// file has the name.
func rotateEvents(path string) error {
	if err := os.Rename(path, path+".1"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("rotate %s: %w", path, err)
	}
	return nil
}

// Describe names the store for the status bar.
func (s *Store) Describe() string { return "embedded (in-memory)" }

// Close releases nothing: the store holds no handles. It exists so the
// memory and postgres stores are interchangeable.
func (s *Store) Close() {}
