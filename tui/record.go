package tui

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/conversation"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
)

// errNoConversations is what a conversation command says on a backend
// that records none.
var errNoConversations = errors.New("this chat records no conversations")

// recording is what SessionBackend needs to record the chat.
type recording struct {
	rec    *conversation.Recorder
	export conversation.MarkdownOptions
	log    *slog.Logger
	// pending is the turn whose answer is being written: it is recorded
	// once the answer is done.
	pending *pendingTurn
}

type pendingTurn struct {
	turn knowledge.Turn
	res  retrieval.Result
}

// recordTimeout bounds recording a turn: an answer stopped with Esc
// cancelled its context, and the turn is still worth keeping.
const recordTimeout = 5 * time.Second

// RecordTo makes the backend record every turn in rec's conversations;
// exports link their sources as opts says. A failure to record is logged
// to log (nil: slog.Default()), never shown as a failed turn.
func (b *SessionBackend) RecordTo(rec *conversation.Recorder, opts conversation.MarkdownOptions, log *slog.Logger) {
	if log == nil {
		log = slog.Default()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.recording = recording{rec: rec, export: opts, log: log}
}

// nameTurn sets where req's turn will be recorded, for its retrieval
// event; without a recorder, or when the store fails, it is left unnamed.
func (b *SessionBackend) nameTurn(ctx context.Context, req assistant.Request) assistant.Request {
	b.mu.Lock()
	r := b.recording
	b.mu.Unlock()
	if r.rec == nil {
		return req
	}
	id, index, err := r.rec.Next(ctx, conversation.Title(req))
	if err != nil {
		r.log.Warn("record turn", "err", err)
		return req
	}
	req.ConversationID, req.TurnIndex = id, &index
	return req
}

// recordRetrieved records a turn docent answers itself (a clarification,
// no match), as the chat shows it, or keeps a turn the writer answers
// until its answer is done.
func (b *SessionBackend) recordRetrieved(ctx context.Context, req assistant.Request, res retrieval.Result) {
	b.mu.Lock()
	r := b.recording
	b.recording.pending = nil
	if r.rec == nil {
		b.mu.Unlock()
		return
	}
	turn := conversation.NewTurn(req, res)
	if assistant.NeedsModel(res) {
		b.recording.pending = &pendingTurn{turn: turn, res: res}
		b.mu.Unlock()
		return
	}
	b.mu.Unlock()
	turn = conversation.WithAnswer(turn, conversation.Answered{Text: assistant.Reply(res), Provider: "clarification"})
	record(ctx, r, turn)
}

// recordAnswered records the pending turn of res with its answer.
func (b *SessionBackend) recordAnswered(ctx context.Context, res retrieval.Result, info AnswerInfo, took time.Duration) {
	b.mu.Lock()
	p, r := b.recording.pending, b.recording
	if p == nil || p.res.Query != res.Query || p.res.Status != res.Status {
		b.mu.Unlock()
		return
	}
	b.recording.pending = nil
	b.mu.Unlock()
	record(ctx, r, conversation.WithAnswer(p.turn, conversation.Answered{
		Text: info.Text, Provider: info.Provider, Model: info.Model, TTFT: info.TTFT, Duration: took, Sources: info.Sources,
	}))
}

// record stores a turn; a failure is logged, never a failed turn.
func record(ctx context.Context, r recording, t knowledge.Turn) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	if _, err := r.rec.Record(ctx, t); err != nil {
		r.log.Warn("record turn", "err", err)
	}
}

func (b *SessionBackend) recorder() (*conversation.Recorder, conversation.MarkdownOptions) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.recording.rec, b.recording.export
}

// NewConversation starts afresh: the next turn opens a new conversation,
// and the prompt remembers nothing of this one.
func (b *SessionBackend) NewConversation() {
	b.mu.Lock()
	b.recording.pending = nil
	rec := b.recording.rec
	b.mu.Unlock()
	if rec != nil {
		rec.New()
	}
	b.s.Restore(nil)
}

// ResumeConversation reopens a stored conversation.
func (b *SessionBackend) ResumeConversation(ctx context.Context, id string) (knowledge.Conversation, error) {
	rec, _ := b.recorder()
	if rec == nil {
		return knowledge.Conversation{}, errNoConversations
	}
	c, err := rec.Resume(ctx, id)
	if err != nil {
		return knowledge.Conversation{}, err
	}
	b.mu.Lock()
	b.recording.pending = nil
	b.mu.Unlock()
	b.s.Restore(c.Turns)
	return c, nil
}

// ExportConversation writes the current conversation as markdown.
func (b *SessionBackend) ExportConversation(ctx context.Context, file string) (string, error) {
	rec, opts := b.recorder()
	if rec == nil {
		return "", errNoConversations
	}
	c := rec.Current()
	if c.ID == "" {
		return "", errors.New("nothing to export yet: ask a question first")
	}
	if file == "-" {
		return "", errors.New("the chat exports to a file, not to its own screen")
	}
	return conversation.Export(ctx, c, file, opts, nil)
}

// RateLast rates the last recorded turn.
func (b *SessionBackend) RateLast(ctx context.Context, f knowledge.TurnFeedback) error {
	rec, _ := b.recorder()
	if rec == nil {
		return errNoConversations
	}
	n := len(rec.Current().Turns)
	if n == 0 {
		return errors.New("no answer to rate yet")
	}
	return rec.Rate(ctx, n-1, f)
}
