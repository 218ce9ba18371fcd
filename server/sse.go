package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/docent-sh/docent/apitoken"
	"github.com/docent-sh/docent/cite"
	"github.com/docent-sh/docent/internal/askjson"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
)

// The frames of /api/ask, in the order they come: status, evidence, then
// token deltas as the answer is written, citation per footnote, and done;
// or error, which ends the stream in place of done.
type (
	statusFrame struct {
		Corpus     knowledge.Corpus   `json:"corpus"`
		Query      string             `json:"query"`
		Status     retrieval.Status   `json:"status"`
		Rule       string             `json:"rule"`
		Confidence float64            `json:"confidence"`
		Options    []retrieval.Option `json:"options"`
		Notes      []string           `json:"notes,omitempty"`
		Hint       string             `json:"hint,omitempty"`
	}
	evidenceItem struct {
		ChunkID    string           `json:"chunk_id"`
		Corpus     knowledge.Corpus `json:"corpus,omitempty"`
		ResourceID string           `json:"resource_id,omitempty"`
		DocSlug    string           `json:"doc_slug"`
		Title      string           `json:"title"`
		Section    string           `json:"section,omitempty"`
		Score      float64          `json:"score"`
		RankScore  float64          `json:"rank_score"`
	}
	evidenceFrame struct {
		Evidence []evidenceItem `json:"evidence"`
	}
	tokenFrame struct {
		Text string `json:"text"`
	}
	citationFrame struct {
		N     int    `json:"n"`
		ID    string `json:"id"`
		Known bool   `json:"known"`
	}
	timings struct {
		RetrievalMS  float64 `json:"retrieval_ms"`
		FirstTokenMS float64 `json:"first_token_ms"`
		AnswerMS     float64 `json:"answer_ms"`
		TotalMS      float64 `json:"total_ms"`
	}
	// doneFrame is ask --json's "llm" object with the turn's timings.
	doneFrame struct {
		askjson.LLM
		Timings timings `json:"timings"`
		// TurnID names the recorded turn, for /api/feedback and for
		// conversation_id (its part before the slash); absent when the
		// turn was not recorded.
		TurnID string `json:"turn_id,omitempty"`
	}
)

// sseWriter writes server-sent events, flushing each.
type sseWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

func (s sseWriter) send(event string, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // a stream is no HTML page: "a > b" stays as written
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("encode %s frame: %w", event, err)
	}
	// JSON holds no raw newline, so one data line carries the frame.
	if _, err := fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", event, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))); err != nil {
		return err
	}
	return s.rc.Flush()
}

// streamWriteGrace is how long after the stream's deadline the last frame
// (the timeout's error) may still be written.
const streamWriteGrace = 5 * time.Second

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// ask runs one chat turn and streams it. The request's context is the
// model call's: a client that disconnects cancels the answer.
func (s *Server) ask(w http.ResponseWriter, r *http.Request, caller apitoken.Record) {
	began := time.Now()
	t, apiErr := readTurn(w, r, s.limits)
	if apiErr != nil {
		writeError(w, apiErr)
		return
	}
	req := t.req
	// The conversation is found before the stream starts, so a wrong id
	// is a plain 404, not an error frame.
	session := s.cfg.Sessions.Fork(r.Context(), caller.Scope())
	rec, apiErr := s.recorder(r.Context(), caller, session, t.conversation)
	if apiErr != nil {
		writeError(w, apiErr)
		return
	}
	rc := http.NewResponseController(w)
	// The server has no WriteTimeout (streams run long); each stream gets
	// its own deadline instead. A writer that cannot set one is a test's.
	if err := rc.SetWriteDeadline(time.Now().Add(s.limits.StreamTimeout + streamWriteGrace)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		requestLog(r).Warn("set the stream's write deadline", "err", err)
	} else if err == nil {
		// The deadline is the connection's: the next request on it (keep-
		// alive) must not inherit this stream's.
		defer rc.SetWriteDeadline(time.Time{})
	}
	// The deadline bounds the model call too, when it stalls and nothing
	// is written.
	ctx, cancel := context.WithTimeout(r.Context(), s.limits.StreamTimeout)
	defer cancel()
	s.metrics.streams.Inc()
	defer s.metrics.streams.Dec()

	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // a proxy must pass the tokens as they come
	w.WriteHeader(http.StatusOK)
	out := sseWriter{w: w, rc: rc}

	defer s.flush(session)
	req = s.nameTurn(ctx, r, rec, req)
	res := session.Retrieve(ctx, req)
	retrieved := time.Since(began)
	if err := out.send("status", statusFrame{Corpus: res.Corpus, Query: res.Query, Status: res.Status, Rule: res.Rule,
		Confidence: res.Confidence, Options: nonNil(res.Options), Notes: res.Notes, Hint: res.Hint}); err != nil {
		return // the client left
	}
	ev := evidenceFrame{Evidence: make([]evidenceItem, len(res.Results))}
	for i, e := range res.Results {
		ev.Evidence[i] = evidenceItem{ChunkID: e.ChunkID, Corpus: e.Corpus, ResourceID: e.ResourceID, DocSlug: e.DocSlug,
			Title: e.Title, Section: e.HeaderPath, Score: e.Score, RankScore: e.RankScore}
	}
	if err := out.send("evidence", ev); err != nil {
		return
	}

	var writeErr error
	answerBegan := time.Now()
	ans, err := session.Answer(ctx, res, func(chunk string) {
		if writeErr == nil && chunk != "" {
			writeErr = out.send("token", tokenFrame{Text: chunk})
		}
	})
	s.count(res, ans)
	if err != nil {
		requestLog(r).Error("answer", "err", err)
		_ = out.send("error", errorBody{&apiError{Code: "answer_failed", Message: "the answer could not be written; the log says why"}})
		return
	}
	if writeErr == nil && r.Context().Err() == nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		requestLog(r).Warn("stream timed out", "stream_timeout", s.limits.StreamTimeout.String())
		_ = out.send("error", errorBody{&apiError{Code: "timeout", Message: fmt.Sprintf("the answer took longer than %s", s.limits.StreamTimeout)}})
		return
	}
	if writeErr != nil || ctx.Err() != nil {
		requestLog(r).Info("client left mid-answer", "stopped", ans.Stopped)
		return
	}
	for _, n := range cite.Footnotes(ans.Text, ans.Sources).Notes {
		if out.send("citation", citationFrame{N: n.N, ID: n.ID, Known: n.Known}) != nil {
			return
		}
	}
	turnID := s.recordTurn(ctx, r, rec, req, res, ans)
	_ = out.send("done", doneFrame{TurnID: turnID, LLM: askjson.LLM{Provider: s.cfg.Selection.Provider, Model: s.cfg.Selection.Model, Called: ans.ModelCalled,
		Fallback: ans.Fallback, Notice: ans.Notice, Stopped: ans.Stopped, Usage: ans.Usage, CostUSD: ans.CostUSD},
		Timings: timings{RetrievalMS: ms(retrieved), FirstTokenMS: ms(ans.TTFT), AnswerMS: ms(time.Since(answerBegan)), TotalMS: ms(time.Since(began))}})
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
