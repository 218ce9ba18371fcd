// Package extractive is docent's offline responder: it answers a prompt
// built by package prompt with 1–3 sentences quoted from the prompt's <doc>
// blocks, each sentence followed by the id of its block, without any
// model or network. It stands in for a model when none is configured and
// completes an answer when a model fails.
//
// The files follow the answer's path: intent.go reads what the question
// asks, passages.go and sentences.go turn the blocks into candidate
// sentences, explain.go, howto.go and compose.go choose and cite them, and
// model.go streams the result as an llms.Model.
package extractive

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/tmc/langchaingo/llms"

	"github.com/docent-sh/docent/tokens"
)

// ModelName is the model name the offline responder reports.
const ModelName = "extractive"

// defaultPieceWords is how many words a streamed piece holds by default.
const defaultPieceWords = 3

// Model is docent's offline responder as a langchaingo llms.Model, so
// that it streams through exactly the same path as a real model: it
// answers the last user message with Answer and streams the answer a few
// words at a time through the streaming func.
type Model struct {
	pace       time.Duration
	pieceWords int
}

var _ llms.Model = (*Model)(nil)

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

// Call answers a single prompt holding the <doc> blocks and the question.
func (m *Model) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, options...)
}

// GenerateContent writes the extractive answer to the last user message,
// streaming it through the streaming func when one is set. It stops with
// the context's error as soon as ctx is done, between two pieces.
func (m *Model) GenerateContent(ctx context.Context, messages []llms.MessageContent, options ...llms.CallOption) (*llms.ContentResponse, error) {
	var opts llms.CallOptions
	for _, opt := range options {
		opt(&opts)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("extractive: %w", err)
	}
	answer := answerTo(lastUserText(messages), earlierAnswers(messages))
	if opts.StreamingFunc != nil {
		if err := m.stream(ctx, answer, opts.StreamingFunc); err != nil {
			return nil, err
		}
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{
		Content:    answer,
		StopReason: "stop",
		GenerationInfo: map[string]any{
			"CompletionTokens": tokens.Default().Count(answer),
		},
	}}}, nil
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

// lastUserText returns the text of the last human message.
func lastUserText(messages []llms.MessageContent) string {
	for i := len(messages) - 1; i >= 0; i-- {
		if messages[i].Role != llms.ChatMessageTypeHuman && messages[i].Role != llms.ChatMessageTypeGeneric {
			continue
		}
		var b strings.Builder
		for _, part := range messages[i].Parts {
			if t, ok := part.(llms.TextContent); ok {
				b.WriteString(t.Text)
			}
		}
		return b.String()
	}
	return ""
}

// earlierAnswers are the texts of the assistant's messages in the
// conversation, oldest first.
func earlierAnswers(messages []llms.MessageContent) []string {
	var out []string
	for _, m := range messages {
		if m.Role != llms.ChatMessageTypeAI {
			continue
		}
		var b strings.Builder
		for _, part := range m.Parts {
			if t, ok := part.(llms.TextContent); ok {
				b.WriteString(t.Text)
			}
		}
		out = append(out, b.String())
	}
	return out
}
