package assistant

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docent-sh/docent/internal/redact"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/textsafe"
)

// NotesSource is where a session reads the team's notes from: the store,
// always through the asker's scope, so a note outside it is never read,
// let alone indexed.
type NotesSource interface {
	VisibleNotes(ctx context.Context, scope knowledge.Scope) ([]knowledge.Note, error)
	NotesGeneration(ctx context.Context, workspace string) (int64, error)
	RecordNoteReads(ctx context.Context, reads []knowledge.NoteRead) error
}

// DefaultNotesTimeout bounds the notes' part of a turn: a slow or stalled
// notes store delays an answer from the docs by at most this.
const DefaultNotesTimeout = 3 * time.Second

// NotesOptions connects a session to the team's notes. The zero value has
// none: every turn is answered from the docs.
type NotesOptions struct {
	Source  NotesSource
	Scope   knowledge.Scope
	Timeout time.Duration // 0: DefaultNotesTimeout
	// Build makes the engine the notes are searched with, as Refresh.Build
	// does for the docs; nil: retrieval's defaults.
	Build BuildEngine
	// Between decides between the docs' and the notes' results of one
	// question; nil: retrieval's default policy.
	Between func(docs, notes retrieval.Result) retrieval.Between
}

func (o NotesOptions) enabled() bool { return o.Source != nil }

// Rules of the turns the notes decide, as Result.Rule reports them.
const (
	// RuleNotesUnavailable: the question asked for the notes, which could
	// not be searched.
	RuleNotesUnavailable = "notes unavailable"
	// RuleNotesList: the question asked about the notes without naming a
	// topic ("tell me about my notes"): the latest notes are offered.
	RuleNotesList = "notes list"
)

// maxListedNotes is how many notes a notes-list turn offers as pills.
const maxListedNotes = 5

// notesIndex is the engine over the notes in one scope at one
// generation, and what the session needs to know of them beside it. It is
// replaced whole, never modified.
type notesIndex struct {
	generation int64
	engine     Engine                  // nil when no note is in scope
	private    map[string]bool         // by note slug: private notes, whose reads are audited
	latest     []knowledge.NoteSummary // newest first, for a notes-list turn
}

func (ix *notesIndex) has(slug string) bool {
	_, ok := ix.private[slug]
	return ok
}

// notesCache holds the current notes index of a session.
type notesCache struct {
	mu  sync.Mutex // one generation check and rebuild at a time
	cur atomic.Pointer[notesIndex]
	// fetchCost is how long the last notes fetch took (ns), which decides
	// whether the next one overlaps the docs search (see route).
	fetchCost atomic.Int64
}

// notesFailure says why a turn went without the notes.
type notesFailure struct {
	reason string // one of knowledge.NotesFallback*
	err    error  // nil for workspace_missing
}

// notes returns the notes index for this turn, rebuilding it when the
// workspace's notes changed, within the notes timeout.
func (s *Session) notes(ctx context.Context) (*notesIndex, *notesFailure) {
	o := s.opts.Notes
	if o.Scope.Validate() != nil {
		return nil, &notesFailure{reason: knowledge.NotesFallbackWorkspaceMissing}
	}
	ctx, cancel := context.WithTimeout(ctx, cmp.Or(o.Timeout, DefaultNotesTimeout))
	defer cancel()
	// Most turns find the notes unchanged: one generation check, which the
	// store bounds by ctx, and the index already built.
	if cur := s.notesCache.cur.Load(); cur != nil {
		gen, err := o.Source.NotesGeneration(ctx, o.Scope.Workspace)
		if err != nil {
			return nil, notesFailed(ctx, fmt.Errorf("notes generation: %w", err))
		}
		if gen == cur.generation {
			return cur, nil
		}
	}
	type built struct {
		ix  *notesIndex
		err error
	}
	done := make(chan built, 1)
	// The store calls honour ctx; building the engine does not, so the
	// timeout is kept here, and a build that outlives it is still cached
	// for the next turn.
	go func() {
		ix, err := s.loadNotes(ctx)
		done <- built{ix, err}
	}()
	select {
	case b := <-done:
		if b.err != nil {
			return nil, notesFailed(ctx, b.err)
		}
		return b.ix, nil
	case <-ctx.Done():
		return nil, notesFailed(ctx, ctx.Err())
	}
}

