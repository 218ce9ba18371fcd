package tui

import (
	"context"
	"errors"
	"log/slog"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/textsafe"
)

// The backend runs in tea.Cmds; these messages bring its results back to
// Update. Each carries the turn it belongs to, so a reply to a question
// the user has moved on from is recognised and dropped.

type retrievedMsg struct {
	turn  int
	res   retrieval.Result
	stats *assistant.Stats // nil when the backend keeps none
	size  *corpusSize      // nil when the backend does not say
	err   error
}

type corpusSize struct{ docs, chunks int }

type streamChunkMsg struct {
	turn   int
	stream *answerStream
	text   string
}

type streamDoneMsg struct {
	turn   int
	stream *answerStream
	info   AnswerInfo
	err    error
}

// answerStream is one running Answer call. Chunks travel over msgs one at
// a time: a Cmd waits for the next message, Update handles it and asks for
// the next, so the answer appears as it is written and Update never
// blocks.
type answerStream struct {
	msgs   chan tea.Msg
	cancel context.CancelFunc
}

// streamBuffer lets the backend run a little ahead of the screen.
const streamBuffer = 64

func retrieveCmd(ctx context.Context, b Backend, turn int, req assistant.Request) tea.Cmd {
	return func() tea.Msg {
		res, err := b.Retrieve(ctx, req)
		if err != nil && ctx.Err() == nil {
			slog.Warn("retrieval failed", "query", req.Query, "doc", req.DocSlug, "err", errorText(err))
		}
		msg := retrievedMsg{turn: turn, res: res, err: err}
		if r, ok := b.(StatsReporter); ok {
			st := r.Stats()
			msg.stats = &st
		}
		if r, ok := b.(SizeReporter); ok {
			docs, chunks := r.Size()
			msg.size = &corpusSize{docs, chunks}
		}
		return msg
	}
}

// startAnswer runs Answer in a Cmd and returns the stream and the Cmds
// that run it and wait for its first message. Cancelling root (the user
// quit) or the stream's own context (Esc) ends it without leaking a
// goroutine: every send and every wait also watches root.
func startAnswer(root context.Context, b Backend, turn int, res retrieval.Result) (*answerStream, tea.Cmd) {
	ctx, cancel := context.WithCancel(root)
	s := &answerStream{msgs: make(chan tea.Msg, streamBuffer), cancel: cancel}
	run := func() tea.Msg {
		defer cancel()
		info, err := b.Answer(ctx, res, func(chunk string) {
			select {
			case s.msgs <- streamChunkMsg{turn: turn, stream: s, text: chunk}:
			case <-ctx.Done():
			}
		})
		if ctx.Err() != nil {
			// Stopped by the user (or quitting): the partial answer stands.
			info.Stopped = true
			if errors.Is(err, context.Canceled) {
				err = nil
			}
		}
		if err != nil {
			slog.Warn("answer failed", "err", errorText(err))
		}
		select {
		case s.msgs <- streamDoneMsg{turn: turn, stream: s, info: info, err: err}:
		case <-root.Done():
		}
		return nil
	}
	return s, tea.Batch(run, waitStream(root, s))
}

// waitStream returns the stream's next message.
func waitStream(root context.Context, s *answerStream) tea.Cmd {
	return func() tea.Msg {
		select {
		case msg := <-s.msgs:
			return msg
		case <-root.Done():
			return nil
		}
	}
}

// liveText is an answer as it streams in, cleaned of control sequences one
// piece at a time: each piece costs its own length, where re-cleaning the
// whole text on every piece would cost the answer's length, over and over.
type liveText struct {
	safe textsafe.Stream
	text strings.Builder
}

// write adds a streamed piece and returns the clean text so far.
func (l *liveText) write(piece string) string {
	l.text.WriteString(l.safe.Write(piece))
	return l.text.String()
}

// close ends the text, adding what the cleaner held back (a character cut
// between two pieces), and returns it.
func (l *liveText) close() string {
	l.text.WriteString(l.safe.Flush())
	return l.text.String()
}
