package prompt

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/retrieval"
)

// demoInput is the size of a demo-KB turn: five chunks of about 300
// tokens, the demo glossary, five recent messages, a session and a small
// app state.
func demoInput() Input {
	var ev []retrieval.Evidence
	for i := range 5 {
		ev = append(ev, evidence(fmt.Sprintf("concepts/doc%d#chunk-%d", i, i), float64(5-i), prose(fmt.Sprintf("demo%d", i), 300)))
	}
	var recent []Message
	for i := range 5 {
		role := []string{"user", "assistant"}[i%2]
		recent = append(recent, Message{Role: role, Text: prose(fmt.Sprintf("message%d", i), 40)})
	}
	app, err := ParseAppState("ctx.json", []byte(`{"page": "dashboard", "entry": "Personal", "widgets": [{"name": "Recent", "state": "collapsed", "items": 12}, {"name": "Quick Links", "state": "expanded"}]}`))
	if err != nil {
		panic(err)
	}
	return Input{
		Question: "How do I add the Recent widget to my dashboard?",
		Glossary: kb.Glossary(),
		Evidence: ev,
		Session:  Session{Corpus: "demo", LastResource: "widgets/recent", LastPill: "Recent"},
		App:      &app,
		Recent:   recent,
	}
}

func TestBuildDemoInput(t *testing.T) {
	in := demoInput()
	p := Builder{}.Build(in)
	checkInvariants(t, p, Budgets{})
	// The demo glossary is meant to fit whole.
	for _, d := range p.Report.Dropped {
		if d.Component == "core" {
			t.Errorf("demo glossary was cut: %+v", d)
		}
	}
	if len(p.Docs) < 4 {
		t.Errorf("only %d of 5 demo chunks fit the default docs budget", len(p.Docs))
	}
	if total := p.Report.Tokens.Total; total > 3300 {
		t.Errorf("demo prompt is %d tokens, want about 3000 at most", total)
	}
}

// BenchmarkBuild builds the demo-size prompt counting every token, as on a
// session's first turn. It reports ns/op and the 95th percentile.
func BenchmarkBuild(b *testing.B) {
	benchmarkBuild(b, Builder{})
}

// BenchmarkBuildCached is a later turn of the same session: glossary,
// history and chunks already counted.
func BenchmarkBuildCached(b *testing.B) {
	benchmarkBuild(b, Builder{Cache: NewCountCache(256)})
}

func benchmarkBuild(b *testing.B, builder Builder) {
	in := demoInput()
	builder.Build(in) // load the vocabulary outside the timing
	var durations []time.Duration
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		builder.Build(in)
		durations = append(durations, time.Since(start))
	}
	slices.Sort(durations)
	p95 := durations[len(durations)*95/100]
	b.ReportMetric(float64(p95.Microseconds())/1000, "p95-ms")
}
