package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/internal/ticket"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store"
)

// turnRequest is the body of /api/retrieve and /api/ask. Who asks is the
// token's business, so there is no workspace or user here: an unknown
// field is refused, and one named so as well.
type turnRequest struct {
	Corpus          string   `json:"corpus"`
	Query           string   `json:"query"`
	ResourceID      string   `json:"resource_id"` // a doc's slug or a note's id: answer from it, as picking a pill does
	ExcludeChunkIDs []string `json:"exclude_chunk_ids"`
	Cursor          string   `json:"cursor"` // a chunk id: continue the resource after it ("tell me more")
	TopK            int      `json:"top_k"`
	// ConversationID continues one of the caller's conversations
	// (/api/ask only): its recent messages go to the model and the turn
	// is added to it. Empty: a new conversation.
	ConversationID string `json:"conversation_id"`
}

// turn is a decoded turn request: the session's request, and the
// conversation it continues ("" for a new one).
type turn struct {
	req          assistant.Request
	conversation string
}

// Bounds of a request beyond its size, so a body within the byte limit
// still cannot make the server do unbounded work.
const (
	maxExcluded = 200
	maxIDLen    = 512
	maxTopK     = 100 // the engine's own bound (retrieval.Config.Validate)
)

// decodeStrict reads one JSON object from r into v: unknown fields,
// trailing data after the object and a body over limit bytes are refused.
func decodeStrict(r io.Reader, limit int64, v any) *apiError {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		var syntax *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &tooBig):
			return &apiError{Status: http.StatusRequestEntityTooLarge, Code: "too_large",
				Message: fmt.Sprintf("the body is over %d bytes", limit)}
		case errors.Is(err, io.EOF):
			return badRequest("the body is empty: send a JSON object")
		case errors.As(err, &syntax):
			return badRequest("the body is not JSON: %s at byte %d", syntax.Error(), syntax.Offset)
		case errors.As(err, &typ):
			return badRequest("field %q: want a %s, got a JSON %s", clip(typ.Field, 64), typ.Type, typ.Value)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			// The only way encoding/json reports an unknown field.
			return badRequest("unknown field %s (workspace and user come from the API token)",
				clip(strings.TrimPrefix(err.Error(), "json: unknown field "), 64))
		default:
			return badRequest("the body is not a valid request: %s", clip(err.Error(), 200))
		}
	}
	// One object and nothing after it but white space.
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return &apiError{Status: http.StatusRequestEntityTooLarge, Code: "too_large",
				Message: fmt.Sprintf("the body is over %d bytes", limit)}
		}
		return badRequest("data after the JSON object")
	}
	return nil
}

// readTurn decodes and checks a turn request into the session's request.
func readTurn(w http.ResponseWriter, r *http.Request, l Limits) (turn, *apiError) {
	var tr turnRequest
	if err := readJSON(w, r, l, &tr); err != nil {
		return turn{}, err
	}
	if tr.ConversationID != "" && !store.ParseConversationID(tr.ConversationID) {
		return turn{}, badRequest("conversation_id: not a conversation id")
	}
	req, err := tr.request(l.MaxQueryChars)
	return turn{req: req, conversation: tr.ConversationID}, err
}

// readJSON decodes a JSON body strictly into v, within the size limit.
func readJSON(w http.ResponseWriter, r *http.Request, l Limits, v any) *apiError {
	// JSON only: a browser's cross-site form post (a "simple" request,
	// sent without a preflight) can never pass as one.
	if ct := r.Header.Get("Content-Type"); ct != "" && !isJSON(ct) {
		return &apiError{Status: http.StatusUnsupportedMediaType, Code: "unsupported_media_type",
			Message: "send the body as application/json"}
	}
	body := http.MaxBytesReader(w, r.Body, l.MaxBodyBytes)
	return decodeStrict(body, l.MaxBodyBytes, v)
}

// request checks a decoded turn and makes it the session's request, as
// `docent ask` does with its flags: a question, a resource with or
// without one, or a cursor alone. A long question (a pasted ticket) is
// read for its informative words, as ask reads one.
func (tr turnRequest) request(maxQueryChars int) (assistant.Request, *apiError) {
	corpus, err := knowledge.ParseCorpus(tr.Corpus)
	if err != nil {
		return assistant.Request{}, badRequest("corpus: %s", clip(err.Error(), 200))
	}
	for name, s := range map[string]string{"query": tr.Query, "resource_id": tr.ResourceID, "cursor": tr.Cursor} {
		if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
			return assistant.Request{}, badRequest("%s: not valid UTF-8 text", name)
		}
	}
	if n := utf8.RuneCountInString(tr.Query); n > maxQueryChars {
		return assistant.Request{}, &apiError{Status: http.StatusRequestEntityTooLarge, Code: "query_too_long",
			Message: fmt.Sprintf("query: %d characters, at most %d", n, maxQueryChars)}
	}
	if len(tr.ResourceID) > maxIDLen || len(tr.Cursor) > maxIDLen {
		return assistant.Request{}, badRequest("resource_id and cursor: at most %d bytes", maxIDLen)
	}
	if len(tr.ExcludeChunkIDs) > maxExcluded {
		return assistant.Request{}, badRequest("exclude_chunk_ids: at most %d ids", maxExcluded)
	}
	for _, id := range tr.ExcludeChunkIDs {
		if len(id) > maxIDLen || !utf8.ValidString(id) {
			return assistant.Request{}, badRequest("exclude_chunk_ids: an id over %d bytes or not UTF-8", maxIDLen)
		}
	}
	if tr.TopK < 0 || tr.TopK > maxTopK {
		return assistant.Request{}, badRequest("top_k: %d, want 0 (the engine's) to %d", tr.TopK, maxTopK)
	}
	query := strings.TrimSpace(tr.Query)
	resource := strings.TrimSpace(tr.ResourceID)
	cursor := strings.TrimSpace(tr.Cursor)
	switch {
	case query == "" && resource == "" && cursor == "":
		return assistant.Request{}, badRequest("send a query, a resource_id or a cursor")
	case cursor != "" && (query != "" || resource != ""):
		return assistant.Request{}, badRequest("cursor goes alone, without query or resource_id")
	case query != "" && !strings.ContainsFunc(query, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }):
		return assistant.Request{}, badRequest("query: no words in it")
	}
	req := assistant.Request{Corpus: corpus, AfterChunkID: cursor, Exclude: tr.ExcludeChunkIDs, TopK: tr.TopK}
	if query != "" {
		req.Query = ticket.Reduce(query, retrieval.MaxQueryChars).Query
	}
	if resource != "" {
		if isNoteID(resource, corpus) {
			req.NoteID = resource
		} else {
			req.DocSlug = resource
		}
	}
	return req, nil
}

// isNoteID tells a note's id from a doc's slug: notes have uuids (or
// their slug form), docs paths.
func isNoteID(id string, corpus knowledge.Corpus) bool {
	if corpus == knowledge.CorpusNotes {
		return true
	}
	if _, ok := knowledge.NoteIDFromSlug(id); ok {
		return false // a note's slug is a DocSlug the session routes to the notes
	}
	_, err := uuid.Parse(id)
	return err == nil
}

// isJSON reports whether a Content-Type is application/json (any
// parameters, such as charset, allowed).
func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "application/json"
}
