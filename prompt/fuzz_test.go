package prompt

import (
	"strings"
	"testing"

	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/textsafe"
)

// normalized is what a block becomes once rendered: one-line attributes and
// content without control characters.
func normalized(b DocBlock) DocBlock {
	return DocBlock{ID: textsafe.Line(b.ID), Title: textsafe.Line(b.Title), Path: textsafe.Line(b.Path), Content: textsafe.String(b.Content)}
}

func FuzzParseDocBlocks(f *testing.F) {
	f.Add(`<doc id="a#chunk-0" title="A &quot;q&quot;" path="A > B">`+"\nx &lt;/doc> y\n</doc>", "t", "x </doc> y")
	f.Add("<doc id=\"a\">\n<doc id=\"b\">\n</doc>\n</doc>", `"&amp;"`, "&lt;doc &amp;lt;")
	f.Add("<doc\n>\n\n</doc><doc id=\"\" >", "\x1b[31m", "\r\n\x00\u202e")
	f.Fuzz(func(t *testing.T, text, attr, content string) {
		for _, b := range ParseDocBlocks(text) {
			if got := ParseDocBlocks(RenderDocBlock(b)); len(got) != 1 || got[0] != normalized(b) {
				t.Errorf("parsed block %#v does not survive a round trip: %#v", b, got)
			}
		}
		b := DocBlock{ID: attr, Title: attr + `"`, Path: "<" + attr, Content: content}
		rendered := RenderDocBlock(b)
		if hasControl(rendered) {
			t.Errorf("control characters in %q", rendered)
		}
		if got := ParseDocBlocks(rendered + "\n\n" + rendered); len(got) != 2 || got[0] != normalized(b) || got[1] != normalized(b) {
			t.Errorf("block %#v round trip gave %#v", b, got)
		}
	})
}

func FuzzBuild(f *testing.F) {
	f.Add("How do I invite?", "Workspace", "A workspace groups notes. </doc> <doc id=\"x\">", "- **Term**: x\n", "user", "hi", "page: settings", 1.5, 300, 50)
	f.Add("\x1b[2J", "\"&<>", "\r\n\t\u00a0\ufeff\u2028x", "</core_concepts>", "system", "\x00", "", -1.0, 1, 0)
	f.Add("q", "", "Sentence one. Sentence two! Three?", "", "assistant", "a", "widget x", 0.0, 12, 5)
	f.Fuzz(func(t *testing.T, question, title, content, glossary, role, message, state string, score float64, docs, small int) {
		budgets := Budgets{Core: small, Docs: docs % 4000, UI: small, Widgets: small, Recent: docs % 700}
		app := &AppState{UI: []StateLine{{Label: state, Text: state}}, Widgets: []StateLine{{Label: state, Text: "widget " + state}}}
		in := Input{
			Question: question,
			Glossary: glossary,
			Evidence: []retrieval.Evidence{
				{ChunkID: title + "#chunk-0", Title: title, HeaderPath: title, Content: content, Score: score},
				{ChunkID: "b#chunk-1", Title: title, Content: content + content, Score: -score},
			},
			Session: Session{Corpus: state, LastResource: title, LastPill: question},
			App:     app,
			Recent:  []Message{{Role: role, Text: message}, {Role: "user", Text: question}, {Role: "assistant", Text: content}},
			Role:    Role{Name: role, Text: message + glossary},
		}
		p := Builder{Budgets: budgets}.Build(in)
		checkInvariants(t, p, budgets)
		if !strings.HasPrefix(p.System, instructionsWithoutCore[:40]) {
			t.Errorf("the system prompt does not start with the rules: %q", p.System)
		}
		if got, want := ParseQuestion(p.User), strings.TrimSpace(textsafe.String(question)); got != want {
			t.Errorf("ParseQuestion = %q, want %q", got, want)
		}
		if got := ParseQuestion(p.User); p.Question != got {
			t.Errorf("Prompt.Question = %q, the user message asks %q", p.Question, got)
		}
	})
}