func notesFailed(ctx context.Context, err error) *notesFailure {
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded):
		return &notesFailure{reason: knowledge.NotesFallbackTimeout, err: err}
	case errors.Is(err, store.ErrNotesMissing):
		return &notesFailure{reason: knowledge.NotesFallbackIndexMissing, err: err}
	}
	return &notesFailure{reason: knowledge.NotesFallbackFetchError, err: err}
}

func (s *Session) loadNotes(ctx context.Context) (*notesIndex, error) {
	o := s.opts.Notes
	c := s.notesCache
	c.mu.Lock()
	defer c.mu.Unlock()
	gen, err := o.Source.NotesGeneration(ctx, o.Scope.Workspace)
	if err != nil {
		return nil, fmt.Errorf("notes generation: %w", err)
	}
	// Any difference counts, as for the docs: a workspace's notes may be
	// rebuilt elsewhere and count again.
	if cur := c.cur.Load(); cur != nil && cur.generation == gen {
		return cur, nil
	}
	notes, err := o.Source.VisibleNotes(ctx, o.Scope)
	if err != nil {
		return nil, fmt.Errorf("read notes: %w", err)
	}
	ix := &notesIndex{generation: gen, private: make(map[string]bool, len(notes))}
	docs := make([]knowledge.Doc, 0, len(notes))
	for _, n := range notes {
		// The store read through the scope; this is the index's own check,
		// so a store that got it wrong still leaks nothing.
		if !o.Scope.CanSee(n) {
			continue
		}
		d := n.AsDoc()
		ix.private[d.Slug] = n.Visibility == knowledge.VisibilityPrivate
		docs = append(docs, d)
		ix.latest = append(ix.latest, knowledge.NoteSummary{ID: n.ID, Workspace: n.Workspace, Owner: n.Owner,
			Visibility: n.Visibility, Title: n.Title, Tags: n.Tags, ChunkCount: len(n.Chunks), UpdatedAt: n.UpdatedAt})
	}
	slices.SortStableFunc(ix.latest, func(a, b knowledge.NoteSummary) int { return b.UpdatedAt.Compare(a.UpdatedAt) })
	if len(docs) > 0 {
		build := o.Build
		if build == nil {
			build = func(b knowledge.Bundle) (Engine, error) { return retrieval.New(b, retrieval.DefaultConfig()) }
		}
		began := time.Now()
		ix.engine, err = build(knowledge.Bundle{Docs: docs})
		if err != nil {
			return nil, fmt.Errorf("index notes: %w", err)
		}
		s.log.InfoContext(ctx, "notes indexed", "workspace", o.Scope.Workspace, "notes", len(docs), "generation", gen,
			"took_ms", time.Since(began).Milliseconds())
	}
	c.cur.Store(ix)
	return ix, nil
}

// between applies the configured docs-or-notes policy.
func (s *Session) between(docs, notes retrieval.Result) retrieval.Between {
	if f := s.opts.Notes.Between; f != nil {
		return f(docs, notes)
	}
	return retrieval.DefaultConfig().Between(docs, notes)
}

// stamp marks where a result is from: its corpus, and each piece of
// evidence's corpus and resource (a doc's slug, a note's id).
func stamp(res retrieval.Result, corpus knowledge.Corpus) retrieval.Result {
	res.Corpus = corpus
	res.Results = slices.Clone(res.Results)
	for i := range res.Results {
		ev := &res.Results[i]
		ev.Corpus, ev.ResourceID = corpus, ev.DocSlug
		if corpus == knowledge.CorpusNotes {
			if id, ok := knowledge.NoteIDFromSlug(ev.DocSlug); ok {
				ev.ResourceID = id
			}
		}
	}
	return res
}

