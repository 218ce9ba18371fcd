package assistant

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/retrieval/analysis"
	"github.com/docent-sh/docent/textsafe"
)

// Embedder embeds a question for hybrid retrieval: llm/embed's embedders
// satisfy it. Vectors of another model than the chunks' are not compared
// with them (the engine ranks such a turn by words alone).
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Model() string
}

// DefaultEmbedTimeout is how long a turn waits for its question's vector
// when Options.EmbedTimeout is 0: a local model answers in tens of
// milliseconds and a hosted one in a few hundred, and a turn that waits
// longer is slower than the keyword ranking it would improve is worth.
const DefaultEmbedTimeout = 2 * time.Second

// questionVector embeds the text a question asks the docs, within the
// embed timeout. On failure, timeout or an unusable answer it returns nil
// and a note for Result.Notes saying why the turn is lexical; nil and ""
// when there is nothing to embed (no embedder, a pick, a continuation, a
// follow-up).
func (s *Session) questionVector(ctx context.Context, req Request, turn turnState) ([]float32, string) {
	emb := s.opts.Embedder
	if emb == nil || req.DocSlug != "" || req.AfterChunkID != "" || req.NoteID != "" || req.Query == "" ||
		(analysis.IsFollowUp(req.Query) && turn.lastChunkID != "") {
		return nil, ""
	}
	_, text := s.searchText(req) // the words the docs are asked
	text, _ = truncated(text)
	timeout := s.opts.EmbedTimeout
	if timeout <= 0 {
		timeout = DefaultEmbedTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type answer struct {
		vecs [][]float32
		err  error
	}
	// The embedder runs aside, so that one that ignores its context still
	// cannot hold the turn past the timeout.
	done := make(chan answer, 1)
	go func() {
		vecs, err := emb.Embed(ctx, []string{text})
		done <- answer{vecs, err}
	}()
	var a answer
	select {
	case a = <-done:
	case <-ctx.Done():
		a.err = ctx.Err()
	}
	var why string
	switch {
	case errors.Is(a.err, context.DeadlineExceeded) && ctx.Err() != nil:
		why = fmt.Sprintf("embedding the question timed out after %s", timeout)
	case a.err != nil:
		why = "embedding the question failed: " + textsafe.Clip(textsafe.Line(a.err.Error()), 200)
	case len(a.vecs) != 1 || len(a.vecs[0]) == 0:
		why = fmt.Sprintf("embedding the question gave %d vectors, want one", len(a.vecs))
	default:
		return a.vecs[0], ""
	}
	s.log.DebugContext(ctx, "question not embedded: ranked by keywords alone", "model", emb.Model(), "reason", why)
	return nil, why + ": ranked by keywords alone"
}

// truncated cuts a question as the engine reads it, so that a pasted log
// is not sent to the embedder whole.
func truncated(text string) (string, bool) {
	if utf8.RuneCountInString(text) <= retrieval.MaxQueryChars {
		return text, false
	}
	return string([]rune(text)[:retrieval.MaxQueryChars]), true
}
