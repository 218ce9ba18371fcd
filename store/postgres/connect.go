package postgres

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/docent-sh/docent/internal/redact"
)

// connectTimeout bounds connecting and the first ping, so a wrong or
// unreachable database fails fast at startup instead of hanging the TUI.
// A connect_timeout in the URL takes precedence.
const connectTimeout = 2 * time.Second

// target is a parsed database URL: what to say about it and what never to.
type target struct {
	config  *pgxpool.Config
	where   string // "host:port/database", safe to show
	redact  *redact.Redactor
	timeout time.Duration
}

func parseTarget(connString string) (target, error) {
	red := newRedactor(connString)
	cfg, err := pgxpool.ParseConfig(connString)
	if err != nil {
		return target{}, red.Error(fmt.Errorf("postgres: invalid database URL: %w", err))
	}
	// The password may also come from PGPASSWORD or a .pgpass file.
	red.Add(cfg.ConnConfig.Password)
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = connectTimeout
	}
	return target{
		config:  cfg,
		where:   describe(cfg.ConnConfig.Config),
		redact:  red,
		timeout: cfg.ConnConfig.ConnectTimeout,
	}, nil
}

// Secrets lists the secrets a connection string carries (its passwords),
// for a caller that must keep them out of its own output.
func Secrets(connString string) []string { return connSecrets(connString) }

// WithoutPassword returns the connection string with its passwords removed,
// so it can be shown in a command to copy; the password then comes from
// PGPASSWORD or ~/.pgpass. It returns "" for a string it cannot parse.
func WithoutPassword(connString string) string {
	if strings.Contains(connString, "://") {
		u, err := url.Parse(connString)
		if err != nil {
			return ""
		}
		if _, has := u.User.Password(); has {
			u.User = url.User(u.User.Username())
		}
		q := u.Query()
		for key := range q {
			if strings.EqualFold(key, "password") || strings.EqualFold(key, "sslpassword") {
				q.Del(key)
			}
		}
		u.RawQuery = q.Encode()
		return u.String()
	}
	if _, err := pgxpool.ParseConfig(connString); err != nil {
		return ""
	}
	return strings.TrimSpace(keywordPassword.ReplaceAllString(connString, ""))
}

// describe names a database by host, port and name only: users and
// passwords stay out of the status bar and of error messages.
func describe(c pgconn.Config) string {
	host := c.Host
	if !strings.HasPrefix(host, "/") {
		host = net.JoinHostPort(host, strconv.Itoa(int(c.Port)))
	} else {
		host = fmt.Sprintf("%s (port %d)", host, c.Port)
	}
	return printable(host + "/" + c.Database)
}

// printable drops control characters, so a hostile URL cannot smuggle
// terminal escape sequences into the status bar.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return -1
	}, s)
}

// connect opens a pool and proves it works with one ping, within the
// connect timeout.
func connect(ctx context.Context, t target) (*pgxpool.Pool, error) {
	pool, err := pgxpool.NewWithConfig(ctx, t.config)
	if err != nil {
		return nil, t.connectError(ctx, err)
	}
	pingCtx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	if err := pool.Ping(pingCtx); err != nil {
		pool.Close()
		return nil, t.connectError(ctx, err)
	}
	return pool, nil
}

// connectError explains a failed connection in terms of the target,
// distinguishing our timeout from the caller giving up.
func (t target) connectError(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		err = fmt.Errorf("connect to postgres %s: %w", t.where, ctx.Err())
	case errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err):
		err = fmt.Errorf("connect to postgres %s: timed out after %s: %w", t.where, t.timeout, context.DeadlineExceeded)
	default:
		err = fmt.Errorf("connect to postgres %s: %w", t.where, err)
	}
	return t.redact.Error(err)
}
