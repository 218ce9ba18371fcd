package assistant_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/memory"
	"github.com/docent-sh/docent/store/postgres"
	"github.com/docent-sh/docent/store/postgres/pgtest"
)

// notesStores opens each kind of notes store for a test: the embedded one
// and, when a database is configured, PostgreSQL.
var notesStores = map[string]func(t *testing.T) store.Notes{
	"memory": func(t *testing.T) store.Notes { return memory.New(memory.Options{}) },
	"postgres": func(t *testing.T) store.Notes {
		s, _ := openPostgresNotes(t)
		return s
	},
}

func openPostgresNotes(t *testing.T) (*postgres.Store, string) {
	t.Helper()
	url := pgtest.NewDatabase(t)
	if err := postgres.MigrateUp(t.Context(), url, 0); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	s, err := postgres.Open(t.Context(), url, postgres.Options{})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(s.Close)
	return s, url
}

// auditingNotes records the reads a session audits, over a real store.
type auditingNotes struct {
	store.Notes
	mu    sync.Mutex
	reads []knowledge.NoteRead
}

func (a *auditingNotes) RecordNoteReads(ctx context.Context, reads []knowledge.NoteRead) error {
	a.mu.Lock()
	a.reads = append(a.reads, reads...)
	a.mu.Unlock()
	return a.Notes.RecordNoteReads(ctx, reads)
}

func (a *auditingNotes) readsBy(user string) []knowledge.NoteRead {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.DeleteFunc(slices.Clone(a.reads), func(r knowledge.NoteRead) bool { return r.User != user })
}

func addNote(t testing.TB, st store.Notes, scope knowledge.Scope, v knowledge.Visibility, title, body string) knowledge.Note {
	t.Helper()
	n := knowledge.Note{Workspace: scope.Workspace, Owner: scope.User, Visibility: v, Title: title, Body: body, Format: knowledge.FormatMarkdown}
	if err := ingest.ChunkNote(&n); err != nil {
		t.Fatalf("chunk note %q: %v", title, err)
	}
	stored, err := st.AddNote(context.Background(), scope, n)
	if err != nil {
		t.Fatalf("add note %q: %v", title, err)
	}
	return stored
}

func notesSession(t testing.TB, src assistant.NotesSource, scope knowledge.Scope) (*assistant.Session, *eventSink) {
	t.Helper()
	sink := &eventSink{}
	return assistant.New(demoEngine(t), nil, assistant.Options{Glossary: kb.Glossary(), Corpus: "demo", Events: sink, Log: quiet,
		Notes: assistant.NotesOptions{Source: src, Scope: scope}}), sink
}

// quiet keeps the sessions' logs out of the test output.
var quiet = slog.New(slog.DiscardHandler)

var (
	ana = knowledge.Scope{Workspace: "acme", User: "ana"}
	bo  = knowledge.Scope{Workspace: "acme", User: "bo"}
)

const workspaceNote = `In our team a workspace is the customer's tenant, one per contract.

## Stale workspace

When a workspace shows stale data, restart the sync agent from the admin console, then reload.

## Billing

Workspaces are billed per seat at the start of each month.`

