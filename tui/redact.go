package tui

import (
	"github.com/docent-sh/docent/internal/redact"
	"github.com/docent-sh/docent/textsafe"
)

// errorText is an error as the screen shows it: sanitized and redacted.
// Errors come from the store and the model clients, which may quote a
// connection URL or a request. The backend should never put a secret in
// an error, but the screen is shared with whoever stands behind the
// support agent, so what it shows of an error is redacted once more.
func errorText(err error) string {
	return redact.String(textsafe.String(err.Error()))
}
