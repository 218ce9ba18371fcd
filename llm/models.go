package llm

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/docent-sh/docent/llm/extractive"
	"github.com/docent-sh/docent/textsafe"
)

// langchaingo v0.1.14 has no model listing for any provider, so docent
// asks each API itself: OpenAI (and compatible servers) GET /models,
// Anthropic GET /models (paged), Ollama GET /api/tags.

// anthropicVersion is the API version header Anthropic requires, the one
// langchaingo's client sends.
const anthropicVersion = "2023-06-01"

// maxListBody bounds a listing's response: a few hundred models take
// tens of kilobytes.
const maxListBody = 8 << 20

// maxListPages bounds Anthropic's paging, against a server whose pages
// never end.
const maxListPages = 100

// ListModels returns the names of the models the selected provider offers,
// sorted, cleaned of terminal control sequences. The extractive responder
// has exactly one. The error names the provider and says what to check;
// it never holds the key.
func ListModels(ctx context.Context, sel Selection) ([]string, error) {
	if sel.Provider == ProviderExtractive {
		return []string{extractive.ModelName}, nil
	}
	if err := sel.applyTimeoutDefaults(); err != nil {
		return nil, fmt.Errorf("llm: %w", err)
	}
	if err := checkBaseURL(sel.BaseURL); err != nil {
		return nil, fmt.Errorf("%s: list models: %w", sel.Provider, err)
	}
	if sel.apiKey == "" && sel.keyEnvVar != "" && (sel.Provider == ProviderAnthropic || sel.BaseURL == defaultOpenAIBaseURL) {
		return nil, fmt.Errorf("%s: list models: %w: set %s", sel.Provider, ErrMissingKey, sel.keyEnvVar)
	}
	// A listing is one short answer; the first-token timeout bounds the wait
	// for it as it bounds the wait for an answer's first token.
	ctx, cancel := context.WithTimeoutCause(ctx, sel.FirstTokenTimeout, errListTimeout)
	defer cancel()
	l := lister{sel: sel, client: newHTTPClient(sel.ConnectTimeout, nil)}
	var names []string
	after := ""
	for page := 0; ; page++ {
		body, err := l.get(ctx, l.listURL(after))
		if err != nil {
			return nil, err
		}
		got, next, err := parseModelList(sel.Provider, body)
		if err != nil {
			return nil, fmt.Errorf("%s: list models: %w", sel.Provider, err)
		}
		names = append(names, got...)
		if next == "" || next == after || page+1 >= maxListPages {
			break
		}
		after = next
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

type lister struct {
	sel    Selection
	client *http.Client
}

func (l lister) listURL(after string) string {
	base := strings.TrimRight(l.sel.BaseURL, "/")
	switch l.sel.Provider {
	case ProviderOllama:
		return base + "/api/tags"
	case ProviderAnthropic:
		q := url.Values{"limit": {"1000"}}
		if after != "" {
			q.Set("after_id", after)
		}
		return base + "/models?" + q.Encode()
	}
	return base + "/models"
}

func (l lister) get(ctx context.Context, u string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: list models: %s", l.sel.Provider, Redact(err.Error(), l.sel.apiKey))
	}
	req.Header.Set("Accept", "application/json")
	switch {
	case l.sel.Provider == ProviderAnthropic:
		req.Header.Set("X-Api-Key", l.sel.apiKey)
		req.Header.Set("Anthropic-Version", anthropicVersion)
	case l.sel.apiKey != "":
		req.Header.Set("Authorization", "Bearer "+l.sel.apiKey)
	}
	resp, err := l.client.Do(req)
	if err != nil {
		if errors.Is(context.Cause(ctx), errListTimeout) {
			return nil, fmt.Errorf("%s: list models: no answer within %s (%w)", l.sel.Provider, l.sel.FirstTokenTimeout, errListTimeout)
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%s: list models: %w", l.sel.Provider, ctx.Err())
		}
		return nil, fmt.Errorf("%s: list models: %s", l.sel.Provider, l.sel.describeDialErr(err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxListBody))
	if err != nil {
		return nil, fmt.Errorf("%s: list models: read the answer: %s", l.sel.Provider, Redact(err.Error(), l.sel.apiKey))
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: list models: %s", l.sel.Provider, l.describeStatus(resp.StatusCode, body))
	}
	return body, nil
}

// describeStatus words a refused listing, with the provider's own message
// (redacted and cleaned) when it is not one docent can say better.
func (l lister) describeStatus(status int, body []byte) string {
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		if l.sel.keyEnvVar != "" {
			return fmt.Sprintf("authentication failed (%d): check %s", status, l.sel.keyEnvVar)
		}
		return fmt.Sprintf("authentication failed (%d): the server refused the request", status)
	case status == http.StatusNotFound:
		return "the server offers no model listing (404): check --base-url"
	}
	detail := fmt.Sprintf("the server answered %d", status)
	if msg := errorMessage(body); msg != "" {
		detail += ": " + textsafe.Clip(Redact(msg, l.sel.apiKey), 120)
	}
	return detail
}

// errorMessage is the message of a provider's error body: error.message
// (OpenAI, Anthropic) or the error string (Ollama).
func errorMessage(body []byte) string {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil || len(e.Error) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(e.Error, &s) == nil {
		return s
	}
	var obj struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(e.Error, &obj) == nil {
		return obj.Message
	}
	return ""
}

var errListTimeout = errors.New("first-token timeout")

// errNotAListing is wrapped when a listing's body is not the provider's
// listing format.
var errNotAListing = errors.New("the answer is not a model listing")

// parseModelList reads one page of a provider's listing: the model names
// (cleaned to one line each; empty ones left out) and, for Anthropic when
// more pages follow, the id to ask for the next page after.
func parseModelList(provider string, body []byte) (names []string, next string, err error) {
	switch provider {
	case ProviderOllama:
		var tags struct {
			Models *[]struct {
				Name  string `json:"name"`
				Model string `json:"model"`
			} `json:"models"`
		}
		if err := json.Unmarshal(body, &tags); err != nil || tags.Models == nil {
			return nil, "", fmt.Errorf("%w: want {\"models\": [...]} %s", errNotAListing, excerpt(body))
		}
		for _, m := range *tags.Models {
			names = appendName(names, cmp.Or(m.Name, m.Model))
		}
		return names, "", nil
	default: // OpenAI and Anthropic share the shape: {"data": [{"id": …}]}
		var list struct {
			Data *[]struct {
				ID string `json:"id"`
			} `json:"data"`
			HasMore bool   `json:"has_more"`
			LastID  string `json:"last_id"`
		}
		if err := json.Unmarshal(body, &list); err != nil || list.Data == nil {
			return nil, "", fmt.Errorf("%w: want {\"data\": [...]} %s", errNotAListing, excerpt(body))
		}
		for _, m := range *list.Data {
			names = appendName(names, m.ID)
		}
		if provider == ProviderAnthropic && list.HasMore {
			next = list.LastID
		}
		return names, next, nil
	}
}

func appendName(names []string, name string) []string {
	if name = textsafe.Line(strings.TrimSpace(name)); name != "" {
		names = append(names, name)
	}
	return names
}
