package tui

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/cite"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/retrieval/analysis"
)

var (
	workspaceEvidence = retrieval.Evidence{
		DocSlug: "concepts/workspace", Title: "Workspace", Category: "concepts",
		HeaderPath: "Workspace > Overview", Score: 7.5, RankScore: 12.25,
		Snippet:      "A workspace belongs to an entry and holds notes.",
		Content:      "## Overview\n\nA workspace belongs to an entry and holds notes.\nEvery entry has an Inbox workspace.",
		MatchedTerms: []string{"workspace"}, SourcePath: "concepts/workspace.md",
		ChunkID: "concepts/workspace#chunk-1", ChunkIndex: 1,
	}
	actionsEvidence = retrieval.Evidence{
		DocSlug: "actions/workspaces", Title: "Workspace Actions", Category: "actions",
		HeaderPath: "Workspace Actions > Create", Score: 6, RankScore: 10,
		Snippet: "Create a workspace from the navigator.", MatchedTerms: []string{"workspace"},
		SourcePath: "actions/workspaces.md", ChunkID: "actions/workspaces#chunk-1", ChunkIndex: 1,
	}
	workspaceOptions = []retrieval.Option{
		{Label: "Workspace", DocSlug: "concepts/workspace", Category: "concepts"},
		{Label: "Workspace Actions", DocSlug: "actions/workspaces", Category: "actions"},
	}
)

func cannedBackend() *fakeBackend {
	found := retrieval.Result{Query: "explain workspace", Status: retrieval.StatusFound,
		Results:          []retrieval.Evidence{workspaceEvidence},
		NormalizedTokens: []string{"workspace"}, Confidence: 0.8, Rule: "found", Metrics: retrieval.Metrics{Phase: 2, RetrievalMS: 0.4}}
	actions := found
	actions.Results = []retrieval.Evidence{actionsEvidence}
	return &fakeBackend{
		results: map[string]retrieval.Result{
			"explain workspace": found,
			"workspace": {Query: "workspace", Status: retrieval.StatusAmbiguous,
				Options: workspaceOptions, Results: []retrieval.Evidence{workspaceEvidence, actionsEvidence}},
			"doc:concepts/workspace": found,
			"doc:actions/workspaces": actions,
		},
		pieces: []string{"A workspace ", "belongs to an entry ", "and holds notes."},
		info:   AnswerInfo{Text: "A workspace belongs to an entry and holds notes.", Provider: "test", Model: "m1"},
	}
}

func TestAskStreamsAnswer(t *testing.T) {
	b := cannedBackend()
	h := newHarness(t, b, 80, 24)
	h.ask("explain workspace")
	out := ansi.Strip(h.content())
	if !strings.Contains(out, "› explain workspace") || !strings.Contains(out, "A workspace belongs to an entry and holds notes.") {
		t.Fatalf("question or answer missing:\n%s", out)
	}
	if h.m.activity != idle || h.m.input.Value() != "" {
		t.Errorf("after the answer: activity %v, input %q; want idle and empty", h.m.activity, h.m.input.Value())
	}
	if got := b.requests; len(got) != 1 || !reflect.DeepEqual(got[0], assistant.Request{Query: "explain workspace"}) {
		t.Errorf("requests = %+v", got)
	}
}

func TestPillsNavigation(t *testing.T) {
	opts := []retrieval.Option{{Label: "A", DocSlug: "a"}, {Label: "B", DocSlug: "b"}, {Label: "C", DocSlug: "c"}}
	p := newPills(opts)
	if !p.active || p.selected != 0 {
		t.Fatalf("new pills: active %v selected %d", p.active, p.selected)
	}
	steps := []struct {
		delta, want int
	}{{1, 1}, {1, 2}, {1, 0}, {-1, 2}, {-1, 1}}
	for _, s := range steps {
		p.move(s.delta)
		if p.selected != s.want {
			t.Fatalf("move(%d): selected %d, want %d", s.delta, p.selected, s.want)
		}
	}
	if o, ok := p.pick(3); !ok || o.DocSlug != "c" {
		t.Errorf("pick(3) = %+v, %v", o, ok)
	}
	for _, n := range []int{0, 4, 10} {
		if _, ok := p.pick(n); ok {
			t.Errorf("pick(%d) succeeded with 3 options", n)
		}
	}
	many := make([]retrieval.Option, 12)
	if got := len(newPills(many).options); got != maxPills {
		t.Errorf("12 options keep %d pills, want %d (digits 1-9)", got, maxPills)
	}
}

