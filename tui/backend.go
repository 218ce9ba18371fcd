// Package tui is docent's terminal chat: a transcript of questions and
// answers, clarification pills, an evidence pane and a debug pane. It talks
// to the rest of docent only through Backend, so the screen can be driven
// by the real engine and model, or by a test double.
package tui

import (
	"context"
	"time"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/cite"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
)

// Backend runs retrieval and answering for the TUI. The TUI only calls it
// from tea.Cmds, never from Update.
type Backend interface {
	// Retrieve runs retrieval for one turn.
	Retrieve(ctx context.Context, req assistant.Request) (retrieval.Result, error)
	// Answer writes the answer for a found or multi result, calling emit for
	// each streamed piece as it arrives. It returns when done or when ctx is
	// cancelled; then Stopped is true and the partial text is kept.
	Answer(ctx context.Context, res retrieval.Result, emit func(chunk string)) (AnswerInfo, error)
}

// StatsReporter is implemented by backends that keep rolling retrieval
// figures (latency percentiles, match and fallback rates) for the debug
// pane. The TUI asks for them in the same Cmd that retrieves, never from
// Update.
type StatsReporter interface {
	Stats() assistant.Stats
}

// SizeReporter is implemented by backends whose knowledge base can change
// while the TUI runs (a colleague seeds the shared store); the status bar
// follows it after each retrieval.
type SizeReporter interface {
	Size() (docs, chunks int)
}

// AnswerInfo describes one finished (or stopped) answer.
type AnswerInfo struct {
	Text         string
	Provider     string
	Model        string
	Notice       string // shown under the answer, e.g. why a fallback was used
	Fallback     bool   // the answer did not come from the model
	Stopped      bool
	TTFT         time.Duration
	TokensPerSec float64
	ContextLines []string // the context builder's report, for the debug pane
	// Sources are the chunks the writer was given, which its citations may
	// name; nil when unknown, and then the turn's evidence stands in.
	Sources []cite.Source
}

// Status is what the status bar shows about the running docent.
type Status struct {
	Docs, Chunks int
	Store        string // "embedded" or the PostgreSQL host
	Provider     string // "" when no model is configured
	Model        string
	Phase        int
	Context      string // the app-state file attached at start-up (--context), "" for none
	// Categories are the knowledge base's (docs folders), which /scope
	// picks from; Scope those the questions start scoped to (--scope).
	Categories []string
	Scope      []string
}

// Loader starts docent while the screen is already up: it reads the
// knowledge base, builds the index and returns the backend to chat with.
// The TUI calls it once, from a tea.Cmd, with a context that ends when the
// user quits; it must return soon after. progress may be called from any
// goroutine, as often as it likes: the screen shows the latest report.
type Loader func(ctx context.Context, progress func(Progress)) (Ready, error)

// Progress is one report of start-up: a step ("Reading 193 files") and,
// when it counts something, how far it got (120 of 193).
type Progress struct {
	Step        string
	Done, Total int // Total is 0 when the step has no count
}

// Ready is what start-up hands the chat.
type Ready struct {
	Backend Backend
	Status  Status
	Skipped []SkippedFile // knowledge base files that were not loaded
	Titles  []string      // the loaded docs' titles, for the first suggested question
	Notices []string      // one line each, shown under the welcome: what start-up set aside and why
	Quiz    QuizMaker     // what /quiz writes with; nil: no /quiz
	// Conversation, when not nil, is a recorded conversation to show at
	// once (docent --resume), already restored in the backend.
	Conversation *knowledge.Conversation
}

// SkippedFile is a knowledge base file start-up could not load, and why.
type SkippedFile struct {
	Path   string // relative to the knowledge base folder
	Reason string // "broken front matter: ...", with its line when there is one
}

// ContextLoader is implemented by backends that can attach the customer's
// app state to the following answers (/context FILE). The TUI calls it
// from tea.Cmds only: loading reads a file.
type ContextLoader interface {
	// LoadContext reads and attaches the app state in path, replacing any
	// attached before, and returns a one-line summary of it. On error
	// nothing changes.
	LoadContext(ctx context.Context, path string) (summary string, err error)
	// DetachContext removes the attached app state.
	DetachContext()
	// AttachedContext returns what is attached; path is "" when nothing is.
	AttachedContext() (path, summary string)
}

// RoleSelector is implemented by backends whose answers can be written in
// a role (/role NAME): an addition to the system prompt after its rules.
// Its methods only touch memory, so Update may call them.
type RoleSelector interface {
	// SetRole picks the role of the following answers; "" clears it. An
	// unknown name is an error naming the roles there are.
	SetRole(name string) error
	// Role is the role in use, "" for none.
	Role() string
	// Roles lists the names SetRole takes.
	Roles() []string
}

// NoteKeeper is implemented by backends that keep the team's notes
// (/note saves one, /notes lists them). SaveNote and ListNotes read and
// write the store, so the TUI calls them from tea.Cmds only; NoteScope
// only reads memory.
type NoteKeeper interface {
	// SaveNote adds a markdown note in the caller's workspace, owned by
	// the caller: private (the owner only) or seen by the whole workspace.
	// It returns the stored note's summary, with the id the store gave it.
	SaveNote(ctx context.Context, title, body string, private bool) (knowledge.NoteSummary, error)
	// ListNotes lists the notes the caller may read: their own, private or
	// not, and the workspace's. It never returns a note outside the
	// caller's scope.
	ListNotes(ctx context.Context) ([]knowledge.NoteSummary, error)
	// NoteScope is who is asking: the workspace and the user notes are
	// saved and listed for.
	NoteScope() knowledge.Scope
}

// ConversationKeeper is implemented by backends that record the chat as a
// conversation: /new starts another, /resume reopens one, /export writes
// it as markdown, and + and - rate the last answer. Resume, export and
// rating read and write the store, so the TUI calls them from tea.Cmds
// only; NewConversation only touches memory.
type ConversationKeeper interface {
	// NewConversation makes the next question start a new conversation,
	// with nothing remembered for the prompt.
	NewConversation()
	// ResumeConversation makes a stored conversation the current one (id,
	// a unique start of one, or "" for the latest) and restores its recent
	// messages for the prompt; it returns the conversation to show.
	ResumeConversation(ctx context.Context, id string) (knowledge.Conversation, error)
	// ExportConversation writes the current conversation as markdown to
	// file ("" names one) and returns the path written.
	ExportConversation(ctx context.Context, file string) (string, error)
	// RateLast rates the last recorded turn.
	RateLast(ctx context.Context, f knowledge.TurnFeedback) error
}
