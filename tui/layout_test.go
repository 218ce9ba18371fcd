package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// checkLayout verifies that the areas tile the screen: every row belongs
// to exactly one full-width area or to the body, areas stay on screen and
// panes never overlap the transcript.
func checkLayout(t *testing.T, l layout, width, height int) {
	t.Helper()
	named := map[string]rect{"transcript": l.transcript, "evidence": l.evidence, "debug": l.debug,
		"info": l.info, "rule": l.rule, "input": l.input, "status": l.status}
	cells := make([][]string, height)
	for y := range cells {
		cells[y] = make([]string, width)
	}
	for name, r := range named {
		if r.h == 0 {
			continue
		}
		if r.x < 0 || r.y < 0 || r.w <= 0 || r.x+r.w > width || r.y+r.h > height {
			t.Fatalf("%s %+v is off a %d×%d screen", name, r, width, height)
		}
		for y := r.y; y < r.y+r.h; y++ {
			for x := r.x; x < r.x+r.w; x++ {
				if other := cells[y][x]; other != "" {
					t.Fatalf("%s %+v overlaps %s at %d,%d", name, r, other, x, y)
				}
				cells[y][x] = name
			}
		}
	}
	for y, row := range cells {
		empty := 0
		for _, c := range row {
			if c == "" {
				empty++
			}
		}
		// Only the divider column between transcript and panes is unowned.
		if empty > 1 || (empty == 1 && !l.wide) {
			t.Fatalf("row %d has %d cells no area owns: %v", y, empty, row)
		}
	}
}

func TestLayoutAt40x12(t *testing.T) {
	for _, ev := range []bool{false, true} {
		for _, dbg := range []bool{false, true} {
			for info := 0; info <= 4; info++ {
				for input := 1; input <= 3; input++ {
					name := fmt.Sprintf("evidence=%v debug=%v info=%d input=%d", ev, dbg, info, input)
					t.Run(name, func(t *testing.T) {
						l := computeLayout(40, 12, layoutSpec{evidence: ev, debug: dbg, infoLines: info, inputLines: input})
						checkLayout(t, l, 40, 12)
						if l.wide {
							t.Error("40 columns laid out wide")
						}
						if l.transcript.h < minTranscript {
							t.Errorf("transcript has %d lines, want ≥ %d", l.transcript.h, minTranscript)
						}
						if l.status.h != 1 || l.input.h < 1 || l.rule.h != 1 {
							t.Errorf("status %d, input %d, rule %d lines", l.status.h, l.input.h, l.rule.h)
						}
						if ev && l.evidence.h < 2 || dbg && l.debug.h < 2 {
							t.Errorf("open pane without room for title and a line: %+v %+v", l.evidence, l.debug)
						}
					})
				}
			}
		}
	}
}

func TestLayoutTilesEverySize(t *testing.T) {
	for width := 40; width <= 160; width += 7 {
		for height := 12; height <= 60; height += 5 {
			for _, open := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
				l := computeLayout(width, height, layoutSpec{evidence: open[0], debug: open[1], infoLines: 2, inputLines: 2})
				checkLayout(t, l, width, height)
				if l.wide != (width >= wideWidth) {
					t.Fatalf("%d×%d: wide = %v", width, height, l.wide)
				}
				if l.wide && (open[0] || open[1]) && l.transcript.w+1+max(l.evidence.w, l.debug.w) != width {
					t.Fatalf("%d×%d: transcript %d + divider + pane %d != width", width, height, l.transcript.w, max(l.evidence.w, l.debug.w))
				}
			}
		}
	}
}

// TestLayoutZoom gives the zoomed pane the whole body, at every size.
func TestLayoutZoom(t *testing.T) {
	for width := 40; width <= 160; width += 13 {
		for height := 12; height <= 60; height += 6 {
			for _, zoom := range []focus{focusEvidence, focusDebug} {
				l := computeLayout(width, height, layoutSpec{evidence: true, debug: true, zoom: zoom, infoLines: 1, inputLines: 1})
				checkLayout(t, l, width, height)
				zoomed, other := l.evidence, l.debug
				if zoom == focusDebug {
					zoomed, other = other, zoomed
				}
				if zoomed != l.body || other.h != 0 || l.transcript.h != 0 {
					t.Fatalf("%d×%d zoom %v: body %+v, zoomed %+v, other %+v, transcript %+v", width, height, zoom, l.body, zoomed, other, l.transcript)
				}
			}
		}
	}
	// Zooming a closed pane changes nothing.
	l := computeLayout(80, 24, layoutSpec{debug: true, zoom: focusEvidence, infoLines: 1, inputLines: 1})
	if l.evidence.h != 0 || l.debug.h == 0 || l.transcript.h == 0 {
		t.Errorf("zoom on the closed evidence pane: %+v", l)
	}
}

// TestScreenFits40x12 draws real states at the smallest supported size:
// exactly 12 lines, none wider than 40 cells. In each, the layout's
// hasStatusLine (asked without drawing the line) agrees with the line.
func TestScreenFits40x12(t *testing.T) {
	h := newHarness(t, cannedBackend(), 40, 12)
	check := func(state string) {
		t.Helper()
		if got, want := h.m.hasStatusLine(), h.m.statusLine() != ""; got != want {
			t.Errorf("%s: hasStatusLine %v, statusLine %q", state, got, h.m.statusLine())
		}
		lines := strings.Split(h.content(), "\n")
		if len(lines) != 12 {
			t.Fatalf("%s: %d lines, want 12", state, len(lines))
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w != 40 {
				t.Fatalf("%s: line %d is %d cells, want 40: %q", state, i+1, w, ansi.Strip(l))
			}
		}
	}
	key := func(k rune, mod tea.KeyMod) func() { return func() { h.key(k, mod) } }
	for _, step := range []struct {
		state string
		do    func()
	}{
		{"empty", func() {}},
		{"pills", func() { h.ask("workspace") }},
		{"evidence", key(tea.KeyF2, 0)},
		{"evidence and debug", key(tea.KeyF3, 0)},
		{"zoomed", key(tea.KeyF4, 0)},
		{"help", func() { h.key(tea.KeyF4, 0); h.key(tea.KeyEscape, 0); h.typeText("?") }},
		{"long input", func() { h.key(tea.KeyEscape, 0); h.typeText(strings.Repeat("a very long question ", 10)) }},
		{"after an error", key(tea.KeyEnter, 0)},
		{"answered", func() {
			for range 3 {
				h.ask("explain workspace")
			}
		}},
		{"scrolled up", key(tea.KeyPgUp, 0)},
		{"transcript focused", key(tea.KeyTab, 0)},
		{"notice", func() { h.key(tea.KeyEscape, 0); h.key('y', tea.ModCtrl) }},
		{"answering", func() { h.m.activity = answering }},
		{"starting", func() { h.m.activity, h.m.ready = idle, false }},
	} {
		step.do()
		check(step.state)
	}
}