func TestPillsKeys(t *testing.T) {
	t.Run("arrows move, enter picks", func(t *testing.T) {
		b := cannedBackend()
		h := newHarness(t, b, 80, 24)
		h.ask("workspace")
		if !h.m.pills.active {
			t.Fatal("no pills for an ambiguous reply")
		}
		h.key(tea.KeyRight, 0)
		h.key(tea.KeyDown, 0)
		h.key(tea.KeyLeft, 0)
		if !strings.Contains(ansi.Strip(h.content()), "▸[2 Workspace Actions (actions)]") {
			t.Fatalf("second pill not highlighted:\n%s", ansi.Strip(h.content()))
		}
		h.key(tea.KeyEnter, 0)
		last := b.requests[len(b.requests)-1]
		if !reflect.DeepEqual(last, assistant.Request{Query: "workspace", DocSlug: "actions/workspaces"}) {
			t.Errorf("picked request = %+v, want the second option's slug with the question", last)
		}
		if h.m.pills.active {
			t.Error("pills still active after picking")
		}
	})
	t.Run("digit picks", func(t *testing.T) {
		b := cannedBackend()
		h := newHarness(t, b, 80, 24)
		h.ask("workspace")
		h.typeText("2")
		if last := b.requests[len(b.requests)-1]; last.DocSlug != "actions/workspaces" {
			t.Errorf("2 sent %+v", last)
		}
		if h.m.input.Value() != "" {
			t.Errorf("the digit reached the input: %q", h.m.input.Value())
		}
	})
	t.Run("digit out of range is ignored", func(t *testing.T) {
		b := cannedBackend()
		h := newHarness(t, b, 80, 24)
		h.ask("workspace")
		h.typeText("7")
		if len(b.requests) != 1 || !h.m.pills.active {
			t.Errorf("7 with 2 options: requests %+v, pills active %v", b.requests, h.m.pills.active)
		}
	})
	t.Run("a multi-intent pill sends its own part of the question", func(t *testing.T) {
		b := cannedBackend()
		opts := []retrieval.Option{
			{Label: "Workspace", DocSlug: "concepts/workspace", Category: "concepts", Asked: "what is a workspace"},
			{Label: "Workspace Actions", DocSlug: "actions/workspaces", Category: "actions", Asked: "how do I create one"},
		}
		b.results["what is a workspace and how do I create one"] = retrieval.Result{Query: "what is a workspace and how do I create one",
			Status: retrieval.StatusMulti, Options: opts, Results: []retrieval.Evidence{workspaceEvidence, actionsEvidence}}
		h := newHarness(t, b, 80, 24)
		h.ask("what is a workspace and how do I create one")
		h.typeText("2")
		if last := b.requests[len(b.requests)-1]; !reflect.DeepEqual(last, assistant.Request{Query: "how do I create one", DocSlug: "actions/workspaces"}) {
			t.Errorf("2 sent %+v, want the second part of the question with its doc", last)
		}
	})
	t.Run("esc dismisses", func(t *testing.T) {
		h := newHarness(t, cannedBackend(), 80, 24)
		h.ask("workspace")
		h.key(tea.KeyEscape, 0)
		if h.m.pills.active || strings.Contains(ansi.Strip(h.content()), "Pick:") {
			t.Error("pills still shown after Esc")
		}
	})
	t.Run("typing dismisses and types", func(t *testing.T) {
		h := newHarness(t, cannedBackend(), 80, 24)
		h.ask("workspace")
		h.typeText("how")
		if h.m.pills.active {
			t.Error("pills still active after typing")
		}
		if h.m.input.Value() != "how" {
			t.Errorf("input = %q, want the typed text", h.m.input.Value())
		}
	})
}

func TestHistory(t *testing.T) {
	var hist history
	if _, ok := hist.prev(""); ok {
		t.Fatal("prev on empty history succeeded")
	}
	hist.add("one")
	hist.add("two")
	hist.add("two") // repeated questions are kept once
	steps := []struct {
		up    bool
		input string
		want  string
		ok    bool
	}{
		{true, "", "two", true},
		{true, "two", "one", true},
		{true, "one", "", false}, // oldest: stays
		{false, "one", "two", true},
		{false, "two", "", true}, // past the newest: empty input
		{false, "", "", false},
	}
	for i, s := range steps {
		var got string
		var ok bool
		if s.up {
			got, ok = hist.prev(s.input)
		} else {
			got, ok = hist.next(s.input)
		}
		if got != s.want || ok != s.ok {
			t.Fatalf("step %d: got %q, %v; want %q, %v", i, got, ok, s.want, s.ok)
		}
	}
	if _, ok := hist.prev("edited text"); ok {
		t.Error("recall from an edited input: arrows must move the cursor instead")
	}
}

