package tui

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/textsafe"
)

// /note saves the last answer, or the text typed after it, as a team
// note; /notes lists the notes the user may read. The flag comes first,
// as `docent notes add --private` has it.
const (
	noteCmd     = "/note"
	notesCmd    = "/notes"
	privateFlag = "--private"
)

const (
	// maxNoteTitle is how long a title made from a question or typed text
	// may be, in runes: it names the note in a one-line list.
	maxNoteTitle = 80
	// maxListedNotes is how many notes /notes puts in the transcript; the
	// CLI lists them all.
	maxListedNotes = 50
)

// noteCommand reports whether q is a /note command, and returns whether
// it asks for a private note and the text typed after it (kept as
// typed, line breaks included: it is the note's body).
func noteCommand(q string) (private bool, text string, ok bool) {
	rest, ok := strings.CutPrefix(q, noteCmd)
	if !ok || (rest != "" && !isSpace(rest[0])) {
		return false, "", false
	}
	text = strings.TrimSpace(rest)
	if after, found := strings.CutPrefix(text, privateFlag); found && (after == "" || isSpace(after[0])) {
		return true, strings.TrimSpace(after), true
	}
	return false, text, true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// noteTitle makes a one-line title from a question or typed text: its
// first line that is not blank, cut to maxNoteTitle runes.
func noteTitle(s string) string {
	for line := range strings.SplitSeq(s, "\n") {
		if t := textsafe.Clip(line, maxNoteTitle); t != "" {
			return t
		}
	}
	return ""
}

// noteSavedMsg is the outcome of /note.
type noteSavedMsg struct {
	note knowledge.NoteSummary
	err  error
}

// notesListedMsg is the outcome of /notes: the notes in the caller's
// scope, newest first.
type notesListedMsg struct {
	scope knowledge.Scope
	notes []knowledge.NoteSummary
	err   error
}

// noteKeeper returns the backend's notes, or says in the transcript why
// there are none.
func (m *Model) noteKeeper(cmd string) (NoteKeeper, bool) {
	k, ok := m.backend.(NoteKeeper)
	if !ok {
		m.say(cmd+" is not available: this chat keeps no notes (notes need a workspace: --workspace or DOCENT_WORKSPACE).", true)
	}
	return k, ok
}

// say adds one line from docent itself to the transcript.
func (m *Model) say(text string, failed bool) {
	r := roleInfo
	if failed {
		r = roleError
	}
	m.transcript.append(&message{role: r, text: text})
	m.transcript.bottom()
}

// runNote starts a /note command: the typed text, or else the last
// answer with its sources under the question it answered, is saved in
// a Cmd. No question is taken meanwhile, so the confirmation lands under
// the answer it saved.
func (m *Model) runNote(private bool, text string) tea.Cmd {
	keeper, ok := m.noteKeeper(noteCmd)
	if !ok {
		return nil
	}
	var title, body string
	if text != "" {
		title, body = noteTitle(text), textsafe.String(text)
	} else {
		ans := m.transcript.lastWritten()
		if ans == nil {
			m.say("Nothing to save yet: ask a question first, or type the note: "+noteCmd+" TEXT.", true)
			return nil
		}
		body = ans.footnoted().WithSources()
		title = cmp.Or(noteTitle(ans.question), noteTitle(body))
	}
	if strings.TrimSpace(body) == "" || title == "" {
		m.say("Nothing to save: the note would be empty.", true)
		return nil
	}
	m.startWork(savingNote)
	ctx := m.ctx
	return tea.Batch(func() tea.Msg {
		n, err := keeper.SaveNote(ctx, title, body, private)
		return noteSavedMsg{note: n, err: err}
	}, m.spin.Tick)
}

// runNotes starts a /notes command: the list is read in a Cmd.
func (m *Model) runNotes() tea.Cmd {
	keeper, ok := m.noteKeeper(notesCmd)
	if !ok {
		return nil
	}
	m.startWork(listingNotes)
	ctx := m.ctx
	return tea.Batch(func() tea.Msg { return listNotes(ctx, keeper) }, m.spin.Tick)
}

// listNotes reads the notes and keeps those the caller may read, newest
// first. The backend already lists no others; a note outside the scope
// here is its bug, and the screen still does not show it.
func listNotes(ctx context.Context, keeper NoteKeeper) notesListedMsg {
	scope := keeper.NoteScope()
	notes, err := keeper.ListNotes(ctx)
	if err != nil {
		return notesListedMsg{scope: scope, err: err}
	}
	kept := make([]knowledge.NoteSummary, 0, len(notes))
	for _, n := range notes {
		if scope.Visible(n.Workspace, n.Owner, n.Visibility) {
			kept = append(kept, n)
		}
	}
	if dropped := len(notes) - len(kept); dropped > 0 {
		slog.Warn("the notes list held notes outside the caller's scope; they are not shown", "dropped", dropped)
	}
	slices.SortStableFunc(kept, func(a, b knowledge.NoteSummary) int { return b.UpdatedAt.Compare(a.UpdatedAt) })
	return notesListedMsg{scope: scope, notes: kept}
}

func (m *Model) startWork(a activity) {
	m.activity = a
	m.started = m.clock()
	m.now = m.started
	m.transcript.bottom()
}

func (m *Model) handleNoteSaved(msg noteSavedMsg) {
	if m.activity != savingNote {
		return
	}
	m.activity = idle
	if msg.err != nil {
		m.say("Note not saved: "+textsafe.Line(errorText(msg.err)), true)
		return
	}
	what := "note"
	if msg.note.Visibility == knowledge.VisibilityPrivate {
		what = "private note"
	}
	m.say(fmt.Sprintf("Saved %s “%s” (id %s).", what, textsafe.Clip(msg.note.Title, maxNoteTitle), textsafe.Line(msg.note.ID)), false)
}

func (m *Model) handleNotesListed(msg notesListedMsg) {
	if m.activity != listingNotes {
		return
	}
	m.activity = idle
	if msg.err != nil {
		m.say("Notes not listed: "+textsafe.Line(errorText(msg.err)), true)
		return
	}
	m.transcript.append(&message{role: roleNotes, notes: &noteList{scope: msg.scope, notes: msg.notes}})
	m.transcript.bottom()
}

// noteList is what /notes found, kept with its message so it is laid
// out again for a new width.
type noteList struct {
	scope knowledge.Scope
	notes []knowledge.NoteSummary
}

// lines lays the list out like the skipped files: each note's title,
// and under it, dimmed, who sees it, whose it is, when it changed and
// its id (what `docent notes edit` and `rm` take).
func (l *noteList) lines(width int, st *styles) []string {
	ws := textsafe.Line(l.scope.Workspace)
	if len(l.notes) == 0 {
		text := "No notes in workspace " + ws + " yet: " + noteCmd + " saves the last answer, " + noteCmd + " TEXT a note of your own."
		return wrapPrefixed(text, width, "  ", "  ", st.dim)
	}
	head := wrapPrefixed(plural(len(l.notes), "note")+" in workspace "+ws+", yours and the team's, newest first:", width, "  ", "  ", st.dim)
	out := head
	for i, n := range l.notes {
		if i == maxListedNotes {
			more := fmt.Sprintf("… and %d more: docent notes list shows them all.", len(l.notes)-maxListedNotes)
			return append(out, wrapPrefixed(more, width, "  ", "  ", st.dim)...)
		}
		out = append(out, wrapPrefixed(textsafe.Line(n.Title), width, "  ", "    ", st.label)...)
		out = append(out, wrapPrefixed(l.detail(n), width, "    ", "    ", st.dim)...)
	}
	return out
}

// detail is a note's line under its title.
func (l *noteList) detail(n knowledge.NoteSummary) string {
	vis := textsafe.Line(string(n.Visibility))
	if n.Visibility == knowledge.VisibilityWorkspace {
		vis = "team"
	}
	owner := textsafe.Line(n.Owner)
	if n.Owner == l.scope.User {
		owner = "you"
	}
	updated := "—"
	if !n.UpdatedAt.IsZero() {
		updated = n.UpdatedAt.Local().Format("2006-01-02 15:04")
	}
	return strings.Join([]string{vis, owner, "updated " + updated, "id " + textsafe.Line(n.ID)}, " · ")
}
