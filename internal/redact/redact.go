// Package redact removes secrets from text before it reaches a log, an
// error, a notice or the screen. It is the one place docent does this: the
// LLM clients, the PostgreSQL store, the TUI and the CLI all use it, so a
// key pattern learnt once is caught everywhere.
//
// Two things are masked: every secret the caller knows (an API key, a
// database password), in each spelling it may be echoed in, and anything
// shaped like a credential (auth headers, provider key formats, key=…
// parameters, passwords in URLs).
package redact

import (
	"cmp"
	"errors"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Mark replaces every secret.
const Mark = "[redacted]"

const (
	// minKeyLen is the shortest API key String masks verbatim: a
	// placeholder key ("x") must not shred ordinary words, and real keys
	// are far longer. Add, for passwords, has no such floor.
	minKeyLen = 4
	// minPartLen bounds the partial spellings of a secret (a key without
	// its "sk-" prefix): shorter tails would match unrelated text.
	minPartLen = 8
)

// patterns are credentials an error string can echo: passwords in URLs,
// auth headers a client or proxy repeats back, provider key formats and
// key-like parameters. Each has a cheap test, may, that every text it
// matches passes: a text that fails it is not run through the expression.
// docent serve logs a question and a path or two per request, which
// almost never hold a ':' or an '=' (FuzzPatternFilters keeps the tests
// honest).
var patterns = []struct {
	re   *regexp.Regexp
	repl string
	may  func(s string) bool
}{
	{regexp.MustCompile(`(://[^/@\s:]*:)[^/@\s]+@`), "${1}" + Mark + "@",
		func(s string) bool { return strings.Contains(s, "://") && strings.Contains(s, "@") }},
	{regexp.MustCompile(`(?i)\b(x-api-key|api-key|proxy-authorization|authorization|openai-organization)(["']?\s*[:=]\s*["']?)(?:(?:bearer|basic)\s+)?[^\s"',;]+`), "${1}${2}" + Mark,
		func(s string) bool {
			return strings.ContainsAny(s, ":=") && containsFold(s, "api-key", "authorization", "openai-organization")
		}},
	{regexp.MustCompile(`(?i)\b(bearer)\s+[A-Za-z0-9._~+/=-]{8,}`), "${1} " + Mark,
		func(s string) bool { return containsFold(s, "bearer") }},
	{regexp.MustCompile(`(?i)\b(basic)\s+[A-Za-z0-9+/]{8,}={0,2}`), "${1} " + Mark,
		func(s string) bool { return containsFold(s, "basic") }},
	{regexp.MustCompile(`\b(?:sk-|sk_|xoxb-|ghp_|github_pat_|AIza)[A-Za-z0-9_-]{8,}`), Mark,
		func(s string) bool {
			return strings.Contains(s, "sk-") || strings.Contains(s, "sk_") || strings.Contains(s, "xoxb-") ||
				strings.Contains(s, "ghp_") || strings.Contains(s, "github_pat_") || strings.Contains(s, "AIza")
		}},
	{regexp.MustCompile(`(?i)([?&](?:api[_-]?key|key|token|access_token|auth|password)=)[^&#\s"']+`), "${1}" + Mark,
		func(s string) bool { return strings.Contains(s, "=") && strings.ContainsAny(s, "?&") }},
	{regexp.MustCompile(`(?i)\b((?:api[_-]?key|token|secret|password|passwd)\s*[=:]\s*)[^\s&,;"']+`), "${1}" + Mark,
		func(s string) bool {
			return strings.ContainsAny(s, ":=") && containsFold(s, "key", "token", "secret", "passw")
		}},
}

// containsFold reports whether s may contain one of words (lower-case
// ASCII) under the patterns' (?i): ASCII letters of any case. A text with
// any other byte is let through, since Unicode folding also matches a few
// other letters ("K" is the Kelvin sign too).
func containsFold(s string, words ...string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return true
		}
	}
	for _, w := range words {
		for i := 0; i+len(w) <= len(s); i++ {
			if asciiEqualFold(s[i:i+len(w)], w) {
				return true
			}
		}
	}
	return false
}

// asciiEqualFold compares ASCII s with the lower-case word w, ignoring case.
func asciiEqualFold(s, w string) bool {
	for i := 0; i < len(w); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[i] {
			return false
		}
	}
	return true
}

// Redactor masks a set of known secrets plus the credential patterns. Add
// every secret before sharing it between goroutines; after that it is
// read-only and safe for concurrent use.
type Redactor struct {
	secrets []string // longest first, so no spelling is masked only in part
}

// New returns a redactor for the given secrets (passwords, keys) however
// short; empty ones are ignored.
func New(secrets ...string) *Redactor {
	r := &Redactor{}
	for _, s := range secrets {
		r.Add(s)
	}
	return r
}

// Add registers a secret in every spelling it may be echoed in: as is,
// escaped for a URL's query, path or user info, unescaped, and without the
// leading dash-separated prefixes of a key ("sk-proj-…" is also caught as
// "proj-…" and as its bare body), which some servers strip before quoting
// it back.
func (r *Redactor) Add(secret string) {
	if secret == "" {
		return
	}
	spellings := []string{secret, url.QueryEscape(secret), url.PathEscape(secret),
		url.UserPassword("u", secret).String()[2:]}
	if unescaped, err := url.QueryUnescape(secret); err == nil {
		spellings = append(spellings, unescaped)
	}
	for rest := secret; ; {
		_, after, ok := strings.Cut(rest, "-")
		if !ok || len(after) < minPartLen {
			break
		}
		spellings = append(spellings, after)
		rest = after
	}
	for _, s := range spellings {
		if s != "" && !slices.Contains(r.secrets, s) {
			r.secrets = append(r.secrets, s)
		}
	}
	slices.SortStableFunc(r.secrets, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
}

// String returns s with every known secret and every credential-shaped
// substring replaced by Mark.
func (r *Redactor) String(s string) string {
	if r != nil {
		for _, secret := range r.secrets {
			s = strings.ReplaceAll(s, secret, Mark)
		}
	}
	for _, p := range patterns {
		if p.may(s) {
			s = p.re.ReplaceAllString(s, p.repl)
		}
	}
	return s
}

// Error returns err unchanged when its text needs no masking. Otherwise it
// returns an error with the masked text that still answers errors.Is (say,
// for context.DeadlineExceeded) but cannot be unwrapped back to the
// unmasked text.
func (r *Redactor) Error(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	masked := r.String(msg)
	if masked == msg {
		return err
	}
	return &redactedError{msg: masked, cause: err}
}

type redactedError struct {
	msg   string
	cause error
}

func (e *redactedError) Error() string { return e.msg }

func (e *redactedError) Is(target error) bool { return errors.Is(e.cause, target) }

// AddKey registers an API key like Add, except that a key shorter than
// four bytes is a placeholder, not a secret, and is ignored.
func (r *Redactor) AddKey(key string) {
	if len(key) >= minKeyLen {
		r.Add(key)
	}
}

// String masks the given API keys (see AddKey) and every credential
// pattern in s.
func String(s string, keys ...string) string {
	r := &Redactor{}
	for _, k := range keys {
		r.AddKey(k)
	}
	return r.String(s)
}

// URL hides the password of a URL's user info and key-like query
// parameters, keeping the rest readable, so an address can be shown in a
// status bar or a log.
func URL(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "redacted")
			raw = u.String()
		}
	}
	return String(raw)
}
