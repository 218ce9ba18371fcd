// Package server is docent's HTTP API (`docent serve`): retrieval, one
// streamed chat turn, the docs list, health, readiness and metrics, over
// the same assistant session, stores and writer as the chat and `docent
// ask`. Every /api/ request is made as the workspace and user of its
// bearer token (package apitoken), never as anyone a body names.
package server

import (
	"cmp"
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/docent-sh/docent/apitoken"
	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/store"
)

// Sessions starts a session for one request, reading notes in scope: the
// command's long-lived session, whose Fork shares its engine and keeps it
// current with the store.
type Sessions interface {
	Fork(ctx context.Context, scope knowledge.Scope) *assistant.Session
	// Generation is the knowledge generation the engine was built from,
	// and Size its docs and chunks: metrics and readiness read them.
	Generation() int64
	Size() (docs, chunks int)
	// RetrievalOn is the team's kill switch as last read (no I/O).
	RetrievalOn() bool
}

// DocLister lists the stored docs.
type DocLister interface {
	ListDocs(ctx context.Context) ([]knowledge.DocSummary, error)
}

// Check is one readiness condition: nil when met.
type Check struct {
	Name  string
	Check func(ctx context.Context) error
}

// Limits bound what one caller may ask of the server.
type Limits struct {
	MaxBodyBytes  int64         // request bodies; 0: DefaultMaxBodyBytes
	MaxQueryChars int           // a question's length in characters; 0: DefaultMaxQueryChars
	Rate          float64       // requests per second per token, refilled continuously; 0: DefaultRate
	Burst         int           // requests a token may make at once; 0: DefaultBurst
	StreamTimeout time.Duration // how long one /api/ask stream may write; 0: DefaultStreamTimeout
}

// Defaults of Limits, written once: the flags of `docent serve` show them.
const (
	DefaultMaxBodyBytes  = 64 << 10
	DefaultMaxQueryChars = 4000 // retrieval.MaxQueryChars: what the engine reads of a question
	DefaultRate          = 5.0
	DefaultBurst         = 20
	DefaultStreamTimeout = 5 * time.Minute
)

func (l Limits) withDefaults() Limits {
	l.MaxBodyBytes = cmp.Or(l.MaxBodyBytes, DefaultMaxBodyBytes)
	l.MaxQueryChars = cmp.Or(l.MaxQueryChars, DefaultMaxQueryChars)
	l.Rate = cmp.Or(l.Rate, DefaultRate)
	l.Burst = cmp.Or(l.Burst, DefaultBurst)
	l.StreamTimeout = cmp.Or(l.StreamTimeout, DefaultStreamTimeout)
	return l
}

// Config is what a Server serves from.
type Config struct {
	Sessions Sessions
	Docs     DocLister
	Tokens   apitoken.Store
	// Conversations, when set, records every /api/ask turn in the
	// caller's conversations, lets conversation_id continue one and
	// /api/feedback rate a turn; nil: turns are not kept.
	Conversations store.Conversations
	Ready         []Check       // beyond the index being built, which is always checked
	Selection     llm.Selection // the answer writer, reported as ask --json does
	Limits        Limits
	// Log is the server's log, nil: discarded. Give the session the same
	// one, its handler wrapped in requestid.Handler, and the session's
	// lines name the request they were logged in.
	Log *slog.Logger
	Now func() time.Time
}

// Server is the HTTP API. Build it with New and serve Handler.
type Server struct {
	cfg     Config
	limits  Limits
	log     *slog.Logger
	metrics *metrics
	rate    *rateLimiter
	handler http.Handler
}

// New builds a server.
func New(cfg Config) *Server {
	s := &Server{cfg: cfg, limits: cfg.Limits.withDefaults(), log: cfg.Log}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.cfg.Now == nil {
		s.cfg.Now = time.Now
	}
	s.metrics = newMetrics(cfg.Sessions)
	s.rate = newRateLimiter(s.limits.Rate, s.limits.Burst, s.cfg.Now)
	s.handler = s.routes()
	return s
}

// Handler is the server's root handler.
func (s *Server) Handler() http.Handler { return s.handler }

// routes maps each pattern to its handler. The patterns are the metrics'
// route labels, so a label never holds a raw path.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	api := func(h func(http.ResponseWriter, *http.Request, apitoken.Record)) http.Handler {
		return s.authenticated(h)
	}
	mux.Handle("POST /api/retrieve", api(s.retrieve))
	mux.Handle("POST /api/ask", api(s.ask))
	mux.Handle("GET /api/docs", api(s.docs))
	mux.Handle("POST /api/feedback", api(s.feedback))
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /readyz", s.readyz)
	mux.Handle("GET /metrics", s.metrics.handler())
	// Anything else gets the API's JSON error, not the mux's plain text.
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if methods, ok := knownPaths[r.URL.Path]; ok {
			w.Header().Set("Allow", methods)
			writeError(w, errMethod(r.Method, r.URL.Path))
			return
		}
		writeError(w, errNotFound)
	})
	return s.observed(mux)
}

// knownPaths are the paths served, with their methods, so a wrong method
// gets 405 rather than 404.
var knownPaths = map[string]string{
	"/api/retrieve": "POST", "/api/ask": "POST", "/api/docs": "GET", "/api/feedback": "POST",
	"/healthz": "GET", "/readyz": "GET", "/metrics": "GET",
}
