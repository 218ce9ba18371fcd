package tui

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/docent-sh/docent/assistant"
)

// enhancingBackend is the canned backend with /enhance: it proposes the
// given enhancement, or fails with err.
type enhancingBackend struct {
	*fakeBackend
	enh   assistant.Enhancement
	err   error
	asked []string
}

func (b *enhancingBackend) Enhance(_ context.Context, question string) (assistant.Enhancement, error) {
	b.asked = append(b.asked, question)
	enh := b.enh
	enh.Question = question
	return enh, b.err
}

func newEnhancing(enh assistant.Enhancement, err error) *enhancingBackend {
	b := &enhancingBackend{fakeBackend: cannedBackend(), enh: enh, err: err}
	b.results["explain workspace"] = b.results["workspace"]
	return b
}

func TestEnhanceOffersTermsAsChips(t *testing.T) {
	b := newEnhancing(assistant.Enhancement{Added: []string{"rename", "title\x1b[31m"}, Refused: []string{"zork"}}, nil)
	h := newHarness(t, b, 120, 30)
	h.ask("/enhance explain workspace")
	out := ansi.Strip(h.content())
	for _, want := range []string{"Enhanced: explain workspace +rename +title", "Refused, the docs never write them: zork", "▸[+rename]", "[+title]"} {
		if !strings.Contains(out, want) {
			t.Errorf("screen lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(h.content(), "\x1b[31m") {
		t.Error("a term's control sequence reached the screen")
	}
	h.key(tea.KeyRight, 0)
	h.key(tea.KeySpace, 0)
	if out := ansi.Strip(h.content()); !strings.Contains(out, "▸[−title]") {
		t.Fatalf("space did not switch the second term off:\n%s", out)
	}
	h.key(tea.KeyEnter, 0)
	last := b.requests[len(b.requests)-1]
	if last.Query != "explain workspace" || !slices.Equal(last.Terms, []string{"rename"}) {
		t.Fatalf("searched %q with %q, want the question with rename alone", last.Query, last.Terms)
	}
	if out := ansi.Strip(h.content()); !strings.Contains(out, "› explain workspace +rename") || strings.Contains(out, "[+rename]") {
		t.Errorf("the search is not in the transcript, or the chips stayed:\n%s", out)
	}
}

// /enhance alone enhances the last question; a failure, or no term to
// add, asks the question as written.
func TestEnhanceFallsBackToTheQuestion(t *testing.T) {
	b := newEnhancing(assistant.Enhancement{}, errors.New("openai: no answer in time"))
	h := newHarness(t, b, 120, 30)
	h.ask("workspace")
	h.ask("/enhance")
	if !slices.Equal(b.asked, []string{"workspace"}) {
		t.Fatalf("enhanced %q, want the last question", b.asked)
	}
	out := ansi.Strip(h.content())
	if !strings.Contains(out, "Not enhanced: openai: no answer in time. Asking as written.") {
		t.Errorf("the failure is not said:\n%s", out)
	}
	if n := len(b.requests); n != 2 || b.requests[1].Query != "workspace" || b.requests[1].Terms != nil {
		t.Fatalf("requests %+v, want the question asked again as written", b.requests)
	}

	b.err = nil
	b.enh = assistant.Enhancement{Refused: []string{"zork"}}
	h.ask("/enhance workspace")
	if out := ansi.Strip(h.content()); !strings.Contains(out, "No term the docs write to add. Asking as written.") || len(b.requests) != 3 {
		t.Errorf("no term: %d requests, screen:\n%s", len(b.requests), out)
	}
}

func TestEnhanceEscDropsTheChips(t *testing.T) {
	b := newEnhancing(assistant.Enhancement{Added: []string{"rename"}}, nil)
	h := newHarness(t, b, 120, 30)
	h.ask("/enhance workspace")
	h.key(tea.KeyEscape, 0)
	if h.m.chips.active || len(b.requests) != 0 {
		t.Fatalf("esc: chips %v, %d searches; want them dropped and no search", h.m.chips.active, len(b.requests))
	}
}

func TestEnhanceNeedsABackendThatCan(t *testing.T) {
	h := newHarness(t, cannedBackend(), 120, 30)
	h.ask("/enhance workspace")
	if out := ansi.Strip(h.content()); !strings.Contains(out, "Query enhancement is not available here.") {
		t.Errorf("screen:\n%s", out)
	}
}
