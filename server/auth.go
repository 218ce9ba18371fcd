package server

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/docent-sh/docent/apitoken"
)

// authLookupTimeout bounds the token lookup, so a stalled store fails a
// request quickly instead of holding it.
const authLookupTimeout = 3 * time.Second

// authenticated runs h as the caller its bearer token names, after the
// token's rate limit. A missing, unknown or revoked token gets the same
// 401: which one it was is for the log, not for the caller.
func (s *Server) authenticated(h func(http.ResponseWriter, *http.Request, apitoken.Record)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, ok := bearer(r.Header.Get("Authorization"))
		if !ok {
			s.metrics.authFailures.WithLabelValues("missing").Inc()
			writeError(w, errUnauthorized)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), authLookupTimeout)
		rec, err := apitoken.Check(ctx, s.cfg.Tokens, token)
		cancel()
		switch {
		case errors.Is(err, apitoken.ErrNotFound), errors.Is(err, apitoken.ErrRevoked):
			reason := "unknown"
			if errors.Is(err, apitoken.ErrRevoked) {
				reason = "revoked"
			}
			s.metrics.authFailures.WithLabelValues(reason).Inc()
			requestLog(r).Info("refused API token", "reason", reason)
			writeError(w, errUnauthorized)
			return
		case err != nil:
			requestLog(r).Error("look up API token", "err", err)
			writeError(w, &apiError{Status: http.StatusServiceUnavailable, Code: "unavailable", Message: "API tokens cannot be checked now; try again"})
			return
		}
		setCaller(r, rec)
		if wait, ok := s.rate.allow(rec.ID); !ok {
			s.metrics.rateLimited.Inc()
			writeError(w, &apiError{Status: http.StatusTooManyRequests, Code: "rate_limited",
				Message: "too many requests for this token; retry after the Retry-After seconds", RetryAfter: wait})
			return
		}
		h(w, r, rec)
	})
}

// bearer is the token of an Authorization header of the Bearer scheme.
func bearer(header string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}
