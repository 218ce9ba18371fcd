// Package conversation keeps a person's conversations with docent as they
// happen: it turns each answered question into a knowledge.Turn, records
// it in a store.Conversations, reopens a stored conversation, and writes
// one out as markdown. The chat and `docent ask` share it, so a
// conversation started in one continues in the other.
package conversation

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/cite"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store"
)

// ErrNone is returned when a person has no conversation to continue.
var ErrNone = errors.New("no conversation to continue yet")

// Recorder keeps one person's current conversation: it is created with
// the first turn recorded, and /new or Resume change which one it is.
// Safe for concurrent use.
type Recorder struct {
	store store.Conversations
	scope knowledge.Scope

	mu   sync.Mutex
	conv knowledge.Conversation // ID "" until the first turn is recorded
}

// NewRecorder records scope's conversations in st.
func NewRecorder(st store.Conversations, scope knowledge.Scope) *Recorder {
	return &Recorder{store: st, scope: scope}
}

// Scope is whose conversations these are.
func (r *Recorder) Scope() knowledge.Scope { return r.scope }

// Store is where they are kept.
func (r *Recorder) Store() store.Conversations { return r.store }

// Current is the conversation as recorded so far (no ID before its first
// turn).
func (r *Recorder) Current() knowledge.Conversation {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.conv.Clone()
}

// New makes the next turn start a new conversation.
func (r *Recorder) New() {
	r.mu.Lock()
	r.conv = knowledge.Conversation{}
	r.mu.Unlock()
}

// Record stores a turn in the current conversation, creating it (titled
// with the turn's question) on the first turn, and returns the turn as
// stored, with its index.
func (r *Recorder) Record(ctx context.Context, t knowledge.Turn) (knowledge.Turn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.conv.ID == "" {
		c, err := r.store.CreateConversation(ctx, r.scope, cmp.Or(t.Question, t.Picked))
		if err != nil {
			return knowledge.Turn{}, err
		}
		r.conv = c
	}
	stored, err := r.store.AddTurn(ctx, r.scope, r.conv.ID, t)
	if err != nil {
		return knowledge.Turn{}, err
	}
	r.conv.Turns = append(r.conv.Turns, stored)
	r.conv.UpdatedAt = stored.At
	return stored, nil
}

// RecordAnswer stores an answered turn: the request, the result it got
// and the answer written. The turn is kept even when ctx was cancelled (an
// answer stopped, a client gone), within timeout.
func (r *Recorder) RecordAnswer(ctx context.Context, timeout time.Duration, req assistant.Request, res retrieval.Result, ans assistant.Answer) (knowledge.Turn, error) {
	t := WithAnswer(NewTurn(req, res), Answered{
		Text: ans.Text, Provider: ans.Provider, Model: ans.Model, TTFT: ans.TTFT, Duration: ans.Duration, Sources: ans.Sources,
	})
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer cancel()
	return r.Record(ctx, t)
}

// Next is where the next turn will be recorded: the current conversation,
// created now (titled title) when there is none yet, and the turn's
// index. A retrieval event carries them, so a rating joins it.
func (r *Recorder) Next(ctx context.Context, title string) (id string, index int, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.conv.ID == "" {
		c, err := r.store.CreateConversation(ctx, r.scope, title)
		if err != nil {
			return "", 0, err
		}
		r.conv = c
	}
	return r.conv.ID, len(r.conv.Turns), nil
}

// Rate stores the feedback of a turn of the current conversation.
func (r *Recorder) Rate(ctx context.Context, index int, f knowledge.TurnFeedback) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.conv.ID == "" || index < 0 || index >= len(r.conv.Turns) {
		return fmt.Errorf("rate turn %d: %w", index, store.ErrTurnNotFound)
	}
	f, err := store.PrepareFeedback(f, time.Now())
	if err != nil {
		return err
	}
	if err := r.store.RateTurn(ctx, r.scope, r.conv.ID, index, f); err != nil {
		return err
	}
	r.conv.Turns[index].Feedback = &f
	return nil
}

// Resume makes a stored conversation the current one: id, or with "" the
// most recently updated (ErrNone when there is none). A prefix of an id
// names the conversation it is a prefix of, when only one has it.
func (r *Recorder) Resume(ctx context.Context, id string) (knowledge.Conversation, error) {
	c, err := Find(ctx, r.store, r.scope, id)
	if err != nil {
		return knowledge.Conversation{}, err
	}
	r.mu.Lock()
	r.conv = c.Clone()
	r.mu.Unlock()
	return c, nil
}

