package redact

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// llm/redact_test.go checks the header, key and URL shapes through
// llm.Redact, which is this package's String; these cases add the rest.
func TestString(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		secrets []string
		want    string
	}{
		{name: "key echoed without its sk- prefix", in: "invalid key proj-Zq81HxT0aL93mNb7", secrets: []string{"sk-proj-Zq81HxT0aL93mNb7"}, want: "invalid key [redacted]"},
		{name: "key body alone", in: "key Zq81HxT0aL93mNb7 revoked", secrets: []string{"sk-proj-Zq81HxT0aL93mNb7"}, want: "key [redacted] revoked"},
		{name: "query-escaped password", in: "dial postgres://h/db?password=p%40ss%2Fword failed", secrets: []string{"p@ss/word"}, want: "dial postgres://h/db?password=[redacted] failed"},
		{name: "github token shape", in: "push with ghp_abcdefghijklmnop1234 denied", want: "push with [redacted] denied"},
		{name: "key=value", in: "openai: 401 invalid api_key=sk-abc123def456ghi789", want: "openai: 401 invalid api_key=[redacted]"},
		{name: "password keyword", in: "host=db password=pw port=5", want: "host=db password=[redacted] port=5"},
		{name: "postgres url", in: "dial postgres://docent:s3cret@db.internal:5432/docent: refused", want: "dial postgres://docent:[redacted]@db.internal:5432/docent: refused"},
		{name: "short tail not registered", in: "use the abc-def route", secrets: []string{"xyz-abc-def"}, want: "use the abc-def route"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := String(tt.in, tt.secrets...); got != tt.want {
				t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestStringLeavesProseAlone(t *testing.T) {
	for _, in := range []string{
		"the password reset link expired",
		"a secret santa is not a credential",
		"token budget exceeded: 4096 tokens",
	} {
		if got := String(in); got != in {
			t.Errorf("String(%q) = %q, want it unchanged", in, got)
		}
	}
}

func TestError(t *testing.T) {
	r := New("hunter2-secret")
	plain := errors.New("nothing to hide")
	if got := r.Error(plain); got != plain {
		t.Errorf("Error(%v) = %v, want the same error back", plain, got)
	}
	cause := fmt.Errorf("connect as hunter2-secret: %w", context.DeadlineExceeded)
	got := r.Error(cause)
	if strings.Contains(got.Error(), "hunter2") || !strings.Contains(got.Error(), Mark) {
		t.Errorf("Error text = %q", got)
	}
	if !errors.Is(got, context.DeadlineExceeded) {
		t.Error("the masked error no longer matches context.DeadlineExceeded")
	}
	for e := errors.Unwrap(got); e != nil; e = errors.Unwrap(e) {
		if strings.Contains(e.Error(), "hunter2") {
			t.Errorf("unwrapping reveals the secret: %q", e)
		}
	}
	if r.Error(nil) != nil {
		t.Error("Error(nil) != nil")
	}
	// A password may be short; a redactor built for it still masks it.
	if got := New("pw").String("user u with pw"); got != "user u with [redacted]" {
		t.Errorf("short password: %q", got)
	}
}

// A nil redactor still applies the patterns, so a zero value is safe.
func TestNilRedactor(t *testing.T) {
	var r *Redactor
	if got := r.String("Bearer abcdefghijk"); got != "Bearer [redacted]" {
		t.Errorf("nil redactor: %q", got)
	}
}

// Whatever the text around it, a known secret never survives, in any
// spelling Add registers.
func FuzzString(f *testing.F) {
	f.Add("request with sk-proj-Zq81HxT0aL93mNb7 failed", "sk-proj-Zq81HxT0aL93mNb7")
	f.Add("proj-Zq81HxT0aL93mNb7", "sk-proj-Zq81HxT0aL93mNb7")
	f.Add("postgres://u:p%40ss@h/db", "p@ss")
	f.Add("Authorization: Bearer abc.def-ghi x-api-key: k", "abcdefgh")
	f.Add("aaaaaaaaab", "aaab")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, s, secret string) {
		got := String(s, secret)
		// The mark itself is made of letters and brackets: a "secret" that
		// is part of it, or that contains a bracket, can be re-formed by
		// the replacement and is no real key.
		if len(secret) < minKeyLen || strings.ContainsAny(secret, "[]") || strings.Contains(Mark, secret) {
			return
		}
		if strings.Contains(got, secret) {
			t.Errorf("String(%q, %q) = %q still holds the secret", s, secret, got)
		}
	})
}

// Each pattern's cheap test passes every text the pattern matches: with
// or without the tests, the credential patterns mask the same.
func FuzzPatternFilters(f *testing.F) {
	for _, s := range []string{
		"postgres://u:secret@h/db", "Authorization: Bearer abc.def-ghi", "X-API-KEY=abcdefgh",
		"proxy-authorization: basic QWxhZGRpbjpvcGVu", "sk-proj-Zq81HxT0aL93mNb7", "github_pat_11ABCDEFG0123",
		"https://h/x?api_key=abc&token=def", "PASSWD = hunter22", "api_\u212Aey: abcdefgh", "pa\u017F\u017Fword=abcdefgh",
		"how do I rename a workspace", "POST /api/retrieve", "127.0.0.1:53245", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for i, p := range patterns {
			if !p.may(s) && p.re.MatchString(s) {
				t.Errorf("pattern %d matches %q but its test skips it", i, s)
			}
		}
	})
}

// BenchmarkStringProse is what a server pays per logged value: a question
// and a path, which no pattern matches.
func BenchmarkStringProse(b *testing.B) {
	r := New("hunter22-secret-password")
	for b.Loop() {
		r.String("how do I move a note to another workspace")
		r.String("/api/retrieve")
		r.String("127.0.0.1:53245")
	}
}
