package assistant_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/prompt"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store/memory"
	"github.com/docent-sh/docent/store/storetest"
	"github.com/docent-sh/docent/tokens"
)

// stopWriter returns as soon as it gets the prompt: what is measured is
// everything docent does before a model is called.
type stopWriter struct{}

func (stopWriter) Stream(context.Context, prompt.Prompt, func(string)) (llm.Answer, error) {
	return llm.Answer{}, nil
}

// BenchmarkTurnBeforeModel times one turn up to the model call (retrieval,
// decision, context build with token counting) on the demo knowledge
// base, as a session runs it: one count cache for the session, questions
// that recur. Target: p95 ≤ 5 ms.
func BenchmarkTurnBeforeModel(b *testing.B) {
	questions := []string{
		"explain workspace", "what is quick links", "how do I rename a note", "what are workspace actions",
		"workspace and widgets", "where are my shortcuts?", "how do I find my notes?", "explain notes",
	}
	s := assistant.New(demoEngine(b), stopWriter{}, assistant.Options{
		Glossary: kb.Glossary(),
		Builder:  prompt.Builder{Counter: tokens.Default(), Cache: prompt.NewCountCache(512)},
	})
	ctx := context.Background()
	durations := make([]time.Duration, 0, b.N)
	i := 0
	for b.Loop() {
		start := time.Now()
		res := s.Retrieve(ctx, assistant.Request{Query: questions[i%len(questions)]})
		if _, err := s.Answer(ctx, res, nil); err != nil {
			b.Fatal(err)
		}
		durations = append(durations, time.Since(start))
		i++
	}
	slices.Sort(durations)
	pct := func(p float64) float64 {
		return float64(durations[int(p*float64(len(durations)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.95), "p95-ms")
}

// BenchmarkRetrieveWithNotes compares a turn's retrieval from the docs
// alone with one that also searches 10,000 note chunks (docs and notes
// both generated, of the same size and vocabulary, so the two are alike
// to rank). Target: auto p95 ≤ 2× docs-only p95.
func BenchmarkRetrieveWithNotes(b *testing.B) {
	notes := storetest.GenerateNotes(3400) // ~10,200 chunks
	var docs []knowledge.Doc
	docNotes := storetest.GenerateNotes(3401)
	for i, n := range docNotes {
		n.ID = fmt.Sprintf("doc-%d", i)
		d := n.AsDoc()
		d.Slug, d.Category = "guides/"+n.ID, "guides"
		for j := range d.Chunks {
			d.Chunks[j].DocSlug, d.Chunks[j].Category = d.Slug, d.Category
		}
		docs = append(docs, d)
	}
	engine, err := retrieval.New(knowledge.Bundle{Docs: docs}, retrieval.DefaultConfig())
	if err != nil {
		b.Fatal(err)
	}
	st := memory.New(memory.Options{})
	owner := knowledge.Scope{Workspace: "bench", User: "agent-0"}
	for _, n := range notes {
		if _, err := st.AddNote(context.Background(), knowledge.Scope{Workspace: n.Workspace, User: n.Owner}, n); err != nil {
			b.Fatal(err)
		}
	}
	// Half the questions are a doc's title, half a note's: each corpus
	// answers some, and both are searched for all.
	var questions []string
	for i := range 32 {
		questions = append(questions, strings.ToLower(docNotes[i].Title), strings.ToLower(notes[i].Title))
	}
	for _, tc := range []struct {
		name   string
		notes  assistant.NotesOptions
		corpus knowledge.Corpus
	}{
		{"docs-only", assistant.NotesOptions{}, ""},
		{"notes-only", assistant.NotesOptions{Source: st, Scope: owner}, knowledge.CorpusNotes},
		{"auto", assistant.NotesOptions{Source: st, Scope: owner}, ""},
	} {
		b.Run(tc.name, func(b *testing.B) {
			s := assistant.New(engine, nil, assistant.Options{Notes: tc.notes, Log: quiet})
			ctx := context.Background()
			s.Retrieve(ctx, assistant.Request{Query: "warm up"}) // builds the notes index once
			durations := make([]time.Duration, 0, b.N)
			i := 0
			for b.Loop() {
				start := time.Now()
				s.Retrieve(ctx, assistant.Request{Query: questions[i%len(questions)], Corpus: tc.corpus})
				durations = append(durations, time.Since(start))
				i++
			}
			slices.Sort(durations)
			b.ReportMetric(float64(durations[int(0.95*float64(len(durations)-1))].Microseconds())/1000, "p95-ms")
		})
	}
}