// The acceptance cases, on each store.
func TestNotesAcceptance(t *testing.T) {
	for name, open := range notesStores {
		t.Run(name, func(t *testing.T) {
			st := &auditingNotes{Notes: open(t)}
			wsNote := addNote(t, st, ana, knowledge.VisibilityWorkspace, "Workspace", workspaceNote)
			secret := addNote(t, st, ana, knowledge.VisibilityPrivate, "Refund escalation",
				"Escalate refunds above 500 dollars to finance with the zebracorn form.")
			addNote(t, st, bo, knowledge.VisibilityWorkspace, "Export hangs",
				"Known bug: the CSV export hangs past 10,000 rows; split the export by month.")
			s, sink := notesSession(t, st, ana)
			ctx := t.Context()

			// Explicit notes intent: notes only, no pills.
			res := s.Retrieve(ctx, assistant.Request{Query: "search my notes for workspace"})
			if res.Corpus != knowledge.CorpusNotes || res.Status != retrieval.StatusFound || len(res.Options) != 0 ||
				len(res.Results) == 0 || res.Results[0].ResourceID != wsNote.ID || res.Results[0].Corpus != knowledge.CorpusNotes {
				t.Errorf("search my notes: %s %s %s options %v results %v, want the Workspace note", res.Corpus, res.Status, res.Rule, res.Options, resources(res))
			}
			if res.Query != "search my notes for workspace" {
				t.Errorf("the turn's query is %q, want the question as asked", res.Query)
			}

			// Both answer alike: Docs and Notes pills, neither chosen.
			res = s.Retrieve(ctx, assistant.Request{Query: "what is workspace"})
			if res.Rule != retrieval.RuleCrossCorpus || len(res.Options) != 2 ||
				res.Options[0].Label != "Docs: Workspace" || res.Options[1].Label != "Notes: Workspace" || assistant.NeedsModel(res) {
				t.Fatalf("what is workspace: %s (%s) options %+v, want Docs and Notes pills", res.Status, res.Rule, res.Options)
			}
			if want := "Both the docs (Workspace) and your team's notes (Workspace) cover this. Which should I answer from?"; assistant.Reply(res) != want {
				t.Errorf("reply %q, want %q", assistant.Reply(res), want)
			}
			if ev := sink.last(); !ev.CrossCorpusShown || ev.CrossCorpusGap == nil || !ev.NotesAvailable {
				t.Errorf("event %+v, want cross corpus shown with its gap", ev)
			}

			// Pick Notes, then "tell me more": the next chunk of that note.
			picked := s.Retrieve(ctx, assistant.Request{DocSlug: res.Options[1].DocSlug, Query: "what is workspace"})
			if picked.Corpus != knowledge.CorpusNotes || picked.Status != retrieval.StatusFound || picked.Results[0].ResourceID != wsNote.ID {
				t.Fatalf("pick Notes: %s %s %v", picked.Corpus, picked.Status, resources(picked))
			}
			s.Flush(ctx) // a found turn's event waits for its answer
			if ev := sink.last(); ev.CrossCorpusChoice != "notes" || ev.Corpus != "notes" {
				t.Errorf("pick event corpus %q choice %q, want notes picked", ev.Corpus, ev.CrossCorpusChoice)
			}
			more := s.Retrieve(ctx, assistant.Request{Query: "tell me more"})
			if more.Corpus != knowledge.CorpusNotes || more.Rule != retrieval.RuleFollowUp ||
				more.Results[0].ResourceID != wsNote.ID || more.Results[0].ChunkIndex <= picked.Results[0].ChunkIndex {
				t.Errorf("tell me more after the note: %s %s %v, want a later chunk of the note", more.Corpus, more.Rule, chunkIDs(more))
			}

			// About the notes, no topic: the notes to pick from, nothing from the docs.
			res = s.Retrieve(ctx, assistant.Request{Query: "tell me about my notes"})
			if res.Rule != assistant.RuleNotesList || len(res.Options) != 3 {
				t.Errorf("tell me about my notes: %s options %+v, want the three notes ana sees", res.Rule, res.Options)
			}
			for _, o := range res.Options {
				if _, ok := knowledge.NoteIDFromSlug(o.DocSlug); !ok {
					t.Errorf("notes list offers %q, not a note", o.DocSlug)
				}
			}

			// Bo asks for words only in ana's private note: no match, nothing
			// of it anywhere, and no read of it audited for him.
			bs, _ := notesSession(t, st, bo)
			for _, q := range []string{"zebracorn refund escalation", "search my notes for zebracorn", "tell me about my notes"} {
				res := bs.Retrieve(ctx, assistant.Request{Query: q})
				out, _ := json.Marshal(res)
				for _, leak := range []string{secret.ID, "Refund escalation", "finance", "500 dollars"} {
					if strings.Contains(string(out)+assistant.Reply(res), leak) {
						t.Errorf("bo asking %q sees %q of ana's private note: %s", q, leak, out)
					}
				}
			}
			if reads := st.readsBy("bo"); len(reads) != 0 {
				t.Errorf("reads audited for bo: %+v", reads)
			}
			// Ana reads her own private note, and the read is audited.
			res = s.Retrieve(ctx, assistant.Request{Query: "zebracorn refund escalation"})
			if len(res.Results) == 0 || res.Results[0].ResourceID != secret.ID {
				t.Fatalf("ana's own private note: %s %s %v", res.Status, res.Rule, resources(res))
			}
			reads := st.readsBy("ana")
			if len(reads) == 0 || reads[len(reads)-1].NoteID != secret.ID || reads[len(reads)-1].Reason != knowledge.ReadAsk {
				t.Errorf("ana's reads %+v, want her ask of %s audited", reads, secret.ID)
			}
		})
	}
}

