package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
)

func TestNoteCommandParsing(t *testing.T) {
	tests := []struct {
		in      string
		private bool
		text    string
		isIt    bool
	}{
		{"/note", false, "", true},
		{"/note   ", false, "", true},
		{"/note Reset the import first", false, "Reset the import first", true},
		{"/note\tline one\nline two ", false, "line one\nline two", true},
		{`/note "quoted"`, false, `"quoted"`, true}, // a note's text is kept as typed
		{"/note --private", true, "", true},
		{"/note --private VPN drops at 5pm", true, "VPN drops at 5pm", true},
		{"/note --private\nsecond line", true, "second line", true},
		{"/note --privately yes", false, "--privately yes", true},
		{"/note private beta", false, "private beta", true}, // only the flag makes it private
		{"/notes", false, "", false},
		{"/notebook", false, "", false},
		{"note this", false, "", false},
		{"what is /note", false, "", false},
	}
	for _, tt := range tests {
		private, text, ok := noteCommand(tt.in)
		if private != tt.private || text != tt.text || ok != tt.isIt {
			t.Errorf("noteCommand(%q) = %v, %q, %v; want %v, %q, %v", tt.in, private, text, ok, tt.private, tt.text, tt.isIt)
		}
	}
}

// FuzzNoteCommand: the command is recognised exactly when the input is
// /note alone or followed by white space, and its text is the rest of
// the input, byte for byte, without the flag and the white space around.
func FuzzNoteCommand(f *testing.F) {
	for _, s := range []string{"/note", "/note x", "/note --private", "/note --private  a\nb", "/notes", "/note\xff", "/note \xff--private"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		private, text, ok := noteCommand(q)
		rest, isNote := strings.CutPrefix(q, noteCmd)
		wantOK := isNote && (rest == "" || strings.ContainsRune(" \t\n\r", rune(rest[0])))
		if ok != wantOK {
			t.Fatalf("noteCommand(%q) ok = %v, want %v", q, ok, wantOK)
		}
		if !ok {
			if private || text != "" {
				t.Fatalf("noteCommand(%q) is no command but returned %v, %q", q, private, text)
			}
			return
		}
		arg := strings.TrimSpace(rest)
		want := arg
		if after, found := strings.CutPrefix(arg, privateFlag); found && (after == "" || strings.ContainsRune(" \t\n\r", rune(after[0]))) {
			want = strings.TrimSpace(after)
			if !private {
				t.Fatalf("noteCommand(%q): the flag was not read", q)
			}
		} else if private {
			t.Fatalf("noteCommand(%q): private without the flag", q)
		}
		if text != want {
			t.Fatalf("noteCommand(%q) text = %q, want %q", q, text, want)
		}
	})
}

// FuzzNoteTitle: a title is one line of at most maxNoteTitle runes with
// no control character, made from the first line with any text.
func FuzzNoteTitle(f *testing.F) {
	for _, s := range []string{"", "Reset the import", "\n\n  second\nthird", strings.Repeat("long ", 40), "a\x1b[2Jb\r\nc", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		title := noteTitle(s)
		if !utf8.ValidString(title) || utf8.RuneCountInString(title) > maxNoteTitle {
			t.Fatalf("noteTitle(%q) = %q: invalid UTF-8 or longer than %d runes", s, title, maxNoteTitle)
		}
		for _, r := range title {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Fatalf("noteTitle(%q) = %q holds control %U", s, title, r)
			}
		}
		if title != strings.TrimSpace(title) {
			t.Fatalf("noteTitle(%q) = %q has white space at its ends", s, title)
		}
	})
}

// keeperBackend is a fakeBackend that keeps notes in memory for one
// scope, as a store would.
type keeperBackend struct {
	fakeBackend
	scope   knowledge.Scope
	mu      sync.Mutex
	saved   []savedNote
	listed  []knowledge.NoteSummary // what ListNotes returns, scope or not
	saveErr error
	listErr error
	titleAs func(string) string // the title the store reports back, when set
	release chan struct{}       // when set, SaveNote waits for it
}

type savedNote struct {
	title, body string
	private     bool
}