func TestHistoryKeys(t *testing.T) {
	h := newHarness(t, cannedBackend(), 80, 24)
	h.ask("explain workspace")
	h.ask("workspace")
	h.key(tea.KeyEscape, 0) // dismiss the pills
	h.key(tea.KeyUp, 0)
	if got := h.m.input.Value(); got != "workspace" {
		t.Fatalf("↑ on empty input = %q, want the last question", got)
	}
	h.key(tea.KeyUp, 0)
	if got := h.m.input.Value(); got != "explain workspace" {
		t.Fatalf("↑↑ = %q, want the question before", got)
	}
	h.key(tea.KeyDown, 0)
	h.key(tea.KeyDown, 0)
	if got := h.m.input.Value(); got != "" {
		t.Fatalf("↓ past the newest = %q, want empty", got)
	}
}

func TestEvidencePane(t *testing.T) {
	h := newHarness(t, cannedBackend(), 80, 30)
	h.ask("workspace")
	h.key(tea.KeyF2, 0)
	out := ansi.Strip(h.content())
	for _, want := range []string{"Evidence · 2 by rank", "▸ 1 Workspace · concepts · rank 12.25", "Workspace › Overview",
		"A workspace belongs to an entry and holds notes.", "concepts/workspace.md", "2 Workspace Actions"} {
		if !strings.Contains(out, want) {
			t.Errorf("evidence pane lacks %q:\n%s", want, out)
		}
	}
	h.key(tea.KeyTab, 0)
	if h.m.focus != focusEvidence {
		t.Fatalf("tab: focus %v, want the evidence pane", h.m.focus)
	}
	h.key(tea.KeyDown, 0)
	h.key(tea.KeyEnter, 0)
	out = ansi.Strip(h.content())
	if !strings.Contains(out, "▸ 2 Workspace Actions") || !strings.Contains(out, "── actions/workspaces#chunk-1 ──") {
		t.Errorf("↓ then enter did not expand the second item:\n%s", out)
	}
	h.key(tea.KeyEscape, 0)
	if h.m.focus != focusInput {
		t.Errorf("esc: focus %v, want input", h.m.focus)
	}
	h.key('e', tea.ModAlt)
	if strings.Contains(ansi.Strip(h.content()), "Evidence ·") {
		t.Error("alt+e did not close the pane")
	}
}

// Space leaves a chunk out and r answers again from the rest: the
// writer is given exactly the kept chunks, whatever the policy decided.
func TestEvidenceChosenReask(t *testing.T) {
	b := cannedBackend()
	h := newHarness(t, b, 140, 30)
	h.ask("workspace") // ambiguous, with two chunks of evidence
	h.key(tea.KeyF2, 0)
	h.key(tea.KeyTab, 0)
	h.key(tea.KeySpace, 0)
	out := ansi.Strip(h.content())
	if !strings.Contains(out, "1 left out") || !strings.Contains(out, "rank 12.25 · left out") ||
		!strings.Contains(out, "r answers again") {
		t.Fatalf("space did not mark the first chunk excluded:\n%s", out)
	}
	h.typeText("r")
	if len(b.answered) != 1 {
		t.Fatalf("r: %d answers written, want 1", len(b.answered))
	}
	got := b.answered[0]
	if got.Status != retrieval.StatusFound || got.Rule != retrieval.RuleChosen ||
		len(got.Results) != 1 || got.Results[0].ChunkID != actionsEvidence.ChunkID {
		t.Errorf("r wrote from %s/%q with %d chunks, want found from %s alone", got.Status, got.Rule, len(got.Results), actionsEvidence.ChunkID)
	}
	out = ansi.Strip(h.content())
	if !strings.Contains(out, "↻ workspace · from 1 of 2 chunks") || !strings.Contains(out, "and holds notes.") {
		t.Errorf("the re-asked answer is not in the transcript:\n%s", out)
	}
	// The pane still lists both, so the choice can change: include the
	// first again, exclude the second, and ask again.
	h.key(tea.KeySpace, 0)
	h.key(tea.KeyDown, 0)
	h.key(tea.KeySpace, 0)
	h.typeText("r")
	if len(b.answered) != 2 || len(b.answered[1].Results) != 1 || b.answered[1].Results[0].ChunkID != workspaceEvidence.ChunkID {
		t.Fatalf("second r did not write from %s alone: %+v", workspaceEvidence.ChunkID, b.answered)
	}
	// Nothing kept: nothing to write from, and docent says so.
	h.key(tea.KeyUp, 0)
	h.key(tea.KeySpace, 0)
	h.typeText("r")
	if len(b.answered) != 2 || !strings.Contains(ansi.Strip(h.content()), "Every chunk is excluded") {
		t.Errorf("r with every chunk excluded: %d answers, screen:\n%s", len(b.answered), ansi.Strip(h.content()))
	}
}

