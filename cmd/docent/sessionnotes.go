package main

import (
	"context"
	"fmt"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store"
)

// sessionNotes connects a session to the team's notes: the asker's scope,
// the notes store (the shared database, or the notes file without one),
// how long a turn waits for them and how notes are ranked and weighed
// against the docs (the docs' own configuration). Without a workspace, or
// when the notes cannot be opened, the session still runs: its turns
// answer from the docs and say why the notes were left out. The keeper
// serves the chat's /note and /notes; nil without a workspace.
func (e *env) sessionNotes(ctx context.Context, docs store.Store, build assistant.BuildEngine, rcfg retrieval.Config) (assistant.NotesOptions, *noteKeeper, func()) {
	opts := assistant.NotesOptions{Timeout: e.cfg.notesTimeout, Build: build, Between: rcfg.Between}
	scope, err := e.scope()
	// docent serve reads notes in each request's scope (its token's), so
	// it needs the store whatever --workspace says.
	if err != nil && e.serving {
		scope, err = knowledge.Scope{}, nil
	}
	if err != nil {
		// The session reports workspace_missing before reading anything.
		opts.Scope = knowledge.Scope{User: e.user()}
		opts.Source = unreadableNotes{err}
		return opts, nil, func() {}
	}
	opts.Scope = scope
	// The shared database holds the notes beside the docs: one pool.
	if ns, ok := docs.(store.Notes); ok && e.cfg.dbURL != "" {
		opts.Source = ns
		return opts, &noteKeeper{notes: ns, scope: scope}, func() {}
	}
	ns, closeNotes, err := e.openNotes(ctx)
	if err != nil {
		e.log.Warn("open notes; answering from the docs alone", "err", err)
		opts.Source = unreadableNotes{fmt.Errorf("%w: %w", store.ErrNotesUnavailable, err)}
		return opts, nil, func() {}
	}
	opts.Source = ns
	return opts, &noteKeeper{notes: ns, scope: scope}, closeNotes
}

// unreadableNotes stands for notes that could not be opened: every read
// fails with why, which each turn records and answers around.
type unreadableNotes struct{ err error }

func (u unreadableNotes) VisibleNotes(context.Context, knowledge.Scope) ([]knowledge.Note, error) {
	return nil, u.err
}

func (u unreadableNotes) NotesGeneration(context.Context, string) (int64, error) { return 0, u.err }

func (u unreadableNotes) RecordNoteReads(context.Context, []knowledge.NoteRead) error { return u.err }

// noteKeeper saves and lists the asker's notes for the chat (tui.NoteKeeper).
type noteKeeper struct {
	notes store.Notes
	scope knowledge.Scope
}

// SaveNote stores a markdown note in the asker's workspace, owned by them.
func (k *noteKeeper) SaveNote(ctx context.Context, title, body string, private bool) (knowledge.NoteSummary, error) {
	n := knowledge.Note{Workspace: k.scope.Workspace, Owner: k.scope.User, Visibility: knowledge.VisibilityWorkspace,
		Title: title, Body: body, Format: knowledge.FormatMarkdown}
	if private {
		n.Visibility = knowledge.VisibilityPrivate
	}
	if err := chunkNote(&n, "the chat"); err != nil {
		return knowledge.NoteSummary{}, err
	}
	stored, err := k.notes.AddNote(ctx, k.scope, n)
	if err != nil {
		return knowledge.NoteSummary{}, fmt.Errorf("save note %q: %w", title, err)
	}
	return knowledge.NoteSummary{ID: stored.ID, Workspace: stored.Workspace, Owner: stored.Owner, Visibility: stored.Visibility,
		Title: stored.Title, Tags: stored.Tags, ChunkCount: len(stored.Chunks), UpdatedAt: stored.UpdatedAt}, nil
}

// ListNotes lists the notes the asker can see.
func (k *noteKeeper) ListNotes(ctx context.Context) ([]knowledge.NoteSummary, error) {
	return k.notes.ListNotes(ctx, k.scope)
}

// NoteScope is who is asking.
func (k *noteKeeper) NoteScope() knowledge.Scope { return k.scope }