func newKeeperBackend() *keeperBackend {
	return &keeperBackend{fakeBackend: *cannedBackend(), scope: knowledge.Scope{Workspace: "acme", User: "ana"}}
}

func (b *keeperBackend) SaveNote(ctx context.Context, title, body string, private bool) (knowledge.NoteSummary, error) {
	if b.release != nil {
		<-b.release
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.saveErr != nil {
		return knowledge.NoteSummary{}, b.saveErr
	}
	b.saved = append(b.saved, savedNote{title, body, private})
	vis := knowledge.VisibilityWorkspace
	if private {
		vis = knowledge.VisibilityPrivate
	}
	if b.titleAs != nil {
		title = b.titleAs(title)
	}
	return knowledge.NoteSummary{ID: fmt.Sprintf("n-%d", len(b.saved)), Workspace: b.scope.Workspace, Owner: b.scope.User,
		Visibility: vis, Title: title}, nil
}

func (b *keeperBackend) ListNotes(context.Context) ([]knowledge.NoteSummary, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.listed, b.listErr
}

func (b *keeperBackend) NoteScope() knowledge.Scope { return b.scope }

func TestNoteSavesTheLastAnswer(t *testing.T) {
	b := newKeeperBackend()
	h := newHarness(t, b, 100, 30)
	h.ask("explain workspace")
	h.ask("/note")
	if len(b.saved) != 1 {
		t.Fatalf("saved %d notes, want 1", len(b.saved))
	}
	got := b.saved[0]
	// The body is the answer as Ctrl+Y copies it: with its sources.
	want := h.m.transcript.lastWritten().footnoted().WithSources()
	if got.title != "explain workspace" || got.body != want || got.private {
		t.Errorf("saved %+v, want the question as title, body %q, team-visible", got, want)
	}
	if !strings.Contains(got.body, "A workspace belongs to an entry and holds notes.") {
		t.Errorf("the body lacks the answer: %q", got.body)
	}
	out := ansi.Strip(h.content())
	if !strings.Contains(out, "Saved note “explain workspace” (id n-1).") {
		t.Errorf("no confirmation:\n%s", out)
	}
	if strings.Contains(out, "› /note") || len(b.requests) != 1 {
		t.Errorf("/note was sent as a question: %+v\n%s", b.requests, out)
	}
	if h.m.activity != idle {
		t.Errorf("activity %v after the save, want idle", h.m.activity)
	}
}

// A picked pill's answer is saved under the question the pill answered.
func TestNoteSavesAPickedAnswerUnderItsQuestion(t *testing.T) {
	b := newKeeperBackend()
	h := newHarness(t, b, 100, 30)
	h.ask("workspace")
	h.typeText("2")
	h.ask("/note --private")
	if len(b.saved) != 1 || b.saved[0].title != "workspace" || !b.saved[0].private {
		t.Fatalf("saved %+v, want one private note titled with the question", b.saved)
	}
	if out := ansi.Strip(h.content()); !strings.Contains(out, "Saved private note “workspace” (id n-1).") {
		t.Errorf("no confirmation of the private note:\n%s", out)
	}
}

func TestNoteSavesTypedText(t *testing.T) {
	b := newKeeperBackend()
	h := newHarness(t, b, 100, 30)
	h.typeText("/note Reset the import first")
	h.key(tea.KeyEnter, tea.ModAlt) // a second line: the body, not the title
	h.typeText("then retry the sync")
	h.key(tea.KeyEnter, 0)
	h.ask("/note --private VPN drops at 5pm")
	want := []savedNote{
		{"Reset the import first", "Reset the import first\nthen retry the sync", false},
		{"VPN drops at 5pm", "VPN drops at 5pm", true},
	}
	if fmt.Sprint(b.saved) != fmt.Sprint(want) {
		t.Fatalf("saved %+v, want %+v", b.saved, want)
	}
	out := ansi.Strip(h.content())
	for _, w := range []string{"Saved note “Reset the import first” (id n-1).", "Saved private note “VPN drops at 5pm” (id n-2)."} {
		if !strings.Contains(out, w) {
			t.Errorf("no %q:\n%s", w, out)
		}
	}
}

// Only a written answer is saved: a question docent asked back is no
// answer, and neither is a reply that nothing was found.
func TestNoteWithNothingToSave(t *testing.T) {
	b := newKeeperBackend()
	h := newHarness(t, b, 100, 30)
	h.ask("/note")
	h.ask("workspace") // ambiguous: docent asks which one
	h.key(tea.KeyEscape, 0)
	h.ask("/note")
	if len(b.saved) != 0 {
		t.Fatalf("saved %+v with no answer written", b.saved)
	}
	out := ansi.Strip(h.content())
	if n := strings.Count(out, "! Nothing to save yet: ask a question first, or type the note: /note TEXT."); n != 2 {
		t.Errorf("%d messages that there is nothing to save, want 2:\n%s", n, out)
	}
}

func TestNoteCommandsWithoutNoteKeeper(t *testing.T) {
	b := cannedBackend()
	h := newHarness(t, b, 120, 30)
	h.ask("explain workspace")
	h.ask("/note")
	h.ask("/note --private text")
	h.ask("/notes")
	out := ansi.Strip(h.content())
	for _, cmd := range []string{"/note", "/notes"} {
		want := "! " + cmd + " is not available: this chat keeps no notes (notes need a workspace: --workspace or DOCENT_WORKSPACE)."
		if !strings.Contains(out, want) {
			t.Errorf("no %q:\n%s", want, out)
		}
	}
	if len(b.requests) != 1 || h.m.activity != idle {
		t.Errorf("requests %+v, activity %v: a note command was sent as a question or left docent busy", b.requests, h.m.activity)
	}
}

func TestNoteErrorsAreOneRedactedLine(t *testing.T) {
	b := newKeeperBackend()
	b.saveErr = errors.New("save note: connect postgres://u:hunter2@db/x:\nrefused")
	b.listErr = errors.New("list notes: token=abcdef")
	h := newHarness(t, b, 120, 30)
	h.ask("/note a thing to keep")
	h.ask("/notes")
	out := ansi.Strip(h.content())
	if strings.Contains(out, "hunter2") || strings.Contains(out, "abcdef") {
		t.Fatalf("a secret from an error reached the screen:\n%s", out)
	}
	for _, want := range []string{"! Note not saved: save note: connect postgres://u:[redacted]@db/x: refused",
		"! Notes not listed: list notes: token=[redacted]"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q:\n%s", want, out)
		}
	}
	if h.m.activity != idle {
		t.Errorf("activity %v after failing, want idle", h.m.activity)
	}
}

