package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/conversation"
	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/tui"
)

// runTUI opens the chat at once and starts docent behind it: the screen
// shows the start-up's progress instead of staying blank while the
// knowledge base loads.
func runTUI(cmd *cobra.Command, e *env) error {
	var a *app
	// tui.Run returns only once the loader has: a is settled by then.
	defer func() {
		if a != nil {
			a.Close()
		}
	}()
	return tui.Run(cmd.Context(), e.chatLoader(&a), cmd.InOrStdin(), cmd.OutOrStdout())
}

// chatLoader starts docent for the chat, reporting its progress, and sets
// *started to the app it started (also when a later step fails), which
// the caller closes.
func (e *env) chatLoader(started **app) tui.Loader {
	return func(ctx context.Context, progress func(tui.Progress)) (tui.Ready, error) {
		progress(tui.Progress{Step: "Opening the knowledge base"})
		e.loadProgress = func(done, total int) {
			if done == total {
				progress(tui.Progress{Step: "Building the index"})
				return
			}
			progress(tui.Progress{Step: fmt.Sprintf("Reading %d files", total), Done: done, Total: total})
		}
		// Start-up's notes would be written over by the screen: they go to
		// the screen instead.
		var notes startupNotes
		a, err := e.startApp(ctx, true, &notes)
		if err != nil {
			return tui.Ready{}, err
		}
		*started = a
		a.follow()
		session := tui.NewSessionBackend(a.session)
		var backend chatBackend = session
		if a.notes != nil {
			backend = notesBackend{session, a.notes}
		}
		resumed, err := e.recordChat(ctx, a, session)
		if err != nil {
			return tui.Ready{}, err
		}
		if e.cfg.contextPath != "" {
			// Through the adapter, so /context in the TUI can show and detach it.
			if _, err := backend.LoadContext(ctx, e.cfg.contextPath); err != nil {
				return tui.Ready{}, usageErrorf("--context: %v", err)
			}
		}
		e.log.Info("tui ready", "docs", a.docs, "chunks", a.chunks, "skipped", len(notes.skipped), "startup", a.started)
		return tui.Ready{
			Backend: backend,
			Status: tui.Status{
				Docs: a.docs, Chunks: a.chunks, Store: a.store.Describe(),
				Provider: a.selection.Provider, Model: a.selection.Model, Phase: e.cfg.phase,
				Context:    e.cfg.contextPath,
				Categories: a.categories, Scope: a.scope,
			},
			Skipped:      notes.skipped,
			Titles:       a.titles,
			Notices:      notes.lines(),
			Quiz:         e.quizMaker(a),
			Conversation: resumed,
		}, nil
	}
}

// startupNotes is the chat's stderr while it starts: the notices written
// to it become lines under the welcome, and the skipped files a list of
// their own (printWarnings hands them over whole).
type startupNotes struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	skipped []tui.SkippedFile
}

func (n *startupNotes) Write(p []byte) (int, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.buf.Write(p)
}

func (n *startupNotes) listSkipped(warnings []ingest.Warning) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, w := range warnings {
		reason := w.Msg
		if w.Line > 0 {
			reason = fmt.Sprintf("line %d: %s", w.Line, w.Msg)
		}
		n.skipped = append(n.skipped, tui.SkippedFile{Path: w.Path, Reason: reason})
	}
}

// lines are the notices, without the "docent: note: " a terminal needs to
// tell them from the command's output.
func (n *startupNotes) lines() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []string
	for _, l := range strings.Split(n.buf.String(), "\n") {
		if l = strings.TrimPrefix(strings.TrimPrefix(l, "docent: "), "note: "); strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// chatBackend is what the chat talks to: the session's backend, with the
// team's notes when the asker has a workspace.
type chatBackend interface {
	tui.Backend
	LoadContext(ctx context.Context, path string) (string, error)
}

// notesBackend adds the asker's notes (tui.NoteKeeper) to the session's
// backend, whose other reports (stats, size, context) it keeps.
type notesBackend struct {
	*tui.SessionBackend
	*noteKeeper
}

// resumeLatest is what --resume holds when it is given without an id:
// the latest conversation. It is no id's start (ids are hex).
const resumeLatest = "latest"

// recordChat makes the chat record its turns and, with --resume, reopens
// the conversation it names, returned for the screen to show. Without a
// user to record for, the chat runs unrecorded, with a warning in the
// log, unless it was asked to resume.
func (e *env) recordChat(ctx context.Context, a *app, b *tui.SessionBackend) (*knowledge.Conversation, error) {
	rec, err := e.recorderFor(a.store)
	if err != nil {
		if e.resume != "" {
			return nil, err
		}
		e.log.Warn("the chat's turns are not recorded", "err", err)
		return nil, nil
	}
	b.RecordTo(rec, conversation.MarkdownOptions{DocsRoot: e.docsRoot()}, e.log)
	if e.resume == "" {
		return nil, nil
	}
	id := e.resume
	if id == resumeLatest {
		id = ""
	}
	c, err := b.ResumeConversation(ctx, id)
	if err != nil {
		where := "conversations in " + e.conversationsDir()
		if _, ok := a.store.(store.Conversations); ok {
			where = a.store.Describe()
		}
		return nil, conversationError(id, rec.Scope(), where, err)
	}
	return &c, nil
}
