package tui

import (
	"regexp"

	"github.com/docent-sh/docent/textsafe"
)

// Errors come from the store and the model clients, which may quote a
// connection URL or a request. The backend should never put a secret in
// an error, but the screen is shared with whoever stands behind the
// support agent, so what it shows of an error is redacted once more.
var secretPatterns = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`(://[^/\s:@]*:)[^/\s@]+@`), "${1}***@"},                                               // postgres://user:password@host
	{regexp.MustCompile(`(?i)((?:api[_-]?key|token|secret|password|passwd)\s*[=:]\s*)[^\s&,;"']+`), "${1}***"}, // key=value
	{regexp.MustCompile(`(?i)(bearer\s+)[A-Za-z0-9._~+/=-]+`), "${1}***"},                                      // Authorization: Bearer …
	{regexp.MustCompile(`\b(sk-|sk_|xoxb-|ghp_|AIza)[A-Za-z0-9_-]{8,}`), "${1}***"},                            // provider key shapes
}

// errorText is an error as the screen shows it: sanitized and redacted.
func errorText(err error) string {
	s := textsafe.String(err.Error())
	for _, p := range secretPatterns {
		s = p.re.ReplaceAllString(s, p.repl)
	}
	return s
}