// TestQuestionWaitsForTheNote: a question sent while the note is written
// is queued, so the confirmation lands under the answer it saved and not
// inside the next one.
func TestQuestionWaitsForTheNote(t *testing.T) {
	b := newKeeperBackend()
	b.release = make(chan struct{})
	h := newHarness(t, b, 100, 30)
	h.typeText("/note keep this")
	// Drive Update by hand: the harness would run the blocked save.
	next, cmd := h.m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	h.m = next.(Model)
	if h.m.activity != savingNote || cmd == nil {
		t.Fatalf("after /note: activity %v, cmd %v; want saving with a Cmd", h.m.activity, cmd != nil)
	}
	if !strings.Contains(ansi.Strip(h.content()), "Saving the note…") {
		t.Errorf("no progress line while saving:\n%s", ansi.Strip(h.content()))
	}
	h.ask("explain workspace")
	if len(b.requests) != 0 {
		t.Fatalf("a question went out while the note was saved: %+v", b.requests)
	}
	close(b.release)
	for _, msg := range run(cmd) {
		h.send(msg)
	}
	out := ansi.Strip(h.content())
	saved, asked := strings.Index(out, "Saved note “keep this”"), strings.Index(out, "› explain workspace")
	if len(b.requests) != 1 || saved < 0 || asked < saved {
		t.Errorf("the queued question did not go out after the confirmation: %+v\n%s", b.requests, out)
	}
}

