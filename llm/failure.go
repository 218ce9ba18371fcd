package llm

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"syscall"

	"github.com/docent-sh/docent/textsafe"
)

// failure is why a model call gave no answer, worded for the one line the
// user sees.
type failure struct {
	notice    string // "openai: authentication failed (401): check OPENAI_API_KEY"
	detail    string // the middle part, for "the answer broke off (…)"
	retryable bool
}

// classify words a failed call. The transport's record (status, dial
// error, stream error) is trusted over the client's error text, which
// langchaingo words differently for each provider.
func (r *Responder) classify(err error, res attemptResult, cause error) *failure {
	f := &failure{}
	var hint string
	switch {
	case errors.Is(cause, errFirstTokenTimeout) || errors.Is(err, errFirstTokenTimeout):
		f.detail = fmt.Sprintf("no answer within %s (first-token timeout)", r.sel.FirstTokenTimeout)
	case errors.Is(cause, errIdleTimeout) || errors.Is(err, errIdleTimeout):
		f.detail = fmt.Sprintf("idle timeout: no new token within %s", r.sel.IdleTimeout)
	case res.dialErr != nil:
		f.detail = r.sel.describeDialErr(res.dialErr)
	case res.status == http.StatusUnauthorized || res.status == http.StatusForbidden:
		f.detail = fmt.Sprintf("authentication failed (%d)", res.status)
		if r.sel.keyEnvVar != "" {
			hint = "check " + r.sel.keyEnvVar
		} else {
			hint = "the server refused the request"
		}
	case res.status == http.StatusNotFound:
		f.detail = fmt.Sprintf("model %q not found (404)", r.sel.Model)
		switch {
		case r.sel.Provider == ProviderOllama:
			hint = fmt.Sprintf("run `ollama pull %s` or check --model and --base-url", r.sel.Model)
		default:
			hint = "check --model and --base-url"
		}
	case res.status == http.StatusTooManyRequests && res.errorCode == "insufficient_quota":
		// Waiting does not refill a quota: OpenAI says so with this code.
		f.detail, hint = "quota exhausted (429 insufficient_quota)", "check the plan and billing of the account"
	case res.status == http.StatusTooManyRequests:
		f.detail, f.retryable = "rate limited (429)", true
	case res.status >= 500:
		f.detail, f.retryable = fmt.Sprintf("server error (%d)", res.status), true
	case res.status >= 400:
		f.detail = fmt.Sprintf("request rejected (%d): %s", res.status, safeDetail(err.Error(), 120, r.sel.apiKey))
	case res.streamErr != nil:
		f.detail = describeStreamErr(res.streamErr, r.sel.apiKey)
	case errors.Is(err, errEmptyAnswer):
		f.detail = "the model returned an empty answer"
	default:
		f.detail = "request failed: " + safeDetail(err.Error(), 120, r.sel.apiKey)
	}
	f.notice = r.sel.Provider + ": " + f.detail
	if hint != "" {
		f.notice += ": " + hint
	}
	return f
}

// describeStreamErr words what the stream validator found: an error the
// server reported, a malformed frame or a stream that broke off.
func describeStreamErr(err error, key string) string {
	var reported *streamFailure
	if errors.As(err, &reported) {
		return "the server reported an error in the stream: " + safeDetail(reported.message, 100, key)
	}
	return safeDetail(err.Error(), 140, key)
}

// safeDetail is a server's or a library's text made fit for a notice: one
// line without control sequences first, so that a key an escape code
// splits is whole again before the secrets are masked, then clipped to n.
func safeDetail(s string, n int, secrets ...string) string {
	return textsafe.Clip(Redact(textsafe.Line(s), secrets...), n)
}

// describeDialErr says why the server could not be reached, naming the
// host (never the URL's path or query, which could hold a key).
func (s Selection) describeDialErr(err error) string {
	host := s.BaseURL
	if u, perr := url.Parse(s.BaseURL); perr == nil && u.Host != "" {
		host = u.Host
	}
	var dnsErr *net.DNSError
	var netErr net.Error
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf("cannot connect to %s (connection refused): is the server running?", host)
	case errors.As(err, &dnsErr):
		return fmt.Sprintf("cannot resolve host %s", dnsErr.Name)
	case errors.As(err, &certErr), errors.As(err, &unknownAuth):
		return fmt.Sprintf("TLS certificate of %s is not trusted", host)
	case errors.As(err, &netErr) && netErr.Timeout():
		return fmt.Sprintf("cannot connect to %s within %s (connect timeout)", host, s.ConnectTimeout)
	}
	return fmt.Sprintf("cannot reach %s: %s", host, safeDetail(err.Error(), 100, s.apiKey))
}
