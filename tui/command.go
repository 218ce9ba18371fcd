package tui

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/docent-sh/docent/textsafe"
)

// Commands are typed into the input like questions: /context attaches the
// customer's app state (the page they are on, their widgets) so the
// following answers take it into account; /role, /note and /notes are in
// their own files.
const (
	contextCmd = "/context"
	contextOff = "off"
)

// command is one form of a typed command, for the help.
type command struct {
	usage, desc string
}

// commands are listed by `?` next to the key bindings; runContext handles
// exactly these forms.
var commands = []command{
	{contextCmd + " FILE", "attach the customer's app state (JSON, text)"},
	{contextCmd, "show the attached app state"},
	{contextCmd + " " + contextOff, "detach it"},
	{roleCmd + " NAME", "write the following answers in a role"},
	{roleCmd, "show the role and the roles there are"},
	{roleCmd + " " + roleOff, "back to no role"},
	{noteCmd + " [TEXT]", "save TEXT or the last answer as a team note"},
	{noteCmd + " " + privateFlag, "the same, as a note only you see"},
	{notesCmd, "list your notes and the team's"},
	{quizCmd + " [SLUG]", "a quiz on a doc, or on the docs in scope"},
	{scopeCmd + " CAT,…", "search only these categories of docs"},
	{scopeCmd, "search every category again"},
	{setCmd + " top-k N", "keep at most N chunks of evidence (1–100)"},
	{setCmd + " alpha X", "embedding weight in the ranking (0 to 1)"},
	{setCmd, "show the scope, top-k and alpha"},
	{enhanceCmd + " [TEXT]", "search with words a model adds"},
	{newCmd, "start a new conversation"},
	{resumeCmd + " [ID]", "reopen the last conversation, or ID"},
	{exportCmd + " [FILE]", "write this conversation as markdown"},
	{"+ / -", "rate the last answer (input empty)"},
}

// commandBindings presents the commands to the help view, which lays out
// bindings. They are never matched against keys.
func commandBindings() []key.Binding {
	out := make([]key.Binding, len(commands))
	for i, c := range commands {
		out[i] = key.NewBinding(key.WithKeys(c.usage), key.WithHelp(c.usage, c.desc))
	}
	return out
}

// contextCommand reports whether q is a /context command and returns its
// argument, without surrounding quotes (a dragged-in path often has them).
func contextCommand(q string) (arg string, ok bool) { return commandArg(q, contextCmd) }

// commandArg reports whether q is the command name and returns its
// argument, without surrounding quotes.
func commandArg(q, name string) (arg string, ok bool) {
	rest, ok := strings.CutPrefix(q, name)
	if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
		return "", false
	}
	arg = strings.TrimSpace(rest)
	if len(arg) >= 2 && (arg[0] == '"' || arg[0] == '\'') && arg[len(arg)-1] == arg[0] {
		arg = arg[1 : len(arg)-1]
	}
	return arg, true
}

// contextMsg is the outcome of a /context command, as one transcript
// line, and the file attached after it ("" for none) for the status bar.
type contextMsg struct {
	text     string
	failed   bool
	attached string
}

// runContext starts a /context command. Loading reads a file, so it runs
// in a Cmd; no question is taken meanwhile, so the next answer is sure to
// see the new state.
func (m *Model) runContext(arg string) tea.Cmd {
	loader, ok := m.backend.(ContextLoader)
	if !ok {
		m.transcript.append(&message{role: roleError, text: "/context is not available: this backend cannot attach app state."})
		return nil
	}
	m.activity = attaching
	m.started = m.clock()
	m.now = m.started
	m.transcript.bottom()
	return tea.Batch(contextCmdFor(m.ctx, loader, arg), m.spin.Tick)
}

func contextCmdFor(ctx context.Context, loader ContextLoader, arg string) tea.Cmd {
	switch arg {
	case "":
		return func() tea.Msg {
			path, summary := loader.AttachedContext()
			if path == "" {
				return contextMsg{text: "No context attached: " + contextCmd + " FILE attaches the customer's app state."}
			}
			return contextMsg{text: "Context attached from " + textsafe.Line(path) + ": " + textsafe.Line(summary), attached: path}
		}
	case contextOff:
		return func() tea.Msg {
			path, _ := loader.AttachedContext()
			loader.DetachContext()
			if path == "" {
				return contextMsg{text: "No context was attached."}
			}
			return contextMsg{text: "Context from " + textsafe.Line(path) + " detached."}
		}
	}
	return func() tea.Msg {
		summary, err := loader.LoadContext(ctx, arg)
		if err != nil {
			text := "Context not loaded: " + textsafe.Line(errorText(err))
			path, _ := loader.AttachedContext()
			if path != "" {
				text += " (" + textsafe.Line(path) + " stays attached)"
			}
			return contextMsg{text: text, failed: true, attached: path}
		}
		return contextMsg{text: "Context loaded from " + textsafe.Line(arg) + ": " + textsafe.Line(summary), attached: arg}
	}
}

func (m *Model) handleContext(msg contextMsg) {
	if m.activity != attaching {
		return
	}
	m.activity = idle
	m.context = msg.attached
	role := roleInfo
	if msg.failed {
		role = roleError
	}
	m.transcript.append(&message{role: role, text: msg.text})
}
