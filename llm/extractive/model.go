// Package extractive is docent's offline responder: it answers a prompt
// built by package prompt with 1–3 sentences quoted from the prompt's doc
// blocks, each sentence followed by the id of its block, without any
// model or network. It stands in for a model when none is configured and
// completes an answer when a model fails.
//
// The files follow the answer's path: intent.go reads what the question
// asks, passages.go and sentences.go turn the blocks into candidate
// sentences, explain.go, howto.go and compose.go choose and cite them, and
// model.go streams the result through the streaming func a model's client
// takes.
package extractive

import (
	"context"
	"fmt"
	"time"
	"unicode"

	"github.com/docent-sh/docent/prompt"
)

// ModelName is the model name the offline responder reports.
const ModelName = "extractive"

// defaultPieceWords is how many words a streamed piece holds by default.
const defaultPieceWords = 3

// Model is docent's offline responder. It streams through the same kind
// of streaming func as a model's client (langchaingo's
// llms.WithStreamingFunc), so the caller's path for pieces, cancellation
// and errors is the one a real model takes; it reads the structured
// prompt.Prompt rather than the messages rendered from it.
type Model struct {
	pace       time.Duration
	pieceWords int
}

// Option configures a Model.
type Option func(*Model)

// WithPace waits d between streamed pieces, so the answer reads as if it
// were being written; zero streams as fast as the consumer takes it.
func WithPace(d time.Duration) Option {
	return func(m *Model) { m.pace = max(d, 0) }
}

// WithPieceWords sets how many words each streamed piece holds (default 3).
func WithPieceWords(n int) Option {
	return func(m *Model) {
		if n > 0 {
			m.pieceWords = n
		}
	}
}

// New returns the offline responder.
func New(opts ...Option) *Model {
	m := &Model{pieceWords: defaultPieceWords}
	for _, opt := range opts {
		opt(m)
	}
	return m
}

// Stream writes the extractive answer to p and returns it, passing it a
// few words at a time to fn when fn is set (the pieces joined are the
// answer). It stops with the context's error as soon as ctx is done,
// between two pieces, and with fn's error when fn returns one.
func (m *Model) Stream(ctx context.Context, p prompt.Prompt, fn func(context.Context, []byte) error) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("extractive: %w", err)
	}
	answer := Answer(p)
	if fn != nil {
		if err := m.stream(ctx, answer, fn); err != nil {
			return "", err
		}
	}
	return answer, nil
}

func (m *Model) stream(ctx context.Context, answer string, fn func(context.Context, []byte) error) error {
	var timer *time.Timer
	for i, piece := range splitPieces(answer, m.pieceWords) {
		if i > 0 && m.pace > 0 {
			if timer == nil {
				timer = time.NewTimer(m.pace)
				defer timer.Stop()
			} else {
				timer.Reset(m.pace)
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("extractive: %w", ctx.Err())
			case <-timer.C:
			}
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("extractive: %w", err)
		}
		if err := fn(ctx, []byte(piece)); err != nil {
			return fmt.Errorf("extractive: streaming func returned an error: %w", err)
		}
	}
	return nil
}

// splitPieces cuts text into pieces of n words, each keeping the space
// after it, so the pieces joined give text back exactly.
func splitPieces(text string, n int) []string {
	var pieces []string
	words, start := 0, 0
	inWord := false
	for i, r := range text {
		space := unicode.IsSpace(r)
		switch {
		case !space && !inWord:
			if words == n {
				pieces = append(pieces, text[start:i])
				start, words = i, 0
			}
			inWord = true
			words++
		case space:
			inWord = false
		}
	}
	if start < len(text) {
		pieces = append(pieces, text[start:])
	}
	return pieces
}
