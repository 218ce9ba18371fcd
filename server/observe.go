package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/docent-sh/docent/apitoken"
	"github.com/docent-sh/docent/internal/requestid"
	"github.com/docent-sh/docent/textsafe"
)

// requestInfo is what the handlers learn about a request that its log
// line and metrics need: who called, once the token is checked.
type requestInfo struct {
	id     string
	log    *slog.Logger
	caller *apitoken.Record
}

type infoKey struct{}

func infoOf(r *http.Request) *requestInfo {
	if info, ok := r.Context().Value(infoKey{}).(*requestInfo); ok {
		return info
	}
	return &requestInfo{log: slog.New(slog.DiscardHandler)}
}

// requestLog is the request's logger, carrying its id.
func requestLog(r *http.Request) *slog.Logger { return infoOf(r).log }

func setCaller(r *http.Request, rec apitoken.Record) {
	info := infoOf(r)
	info.caller = &rec
	// The token's public id names it in the log; the token never appears.
	info.log = info.log.With("token_id", rec.ID, "workspace", clip(rec.Workspace, 64))
}

// observed gives each request an id (the X-Request-Id header, in the
// response too), one JSON log line when it ends and its latency in the
// metrics under its route pattern, and turns a handler's panic into a 500.
func (s *Server) observed(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		began := time.Now()
		id := requestID(r.Header.Get("X-Request-Id"))
		w.Header().Set("X-Request-Id", id)
		info := &requestInfo{id: id, log: s.log.With(requestid.Key, id)}
		// The id in the context reaches the lines that the session and
		// what it calls log with it (requestid.Handler).
		r = r.WithContext(requestid.With(context.WithValue(r.Context(), infoKey{}, info), id))
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				info.log.Error("handler panicked", "panic", clip(textsafe.Line(toString(p)), 500))
				if !rec.wrote {
					writeError(rec, errInternal)
				}
			}
			// r.Pattern is set by the mux on this very request: the route's
			// pattern, never the raw path (unmatched paths share one label).
			route := r.Pattern
			if route == "" || route == "/" {
				route = "unmatched"
			}
			elapsed := time.Since(began)
			s.metrics.latency.WithLabelValues(route, methodLabel(r.Method), strconv.Itoa(rec.status)).Observe(elapsed.Seconds())
			level := slog.LevelInfo
			if rec.status >= 500 {
				level = slog.LevelError
			}
			info.log.Log(r.Context(), level, "request", "method", clip(r.Method, 16), "route", route,
				"path", clip(textsafe.Line(r.URL.Path), 200), "status", rec.status, "bytes", rec.bytes,
				"duration_ms", float64(elapsed.Microseconds())/1000, "remote", clip(r.RemoteAddr, 64))
		}()
		next.ServeHTTP(rec, r)
	})
}

// methodLabel bounds the method label: a client may send any token as
// its method, and each would be a new time series.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions:
		return m
	}
	return "other"
}

func toString(v any) string {
	if err, ok := v.(error); ok {
		return err.Error()
	}
	if s, ok := v.(string); ok {
		return s
	}
	return "non-string panic value"
}

// requestID keeps a caller's id when it is short and plain (a proxy's
// trace id), else makes one: a header is outside input and goes to logs.
func requestID(given string) string {
	if given != "" && len(given) <= 64 && strings.IndexFunc(given, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
	}) < 0 {
		return given
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// clip shortens s to at most n bytes on a rune boundary, for logs and
// messages that quote what a caller sent.
func clip(s string, n int) string {
	s = textsafe.Line(s)
	if len(s) <= n {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// statusRecorder remembers what a handler wrote, for the log and the
// metrics, and passes flushes through for server-sent events.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
	wrote  bool
}

func (s *statusRecorder) WriteHeader(code int) {
	if !s.wrote {
		s.status, s.wrote = code, true
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	s.wrote = true
	n, err := s.ResponseWriter.Write(b)
	s.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the connection (flushes,
// per-stream write deadlines).
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }
