package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/docent-sh/docent/apitoken"
	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/conversation"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store"
)

// errNoConversations answers a conversation call on a server that keeps
// none.
var errNoConversations = &apiError{Status: http.StatusServiceUnavailable, Code: "conversations_unavailable",
	Message: "this server keeps no conversations"}

// recorder is the caller's conversation recorder for one /api/ask, nil
// when the server keeps no conversations. With an id the conversation is
// the caller's to continue: its recent messages go to the session, and a
// conversation of anyone else is not found, as the stores say.
func (s *Server) recorder(ctx context.Context, caller apitoken.Record, session *assistant.Session, id string) (*conversation.Recorder, *apiError) {
	if s.cfg.Conversations == nil {
		if id != "" {
			return nil, errNoConversations
		}
		return nil, nil
	}
	rec := conversation.NewRecorder(s.cfg.Conversations, caller.Scope())
	if id == "" {
		return rec, nil
	}
	c, err := rec.Resume(ctx, id)
	switch {
	case errors.Is(err, store.ErrConversationNotFound):
		return nil, &apiError{Status: http.StatusNotFound, Code: "conversation_not_found", Message: "conversation_id: no conversation of yours has this id"}
	case err != nil:
		s.log.ErrorContext(ctx, "resume conversation", "err", err)
		return nil, errInternal
	}
	session.Restore(c.Turns)
	return rec, nil
}

// nameTurn sets where the turn will be recorded, for its retrieval event.
// Recording is best effort: a store that cannot start the conversation
// leaves the turn unrecorded, and the answer goes on.
func (s *Server) nameTurn(ctx context.Context, r *http.Request, rec *conversation.Recorder, req assistant.Request) assistant.Request {
	if rec == nil {
		return req
	}
	id, index, err := rec.Next(ctx, conversation.Title(req))
	if err != nil {
		requestLog(r).Warn("turn not recorded", "err", err)
		return req
	}
	req.ConversationID, req.TurnIndex = id, &index
	return req
}

// recordTurn stores the answered turn and returns its id, "" when it is
// not recorded.
func (s *Server) recordTurn(ctx context.Context, r *http.Request, rec *conversation.Recorder, req assistant.Request, res retrieval.Result, ans assistant.Answer) string {
	if rec == nil || req.TurnIndex == nil {
		return ""
	}
	stored, err := rec.RecordAnswer(ctx, flushTimeout, req, res, ans)
	if err != nil {
		requestLog(r).Warn("turn not recorded", "err", err)
		return ""
	}
	return turnID(rec.Current().ID, stored.Index)
}

// turnID names a turn for /api/feedback: the conversation id, a slash and
// the turn's index.
func turnID(conversationID string, index int) string {
	return conversationID + "/" + strconv.Itoa(index)
}

// parseTurnID reads a turn id; ok is false for anything turnID does not
// write.
func parseTurnID(id string) (conversationID string, index int, ok bool) {
	conv, n, found := strings.Cut(id, "/")
	if !found || !store.ParseConversationID(conv) || n == "" || len(n) > 9 {
		return "", 0, false
	}
	index, err := strconv.Atoi(n)
	if err != nil || index < 0 || strconv.Itoa(index) != n {
		return "", 0, false
	}
	return conv, index, true
}

// feedbackRequest is the body of /api/feedback.
type feedbackRequest struct {
	TurnID string `json:"turn_id"`
	Rating string `json:"rating"`
	Reason string `json:"reason"`
}

// feedback rates one of the caller's recorded turns: up, or down with an
// optional reason. A turn of anyone else is not found.
func (s *Server) feedback(w http.ResponseWriter, r *http.Request, caller apitoken.Record) {
	var fr feedbackRequest
	if err := readJSON(w, r, s.limits, &fr); err != nil {
		writeError(w, err)
		return
	}
	if s.cfg.Conversations == nil {
		writeError(w, errNoConversations)
		return
	}
	id, index, ok := parseTurnID(fr.TurnID)
	if !ok {
		writeError(w, badRequest("turn_id: want the turn_id of an answer's done frame (conversation id/turn)"))
		return
	}
	f, err := store.PrepareFeedback(knowledge.TurnFeedback{Rating: knowledge.Rating(fr.Rating), Reason: knowledge.FeedbackReason(fr.Reason)}, s.cfg.Now())
	if err != nil {
		writeError(w, badRequest("%s", clip(err.Error(), 200)))
		return
	}
	err = s.cfg.Conversations.RateTurn(r.Context(), caller.Scope(), id, index, f)
	switch {
	case errors.Is(err, store.ErrConversationNotFound), errors.Is(err, store.ErrTurnNotFound):
		writeError(w, &apiError{Status: http.StatusNotFound, Code: "turn_not_found", Message: "turn_id: no turn of yours has this id"})
		return
	case err != nil:
		requestLog(r).Error("rate turn", "err", err)
		writeError(w, errInternal)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		TurnID string    `json:"turn_id"`
		Rating string    `json:"rating"`
		Reason string    `json:"reason,omitempty"`
		At     time.Time `json:"at"`
	}{fmt.Sprintf("%s/%d", id, index), string(f.Rating), string(f.Reason), f.At})
}