func TestMatchRanges(t *testing.T) {
	s := "Notes live in a Workspace; workspaces hold notes. Quick Links too."
	got := matchRanges(s, []string{"workspace", "note", "quick links"})
	var words []string
	for _, r := range got {
		words = append(words, s[r[0]:r[1]])
	}
	want := []string{"Notes", "Workspace", "workspaces", "notes", "Quick Links"}
	if fmt.Sprint(words) != fmt.Sprint(want) {
		t.Errorf("highlighted %q, want %q", words, want)
	}
	if r := matchRanges("renotes", []string{"note"}); len(r) != 0 {
		t.Errorf("matched inside a word: %v", r)
	}
	styled := highlightTerms("open notes", []string{"note"}, newStyles(true).highlight)
	if !strings.Contains(styled, "\x1b[") || ansi.Strip(styled) != "open notes" {
		t.Errorf("highlightTerms = %q", styled)
	}
}

func TestDebugPane(t *testing.T) {
	b := cannedBackend()
	res := b.results["explain workspace"]
	res.Results[0].MatchExplain.TypoFixes = []retrieval.Rewrite{{From: "wrkspace", To: "workspace"}}
	res.Results[0].MatchExplain.Synonyms = []retrieval.Rewrite{{From: "shortcuts", To: "quick links"}}
	res.NormalizedTokens = []string{"workspace", analysis.ValueDuration}
	b.results["explain workspace"] = res
	b.info.ContextLines = []string{"glossary 120 tokens", "chunks 340 tokens (1 dropped)"}
	b.info.TokensPerSec = 42.5
	h := newHarness(t, statsBackend{b}, 120, 40)
	h.ask("explain workspace")
	h.key(tea.KeyF3, 0)
	h.key(tea.KeyF4, 0) // the whole pane, to see every line at once
	out := ansi.Strip(h.content())
	for _, want := range []string{"Debug", "tokens    workspace [a duration]", "wrkspace→workspace", "shortcuts→quick links",
		"found · rule found · confidence 0.80", "2 · fallback none", "retrieval 0.40 ms",
		"concepts/workspace", "7.50", "12.25", "test · m1", "42.5 tokens/s", "chunks 340 tokens (1 dropped)",
		"12 turns · p50 0.30 ms · p95 0.90 ms", "match 75% · fallback 8% · dedupe 25%"} {
		if !strings.Contains(out, want) {
			t.Errorf("debug pane lacks %q:\n%s", want, out)
		}
	}
}

func TestErrorsAreShown(t *testing.T) {
	b := cannedBackend()
	h := newHarness(t, b, 80, 24)
	h.ask("unknown question")
	if out := ansi.Strip(h.content()); !strings.Contains(out, "! Search failed: no canned result for unknown question") {
		t.Errorf("retrieval error not shown:\n%s", out)
	}
	b.answerErr = errors.New("provider unreachable")
	h.ask("explain workspace")
	if out := ansi.Strip(h.content()); !strings.Contains(out, "answer failed: provider unreachable") {
		t.Errorf("answer error not shown:\n%s", out)
	}
	if h.m.activity != idle {
		t.Error("still busy after a failed answer")
	}
}

func TestSendWhileAnsweringIsQueued(t *testing.T) {
	b := cannedBackend()
	h := newHarness(t, b, 80, 24)
	// The answer streams but does not end until the test says so.
	h.hold = func(msg tea.Msg) bool { _, ok := msg.(streamDoneMsg); return ok }
	h.ask("explain workspace")
	if h.m.activity != answering {
		t.Fatalf("activity %v, want answering", h.m.activity)
	}
	h.ask("workspace")
	if got := len(b.requests); got != 1 {
		t.Fatalf("a question sent while answering reached the backend: %+v", b.requests)
	}
	out := ansi.Strip(h.content())
	if !strings.Contains(out, "⧗ queued: workspace") || h.m.input.Value() != "" {
		t.Fatalf("no queued mark, or the input kept the question %q:\n%s", h.m.input.Value(), out)
	}
	h.release() // the answer ends: the queued question goes out
	if got := b.requests; len(got) != 2 || got[1].Query != "workspace" {
		t.Fatalf("after the answer ended: requests %+v, want the queued question sent", got)
	}
	if out := ansi.Strip(h.content()); strings.Contains(out, "queued") || !strings.Contains(out, "› workspace") {
		t.Errorf("the queued question is not in the transcript, or its mark stayed:\n%s", out)
	}
}

