package assistant

import (
	"context"
	"sync"

	"github.com/docent-sh/docent/knowledge"
)

// forks are what a session shares with its forks: the notes index of
// each scope, so that a server answering many independent requests
// builds a workspace member's notes index once, not per request.
type forks struct {
	mu    sync.Mutex
	notes map[knowledge.Scope]*notesCache
}

// maxForkScopes bounds the notes indexes a session keeps for its forks:
// beyond it the least recent scope's is dropped (and rebuilt if needed).
const maxForkScopes = 1024

func (f *forks) cache(scope knowledge.Scope) *notesCache {
	f.mu.Lock()
	defer f.mu.Unlock()
	if c, ok := f.notes[scope]; ok {
		return c
	}
	if f.notes == nil {
		f.notes = make(map[knowledge.Scope]*notesCache)
	}
	if len(f.notes) >= maxForkScopes {
		clear(f.notes) // crude, but bounded; a rebuild costs one read of the scope's notes
	}
	c := &notesCache{}
	f.notes[scope] = c
	return c
}

// Fork starts a session for one independent turn (a request to docent
// serve): s's engine, brought up to date with the store first, its
// writer, role and options, and a conversation of its own, with the
// notes read in scope. The fork does not check the store's generation
// again; s does, on the next Fork. Forks of one scope share the notes
// index, which follows the notes' generation as a session's own does, and
// all forks share s's reading of the kill switch (Options.Switch).
func (s *Session) Fork(ctx context.Context, scope knowledge.Scope) *Session {
	engine := s.currentEngine(ctx)
	opts := s.opts
	opts.Refresh = Refresh{}
	opts.Notes.Scope = scope
	f := New(engine, s.writer, opts)
	f.loaded.Store(&loadedEngine{engine: engine, generation: s.Generation()})
	s.mu.Lock()
	f.role, f.app = s.role, s.app
	s.mu.Unlock()
	f.switchState = s.switchState
	if opts.Notes.enabled() {
		f.notesCache = s.forks.cache(scope)
	}
	return f
}

// Generation is the knowledge generation the session's engine was built
// from.
func (s *Session) Generation() int64 { return s.loaded.Load().generation }
