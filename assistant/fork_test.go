package assistant_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store/memory"
)

func fromNotes(res retrieval.Result) []string {
	var titles []string
	for _, ev := range res.Results {
		if ev.Corpus == knowledge.CorpusNotes {
			titles = append(titles, ev.Title)
		}
	}
	return titles
}

// A fork reads the notes of its own scope alone, whoever forked it, and
// forks of one scope share a notes index that follows the notes' changes.
func TestForkScopesNotes(t *testing.T) {
	ctx := context.Background()
	st := memory.New(memory.Options{})
	addNote(t, st, ana, knowledge.VisibilityWorkspace, "Stale workspace runbook", workspaceNote)
	base, _ := notesSession(t, st, knowledge.Scope{})

	search := assistant.Request{Query: "search my notes for stale workspace"}
	if got := fromNotes(base.Fork(ctx, bo).Retrieve(ctx, search)); !slices.Contains(got, "Stale workspace runbook") {
		t.Fatalf("a fork in acme found %q, want acme's note", got)
	}
	if got := fromNotes(base.Fork(ctx, knowledge.Scope{Workspace: "globex", User: "gus"}).Retrieve(ctx, search)); len(got) > 0 {
		t.Errorf("a fork in globex read acme's notes: %q", got)
	}
	addNote(t, st, ana, knowledge.VisibilityWorkspace, "Refund policy", "Refunds go through finance within 14 days.")
	refunds := assistant.Request{Query: "search my notes for refunds finance"}
	if got := fromNotes(base.Fork(ctx, bo).Retrieve(ctx, refunds)); !slices.Contains(got, "Refund policy") {
		t.Errorf("a later fork found %q, want the note added since", got)
	}
	if got := fromNotes(base.Fork(ctx, knowledge.Scope{Workspace: "globex", User: "gus"}).Retrieve(ctx, refunds)); len(got) > 0 {
		t.Errorf("a fork in globex read acme's notes: %q", got)
	}
}

// A fork starts its own conversation: "tell me more" continues nothing
// another fork (or the session it came from) answered.
func TestForkHasItsOwnConversation(t *testing.T) {
	ctx := context.Background()
	base, _ := notesSession(t, memory.New(memory.Options{}), knowledge.Scope{})
	first := base.Fork(ctx, ana)
	if res := first.Retrieve(ctx, assistant.Request{DocSlug: "concepts/workspace"}); res.Status != retrieval.StatusFound {
		t.Fatalf("setup: %s", res.Status)
	}
	more := assistant.Request{Query: "tell me more"}
	if res := first.Retrieve(ctx, more); res.Rule != retrieval.RuleFollowUp {
		t.Fatalf("setup: a follow-up in the same fork decided by %q", res.Rule)
	}
	if res := base.Fork(ctx, ana).Retrieve(ctx, more); res.Rule == retrieval.RuleFollowUp {
		t.Errorf("a fresh fork continued another fork's answer: %v", chunkIDs(res))
	}
}

// Forks obey the kill switch and read it as one session: many requests
// within the poll interval cost one read.
func TestForksShareTheKillSwitch(t *testing.T) {
	sw := &flipSwitch{on: true}
	now := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	base := assistant.New(demoEngine(t), &recordingWriter{}, assistant.Options{
		Switch: sw, SwitchPoll: time.Second, Now: func() time.Time { return now },
	})
	ctx := context.Background()
	q := assistant.Request{Query: "explain workspace"}
	for range 5 {
		if res := base.Fork(ctx, ana).Retrieve(ctx, q); res.Status != retrieval.StatusFound {
			t.Fatalf("switch on: %s", res.Status)
		}
	}
	if sw.reads != 1 {
		t.Errorf("5 forks within the poll interval read the switch %d times, want 1", sw.reads)
	}
	sw.set(false, false)
	now = now.Add(time.Second)
	if res := base.Fork(ctx, bo).Retrieve(ctx, q); res.Rule != retrieval.RuleDisabled {
		t.Errorf("switched off: a fork answered %s/%q", res.Status, res.Rule)
	}
}
