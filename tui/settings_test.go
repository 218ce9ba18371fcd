package tui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

func newSettingsHarness(t *testing.T, b Backend) *harness {
	t.Helper()
	st := Status{Docs: 3, Chunks: 9, Store: "embedded", Phase: 2, Categories: []string{"actions", "concepts", "widgets"}}
	h := &harness{t: t, m: New(b, st, WithTheme(ThemeDark))}
	h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	return h
}

// /scope and /set change the requests of the following questions, show
// in the status bar (the scope) and refuse what the engine would: an
// unknown category, a top-k or an alpha out of Config.Validate's ranges.
// None of them is sent as a question.
func TestScopeAndSetCommands(t *testing.T) {
	b := cannedBackend()
	h := newSettingsHarness(t, b)
	out := func() string { return ansi.Strip(h.content()) }
	expect := func(line string, want string) {
		t.Helper()
		h.ask(line)
		if !strings.Contains(out(), want) {
			t.Errorf("%s: screen lacks %q:\n%s", line, want, out())
		}
	}
	expect("/scope billing", `Scope not changed: unknown category "billing": the knowledge base has actions, concepts, widgets.`)
	expect("/scope concepts, actions", "Scope: concepts, actions: the following questions search these categories alone")
	if !strings.Contains(out(), "scope concepts,actions") {
		t.Errorf("status bar lacks the scope:\n%s", out())
	}
	expect("/set top-k 0", "Not set: top-k 0: want 1 to 100.")
	expect("/set top-k x", `Not set: top-k "x": want a whole number from 1 to 100.`)
	expect("/set top-k 8", "top-k 8: the following questions get up to 8 pieces of evidence.")
	expect("/set alpha 1.5", "Not set: alpha 1.5: want a share from 0 to 1.")
	expect("/set alpha NaN", "Not set: alpha NaN: want a share from 0 to 1.")
	expect("/set alpha 0.25", "alpha 0.25: the weight of the embedding similarity")
	expect("/set beta 1", `Not set: unknown setting "beta"`)
	expect("/set", "Settings: scope concepts, actions, top-k 8, alpha 0.25")
	if len(b.requests) != 0 {
		t.Fatalf("a command went out as a question: %+v", b.requests)
	}

	h.ask("explain workspace")
	if len(b.requests) != 1 {
		t.Fatalf("%d requests, want 1", len(b.requests))
	}
	req := b.requests[0]
	if !slices.Equal(req.Categories, []string{"concepts", "actions"}) || req.TopK != 8 || req.Alpha == nil || *req.Alpha != 0.25 {
		t.Errorf("request %+v: want scope [concepts actions], top-k 8, alpha 0.25", req)
	}

	expect("/scope", "Scope cleared: questions search every category.")
	if strings.Contains(out(), "scope concepts,actions") {
		t.Errorf("status bar still shows the cleared scope:\n%s", out())
	}
	h.ask("workspace")
	if got := b.requests[len(b.requests)-1]; got.Categories != nil || got.TopK != 8 {
		t.Errorf("after /scope: request %+v, want no categories and top-k 8 kept", got)
	}
}

// A scope given at start-up (--scope) is the session's from the first
// question.
func TestScopeFromStatus(t *testing.T) {
	b := cannedBackend()
	h := &harness{t: t, m: New(b, Status{Docs: 3, Chunks: 9, Phase: 2, Categories: []string{"concepts"}, Scope: []string{"concepts"}}, WithTheme(ThemeDark))}
	h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	h.ask("explain workspace")
	if len(b.requests) != 1 || !slices.Equal(b.requests[0].Categories, []string{"concepts"}) {
		t.Fatalf("requests %+v: want the start-up scope", b.requests)
	}
	if !strings.Contains(ansi.Strip(h.content()), "scope concepts") {
		t.Errorf("status bar lacks the start-up scope:\n%s", ansi.Strip(h.content()))
	}
}