// /note typed while an answer is written waits for it, then saves it.
func TestNoteQueuedWhileAnsweringSavesThatAnswer(t *testing.T) {
	b := newKeeperBackend()
	h := newHarness(t, b, 100, 30)
	h.hold = func(msg tea.Msg) bool { _, ok := msg.(streamDoneMsg); return ok }
	h.ask("explain workspace")
	h.ask("/note")
	if len(b.saved) != 0 || len(h.m.queue) != 1 {
		t.Fatalf("saved %+v, queue %q while answering; want the note queued", b.saved, h.m.queue)
	}
	h.release()
	if len(b.saved) != 1 || !strings.Contains(b.saved[0].body, "and holds notes.") {
		t.Fatalf("saved %+v, want the finished answer", b.saved)
	}
}

var (
	listedAt = time.Date(2026, 1, 2, 9, 30, 0, 0, time.Local)
	ownTeam  = knowledge.NoteSummary{ID: "n-1", Workspace: "acme", Owner: "ana", Visibility: knowledge.VisibilityWorkspace,
		Title: "Reset a stuck import", UpdatedAt: listedAt}
	ownPrivate = knowledge.NoteSummary{ID: "n-2", Workspace: "acme", Owner: "ana", Visibility: knowledge.VisibilityPrivate,
		Title: "My VPN workaround", UpdatedAt: listedAt.Add(time.Hour)}
	teammates = knowledge.NoteSummary{ID: "n-3", Workspace: "acme", Owner: "bo", Visibility: knowledge.VisibilityWorkspace,
		Title: "Refunds over 30 days", UpdatedAt: listedAt.Add(-24 * time.Hour)}
	othersPrivate = knowledge.NoteSummary{ID: "n-4", Workspace: "acme", Owner: "bo", Visibility: knowledge.VisibilityPrivate,
		Title: "Bo's private draft", UpdatedAt: listedAt}
	otherTeam = knowledge.NoteSummary{ID: "n-5", Workspace: "globex", Owner: "cy", Visibility: knowledge.VisibilityWorkspace,
		Title: "Globex escalations", UpdatedAt: listedAt}
)

func TestNotesListsYoursAndTheTeams(t *testing.T) {
	b := newKeeperBackend()
	// A backend that lists too much still shows nothing outside the scope.
	b.listed = []knowledge.NoteSummary{ownTeam, othersPrivate, teammates, otherTeam, ownPrivate}
	h := newHarness(t, b, 100, 40)
	h.ask("/notes")
	out := ansi.Strip(h.content())
	when := func(t time.Time) string { return t.Local().Format("2006-01-02 15:04") }
	want := strings.Join([]string{
		"  3 notes in workspace acme, yours and the team's, newest first:",
		"  My VPN workaround",
		"    private · you · updated " + when(ownPrivate.UpdatedAt) + " · id n-2",
		"  Reset a stuck import",
		"    team · you · updated " + when(ownTeam.UpdatedAt) + " · id n-1",
		"  Refunds over 30 days",
		"    team · bo · updated " + when(teammates.UpdatedAt) + " · id n-3",
	}, "\n")
	if !strings.Contains(trimLines(out), want) {
		t.Errorf("the list is not\n%s\nscreen:\n%s", want, out)
	}
	for _, hidden := range []string{"Bo's private draft", "Globex escalations", "n-4", "n-5"} {
		if strings.Contains(out, hidden) {
			t.Errorf("%q is outside the scope but on screen:\n%s", hidden, out)
		}
	}
}

func TestNotesListEmptyAndLong(t *testing.T) {
	b := newKeeperBackend()
	h := newHarness(t, b, 120, 30)
	h.ask("/notes")
	if out := ansi.Strip(h.content()); !strings.Contains(out, "No notes in workspace acme yet: /note saves the last answer, /note TEXT a note of your own.") {
		t.Errorf("no word for an empty list:\n%s", out)
	}
	for i := range maxListedNotes + 7 {
		n := teammates
		n.ID, n.Title = fmt.Sprintf("id-%d", i), fmt.Sprintf("Note %d", i)
		b.listed = append(b.listed, n)
	}
	h.ask("/notes")
	msg := h.m.transcript.msgs[len(h.m.transcript.msgs)-1]
	text := ansi.Strip(strings.Join(msg.lines, "\n"))
	if got := strings.Count(text, "· id id-"); got != maxListedNotes {
		t.Errorf("%d notes listed, want %d", got, maxListedNotes)
	}
	if !strings.Contains(text, "… and 7 more: docent notes list shows them all.") {
		t.Errorf("no word for the notes left out:\n%s", text)
	}
}

