// Package enginebackend is a tui.Backend made of the retrieval engine
// alone: Answer streams the engine's own reply in small pieces, the way a
// model streams. The TUI's tests use it to drive the screen with real
// retrieval on the demo knowledge base and no model.
package enginebackend

import (
	"context"
	"sync"

	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/tui"
)

// Backend answers from the engine. It keeps the session state follow-ups
// need ("tell me more" continues the last chunk shown).
type Backend struct {
	eng *retrieval.Engine

	// ChunkRunes is the size of the streamed pieces.
	ChunkRunes int

	mu        sync.Mutex
	lastChunk string
	shown     []string
}

// New wraps an engine.
func New(eng *retrieval.Engine) *Backend {
	return &Backend{eng: eng, ChunkRunes: 8}
}

// Retrieve runs one turn: a lookup by slug for a picked pill, else a
// question (follow-ups continue the last chunk shown).
func (b *Backend) Retrieve(ctx context.Context, req tui.Request) (retrieval.Result, error) {
	if err := ctx.Err(); err != nil {
		return retrieval.Result{}, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	var res retrieval.Result
	if req.DocSlug != "" {
		res = b.eng.Lookup(req.DocSlug)
	} else {
		res = b.eng.Ask(retrieval.Query{Text: req.Query, LastChunkID: b.lastChunk, Shown: b.shown})
	}
	if (res.Status == retrieval.StatusFound || res.Status == retrieval.StatusMulti) && len(res.Results) > 0 {
		b.lastChunk = res.Results[0].ChunkID
		b.shown = append(b.shown, res.Results[0].ChunkID)
	}
	return res, nil
}

// Answer streams res.Reply in pieces of ChunkRunes runes. There is no
// model, so no provider, time to first token or rate is reported.
func (b *Backend) Answer(ctx context.Context, res retrieval.Result, emit func(string)) (tui.AnswerInfo, error) {
	var info tui.AnswerInfo
	reply := []rune(res.Reply)
	size := max(b.ChunkRunes, 1)
	for i := 0; i < len(reply); i += size {
		if ctx.Err() != nil {
			info.Stopped = true
			return info, nil
		}
		piece := string(reply[i:min(i+size, len(reply))])
		info.Text += piece
		emit(piece)
	}
	return info, nil
}

// Stats returns the engine's rolling figures for the debug pane.
func (b *Backend) Stats() retrieval.Stats { return b.eng.Stats() }
