package llm

import (
	"context"
	"testing"

	promptctx "github.com/docent-sh/docent/context"
	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/retrieval"
)

// demoPrompt is a prompt as docent builds it on the demo knowledge base:
// the glossary and the workspace chunks, filling the docs budget.
func demoPrompt(b *testing.B) promptctx.Prompt {
	b.Helper()
	res, err := ingest.Load(context.Background(), kb.Docs(), ".")
	if err != nil {
		b.Fatal(err)
	}
	var ev []retrieval.Evidence
	for _, d := range res.Docs {
		if d.Slug != "concepts/workspace" && d.Slug != "actions/workspaces" {
			continue
		}
		for _, c := range d.Chunks {
			ev = append(ev, retrieval.Evidence{DocSlug: d.Slug, Title: d.Title, ChunkID: c.ID(),
				HeaderPath: c.HeaderPath, Content: c.Content, Score: float64(len(ev))})
		}
	}
	return promptctx.Builder{}.Build(promptctx.Input{Question: "How do I archive a workspace?", Glossary: kb.Glossary(), Evidence: ev})
}

// BenchmarkToMessages is the prompt's conversion for langchaingo, paid
// before every model call.
func BenchmarkToMessages(b *testing.B) {
	p := demoPrompt(b)
	for b.Loop() {
		toMessages(p)
	}
}
