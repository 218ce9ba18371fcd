package tui_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/tui"
)

// cannedBackend answers from canned results (by question, or by "doc:"
// and the picked slug) with the top evidence's snippet, as the
// retrieval of docs and notes together would hand them to the TUI.
type cannedBackend struct {
	mu       sync.Mutex
	results  map[string]retrieval.Result
	requests []assistant.Request
}

func (b *cannedBackend) Retrieve(_ context.Context, req assistant.Request) (retrieval.Result, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.requests = append(b.requests, req)
	k := req.Query
	if req.DocSlug != "" {
		k = "doc:" + req.DocSlug
	}
	res, ok := b.results[k]
	if !ok {
		return retrieval.Result{}, errors.New("no canned result for " + k)
	}
	return res, nil
}

func (b *cannedBackend) Answer(_ context.Context, res retrieval.Result, emit func(string)) (tui.AnswerInfo, error) {
	text := res.Results[0].Snippet + " [" + res.Results[0].ChunkID + "]"
	emit(text)
	return tui.AnswerInfo{Text: text, Provider: "test", Model: "m1"}, nil
}

func (b *cannedBackend) lastRequest() assistant.Request {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.requests[len(b.requests)-1]
}

// keepingBackend is cannedBackend keeping notes in memory for one user.
type keepingBackend struct {
	cannedBackend
	scope knowledge.Scope
	notes []knowledge.NoteSummary
	clock time.Time
}

func (b *keepingBackend) SaveNote(_ context.Context, title, _ string, private bool) (knowledge.NoteSummary, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	vis := knowledge.VisibilityWorkspace
	if private {
		vis = knowledge.VisibilityPrivate
	}
	b.clock = b.clock.Add(time.Minute)
	n := knowledge.NoteSummary{ID: fmt.Sprintf("note-%d", len(b.notes)+1), Workspace: b.scope.Workspace, Owner: b.scope.User,
		Visibility: vis, Title: title, UpdatedAt: b.clock}
	b.notes = append(b.notes, n)
	return n, nil
}

func (b *keepingBackend) ListNotes(context.Context) ([]knowledge.NoteSummary, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]knowledge.NoteSummary(nil), b.notes...), nil
}

func (b *keepingBackend) NoteScope() knowledge.Scope { return b.scope }

var (
	docEvidence = retrieval.Evidence{Corpus: knowledge.CorpusDocs, ResourceID: "concepts/workspace", DocSlug: "concepts/workspace",
		Title: "Workspace", Category: "concepts", HeaderPath: "Workspace", ChunkID: "concepts/workspace#chunk-0",
		Snippet: "A workspace holds a set of related notes.", SourcePath: "concepts/workspace.md"}
	noteEvidence = retrieval.Evidence{Corpus: knowledge.CorpusNotes, ResourceID: "n-7", DocSlug: knowledge.NoteSlug("n-7"),
		Title: longNoteTitle, Category: "notes", HeaderPath: longNoteTitle, ChunkID: knowledge.NoteSlug("n-7") + "#chunk-0",
		Snippet: "For Acme, turn on SSO before importing the workspace."}
)

const longNoteTitle = "Workspace setup for the Acme rollout, with the SSO and import steps we agreed on with their admins"

// crossCorpusBackend offers the docs and a team note for "what is
// workspace", as retrieval does when both answer about equally well.
func crossCorpusBackend() *cannedBackend {
	found := func(ev retrieval.Evidence) retrieval.Result {
		return retrieval.Result{Corpus: ev.Corpus, Query: "what is workspace", Status: retrieval.StatusFound, Rule: "found",
			Results: []retrieval.Evidence{ev}, Metrics: retrieval.Metrics{Phase: 2}}
	}
	return &cannedBackend{results: map[string]retrieval.Result{
		"what is workspace": {Query: "what is workspace", Status: retrieval.StatusAmbiguous, Rule: retrieval.RuleCrossCorpus,
			Results: []retrieval.Evidence{docEvidence, noteEvidence}, Metrics: retrieval.Metrics{Phase: 2},
			Options: []retrieval.Option{
				{Label: "Docs: " + docEvidence.Title, DocSlug: docEvidence.DocSlug, Category: docEvidence.Category},
				{Label: "Notes: " + noteEvidence.Title, DocSlug: noteEvidence.DocSlug},
			}},
		"doc:" + docEvidence.DocSlug:  found(docEvidence),
		"doc:" + noteEvidence.DocSlug: found(noteEvidence),
	}}
}

