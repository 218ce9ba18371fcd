package embed

import (
	"fmt"
	"log/slog"
	"time"
)

// Option configures New and Resolve.
type Option func(*options)

type options struct {
	batchSize      int
	requestTimeout time.Duration
	connectTimeout time.Duration
	maxRetries     int
	retryAfterMax  time.Duration
	backoffBase    time.Duration
	backoffMax     time.Duration
	log            *slog.Logger
}

func (o options) check() error {
	switch {
	case o.batchSize < 1:
		return fmt.Errorf("batch size %d: must be at least 1", o.batchSize)
	case o.requestTimeout <= 0:
		return fmt.Errorf("request timeout %s: must be positive", o.requestTimeout)
	case o.connectTimeout <= 0:
		return fmt.Errorf("connect timeout %s: must be positive", o.connectTimeout)
	case o.retryAfterMax < 0:
		return fmt.Errorf("Retry-After cap %s: must not be negative", o.retryAfterMax)
	}
	return nil
}

// WithBatchSize sets how many texts go in one request (default
// DefaultBatchSize).
func WithBatchSize(n int) Option { return func(o *options) { o.batchSize = n } }

// WithRequestTimeout bounds each batch's request (default
// DefaultRequestTimeout); a batch that times out is retried like a 5xx.
func WithRequestTimeout(d time.Duration) Option { return func(o *options) { o.requestTimeout = d } }

// WithConnectTimeout bounds connecting to the server (default
// DefaultConnectTimeout).
func WithConnectTimeout(d time.Duration) Option { return func(o *options) { o.connectTimeout = d } }

// WithRetries sets how many times a batch answered with 429, 5xx or a
// timeout is tried again (default DefaultMaxRetries; 0 turns retrying off)
// and the longest Retry-After waited for (default DefaultRetryAfterMax): a
// server asking for longer ends the retries at once.
func WithRetries(maxRetries int, retryAfterMax time.Duration) Option {
	return func(o *options) { o.maxRetries, o.retryAfterMax = max(maxRetries, 0), retryAfterMax }
}

// WithBackoff sets the first retry delay, doubled on each retry with
// jitter, and its ceiling (defaults 500 ms and 8 s). A server's
// Retry-After is waited for even when longer, up to the Retry-After cap.
func WithBackoff(base, ceiling time.Duration) Option {
	return func(o *options) { o.backoffBase, o.backoffMax = max(base, 0), max(ceiling, 0) }
}

// WithLogger sets where retries are logged (default slog.Default()).
// Nothing logged carries the key.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.log = l } }