// crossResult offers both corpora for a question each answers about as
// well: a pill for the docs' top doc and one for the notes' top note, with
// each one's best evidence, and no answer until the asker picks.
func crossResult(docs, notes retrieval.Result, gap float64) retrieval.Result {
	d, n := docs.Candidates[0], notes.Candidates[0]
	category := "docs"
	var results []retrieval.Evidence
	if i := slices.IndexFunc(docs.Results, func(ev retrieval.Evidence) bool { return ev.DocSlug == d.DocSlug }); i >= 0 {
		category = docs.Results[i].Category
		results = append(results, docs.Results[i])
	}
	if i := slices.IndexFunc(notes.Results, func(ev retrieval.Evidence) bool { return ev.DocSlug == n.DocSlug }); i >= 0 {
		results = append(results, notes.Results[i])
	}
	metrics := docs.Metrics
	metrics.RetrievalMS = max(docs.Metrics.RetrievalMS, notes.Metrics.RetrievalMS)
	return retrieval.Result{
		Corpus:           knowledge.CorpusAuto,
		Query:            docs.Query,
		NormalizedTokens: docs.NormalizedTokens,
		Status:           retrieval.StatusAmbiguous,
		Rule:             retrieval.RuleCrossCorpus,
		Confidence:       gap,
		Options: []retrieval.Option{
			{Label: "Docs: " + d.Title, DocSlug: d.DocSlug, Category: category},
			// The label says it is a note; a category would only repeat it.
			{Label: "Notes: " + n.Title, DocSlug: n.DocSlug},
		},
		Results:    results,
		Candidates: []retrieval.Candidate{d, n},
		Metrics:    metrics,
		Notes:      append(slices.Clone(docs.Notes), notes.Notes...),
	}
}

// notesUnavailable is the turn of a question that asked for the notes when
// they could not be searched.
func notesUnavailable(query string) retrieval.Result {
	return retrieval.Result{Corpus: knowledge.CorpusNotes, Query: textsafe.Line(query), Status: retrieval.StatusNoMatch,
		Rule: RuleNotesUnavailable, NormalizedTokens: []string{}, Options: []retrieval.Option{}, Results: []retrieval.Evidence{}}
}

// notesList is the turn of a question about the notes that names no topic:
// the latest notes, offered as pills.
func notesList(query string, ix *notesIndex) retrieval.Result {
	res := notesUnavailable(query)
	res.Rule = RuleNotesList
	for _, n := range ix.latest[:min(len(ix.latest), maxListedNotes)] {
		res.Options = append(res.Options, retrieval.Option{Label: textsafe.Line(n.Title), DocSlug: knowledge.NoteSlug(n.ID)})
	}
	return res
}

// notesError is what an event says of a failed notes read: short, one
// line, no secret.
func notesError(f *notesFailure) string {
	if f == nil || f.err == nil {
		return ""
	}
	return textsafe.Clip(textsafe.Line(redact.String(f.err.Error())), 300)
}

// auditReads records each private note a turn's evidence showed: who read
// it, when and why. Best effort, like the retrieval event: a failure is
// logged, never a failed turn.
func (s *Session) auditReads(ctx context.Context, res retrieval.Result, ix *notesIndex, reason knowledge.ReadReason) {
	if ix == nil {
		return
	}
	var reads []knowledge.NoteRead
	seen := map[string]bool{}
	for _, ev := range res.Results {
		if ev.Corpus != knowledge.CorpusNotes || !ix.private[ev.DocSlug] || seen[ev.DocSlug] {
			continue
		}
		seen[ev.DocSlug] = true
		id, _ := knowledge.NoteIDFromSlug(ev.DocSlug)
		reads = append(reads, knowledge.NoteRead{User: s.opts.Notes.Scope.User, NoteID: id, Time: s.opts.Now(), Reason: reason})
	}
	if len(reads) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	if err := s.opts.Notes.Source.RecordNoteReads(ctx, reads); err != nil {
		s.log.WarnContext(ctx, "record note reads", "notes", len(reads), "err", redact.String(err.Error()))
	}
}
