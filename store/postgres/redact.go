package postgres

import (
	"errors"
	"net/url"
	"regexp"
	"strings"
)

// redactor removes a connection's secrets from error text. pgx already
// masks passwords in the errors it builds, but other layers (net/url,
// golang-migrate, a server echoing input) do not, so every error leaving
// this package passes through here.
type redactor struct {
	secrets []string
}

const redactedMark = "xxxxx"

var (
	urlUserinfoPassword = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://[^:@/?#]*:([^@/?#]*)@`)
	keywordPassword     = regexp.MustCompile(`(?:^|\s)(?:ssl)?password\s*=\s*('(?:[^'\\]|\\.)*'|\S+)`)
)

// newRedactor finds the secrets in a connection string, URL or keyword/value
// form, even one too malformed to parse.
func newRedactor(connString string) *redactor {
	r := &redactor{}
	if u, err := url.Parse(connString); err == nil && u.Scheme != "" {
		if pw, ok := u.User.Password(); ok {
			r.add(pw)
		}
		for key, values := range u.Query() {
			if strings.EqualFold(key, "password") || strings.EqualFold(key, "sslpassword") {
				for _, v := range values {
					r.add(v)
				}
			}
		}
	}
	if m := urlUserinfoPassword.FindStringSubmatch(connString); m != nil {
		r.add(m[1])
	}
	for _, m := range keywordPassword.FindAllStringSubmatch(connString, -1) {
		r.add(strings.Trim(m[1], "'"))
	}
	return r
}

// add registers a secret in every spelling it may appear in.
func (r *redactor) add(secret string) {
	if secret == "" {
		return
	}
	spellings := []string{secret, url.QueryEscape(secret), url.PathEscape(secret),
		url.UserPassword("u", secret).String()[2:]}
	if unescaped, err := url.QueryUnescape(secret); err == nil {
		spellings = append(spellings, unescaped)
	}
	for _, s := range spellings {
		if s != "" && !containsString(r.secrets, s) {
			r.secrets = append(r.secrets, s)
		}
	}
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func (r *redactor) string(s string) string {
	for _, secret := range r.secrets {
		s = strings.ReplaceAll(s, secret, redactedMark)
	}
	return s
}

// error returns err unchanged when its text holds no secret. Otherwise it
// returns an error with the secrets masked that still answers errors.Is
// (say, for context.DeadlineExceeded) but cannot be unwrapped back to the
// unmasked text.
func (r *redactor) error(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	masked := r.string(msg)
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
