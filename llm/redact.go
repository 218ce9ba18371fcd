package llm

import "github.com/docent-sh/docent/internal/redact"

const redactedMark = redact.Mark

// Redact removes secrets from s: every given secret (API keys the caller
// knows, also when echoed without their prefix) and anything shaped like a
// credential. It is applied to every error string that could echo a
// request's headers or URL before the string reaches a log, a notice or an
// error.
func Redact(s string, secrets ...string) string { return redact.String(s, secrets...) }

// redactURL hides the password of a URL's user info and key-like query
// parameters, so a base URL can be shown in a status bar or a log.
func redactURL(raw string) string { return redact.URL(raw) }