func TestBlankInputIsIgnored(t *testing.T) {
	b := cannedBackend()
	h := newHarness(t, b, 80, 24)
	h.typeText("   ")
	h.key(tea.KeyEnter, tea.ModAlt)
	h.typeText("\t ")
	h.key(tea.KeyEnter, 0)
	if len(b.requests) != 0 || h.m.input.Value() != "" || len(h.m.transcript.msgs) != 0 {
		t.Errorf("blank input: requests %+v, input %q, %d messages", b.requests, h.m.input.Value(), len(h.m.transcript.msgs))
	}
}

func TestHelpShowsEveryBinding(t *testing.T) {
	h := newHarness(t, cannedBackend(), 120, 40)
	h.typeText("?")
	if h.m.overlay.kind != helpOverlay || h.m.input.Value() != "" {
		t.Fatalf("? on empty input: overlay %v, input %q", h.m.overlay.kind, h.m.input.Value())
	}
	for _, size := range [][2]int{{120, 40}, {80, 24}, {60, 20}, {40, 12}} {
		h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		all := strings.Join(strings.Fields(ansi.Strip(strings.Join(h.m.overlay.body.lines, "\n"))), " ")
		for _, group := range h.m.keys.FullHelp() {
			for _, b := range group {
				if !strings.Contains(all, b.Help().Key) || !strings.Contains(all, b.Help().Desc) {
					t.Errorf("%dx%d: help lacks %q %q", size[0], size[1], b.Help().Key, b.Help().Desc)
				}
			}
		}
		for _, c := range commands {
			if !strings.Contains(all, c.usage) || !strings.Contains(all, strings.Join(strings.Fields(c.desc), " ")) {
				t.Errorf("%dx%d: help lacks the command %q %q", size[0], size[1], c.usage, c.desc)
			}
		}
	}
	h.key(tea.KeyEscape, 0)
	if h.m.overlay.kind != noOverlay {
		t.Error("esc did not close the help")
	}
	h.typeText("what?")
	if h.m.overlay.kind != noOverlay || h.m.input.Value() != "what?" {
		t.Errorf("? inside a question: overlay %v, input %q", h.m.overlay.kind, h.m.input.Value())
	}
}

// TestHelpScrolls: on a small terminal the help is longer than the
// screen; the page keys scroll it to its last line instead of closing it.
func TestHelpScrolls(t *testing.T) {
	h := newHarness(t, cannedBackend(), 60, 20)
	h.key(tea.KeyF1, 0)
	last := commands[len(commands)-1].desc
	if strings.Contains(ansi.Strip(h.content()), last) {
		t.Fatalf("the help fits at 60×20; the test needs a longer one:\n%s", ansi.Strip(h.content()))
	}
	for range 10 {
		h.key(tea.KeyPgDown, 0)
	}
	out := ansi.Strip(h.content())
	if h.m.overlay.kind != helpOverlay || !strings.Contains(out, last) || !strings.Contains(out, "100%") {
		t.Fatalf("pgdn: overlay %v; the end of the help is not shown:\n%s", h.m.overlay.kind, out)
	}
	h.key(tea.KeyHome, 0)
	if out := ansi.Strip(h.content()); !strings.Contains(out, h.m.keys.Send.Help().Desc) {
		t.Errorf("home did not go back to the top:\n%s", out)
	}
	h.typeText("x") // any other key closes the help and does its job
	if h.m.overlay.kind != noOverlay || h.m.input.Value() != "x" {
		t.Errorf("typing in the help: overlay %v, input %q", h.m.overlay.kind, h.m.input.Value())
	}
}

func TestCopyWithoutAnswer(t *testing.T) {
	h := newHarness(t, cannedBackend(), 80, 24)
	h.key('y', tea.ModCtrl)
	if !strings.Contains(ansi.Strip(h.content()), "Nothing to copy yet.") {
		t.Error("ctrl+y with no answer gave no feedback")
	}
}