func resources(res retrieval.Result) []string {
	var out []string
	for _, ev := range res.Results {
		out = append(out, string(ev.Corpus)+":"+ev.ResourceID)
	}
	return out
}

func chunkIDs(res retrieval.Result) []string {
	var out []string
	for _, ev := range res.Results {
		out = append(out, ev.ChunkID)
	}
	return out
}

func (s *eventSink) last() knowledge.RetrievalEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.events) == 0 {
		return knowledge.RetrievalEvent{}
	}
	return s.events[len(s.events)-1]
}

// failingNotes fails every read as a broken store would.
type failingNotes struct{ err error }

func (f failingNotes) VisibleNotes(context.Context, knowledge.Scope) ([]knowledge.Note, error) {
	return nil, f.err
}
func (f failingNotes) NotesGeneration(context.Context, string) (int64, error) { return 0, f.err }
func (f failingNotes) RecordNoteReads(context.Context, []knowledge.NoteRead) error {
	return f.err
}

// stalledNotes never answers until its caller gives up.
type stalledNotes struct{ failingNotes }

func (stalledNotes) NotesGeneration(ctx context.Context, _ string) (int64, error) {
	<-ctx.Done()
	return 0, ctx.Err()
}

// Notes that cannot be read never fail a turn: the docs answer with a
// hint, and a question that asked for the notes is told so.
func TestNotesUnavailable(t *testing.T) {
	check := func(t *testing.T, src assistant.NotesSource, opts assistant.NotesOptions, reason string) {
		t.Helper()
		opts.Source = src
		if opts.Scope == (knowledge.Scope{}) {
			opts.Scope = ana
		}
		sink := &eventSink{}
		s := assistant.New(demoEngine(t), nil, assistant.Options{Glossary: kb.Glossary(), Events: sink, Notes: opts, Log: quiet})
		res := s.Retrieve(t.Context(), assistant.Request{Query: "how do I create a workspace"})
		wantHint := assistant.HintNotesUnavailable
		if reason == knowledge.NotesFallbackWorkspaceMissing {
			wantHint = ""
		}
		if res.Corpus != knowledge.CorpusDocs || len(res.Results) == 0 || res.Hint != wantHint {
			t.Errorf("docs answer: %s %s %v hint %q, want the docs with hint %q", res.Corpus, res.Status, resources(res), res.Hint, wantHint)
		}
		s.Flush(t.Context()) // a found turn's event waits for its answer
		if ev := sink.last(); ev.NotesAvailable || ev.NotesFallbackReason != reason || strings.Contains(ev.NotesError, "s3cret") {
			t.Errorf("event: available %v reason %q error %q, want %q, redacted", ev.NotesAvailable, ev.NotesFallbackReason, ev.NotesError, reason)
		}
		res = s.Retrieve(t.Context(), assistant.Request{Query: "search my notes for workspace"})
		if reason == knowledge.NotesFallbackWorkspaceMissing {
			// Without a workspace there are no notes to ask for: the docs answer.
			if res.Corpus != knowledge.CorpusDocs || res.Rule == assistant.RuleNotesUnavailable {
				t.Errorf("explicit notes intent without a workspace: %s %s, want the docs", res.Corpus, res.Rule)
			}
			return
		}
		if res.Rule != assistant.RuleNotesUnavailable || assistant.Reply(res) != assistant.ReplyNotesUnavailable || len(res.Results) != 0 {
			t.Errorf("explicit notes intent: %s %q, want %q", res.Rule, assistant.Reply(res), assistant.ReplyNotesUnavailable)
		}
	}
	t.Run("fetch error", func(t *testing.T) {
		check(t, failingNotes{fmt.Errorf("%w: connect postgres://docent:s3cret@db/docent: refused", store.ErrNotesUnavailable)},
			assistant.NotesOptions{}, knowledge.NotesFallbackFetchError)
	})
	t.Run("timeout", func(t *testing.T) {
		check(t, stalledNotes{}, assistant.NotesOptions{Timeout: 20 * time.Millisecond}, knowledge.NotesFallbackTimeout)
	})
	t.Run("no workspace", func(t *testing.T) {
		check(t, memory.New(memory.Options{}), assistant.NotesOptions{Scope: knowledge.Scope{User: "ana"}}, knowledge.NotesFallbackWorkspaceMissing)
	})
	t.Run("tables dropped", func(t *testing.T) {
		st, url := openPostgresNotes(t)
		addNote(t, st, ana, knowledge.VisibilityWorkspace, "Workspace", workspaceNote)
		conn, err := pgx.Connect(t.Context(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(t.Context(), `DROP TABLE notes_knowledge_chunks, note_reads, notes_generations, notes`); err != nil {
			t.Fatalf("drop the notes tables: %v", err)
		}
		check(t, st, assistant.NotesOptions{}, knowledge.NotesFallbackIndexMissing)
	})
}

// Whatever is asked, by whom, a session never shows a note outside its
// scope: 10,000 random questions over 3 workspaces × 5 users with private
// and team notes, on each store.
func TestNotesNeverLeaveTheirScope(t *testing.T) {
	words := strings.Fields(`refund export invoice webhook token billing seat tenant sync agent console
		escalate finance outage latency region backup restore password reset sso saml audit quota`)
	for name, open := range notesStores {
		t.Run(name, func(t *testing.T) {
			st := &auditingNotes{Notes: open(t)}
			r := rand.New(rand.NewPCG(7, 11))
			truth := map[string]knowledge.Note{} // by id
			var scopes []knowledge.Scope
			for w := range 3 {
				for u := range 5 {
					scope := knowledge.Scope{Workspace: fmt.Sprintf("ws%d", w), User: fmt.Sprintf("user%d", u)}
					scopes = append(scopes, scope)
					for i := range 3 {
						v := knowledge.VisibilityWorkspace
						if i%2 == 1 {
							v = knowledge.VisibilityPrivate
						}
						var body []string
						for range 12 {
							body = append(body, words[r.IntN(len(words))])
						}
						title := words[r.IntN(len(words))] + " " + words[r.IntN(len(words))]
						n := addNote(t, st, scope, v, title, strings.Join(body, " ")+".")
						truth[n.ID] = n
					}
				}
			}
			sessions := make([]*assistant.Session, len(scopes))
			for i, sc := range scopes {
				sessions[i], _ = notesSession(t, st, sc)
			}
			prefixes := []string{"", "search my notes for ", "what is ", "tell me about my notes "}
			leaks, noted := 0, 0
			for q := range 10_000 {
				i := r.IntN(len(scopes))
				query := prefixes[r.IntN(len(prefixes))] + words[r.IntN(len(words))]
				if r.IntN(2) == 0 {
					query += " " + words[r.IntN(len(words))]
				}
				res := sessions[i].Retrieve(t.Context(), assistant.Request{Query: query})
				var slugs []string
				for _, ev := range res.Results {
					slugs = append(slugs, ev.DocSlug)
				}
				for _, o := range res.Options {
					slugs = append(slugs, o.DocSlug)
				}
				for _, slug := range slugs {
					id, ok := knowledge.NoteIDFromSlug(slug)
					if !ok {
						continue
					}
					noted++
					if n, known := truth[id]; !known || !scopes[i].CanSee(n) {
						leaks++
						if leaks <= 3 {
							t.Errorf("query %d %q by %+v shows note %s (%+v)", q, query, scopes[i], id, n)
						}
					}
				}
			}
			if leaks > 0 {
				t.Fatalf("%d results outside their scope", leaks)
			}
			if noted < 1000 {
				t.Fatalf("only %d note results in 10,000 questions: the test exercises too little", noted)
			}
			for _, read := range st.reads {
				n := truth[read.NoteID]
				if n.Owner != read.User || n.Visibility != knowledge.VisibilityPrivate {
					t.Errorf("audited read %+v of a note that is not the reader's own private one", read)
				}
			}
			t.Logf("%d note results over 10,000 questions, none outside their scope; %d private reads audited", noted, len(st.reads))
		})
	}
}

// A request may leave out evidence it already has, and ask for fewer.
func TestRequestExcludesAndLimitsEvidence(t *testing.T) {
	s, _ := newSession(t, nil)
	all := s.Retrieve(t.Context(), assistant.Request{Query: "what is a workspace"})
	if len(all.Results) < 3 {
		t.Fatalf("want at least 3 results to work with, got %d", len(all.Results))
	}
	first := all.Results[0].ChunkID
	res := s.Retrieve(t.Context(), assistant.Request{Query: "what is a workspace", Exclude: []string{first}, TopK: 2})
	if len(res.Results) != 2 || slices.ContainsFunc(res.Results, func(ev retrieval.Evidence) bool { return ev.ChunkID == first }) {
		t.Errorf("exclude %s, top-k 2: %v", first, chunkIDs(res))
	}
}

// A request may ask for more evidence than the engine's own top-k.
func TestRequestRaisesTopK(t *testing.T) {
	s, _ := newSession(t, nil)
	base := s.Retrieve(t.Context(), assistant.Request{Query: "workspace"})
	more := s.Retrieve(t.Context(), assistant.Request{Query: "workspace", TopK: 8})
	if len(base.Results) != retrieval.DefaultConfig().TopK || len(more.Results) <= len(base.Results) || len(more.Results) > 8 {
		t.Errorf("top-k 8 gave %d results against the engine's %d", len(more.Results), len(base.Results))
	}
}

// slowNotes is a notes store a round trip away, as PostgreSQL is: each
// generation check takes a while.
type slowNotes struct {
	assistant.NotesSource
	delay time.Duration
}

func (s slowNotes) NotesGeneration(ctx context.Context, workspace string) (int64, error) {
	time.Sleep(s.delay)
	return s.NotesSource.NotesGeneration(ctx, workspace)
}

// A turn fetches a fast store's notes inline and a slow store's beside
// the docs search; either way it decides the same.
func TestNotesFetchedInlineOrBesideDecideAlike(t *testing.T) {
	st := memory.New(memory.Options{})
	addNote(t, st, ana, knowledge.VisibilityWorkspace, "Workspace in our team", workspaceNote)
	fast, _ := notesSession(t, st, ana)
	slow, _ := notesSession(t, slowNotes{st, 2 * time.Millisecond}, ana)
	ctx := context.Background()
	// The first turn measures the fetch; the later ones follow it.
	for i, q := range []string{"workspace tenant contract", "what is a workspace", "workspace tenant contract", "explain quick links"} {
		a := fast.Retrieve(ctx, assistant.Request{Query: q})
		b := slow.Retrieve(ctx, assistant.Request{Query: q})
		if a.Status != b.Status || a.Corpus != b.Corpus || a.Rule != b.Rule || len(a.Results) != len(b.Results) ||
			len(a.Results) > 0 && a.Results[0].ChunkID != b.Results[0].ChunkID {
			t.Errorf("turn %d %q: inline %s/%s/%s, beside %s/%s/%s", i, q, a.Status, a.Corpus, a.Rule, b.Status, b.Corpus, b.Rule)
		}
	}
}
