package tui

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/docent-sh/docent/retrieval"
)

// hostile is text a doc or a model could carry to take over a terminal:
// clear the screen, retitle the window, overwrite the clipboard, hide text.
const hostile = "safe\x1b[2J\x1b]0;pwned\x07\x1b]52;c;ZXZpbA==\x1b\\\x1bP+q\x1b\\\u009b6n\x07\rtext"

// checkEscapes fails on any escape sequence other than SGR styling and
// OSC 8 hyperlinks (the only ones the screen's own rendering produces),
// and on any other control character.
func checkEscapes(t *testing.T, what, s string) {
	t.Helper()
	p := ansi.NewParser()
	var state byte
	for len(s) > 0 {
		seq, width, n, newState := ansi.DecodeSequence(s, state, p)
		state = newState
		switch {
		case width > 0 || seq == "\n" || seq == "\t":
		case ansi.HasCsiPrefix(seq):
			if !strings.HasSuffix(seq, "m") {
				t.Fatalf("%s: CSI %q reached the screen", what, seq)
			}
		case ansi.HasOscPrefix(seq):
			if !strings.HasPrefix(seq, "\x1b]8;") {
				t.Fatalf("%s: OSC %q reached the screen", what, seq)
			}
		default:
			t.Fatalf("%s: control %q reached the screen", what, seq)
		}
		s = s[n:]
	}
}

func TestControlSequencesNeverReachTheScreen(t *testing.T) {
	ev := workspaceEvidence
	ev.Title = "Work" + hostile
	ev.Snippet = "snippet " + hostile
	ev.Content = "content " + hostile
	ev.HeaderPath = "Workspace > " + hostile
	ev.SourcePath = "concepts/" + hostile
	ev.MatchedTerms = []string{"work" + hostile}
	ev.MatchExplain.TypoFixes = []retrieval.Rewrite{{From: hostile, To: "x"}}
	found := retrieval.Result{Query: "q" + hostile, Status: retrieval.StatusMulti,
		Results: []retrieval.Evidence{ev}, NormalizedTokens: []string{hostile}, Rule: hostile, Notes: []string{hostile},
		Options: []retrieval.Option{{Label: "Label" + hostile, DocSlug: "a", Category: hostile}}}
	weak := found
	weak.Status = retrieval.StatusWeak
	b := &fakeBackend{
		results: map[string]retrieval.Result{"multi": found, "weak": weak},
		// The escape is split across pieces, as a stream may deliver it.
		pieces: []string{"answer \x1b[", "2J\x1b]52;c;", "ZXZpbA==\x07 done"},
		info: AnswerInfo{Provider: hostile, Model: hostile, Notice: hostile,
			ContextLines: []string{hostile}},
	}
	h := newHarness(t, b, 120, 60)
	h.ask("multi")
	h.key(tea.KeyF2, 0)
	h.key(tea.KeyF3, 0)
	h.key(tea.KeyTab, 0)
	h.key(tea.KeyEnter, 0) // expand the chunk
	checkEscapes(t, "multi answer with panes", h.content())
	if out := ansi.Strip(h.content()); !strings.Contains(out, "answer  done") || !strings.Contains(out, "safe text") {
		t.Errorf("the text around the escapes was lost:\n%s", out)
	}

	h.key(tea.KeyEscape, 0)
	h.ask("weak")
	checkEscapes(t, "weak reply with pills", h.content())

	h.send(tea.PasteMsg{Content: "pasted " + hostile})
	checkEscapes(t, "pasted input", h.content())
	if got := h.m.input.Value(); strings.ContainsAny(got, "\x1b\x07\r") {
		t.Errorf("paste kept control characters: %q", got)
	}
	h.key(tea.KeyEnter, 0)
	checkEscapes(t, "sent paste", h.content())
}

func TestStreamRenderMatchesFullRender(t *testing.T) {
	text := "## Heading\n\nFirst paragraph with **bold** and `code`.\n\n" +
		"```go\nfunc main() {\n\n\tprintln(\"blank line inside the fence\")\n}\n```\n\n" +
		"Second paragraph that is long enough to wrap across more than one line at this width, " +
		"so wrapping is part of the comparison.\n\n- item one\n- item two\n"
	md := newMarkdown(true, 60)
	full := strings.Join(md.render(text), "\n")
	// Stream it in every piece size from one byte up: the result must not
	// depend on where the chunks happened to break.
	for _, size := range []int{1, 2, 3, 5, 8, 13} {
		var sr streamRender
		var got []string
		for i := 0; i < len(text); i += size {
			got = sr.render(md, text[:min(i+size, len(text))])
		}
		if g := strings.Join(got, "\n"); g != full {
			t.Fatalf("pieces of %d bytes:\n%s\nfull render:\n%s", size, ansi.Strip(g), ansi.Strip(full))
		}
	}
}