func TestTranscriptFollowsUnlessScrolledUp(t *testing.T) {
	st := newStyles(true)
	tr := newTranscript(&st)
	tr.setSize(60, 5)
	for i := range 20 {
		tr.append(&message{role: roleUser, text: fmt.Sprintf("question %d", i)})
	}
	if tr.offset() != tr.maxOffset() || !strings.Contains(ansi.Strip(strings.Join(tr.view(rect{w: 60, h: 5}), "\n")), "question 19") {
		t.Fatalf("new output not followed: offset %d of %d", tr.offset(), tr.maxOffset())
	}
	tr, _ = tr.Update(tea.KeyPressMsg{Code: tea.KeyPgUp})
	held := tr.offset()
	if held >= tr.maxOffset() {
		t.Fatalf("pgup did not scroll: offset %d of %d", held, tr.maxOffset())
	}
	tr.append(&message{role: roleUser, text: "question 20"})
	if tr.offset() != held {
		t.Errorf("scrolled-up view moved from %d to %d on new output", held, tr.offset())
	}
	if tr.below() == 0 {
		t.Error("below() = 0 while scrolled up")
	}
	tr, _ = tr.Update(tea.KeyPressMsg{Code: tea.KeyEnd})
	tr.append(&message{role: roleUser, text: "question 21"})
	if tr.offset() != tr.maxOffset() {
		t.Error("End did not resume following")
	}
	tr, _ = tr.Update(tea.KeyPressMsg{Code: tea.KeyHome})
	if tr.offset() != 0 || !strings.HasPrefix(ansi.Strip(strings.Join(tr.view(rect{w: 60, h: 5}), "\n")), "› question 0") {
		t.Errorf("Home: offset %d, view %q", tr.offset(), ansi.Strip(strings.Join(tr.view(rect{w: 60, h: 5}), "\n")))
	}
	// Line by line through the whole transcript and back: the window the
	// viewport holds moves with the view.
	for i := 1; i <= tr.maxOffset(); i++ {
		tr, _ = tr.Update(tea.KeyPressMsg{Code: tea.KeyDown})
		if tr.offset() != i {
			t.Fatalf("↓ %d times: offset %d", i, tr.offset())
		}
		if got, want := plainText(strings.Join(tr.view(rect{w: 60, h: 5}), "\n")), plainText(strings.Join(tr.lineRange(i, i+5), "\n")); got != want {
			t.Fatalf("offset %d shows %q, want %q", i, got, want)
		}
	}
	if !tr.follow {
		t.Error("scrolled back to the bottom without following again")
	}
}

func TestScrollKeysAndWheel(t *testing.T) {
	b := cannedBackend()
	h := newHarness(t, b, 60, 14)
	for range 6 {
		h.ask("explain workspace")
	}
	tr := func() *transcript { return &h.m.transcript }
	bottom := tr().offset()
	h.key(tea.KeyPgUp, 0)
	if tr().offset() >= bottom {
		t.Fatalf("pgup: offset %d, was %d", tr().offset(), bottom)
	}
	if !strings.Contains(ansi.Strip(h.content()), "more lines (pgdn to follow)") {
		t.Error("no hint that output continues below")
	}
	for range 10 {
		h.key(tea.KeyPgDown, 0)
	}
	if tr().offset() != bottom || !tr().follow {
		t.Errorf("pgdn to the end: offset %d (want %d), follow %v", tr().offset(), bottom, tr().follow)
	}
	// Home and End edit the input; the transcript takes them once focused.
	h.key(tea.KeyHome, 0)
	if tr().offset() != bottom {
		t.Errorf("home in the input scrolled the transcript to %d", tr().offset())
	}
	h.key(tea.KeyTab, 0)
	if h.m.focus != focusTranscript {
		t.Fatalf("tab without panes: focus %v, want the transcript", h.m.focus)
	}
	bottom = tr().maxOffset() // its focus line takes a line from it
	h.key(tea.KeyHome, 0)
	if tr().offset() != 0 {
		t.Errorf("home in the transcript: offset %d", tr().offset())
	}
	h.key(tea.KeyDown, 0)
	if tr().offset() != 1 {
		t.Errorf("↓ in the transcript: offset %d", tr().offset())
	}
	h.key(tea.KeyEnd, 0)
	if tr().offset() != bottom {
		t.Errorf("end in the transcript: offset %d, want %d", tr().offset(), bottom)
	}
	h.key(tea.KeyEscape, 0)
	bottom = tr().maxOffset()
	h.send(tea.MouseWheelMsg{Button: tea.MouseWheelUp, X: 5, Y: 2})
	if tr().offset() != bottom-3 {
		t.Errorf("wheel up: offset %d, want %d", tr().offset(), bottom-3)
	}
}

// statsBackend adds rolling figures to a fake backend.
type statsBackend struct{ *fakeBackend }

func (statsBackend) Stats() assistant.Stats {
	return assistant.Stats{Turns: 12, P50MS: 0.3, P95MS: 0.9, MatchRate: 0.75, FallbackRate: 1.0 / 12, DedupeRate: 0.25}
}

