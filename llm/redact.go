package llm

import (
	"net/url"
	"regexp"
	"strings"
)

const redactedMark = "[redacted]"

// Patterns of credentials an error string can echo: auth headers a client
// or proxy repeats back, provider key formats, and key-like query
// parameters in URLs.
var secretPatterns = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`(?i)\b(x-api-key|api-key|authorization|openai-organization)(["']?\s*[:=]\s*["']?)(?:(?:bearer|basic)\s+)?[^\s"',;]+`), "$1$2" + redactedMark},
	{regexp.MustCompile(`(?i)\b(bearer)\s+[A-Za-z0-9._~+/=-]{8,}`), "$1 " + redactedMark},
	{regexp.MustCompile(`(?i)\b(basic)\s+[A-Za-z0-9+/]{8,}={0,2}`), "$1 " + redactedMark},
	{regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{8,}`), redactedMark},
	{regexp.MustCompile(`(?i)([?&](?:api[_-]?key|key|token|access_token|auth|password)=)[^&#\s"']+`), "$1" + redactedMark},
	{regexp.MustCompile(`(://[^/@\s:]*:)[^/@\s]+@`), "$1" + redactedMark + "@"},
}

// Redact removes secrets from s: every given secret (API keys the caller
// knows) and anything shaped like a credential (auth headers, sk-… keys,
// key=… query parameters, passwords in URLs). It is applied to every error
// string that could echo a request's headers or URL before the string
// reaches a log, a notice or an error.
func Redact(s string, secrets ...string) string {
	for _, secret := range secrets {
		// Very short "secrets" would shred ordinary words; real keys are long.
		if len(secret) >= 4 {
			s = strings.ReplaceAll(s, secret, redactedMark)
		}
	}
	for _, p := range secretPatterns {
		s = p.re.ReplaceAllString(s, p.repl)
	}
	return s
}

// redactURL hides the password of a URL's user info and key-like query
// parameters, so a base URL can be shown in a status bar or a log.
func redactURL(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "redacted")
			raw = u.String()
		}
	}
	return Redact(raw)
}
