package assistant_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/prompt"
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