func TestAltEnterInsertsNewline(t *testing.T) {
	b := cannedBackend()
	h := newHarness(t, b, 80, 24)
	h.typeText("first line")
	h.key(tea.KeyEnter, tea.ModAlt)
	h.typeText("second line")
	if got := h.m.input.Value(); got != "first line\nsecond line" {
		t.Fatalf("input = %q, want two lines", got)
	}
	if len(b.requests) != 0 {
		t.Fatal("alt+enter sent the question")
	}
	if h.m.layout.input.h != 2 {
		t.Errorf("input area is %d lines for a two-line question", h.m.layout.input.h)
	}
	h.key(tea.KeyEnter, 0)
	if len(b.requests) != 1 || b.requests[0].Query != "first line\nsecond line" {
		t.Errorf("enter sent %+v", b.requests)
	}
}

func TestPillsCompactWhenShort(t *testing.T) {
	b := cannedBackend()
	three := append([]retrieval.Option{{Label: "Widgets", DocSlug: "concepts/widgets", Category: "concepts"}}, workspaceOptions...)
	b.results["widgets"] = retrieval.Result{Status: retrieval.StatusAmbiguous, Options: three}
	h := newHarness(t, b, 40, 12)
	h.key(tea.KeyF2, 0)
	h.key(tea.KeyF3, 0)
	h.ask("widgets")
	out := ansi.Strip(h.content())
	if !strings.Contains(out, "Pick 1/3 ←/→: ▸[1 Widgets (concepts)]") {
		t.Fatalf("no compact pill line at 40×12 with both panes:\n%s", out)
	}
	h.key(tea.KeyRight, 0)
	if out := ansi.Strip(h.content()); !strings.Contains(out, "Pick 2/3 ←/→: ▸[2 Workspace (concepts)]") {
		t.Errorf("→ did not show the second option:\n%s", out)
	}
	h.typeText("3")
	if last := b.requests[len(b.requests)-1]; last.DocSlug != "actions/workspaces" {
		t.Errorf("3 sent %+v", last)
	}
}

func TestLongTranscriptRewrapsOnceTheSizeSettles(t *testing.T) {
	m := benchModel(t, 2*eagerRewrap)
	next, cmd := m.Update(tea.WindowSizeMsg{Width: 70, Height: 30})
	m = next.(Model)
	if cmd == nil || m.transcript.width != 120 {
		t.Fatalf("long transcript re-wrapped at once (width %d) or no settle timer (%v)", m.transcript.width, cmd != nil)
	}
	for i, l := range strings.Split(m.View().Content, "\n") {
		if w := ansi.StringWidth(l); w > 70 {
			t.Fatalf("line %d is %d cells wide while the re-wrap is pending", i+1, w)
		}
	}
	next, _ = m.Update(tea.WindowSizeMsg{Width: 60, Height: 30}) // still dragging
	m = next.(Model)
	next, _ = m.Update(resizeSettledMsg{seq: m.resizes - 1})
	if next.(Model).transcript.width != 120 {
		t.Fatal("a stale settle message re-wrapped")
	}
	next, _ = next.Update(resizeSettledMsg{seq: m.resizes})
	if got := next.(Model).transcript.width; got != 60 {
		t.Fatalf("after settling: width %d, want 60", got)
	}

	short := benchModel(t, eagerRewrap/2)
	next, cmd = short.Update(tea.WindowSizeMsg{Width: 70, Height: 30})
	if next.(Model).transcript.width != 70 || cmd != nil {
		t.Errorf("short transcript: width %d, settle timer %v; want an immediate re-wrap", next.(Model).transcript.width, cmd != nil)
	}
}

func TestThemeFollowsTerminalBackground(t *testing.T) {
	m := New(cannedBackend(), Status{})
	if m.Init() == nil {
		t.Fatal("auto theme does not ask the terminal for its background")
	}
	next, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	next, _ = next.Update(tea.BackgroundColorMsg{Color: color.White})
	if next.(Model).st.dark {
		t.Error("white background: still the dark theme")
	}
	next, _ = next.Update(tea.BackgroundColorMsg{Color: color.Black})
	if !next.(Model).st.dark {
		t.Error("black background: still the light theme")
	}

	forced := New(cannedBackend(), Status{}, WithTheme(ThemeLight))
	if forced.Init() != nil {
		t.Error("a forced theme still queries the terminal")
	}
	next, _ = forced.Update(tea.BackgroundColorMsg{Color: color.Black})
	if next.(Model).st.dark {
		t.Error("a forced light theme changed with the background")
	}
}