// TestCrossCorpusPills: the docs and the notes are offered as two pills;
// a note's long title is cut inside its pill, which still says it is a
// note, and each pill picks its own corpus's resource.
func TestCrossCorpusPills(t *testing.T) {
	b := crossCorpusBackend()
	s := start(t, b, tui.Status{Docs: 3, Chunks: 9, Store: "embedded", Phase: 2}, 80, 24)
	s.typeText("what is workspace")
	s.enter()
	s.waitIdle("Pick: ▸[1 Docs: Workspace (concepts)]", "[2 Notes: Workspace setup for the Acme")
	for _, line := range strings.Split(s.screen.current(), "\n") {
		if w := ansi.StringWidth(line); w > 80 {
			t.Errorf("a line is %d cells wide: %q", w, line)
		}
		if strings.Contains(line, "[2 Notes: ") && !strings.HasSuffix(line, "…]") {
			t.Errorf("the long note pill is not cut inside its brackets: %q", line)
		}
	}

	t.Log("\n" + s.screen.current())
	// → and Enter pick the note.
	s.press(tea.KeyRight, 0)
	s.waitText("▸[2 Notes: Workspace setup")
	s.enter()
	s.waitIdle("› → Notes: Workspace setup for the Acme rollout", "turn on SSO before importing")
	if got := b.lastRequest(); !reflect.DeepEqual(got, assistant.Request{Query: "what is workspace", DocSlug: noteEvidence.DocSlug}) {
		t.Errorf("picking the note asked %+v", got)
	}

	// The digit picks the docs.
	s.typeText("what is workspace")
	s.enter()
	s.waitIdle("Pick: ▸[1 Docs: Workspace (concepts)]")
	s.typeText("1")
	s.waitIdle("› → Docs: Workspace (concepts)", "A workspace holds a set of related notes.")
	if got := b.lastRequest(); !reflect.DeepEqual(got, assistant.Request{Query: "what is workspace", DocSlug: docEvidence.DocSlug}) {
		t.Errorf("picking the docs asked %+v", got)
	}
	if out := s.final(); strings.Contains(out, "Pick:") {
		t.Errorf("pills still shown after picking:\n%s", out)
	}
}

// TestNotesInTheChat saves the last answer and a typed private note,
// lists them, and shows retrieval's hint under the answer.
func TestNotesInTheChat(t *testing.T) {
	b := &keepingBackend{cannedBackend: *crossCorpusBackend(), scope: knowledge.Scope{Workspace: "acme", User: "ana"}, clock: fixedNow}
	res := b.results["doc:"+docEvidence.DocSlug]
	res.Query, res.Hint = "explain workspace", "Notes unavailable."
	b.results["explain workspace"] = res
	s := start(t, b, tui.Status{Docs: 3, Chunks: 9, Store: "embedded", Phase: 2}, 100, 30)
	s.say("explain workspace", "A workspace holds a set of related notes. [1]", "Notes unavailable.")
	// Under the answer and its sources, apart from them: it is no source.
	if f := s.screen.current(); !strings.Contains(f, "A workspace holds a set of related notes. [1]\n\n  [1] Workspace — concepts/workspace.md\n\n  Notes unavailable.") {
		t.Errorf("the hint is not under the answer, apart from its sources:\n%s", f)
	}
	s.say("/note", "Saved note “explain workspace” (id note-1).")
	s.say("/note --private VPN drops at 5pm", "Saved private note “VPN drops at 5pm” (id note-2).")
	when := func(d time.Duration) string { return fixedNow.Add(d).Local().Format("2006-01-02 15:04") }
	s.say("/notes", "2 notes in workspace acme, yours and the team's, newest first:",
		"VPN drops at 5pm private · you · updated "+when(2*time.Minute)+" · id note-2",
		"explain workspace team · you · updated "+when(time.Minute)+" · id note-1")
	t.Log("\n" + s.screen.current())
	if len(b.requests) != 1 {
		t.Errorf("a note command was sent as a question: %+v", b.requests)
	}
}

// Without a NoteKeeper the commands say so in one line and nothing else
// happens.
func TestNoteCommandsWithoutNotes(t *testing.T) {
	b := crossCorpusBackend()
	s := start(t, b, tui.Status{Docs: 3, Chunks: 9, Store: "embedded", Phase: 2}, 120, 24)
	s.say("/note keep this", "! /note is not available: this chat keeps no notes (notes need a workspace: --workspace or DOCENT_WORKSPACE).")
	s.say("/notes", "! /notes is not available: this chat keeps no notes")
	if len(b.requests) != 0 {
		t.Errorf("a note command was sent as a question: %+v", b.requests)
	}
}
