package postgres

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/docent-sh/docent/internal/redact"
)

var (
	urlUserinfoPassword = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://[^:@/?#]*:([^@/?#]*)@`)
	keywordPassword     = regexp.MustCompile(`(?:^|\s)(?:ssl)?password\s*=\s*('(?:[^'\\]|\\.)*'|\S+)`)
)

// newRedactor finds the secrets in a connection string, URL or keyword/value
// form, even one too malformed to parse. pgx already masks passwords in the
// errors it builds, but other layers (net/url, golang-migrate, a server
// echoing input) do not, so every error leaving this package passes
// through a redactor that knows the connection's secrets.
func newRedactor(connString string) *redact.Redactor {
	return redact.New(connSecrets(connString)...)
}

func connSecrets(connString string) []string {
	var secrets []string
	if u, err := url.Parse(connString); err == nil && u.Scheme != "" {
		if pw, ok := u.User.Password(); ok {
			secrets = append(secrets, pw)
		}
		for key, values := range u.Query() {
			if strings.EqualFold(key, "password") || strings.EqualFold(key, "sslpassword") {
				secrets = append(secrets, values...)
			}
		}
	}
	if m := urlUserinfoPassword.FindStringSubmatch(connString); m != nil {
		secrets = append(secrets, m[1])
	}
	for _, m := range keywordPassword.FindAllStringSubmatch(connString, -1) {
		secrets = append(secrets, strings.Trim(m[1], "'"))
	}
	return secrets
}
