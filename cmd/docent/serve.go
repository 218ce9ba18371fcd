package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/apitoken"
	"github.com/docent-sh/docent/internal/requestid"
	"github.com/docent-sh/docent/server"
	"github.com/docent-sh/docent/store/postgres"
)

// serveOptions are docent serve's flags.
type serveOptions struct {
	addr              string
	shutdownTimeout   time.Duration
	readHeaderTimeout time.Duration
	readTimeout       time.Duration
	idleTimeout       time.Duration
	limits            server.Limits
}

// Defaults of serve's flags that are not the server package's.
const (
	defaultServeAddr         = "127.0.0.1:8080" // loopback: exposing the API is a deliberate choice
	defaultShutdownTimeout   = 30 * time.Second
	defaultReadHeaderTimeout = 10 * time.Second
	defaultReadTimeout       = 30 * time.Second // a request body is small; this is not the stream's time
	defaultIdleTimeout       = 2 * time.Minute
)

func newServeCmd(e *env) *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve [--addr HOST:PORT]",
		Short: "Serve the HTTP API: retrieval, streamed answers, the docs list, health and metrics",
		Long: "serve answers HTTP requests with the same session, stores and answer writer as the chat:\n" +
			"POST /api/retrieve (ask --json's object), POST /api/ask (one turn as server-sent events),\n" +
			"GET /api/docs, /healthz, /readyz and /metrics. Every /api/ request needs\n" +
			"Authorization: Bearer TOKEN (docent tokens create); it acts as the token's workspace and user.\n" +
			"Logs are JSON lines on stderr. SIGINT or SIGTERM stops accepting requests, lets streams\n" +
			"in flight finish for up to --shutdown-timeout, then closes the store.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runServe(cmd, e, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", defaultServeAddr, "address to listen on (port 0: any free port, printed on start)")
	f.DurationVar(&o.shutdownTimeout, "shutdown-timeout", defaultShutdownTimeout, "on SIGINT/SIGTERM, how long streams in flight may go on before they are cut")
	f.DurationVar(&o.readHeaderTimeout, "read-header-timeout", defaultReadHeaderTimeout, "time to read a request's headers")
	f.DurationVar(&o.readTimeout, "read-timeout", defaultReadTimeout, "time to read a whole request (headers and body)")
	f.DurationVar(&o.idleTimeout, "idle-timeout", defaultIdleTimeout, "how long an idle keep-alive connection stays open")
	f.DurationVar(&o.limits.StreamTimeout, "stream-timeout", server.DefaultStreamTimeout, "how long one /api/ask stream may write")
	f.Float64Var(&o.limits.Rate, "rate", server.DefaultRate, "requests per second each token may make, on average")
	f.IntVar(&o.limits.Burst, "burst", server.DefaultBurst, "requests a token may make at once before --rate applies")
	f.Int64Var(&o.limits.MaxBodyBytes, "max-body", server.DefaultMaxBodyBytes, "largest request body, in bytes")
	f.IntVar(&o.limits.MaxQueryChars, "max-query", server.DefaultMaxQueryChars, "longest question, in characters")
	return cmd
}

func (o serveOptions) validate() error {
	switch {
	case o.limits.Rate <= 0 || o.limits.Burst < 1:
		return usageErrorf("--rate must be above 0 and --burst at least 1")
	case o.limits.MaxBodyBytes < 1024:
		return usageErrorf("--max-body must be at least 1024 bytes")
	case o.limits.MaxQueryChars < 1:
		return usageErrorf("--max-query must be at least 1")
	case o.shutdownTimeout < 0 || o.readHeaderTimeout <= 0 || o.readTimeout <= 0 || o.idleTimeout <= 0 || o.limits.StreamTimeout <= 0:
		return usageErrorf("the timeouts must be above 0 (--shutdown-timeout may be 0: cut streams at once)")
	}
	return nil
}

func runServe(cmd *cobra.Command, e *env, o serveOptions) error {
	if err := o.validate(); err != nil {
		return err
	}
	ctx := cmd.Context()
	// A server's log is its output: JSON lines on stderr, every value
	// through the redactor, as the log file's are.
	// Lines logged with a request's context (the session's) name it.
	e.log = slog.New(requestid.Handler(slog.NewJSONHandler(cmd.ErrOrStderr(), e.logOptions())))
	e.serving = true

	a, err := e.startApp(ctx, false, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	defer a.Close()
	a.follow()
	tokens, ready := e.serveStores(a)
	srv := server.New(server.Config{
		Sessions: a.session, Docs: a.store, Tokens: tokens, Ready: ready,
		Conversations: e.conversationsOf(a.store),
		Selection:     a.selection, Limits: o.limits, Log: e.log,
	})

	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("serve: listen on %s: %w", o.addr, err)
	}
	hs := &http.Server{
		Handler:           srv.Handler(),
		ReadHeaderTimeout: o.readHeaderTimeout,
		ReadTimeout:       o.readTimeout,
		// No WriteTimeout: an answer streams for as long as it takes,
		// bounded per stream by --stream-timeout instead.
		IdleTimeout:    o.idleTimeout,
		MaxHeaderBytes: 16 << 10,
		ErrorLog:       slog.NewLogLogger(e.log.Handler(), slog.LevelWarn),
		// Requests do not inherit the signal's context: a stream in
		// flight goes on during the shutdown's grace period.
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	docs, chunks := a.session.Size()
	e.log.Info("serving", "addr", ln.Addr().String(), "store", a.store.Describe(), "docs", docs, "chunks", chunks,
		"writer", a.selection.String())
	fmt.Fprintf(cmd.ErrOrStderr(), "docent: serving http://%s\n", ln.Addr())

	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	e.log.Info("shutting down: no new requests; waiting for streams in flight", "grace", o.shutdownTimeout.String())
	shutCtx, cancel := context.WithTimeout(context.Background(), o.shutdownTimeout)
	defer cancel()
	// A second signal cuts the grace period short: whoever sends it does
	// not want to wait.
	again := make(chan os.Signal, 1)
	signal.Notify(again, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(again)
	go func() {
		select {
		case <-again:
			e.log.Warn("second signal: cutting streams in flight")
			cancel()
		case <-shutCtx.Done():
		}
	}()
	if err := hs.Shutdown(shutCtx); err != nil {
		// The grace period is over: cut what is left (their request
		// contexts end, which cancels their model calls).
		e.log.Warn("streams still in flight after the grace period: closing them", "err", err)
		hs.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve on %s: %w", ln.Addr(), err)
	}
	e.log.Info("stopped")
	e.stopped = true
	return nil
}

// serveStores are the API tokens the server checks (the database's when
// it has one, else the token file) and its readiness checks: the store
// answers and, for PostgreSQL, its schema is current.
func (e *env) serveStores(a *app) (apitoken.Store, []server.Check) {
	storeCheck := server.Check{Name: "store", Check: func(ctx context.Context) error {
		_, err := a.store.Generation(ctx)
		return err
	}}
	if pg, ok := a.store.(*postgres.Store); ok {
		return pg.APITokens(), []server.Check{storeCheck, {Name: "migrations", Check: pg.Ready}}
	}
	file := e.tokenFile()
	return file, []server.Check{storeCheck, {Name: "tokens", Check: func(ctx context.Context) error {
		_, err := file.ListTokens(ctx)
		return err
	}}}
}