// Find reads one of scope's conversations: id, a unique prefix of one
// (as `docent history` shows them), or "" for the latest.
func Find(ctx context.Context, st store.Conversations, scope knowledge.Scope, id string) (knowledge.Conversation, error) {
	id = strings.ToLower(strings.TrimSpace(id))
	if store.ParseConversationID(id) {
		return st.GetConversation(ctx, scope, id)
	}
	list, err := st.ListConversations(ctx, scope, 0)
	if err != nil {
		return knowledge.Conversation{}, err
	}
	if id == "" {
		// The latest that can be read: a damaged file is for history to
		// show, not a reason that -c cannot go on.
		for _, c := range list {
			if c.Unreadable == "" {
				return st.GetConversation(ctx, scope, c.ID)
			}
		}
		return knowledge.Conversation{}, ErrNone
	}
	var matches []string
	for _, c := range list {
		if strings.HasPrefix(c.ID, id) {
			matches = append(matches, c.ID)
		}
	}
	switch len(matches) {
	case 0:
		return knowledge.Conversation{}, fmt.Errorf("conversation %q: %w", id, store.ErrConversationNotFound)
	case 1:
		return st.GetConversation(ctx, scope, matches[0])
	}
	return knowledge.Conversation{}, fmt.Errorf("%q starts %d conversations' ids (%s, …): give more of the id: %w",
		id, len(matches), strings.Join(matches[:2], ", "), ErrAmbiguous)
}

// ErrAmbiguous is returned for an id prefix more than one conversation has.
var ErrAmbiguous = errors.New("ambiguous conversation id")

// Title is what a conversation a request starts is called: its
// question, else what it picks or continues.
func Title(req assistant.Request) string {
	return cmp.Or(strings.TrimSpace(req.Query), req.DocSlug, req.NoteID, req.AfterChunkID)
}

// NewTurn is the turn a request and its retrieval make, before the
// answer: the question as the engine read it, the pick, the decision, the
// pills offered and the evidence.
func NewTurn(req assistant.Request, res retrieval.Result) knowledge.Turn {
	t := knowledge.Turn{
		Question: res.Query, Status: string(res.Status), Rule: res.Rule, Confidence: res.Confidence,
		Timings: knowledge.TurnTimings{RetrievalMS: res.Metrics.RetrievalMS},
	}
	switch {
	case req.NoteID != "":
		t.Picked = knowledge.NoteSlug(strings.TrimSpace(req.NoteID))
	case req.DocSlug != "":
		t.Picked = req.DocSlug
	case req.AfterChunkID != "":
		t.Picked = req.AfterChunkID
	}
	if t.Question == "" && t.Picked == "" {
		t.Question = req.Query
	}
	for _, o := range res.Options {
		t.Options = append(t.Options, knowledge.TurnOption{Slug: o.DocSlug, Label: o.Label, Category: o.Category})
	}
	for _, ev := range res.Results {
		t.Evidence = append(t.Evidence, ev.ChunkID)
	}
	return t
}

// Answered is what a turn's answer adds to it.
type Answered struct {
	Text, Provider, Model string
	TTFT, Duration        time.Duration
	Sources               []cite.Source
}

// WithAnswer adds the answer to a turn.
func WithAnswer(t knowledge.Turn, a Answered) knowledge.Turn {
	t.Answer, t.Provider, t.Model = a.Text, a.Provider, a.Model
	t.Timings.TTFTMS = ms(a.TTFT)
	t.Timings.AnswerMS = ms(a.Duration)
	t.Sources = nil
	for _, s := range a.Sources {
		t.Sources = append(t.Sources, knowledge.TurnSource{ID: s.ID, Title: s.Title, Path: s.Path, File: s.File})
	}
	return t
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }

// Sources are a turn's sources as the cite package names them.
func Sources(t knowledge.Turn) []cite.Source {
	out := make([]cite.Source, len(t.Sources))
	for i, s := range t.Sources {
		out[i] = cite.Source{ID: s.ID, Title: s.Title, Path: s.Path, File: s.File}
	}
	return out
}