// growingBackend's knowledge base grows, as when a colleague seeds the
// shared store while the TUI runs.
type growingBackend struct {
	*fakeBackend
	docs int
}

func (g *growingBackend) Size() (docs, chunks int) {
	g.docs++
	return g.docs, 5 * g.docs
}

func TestStatusBarFollowsTheKnowledgeBase(t *testing.T) {
	b := &growingBackend{fakeBackend: cannedBackend(), docs: 19}
	h := newHarness(t, b, 80, 24)
	if out := ansi.Strip(h.content()); !strings.Contains(out, "3 docs · 9 chunks") {
		t.Fatalf("start-up status bar:\n%s", out)
	}
	h.ask("workspace")
	if out := ansi.Strip(h.content()); !strings.Contains(out, "20 docs · 100 chunks") {
		t.Fatalf("after a turn the status bar does not show the backend's new size:\n%s", out)
	}
}

// plainText is s without escape sequences or trailing blanks on its lines.
func plainText(s string) string {
	lines := strings.Split(ansi.Strip(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// TestQuestionTypedWhileStartingWaits: the input works while docent
// starts; a question sent then is queued and goes out once it is ready.
func TestQuestionTypedWhileStartingWaits(t *testing.T) {
	b := cannedBackend()
	h := &harness{t: t, m: NewLoading(func(context.Context, func(Progress)) (Ready, error) {
		t.Error("the harness does not run the loader: the test delivers its outcome")
		return Ready{}, nil
	}, WithTheme(ThemeDark))}
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	h.ask("explain workspace")
	out := ansi.Strip(h.content())
	if !strings.Contains(out, "⧗ queued: explain workspace") || !strings.Contains(out, "starting…") {
		t.Fatalf("no queued mark while starting:\n%s", out)
	}
	h.key(tea.KeyF5, 0)
	if out := ansi.Strip(h.content()); !strings.Contains(out, "Still reading the docs") {
		t.Errorf("the skipped files before they are known:\n%s", out)
	}
	h.send(loadedMsg{ready: Ready{Backend: b, Status: Status{Docs: 3, Chunks: 9},
		Skipped: []SkippedFile{{Path: "x.md", Reason: "empty file"}}}})
	if len(b.requests) != 1 || b.requests[0].Query != "explain workspace" {
		t.Fatalf("once ready: requests %+v, want the queued question", b.requests)
	}
	if out := ansi.Strip(h.content()); !strings.Contains(out, "Skipped files · 1 file") || !strings.Contains(out, "empty file") {
		t.Errorf("the open list of skipped files did not follow the start-up:\n%s", out)
	}
	h.key(tea.KeyEscape, 0)
	if out := ansi.Strip(h.content()); strings.Contains(out, "queued") || !strings.Contains(out, "3 docs · 9 chunks · 1 skipped") {
		t.Errorf("after start-up:\n%s", out)
	}
}

// TestFailedStartupQuits: a loader's error ends the program, and the
// model keeps it for Run to return.
func TestFailedStartupQuits(t *testing.T) {
	m := NewLoading(nil, WithTheme(ThemeDark))
	boom := errors.New("knowledge base ./docs: no such file or directory")
	next, cmd := m.Update(loadedMsg{err: boom})
	if got := next.(Model).loadErr; got != boom {
		t.Errorf("loadErr = %v, want the loader's error", got)
	}
	if cmd == nil {
		t.Fatal("no Cmd after a failed start-up")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("a failed start-up does not quit")
	}
}

// A citation of a chunk the writer was not given is flagged under the
// answer; the one it was given reads as a footnote with its source.
func TestUnknownCitationFlagged(t *testing.T) {
	b := cannedBackend()
	text := "A workspace belongs to an entry [" + workspaceEvidence.ChunkID + "]. It is made up [made/up#chunk-9]."
	b.pieces = []string{text}
	b.info = AnswerInfo{Text: text, Provider: "test", Model: "m1", Sources: []cite.Source{
		{ID: workspaceEvidence.ChunkID, Title: "Workspace", Path: "Workspace", File: "concepts/workspace.md"},
	}}
	h := newHarness(t, b, 80, 24)
	h.ask("explain workspace")
	out := ansi.Strip(h.content())
	for _, want := range []string{"belongs to an entry [1]. It is made up [2].", "[1] Workspace — concepts/workspace.md",
		"[2] made/up#chunk-9 — cited a source it was not given"} {
		if !strings.Contains(out, want) {
			t.Errorf("screen lacks %q:\n%s", want, out)
		}
	}
}
