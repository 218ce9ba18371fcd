package server

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/docent-sh/docent/apitoken"
	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/internal/askjson"
	"github.com/docent-sh/docent/retrieval"
)

// flushTimeout bounds recording a turn's event after its request ended.
const flushTimeout = 5 * time.Second

// retrieve is one turn's decision and evidence, as `docent ask --json`
// reports it, without writing an answer.
func (s *Server) retrieve(w http.ResponseWriter, r *http.Request, caller apitoken.Record) {
	t, apiErr := readTurn(w, r, s.limits)
	if apiErr != nil {
		writeError(w, apiErr)
		return
	}
	if t.conversation != "" {
		writeError(w, badRequest("conversation_id: only /api/ask continues a conversation"))
		return
	}
	session := s.cfg.Sessions.Fork(r.Context(), caller.Scope())
	res := session.Retrieve(r.Context(), t.req)
	// No answer follows: the turn's event is recorded now.
	s.flush(session)
	s.count(res, assistant.Answer{})
	writeJSON(w, http.StatusOK, askjson.New(res, assistant.Answer{}, session.Stats(), s.cfg.Selection))
}

// flush records a session's pending event even when the request's context
// is gone (the client left): the event is worth keeping.
func (s *Server) flush(session *assistant.Session) {
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	session.Flush(ctx)
}

// retrievalFallbacks are the fallbacks retrieval reports, the only values
// the metric's label takes from it.
var retrievalFallbacks = map[string]bool{"phase1": true, "glossary": true, "generic": true}

// count adds a turn to the decision and fallback metrics.
func (s *Server) count(res retrieval.Result, ans assistant.Answer) {
	s.metrics.decisions.WithLabelValues(string(res.Status)).Inc()
	if retrievalFallbacks[res.Metrics.Fallback] {
		s.metrics.fallbacks.WithLabelValues("retrieval_" + res.Metrics.Fallback).Inc()
	}
	if res.Hint == assistant.HintNotesUnavailable {
		s.metrics.fallbacks.WithLabelValues("notes").Inc()
	}
	if ans.Fallback {
		s.metrics.fallbacks.WithLabelValues("writer").Inc()
	}
	if ans.ModelCalled && !ans.Fallback && ans.TTFT > 0 {
		s.metrics.ttft.Observe(ans.TTFT.Seconds())
	}
	if ans.Usage.Reported {
		s.metrics.tokens.WithLabelValues("prompt").Add(float64(ans.Usage.PromptTokens))
		s.metrics.tokens.WithLabelValues("completion").Add(float64(ans.Usage.CompletionTokens))
	}
}

// docSummary is one doc of GET /api/docs, as `docent docs list` shows it.
type docSummary struct {
	Slug     string `json:"slug"`
	Title    string `json:"title"`
	Category string `json:"category"`
	Chunks   int    `json:"chunks"`
	Hash     string `json:"hash"`
}

func (s *Server) docs(w http.ResponseWriter, r *http.Request, _ apitoken.Record) {
	list, err := s.cfg.Docs.ListDocs(r.Context())
	if err != nil {
		requestLog(r).Error("list docs", "err", err)
		writeError(w, &apiError{Status: http.StatusServiceUnavailable, Code: "unavailable", Message: "the docs cannot be listed now; try again"})
		return
	}
	out := make([]docSummary, len(list))
	for i, d := range list {
		out[i] = docSummary{Slug: d.Slug, Title: d.Title, Category: d.Category, Chunks: d.ChunkCount, Hash: d.ContentHash}
	}
	writeJSON(w, http.StatusOK, struct {
		Docs []docSummary `json:"docs"`
	}{out})
}

// healthz says the process serves HTTP; readyz whether it can answer.
func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyTimeout bounds all readiness checks together: a probe must answer.
const readyTimeout = 3 * time.Second

// readyz checks that the index is built and each configured check passes
// (the store answers, its schema is current). A failure is logged in
// full; the response names the check alone, since readyz needs no token.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	checks := map[string]string{}
	var failed []string
	if docs, _ := s.cfg.Sessions.Size(); docs == 0 {
		checks["index"] = "no docs indexed"
		failed = append(failed, "index")
	} else {
		checks["index"] = "ok"
	}
	for _, c := range s.cfg.Ready {
		if err := c.Check(ctx); err != nil {
			requestLog(r).Warn("not ready", "check", c.Name, "err", err)
			checks[c.Name] = "failed"
			failed = append(failed, c.Name)
			continue
		}
		checks[c.Name] = "ok"
	}
	if len(failed) > 0 {
		writeJSON(w, http.StatusServiceUnavailable, struct {
			Error  *apiError         `json:"error"`
			Checks map[string]string `json:"checks"`
		}{&apiError{Code: "not_ready", Message: "failing: " + strings.Join(failed, ", ")}, checks})
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Status string            `json:"status"`
		Checks map[string]string `json:"checks"`
	}{"ready", checks})
}
