package tui_test

import (
	"cmp"
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/internal/demo"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/tui"
)

// byRank is evidence in the order the evidence pane lists it.
func byRank(items []retrieval.Evidence) []retrieval.Evidence {
	out := slices.Clone(items)
	slices.SortStableFunc(out, func(a, b retrieval.Evidence) int { return cmp.Compare(b.RankScore, a.RankScore) })
	return out
}

// spinnerFrames are the spinner's frames; which one a frame catches
// depends on timing.
var spinnerFrames = regexp.MustCompile(`[⣾⣽⣻⢿⡿⣟⣯⣷]`)

// steadySpinner shows every spinner frame as the first, for goldens.
func steadySpinner(frame string) string { return spinnerFrames.ReplaceAllString(frame, "⣾") }

// pressUntil presses k until the frame shows want, one press per new
// frame (each press must change the screen), at most limit times.
func (s *session) pressUntil(k rune, limit int, want ...string) {
	s.t.Helper()
	for range limit {
		frame := s.screen.current()
		if containsAll(frame, want...) {
			return
		}
		s.press(k, 0)
		s.waitFor("the next frame", func(f string) bool { return f != frame })
	}
	if f := s.screen.current(); !containsAll(f, want...) {
		s.t.Fatalf("after %d presses the screen lacks %q:\n%s", limit, want, f)
	}
}

// TestExpandedEvidenceScrollsAt80x24: an expanded chunk taller than the
// pane scrolls line by line with ↓ until its last line shows, and only
// then does ↓ select the next item.
func TestExpandedEvidenceScrollsAt80x24(t *testing.T) {
	const q = "how do I create a workspace"
	top := byRank(engine(t).Ask(retrieval.Query{Text: q}).Results)[0]
	var lines []string
	for _, l := range strings.Split(top.Content, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) < 12 {
		t.Fatalf("demo KB: the top chunk for %q has %d lines; the test needs one taller than the pane", q, len(lines))
	}
	// The chunk's last words: its last line may wrap, and its opening
	// words may occur earlier.
	f := strings.Fields(lines[len(lines)-1])
	last := strings.Join(f[max(len(f)-2, 0):], " ")

	b, st := newDemoBackend(t)
	s := start(t, b, st, 80, 24)
	s.typeText(q)
	s.enter()
	// The steps are the answer (no pills): the docs answer it plainly.
	s.waitIdle(opening(expectAnswer(t, assistant.Request{Query: q}), 3))
	s.press(tea.KeyF2, 0)
	s.press(tea.KeyTab, 0)
	s.enter()
	s.waitText("▸ Evidence", "── "+top.ChunkID+" ──")
	if strings.Contains(s.screen.current(), last) {
		t.Fatalf("the whole chunk fits the pane; the test needs a taller one:\n%s", s.screen.current())
	}

	s.pressUntil(tea.KeyDown, 60, last)
	out := s.screen.current()
	if strings.Contains(out, "▸ 2 ") || strings.Contains(out, "── "+top.ChunkID) {
		t.Errorf("↓ left the expanded chunk instead of scrolling through it:\n%s", out)
	}
	golden.RequireEqual(t, out)

	s.press(tea.KeyDown, 0) // the chunk's end is shown: on to the next item
	s.waitText("▸ 2 ")
}

// TestBothPanesAt80x24: with both panes open on a small terminal each is
// usable: the debug pane scrolls to its end, and F4 gives one pane the
// whole body.
func TestBothPanesAt80x24(t *testing.T) {
	const q = "what is quick links"
	want := engine(t).Ask(retrieval.Query{Text: q})
	b, st := newDemoBackend(t)
	s := start(t, b, st, 80, 24)
	s.typeText(q)
	s.enter()
	s.waitIdle(opening(expectAnswer(t, assistant.Request{Query: q}), 3))
	s.press(tea.KeyF2, 0)
	s.press(tea.KeyF3, 0)

	t.Run("open", func(t *testing.T) {
		s.waitText("─ Evidence · 5 by rank", "▸ 1 "+byRank(want.Results)[0].Title, "─ Debug", "query     "+q)
		golden.RequireEqual(t, s.screen.current())
	})
	t.Run("debug scrolled to its end", func(t *testing.T) {
		s.press(tea.KeyTab, 0)
		s.press(tea.KeyTab, 0)
		s.press(tea.KeyEnd, 0)
		s.waitText("▸ Debug", "100%", "prompt: ")
		golden.RequireEqual(t, s.screen.current())
	})
	t.Run("debug zoomed", func(t *testing.T) {
		s.press(tea.KeyF4, 0)
		s.press(tea.KeyHome, 0)
		s.waitFor("the debug pane alone", func(f string) bool {
			return containsAll(f, "▸ Debug", "query     "+q, "top 5", "answer") && !strings.Contains(f, "Evidence") &&
				!strings.Contains(f, "› "+q)
		})
		golden.RequireEqual(t, s.screen.current())
	})
}

// TestThreeLineInput: the input grows with its lines, shows all three,
// and past five lines scrolls to keep the cursor's line in view.
func TestThreeLineInput(t *testing.T) {
	b, st := newDemoBackend(t)
	s := start(t, b, st, 80, 24)
	for i, line := range []string{"first line", "second line", "third line"} {
		if i > 0 {
			s.press(tea.KeyEnter, tea.ModAlt)
		}
		s.typeText(line)
	}
	s.waitText("─\n› first line\n› second line\n› third line\n")
	golden.RequireEqual(t, s.screen.current())

	for _, line := range []string{"fourth", "fifth", "sixth", "seventh"} {
		s.press(tea.KeyEnter, tea.ModAlt)
		s.typeText(line)
	}
	s.waitText("─\n› third line\n› fourth\n› fifth\n› sixth\n› seventh\n")
	for range 6 {
		s.press(tea.KeyUp, 0)
	}
	s.waitText("─\n› first line\n› second line\n› third line\n› fourth\n› fifth\n")
}

