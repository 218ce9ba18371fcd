package tui

import (
	"cmp"
	"context"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/prompt"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/textsafe"
)

// SessionBackend is the Backend over docent's chat session. The session
// stays free of TUI types; this adapter translates between them, reports
// the session's rolling figures (StatsReporter) and attaches the
// customer's app state for /context (ContextLoader).
type SessionBackend struct {
	s *assistant.Session

	mu        sync.Mutex
	attached  attachment // what /context last attached
	recording recording  // the conversation turns are recorded in; none until RecordTo
}

// attachment is the app state on the session, as /context shows it.
type attachment struct {
	path    string
	summary string
}

// NewSessionBackend wraps a session for the TUI.
func NewSessionBackend(s *assistant.Session) *SessionBackend {
	return &SessionBackend{s: s}
}

// Retrieve runs retrieval for one turn.
func (b *SessionBackend) Retrieve(ctx context.Context, req assistant.Request) (retrieval.Result, error) {
	req = b.nameTurn(ctx, req)
	res := b.s.Retrieve(ctx, req)
	b.recordRetrieved(ctx, req, res)
	return res, nil
}

// Answer writes and streams the answer for a result.
func (b *SessionBackend) Answer(ctx context.Context, res retrieval.Result, emit func(string)) (AnswerInfo, error) {
	began := time.Now()
	ans, err := b.s.Answer(ctx, res, emit)
	took := time.Since(began)
	info := AnswerInfo{
		Text: ans.Text, Provider: ans.Provider, Model: ans.Model, Notice: ans.Notice,
		Fallback: ans.Fallback, Stopped: ans.Stopped, TTFT: ans.TTFT, TokensPerSec: ans.TokensPerSec,
		Sources: ans.Sources,
	}
	// A clarification has no prompt, so there is no build report to show.
	if ans.ModelCalled {
		info.ContextLines = append(ans.Context.Lines(), ans.UsageLines()...)
		if spend := b.s.Spend().Line(); spend != "" {
			info.ContextLines = append(info.ContextLines, spend)
		}
	}
	b.recordAnswered(ctx, res, info, took)
	return info, err
}

// Enhance proposes terms for question and keeps those the docs write.
func (b *SessionBackend) Enhance(ctx context.Context, question string) (assistant.Enhancement, error) {
	return b.s.Enhance(ctx, question)
}

// SetRole picks the role of the following answers ("" for none).
func (b *SessionBackend) SetRole(name string) error { return b.s.SetRole(name) }

// Role is the role in use, "" for none.
func (b *SessionBackend) Role() string { return b.s.Role() }

// Roles lists the roles there are.
func (b *SessionBackend) Roles() []string { return b.s.Roles() }

// Stats returns the session's rolling retrieval figures.
func (b *SessionBackend) Stats() assistant.Stats { return b.s.Stats() }

// Size reports the knowledge base the session answers from now.
func (b *SessionBackend) Size() (docs, chunks int) { return b.s.Size() }

// LoadContext reads the app state in path (JSON or text, at most
// prompt.MaxAppStateBytes), attaches it to the session for the
// following answers and returns a one-line summary of it. On any error the
// previous attachment stays: a half-read file never reaches the prompt.
func (b *SessionBackend) LoadContext(ctx context.Context, path string) (string, error) {
	st, err := assistant.ReadAppState(ctx, path)
	if err != nil {
		return "", err
	}
	summary := describeAppState(st)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.s.SetApp(&st)
	b.attached = attachment{path: path, summary: summary}
	return summary, nil
}

// DetachContext removes the attached app state, if any.
func (b *SessionBackend) DetachContext() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.s.SetApp(nil)
	b.attached = attachment{}
}

// AttachedContext returns the file and summary of the attached app state;
// path is "" when none is attached.
func (b *SessionBackend) AttachedContext() (path, summary string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.attached.path, b.attached.summary
}

// summaryLead is how much of the first app-state line the summary quotes.
const summaryLead = 60

// describeAppState says in one line what was attached: the first line of
// the state (the page, when the JSON names one, since ParseAppState puts
// it first) and how many lines and widgets there are.
func describeAppState(st prompt.AppState) string {
	var counts []string
	if len(st.UI) > 0 {
		counts = append(counts, plural(len(st.UI), "line"))
	}
	if st.Format == "json" || len(st.Widgets) > 0 {
		counts = append(counts, plural(len(st.Widgets), "widget"))
	}
	count := strings.Join(counts, ", ")
	if len(st.UI) == 0 {
		return cmp.Or(count, "nothing to show the model")
	}
	lead := ansi.Truncate(textsafe.Line(st.UI[0].Text), summaryLead, "…")
	return lead + " (" + count + ")"
}