func TestHintShowsDimmedUnderTheReply(t *testing.T) {
	b := cannedBackend()
	for k, res := range b.results {
		res.Hint = "Notes\nunavailable."
		b.results[k] = res
	}
	h := newHarness(t, b, 100, 30)
	h.ask("explain workspace")
	out := ansi.Strip(h.content())
	answer, hint := strings.Index(out, "and holds notes."), strings.Index(out, "  Notes unavailable.")
	if answer < 0 || hint < answer {
		t.Errorf("the hint is not under the answer, on one line:\n%s", out)
	}
	if !strings.Contains(h.content(), h.m.st.dim.Render("Notes unavailable.")) {
		t.Errorf("the hint is not dimmed:\n%q", h.content())
	}
	h.ask("workspace")
	out = ansi.Strip(h.content())
	if n := strings.Count(out, "Notes unavailable."); n != 2 {
		t.Errorf("%d hints, want one under the answer and one under the clarification:\n%s", n, out)
	}
	if strings.LastIndex(out, "Notes unavailable.") < strings.Index(out, "Do you mean") {
		t.Errorf("the second hint is not under the clarification:\n%s", out)
	}
}

func TestNoteControlSequencesNeverReachTheScreen(t *testing.T) {
	b := newKeeperBackend()
	b.scope = knowledge.Scope{Workspace: "acme" + hostile, User: "ana"}
	b.titleAs = func(title string) string { return title + hostile }
	for k, res := range b.results {
		res.Hint = "hint " + hostile
		b.results[k] = res
	}
	n := ownTeam
	n.Workspace, n.Title, n.ID = b.scope.Workspace, "title "+hostile, "id"+hostile
	other := teammates
	other.Workspace, other.Owner = b.scope.Workspace, "bo"+hostile
	odd := other
	odd.Title, odd.Visibility = "odd", knowledge.Visibility("team"+hostile)
	b.listed = []knowledge.NoteSummary{n, other, odd}
	h := newHarness(t, b, 120, 50)
	h.ask("explain workspace")
	h.ask("/note")
	h.ask("/notes")
	h.ask("workspace")
	checkEscapes(t, "notes and hints", h.content())
	out := ansi.Strip(h.content())
	for _, want := range []string{"Saved note “explain workspacesafe text”", "title safe text", "id idsafe text", "hint safe text",
		"team · bosafe text · updated", "in workspace acmesafe text"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q not on screen:\n%s", want, out)
		}
	}
	// An unknown visibility is nobody's to read: that note is not listed.
	if strings.Contains(out, "odd") {
		t.Errorf("a note of unknown visibility was listed:\n%s", out)
	}
}

// trimLines drops the blanks at each line's end, as a person reads it.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// The two corpora's pills keep their bracket and their "Docs: " or
// "Notes: " start when a title is too long for the screen.
func TestLongPillLabelsAreCutInsideTheirBrackets(t *testing.T) {
	st := newStyles(true)
	long := "Notes: " + strings.Repeat("a very long note title ", 8)
	p := newPills([]retrieval.Option{{Label: "Docs: Workspace", DocSlug: "concepts/workspace"}, {Label: long, DocSlug: "notes/n-1"}})
	for _, width := range []int{30, 60, 80} {
		lines := p.lines(width, &st)
		text := ansi.Strip(strings.Join(lines, "\n"))
		if !strings.Contains(text, "▸[1 Docs: Workspace]") || !strings.Contains(text, " [2 Notes: a very") || !strings.Contains(text, "…]") {
			t.Errorf("width %d: pills\n%s", width, text)
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > width {
				t.Errorf("width %d: a pill line is %d cells: %q", width, w, ansi.Strip(l))
			}
		}
		p.move(1)
		compact := ansi.Strip(p.compact(width, &st)[0])
		p.move(-1)
		if !strings.Contains(compact, "▸[2 Notes: ") || !strings.HasSuffix(compact, "…]") || ansi.StringWidth(compact) > width {
			t.Errorf("width %d: compact pill %q", width, compact)
		}
	}
}
