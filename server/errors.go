package server

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// apiError is an error a client is told about: an HTTP status, a stable
// code to branch on and a message for people. Messages name what was
// wrong with the request, never a secret or the server's internals.
type apiError struct {
	Status  int    `json:"-"`
	Code    string `json:"code"`
	Message string `json:"message"`
	// RetryAfter, in seconds, is sent as the Retry-After header when > 0.
	RetryAfter int `json:"-"`
}

func (e *apiError) Error() string { return e.Code + ": " + e.Message }

func badRequest(format string, args ...any) *apiError {
	return &apiError{Status: http.StatusBadRequest, Code: "bad_request", Message: fmt.Sprintf(format, args...)}
}

var (
	errNotFound     = &apiError{Status: http.StatusNotFound, Code: "not_found", Message: "no such endpoint"}
	errUnauthorized = &apiError{Status: http.StatusUnauthorized, Code: "unauthorized",
		Message: "send a valid API token as Authorization: Bearer <token> (docent tokens create makes one)"}
	errInternal = &apiError{Status: http.StatusInternalServerError, Code: "internal", Message: "the server failed; the log says why"}
)

func errMethod(method, path string) *apiError {
	return &apiError{Status: http.StatusMethodNotAllowed, Code: "method_not_allowed",
		Message: fmt.Sprintf("%s is not served on %s (see the Allow header)", clip(method, 16), path)}
}

// errorBody is the one shape of every error response.
type errorBody struct {
	Error *apiError `json:"error"`
}

func writeError(w http.ResponseWriter, e *apiError) {
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", fmt.Sprint(e.RetryAfter))
	}
	writeJSON(w, e.Status, errorBody{e})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	// A failed write is a client gone: nothing to tell it.
	_ = json.NewEncoder(w).Encode(v)
}