// TestHomeEndEditTheInput: Home, End, Ctrl+A and Ctrl+E move the cursor in
// the input; they neither scroll the transcript nor open a pane.
func TestHomeEndEditTheInput(t *testing.T) {
	b, st := newDemoBackend(t)
	s := start(t, b, st, 80, 24)
	s.typeText("abc")
	s.press(tea.KeyHome, 0)
	s.typeText("X")
	s.press(tea.KeyEnd, 0)
	s.typeText("Y")
	s.press('a', tea.ModCtrl)
	s.typeText("1")
	s.press('e', tea.ModCtrl)
	s.typeText("2")
	s.waitText("› 1XabcY2\n")
	out := s.screen.current()
	if strings.Contains(out, "Evidence") {
		t.Errorf("ctrl+e opened the evidence pane:\n%s", out)
	}
	golden.RequireEqual(t, out)
}

// TestQueuedMessage: a question sent while an answer streams is queued,
// marked as such, and sent when the answer ends.
func TestQueuedMessage(t *testing.T) {
	b, s := startAnswering(t)
	b.feed <- "Quick Links keeps your shortcuts."
	s.typeText("workspace")
	s.enter()
	s.waitText("Quick Links keeps your shortcuts.", "⧗ queued: workspace", "Answering…")
	if out := s.screen.current(); strings.Contains(out, "› workspace\n") {
		t.Fatalf("the queued question is in the transcript before its turn:\n%s", out)
	}
	t.Run("queued", func(t *testing.T) { golden.RequireEqual(t, steadySpinner(s.screen.current())) })

	close(b.end)
	s.waitIdle("› workspace", "Pick:")
	out := s.screen.current()
	if strings.Contains(out, "queued") || strings.Index(out, "Quick Links keeps") > strings.Index(out, "› workspace") {
		t.Fatalf("the queued question did not go out after the answer:\n%s", out)
	}
	t.Run("sent", func(t *testing.T) { golden.RequireEqual(t, out) })
}

// TestStartupProgressThenReady: the screen is up before docent is: it
// shows the loader's progress, then the knowledge base in the status bar
// (with the skipped files, listed by F5) and a question made from the
// docs' titles.
func TestStartupProgressThenReady(t *testing.T) {
	release := make(chan struct{})
	var titles []string
	for _, d := range demo.Docs(t) {
		titles = append(titles, d.Title)
	}
	load := func(ctx context.Context, progress func(tui.Progress)) (tui.Ready, error) {
		progress(tui.Progress{Step: "Reading 193 files", Done: 60, Total: 193})
		progress(tui.Progress{Step: "Reading 193 files", Done: 120, Total: 193})
		select {
		case <-release:
		case <-ctx.Done():
			return tui.Ready{}, ctx.Err()
		}
		b, st := newDemoBackend(t)
		return tui.Ready{Backend: b, Status: st, Titles: titles, Skipped: []tui.SkippedFile{
			{Path: "admin/broken.md", Reason: "line 3: broken front matter: a tab indents the line"},
			{Path: "api/huge.md", Reason: "file too large: 6.2 MB, the limit is 5 MB"},
		}}, nil
	}
	s := startLoading(t, load, 80, 24)

	t.Run("progress", func(t *testing.T) {
		s.waitText("Reading 193 files… 120/193", "starting…", "Loading the docs.")
		golden.RequireEqual(t, steadySpinner(s.screen.current()))
	})
	t.Run("ready", func(t *testing.T) {
		close(release)
		docs, chunks := engine(t).Size()
		s.waitFor("ready", func(f string) bool {
			return containsAll(f, "docs · ", "chunks · 2 skipped (f5)", "e.g. “tell me about ") && !strings.Contains(f, "Reading")
		})
		out := s.screen.current()
		if !strings.Contains(out, " "+strconv.Itoa(docs)+" docs · "+strconv.Itoa(chunks)+" chunks") {
			t.Errorf("the status bar does not show %d docs and %d chunks:\n%s", docs, chunks, out)
		}
		golden.RequireEqual(t, out)
	})
	t.Run("skipped files", func(t *testing.T) {
		s.press(tea.KeyF5, 0)
		s.waitText("Skipped files · 2 files", "admin/broken.md", "line 3: broken front matter", "api/huge.md")
		golden.RequireEqual(t, s.screen.current())
	})
}

// TestHelpAt60x20: the help is longer than a 60×20 screen; it scrolls
// with the page keys instead of closing, down to the typed commands.
func TestHelpAt60x20(t *testing.T) {
	b, st := newDemoBackend(t)
	s := start(t, b, st, 60, 20)
	s.typeText("?")
	s.waitText("Keys  (? or esc closes)", "enter", "send")
	t.Run("top", func(t *testing.T) { golden.RequireEqual(t, s.screen.current()) })
	s.pressUntil(tea.KeyPgDown, 10, "show the scope, top-k and alpha", "100%")
	t.Run("end", func(t *testing.T) { golden.RequireEqual(t, s.screen.current()) })
	s.press(tea.KeyEscape, 0)
	s.waitFor("help closed", func(f string) bool { return !strings.Contains(f, "Keys  (") })
}