func TestSettledPrefix(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"para", 0},
		{"para\n", 0},
		{"para\n\nnext", 6},
		{"a\n\nb\n\nc", 6},
		{"```\ncode\n\nmore", 0},          // blank line inside an open fence
		{"```\ncode\n\n```\n\nafter", 15}, // after the closed fence
		{"~~~\nx\n\n~~~\n\ny", 12},
	}
	for _, tt := range tests {
		if got := settledPrefix(tt.text, 0); got != tt.want {
			t.Errorf("settledPrefix(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

func TestTrimTrailingBlank(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain   ", "plain"},
		{"\x1b[1mbold\x1b[m\x1b[38;5;252m \x1b[m\x1b[38;5;252m \x1b[m", "\x1b[1mbold\x1b[m\x1b[m"},
		{"\x1b[38;5;252m  \x1b[m", ""},
		{"no padding", "no padding"},
		{"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"},
	}
	for _, tt := range tests {
		got := trimTrailingBlank(tt.in)
		if ansi.Strip(got) != ansi.Strip(tt.want) || (got != tt.want && !strings.HasSuffix(got, ansi.ResetStyle)) {
			t.Errorf("trimTrailingBlank(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestErrorTextRedactsSecrets(t *testing.T) {
	tests := []struct{ in, want string }{
		{"dial postgres://docent:s3cret@db.internal:5432/docent: refused", "dial postgres://docent:[redacted]@db.internal:5432/docent: refused"},
		{"openai: 401 invalid api_key=sk-abc123def456ghi789", "openai: 401 invalid api_key=[redacted]"},
		{"request failed: Authorization: Bearer abc.def-ghi", "request failed: Authorization: [redacted]"},
		{"key sk-proj-ABCDEFGHIJKLMNOP rejected", "key [redacted] rejected"},
		{"no match for \x1b[31mquery\x1b[0m", "no match for query"},
		{"plain error", "plain error"},
	}
	for _, tt := range tests {
		if got := errorText(errors.New(tt.in)); got != tt.want {
			t.Errorf("errorText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestBackendErrorSecretsStayOffScreen(t *testing.T) {
	b := cannedBackend()
	b.answerErr = errors.New("connect postgres://u:hunter2@db/x: token=abcdef")
	h := newHarness(t, b, 100, 24)
	h.ask("explain workspace")
	out := ansi.Strip(h.content())
	if strings.Contains(out, "hunter2") || strings.Contains(out, "abcdef") {
		t.Fatalf("a secret from an error reached the screen:\n%s", out)
	}
	if !strings.Contains(out, "answer failed: connect postgres://u:[redacted]@db/x: token=[redacted]") {
		t.Errorf("redacted error not shown:\n%s", out)
	}
}

// TestOneLineFieldsStayOnOneLine: a line break in a label, title or
// breadcrumb would split a pill or a pane row in two.
func TestOneLineFieldsStayOnOneLine(t *testing.T) {
	ev := workspaceEvidence
	ev.Title = "Work\nspace"
	ev.Category = "con\r\ncepts"
	ev.HeaderPath = "Workspace >\nOverview"
	ev.SourcePath = "concepts/\nworkspace.md"
	res := retrieval.Result{Query: "two\nlines", Status: retrieval.StatusAmbiguous,
		Results: []retrieval.Evidence{ev}, Rule: "ambi\nguous",
		Options: []retrieval.Option{{Label: "Work\nspace", DocSlug: "a", Category: "con\ncepts"}, {Label: "Other", DocSlug: "b"}}}
	b := &fakeBackend{results: map[string]retrieval.Result{"q": res}}
	h := newHarness(t, b, 120, 40)
	h.ask("q")
	h.key(tea.KeyF2, 0)
	h.key(tea.KeyF3, 0)
	out := ansi.Strip(h.content())
	for _, want := range []string{"▸[1 Work space (con cepts)]  [2 Other]", "1 Work space · con cepts · rank",
		"Workspace › Overview", "concepts/ workspace.md", "query     two lines", "rule ambi guous"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q is not on one line:\n%s", want, out)
		}
	}
}

// TestStartupTextIsCleaned: what start-up reports comes from the files of
// the knowledge base (names, titles, parse errors) and the configuration;
// none of it reaches the screen with its control sequences.
func TestStartupTextIsCleaned(t *testing.T) {
	load := func(context.Context, func(Progress)) (Ready, error) {
		return Ready{
			Backend: cannedBackend(),
			Status:  Status{Docs: 1, Chunks: 2, Store: hostile, Provider: hostile, Context: "/tmp/" + hostile},
			Skipped: []SkippedFile{{Path: "a/" + hostile + ".md", Reason: "broken " + hostile}},
			Titles:  []string{"Two " + hostile},
			Notices: []string{"ignoring " + hostile},
		}, nil
	}
	h := &harness{t: t, m: NewLoading(load, WithTheme(ThemeDark))}
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	// Update by hand: the harness would wait for the loader's next report.
	next, _ := h.m.Update(progressMsg{p: Progress{Step: "Reading " + hostile, Done: 1, Total: 2}})
	h.m = next.(Model)
	checkEscapes(t, "progress", h.content())
	if out := ansi.Strip(h.content()); !strings.Contains(out, "Reading safe text… 1/2") {
		t.Errorf("progress not shown:\n%s", out)
	}

	for _, msg := range run(h.m.Init()) {
		h.send(msg)
	}
	if !h.m.ready {
		t.Fatal("the loader returned but the screen is not ready")
	}
	checkEscapes(t, "ready", h.content())
	out := ansi.Strip(h.content())
	for _, want := range []string{"tell me about Two safe text", "1 skipped (f5)", "context safe text", "note: ignoring safe text"} {
		if !strings.Contains(out, want) {
			t.Errorf("ready screen lacks %q:\n%s", want, out)
		}
	}
	h.key(tea.KeyF5, 0)
	checkEscapes(t, "skipped files", h.content())
	if out := ansi.Strip(h.content()); !strings.Contains(out, "a/safe text.md") || !strings.Contains(out, "broken safe text") {
		t.Errorf("skipped files not listed:\n%s", out)
	}
}
