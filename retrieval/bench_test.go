package retrieval_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docent-sh/docent/internal/demo"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/llm/embed"
	"github.com/docent-sh/docent/retrieval"
)

// demoQueries mix the outcomes support staff produce: confident answers,
// clarifications, misses, typos, multi-intent and long questions.
var demoQueries = []string{
	"explain workspace", "what is home", "what is quick links", "explain notes",
	"what are workspace actions", "workspace", "wrkspace", "home", "shortcuts",
	"tell me about snapshot", "explain calendar", "how do I do it", "workspace and widgets",
	"open notes + quick links", "where are my shortcuts?", "how do I find my notes?",
	"how do I rename a workspace", "move a note to another workspace", "resize a widget on the dashboard",
}

func BenchmarkAskDemoKB(b *testing.B) {
	e := demo.Engine(b)
	benchAsk(b, e, demoQueries)
}

// corpus is a generated knowledge base: text drawn from a vocabulary with
// a Zipf-like distribution, like real documentation where a few words are
// everywhere and most are rare.
type corpus struct {
	docs    []knowledge.Doc
	queries []string
}

var (
	corpusMu    sync.Mutex
	corpusCache = map[int]*corpus{}
)

func generatedCorpus(chunks int) *corpus {
	corpusMu.Lock()
	defer corpusMu.Unlock()
	if c, ok := corpusCache[chunks]; ok {
		return c
	}
	rng := rand.New(rand.NewPCG(42, uint64(chunks)))
	vocab := makeVocabulary(rng, 30000)
	zipf := rand.NewZipf(rand.New(rand.NewPCG(7, 7)), 1.07, 2, uint64(len(vocab)-1))
	word := func() string { return vocab[zipf.Uint64()] }
	// Titles and keywords come from the middle of the distribution, as
	// feature names do: neither "the" nor a one-off.
	midWord := func() string { return vocab[200+rng.IntN(8000)] }
	sentence := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = word()
		}
		return strings.ToUpper(w[0][:1]) + strings.Join(w, " ")[1:] + "."
	}
	const perDoc = 8
	c := &corpus{}
	for d := 0; len(c.docs)*perDoc < chunks; d++ {
		title := midWord() + " " + midWord()
		slug := fmt.Sprintf("gen/doc-%d", d)
		doc := knowledge.Doc{Slug: slug, Category: "gen", Title: title, Keywords: []string{midWord(), title},
			SourcePath: slug + ".md", ContentHash: fmt.Sprint(d)}
		var all []string
		for i := 0; i < perDoc; i++ {
			section := midWord()
			var body []string
			for s := 0; s < 4+rng.IntN(6); s++ {
				body = append(body, sentence(8+rng.IntN(14)))
			}
			content := "## " + section + "\n\n" + strings.Join(body, " ")
			doc.Chunks = append(doc.Chunks, knowledge.Chunk{DocSlug: slug, Category: "gen", Title: title,
				HeaderPath: title + " > " + section, Index: i, Content: content, Keywords: doc.Keywords,
				Hash: fmt.Sprint(i), BodyChars: len(content)})
			all = append(all, content)
		}
		doc.Content = strings.Join(all, "\n\n")
		c.docs = append(c.docs, doc)
	}
	for i := 0; i < 500; i++ {
		switch i % 4 {
		case 0: // a feature name
			c.queries = append(c.queries, "what is "+c.docs[rng.IntN(len(c.docs))].Title)
		case 1: // a question in common words
			c.queries = append(c.queries, "how do I "+word()+" the "+word()+" "+word())
		case 2: // rare words
			c.queries = append(c.queries, midWord()+" "+midWord())
		default: // two intents
			c.queries = append(c.queries, c.docs[rng.IntN(len(c.docs))].Title+" and "+midWord())
		}
	}
	corpusCache[chunks] = c
	return c
}

func makeVocabulary(rng *rand.Rand, n int) []string {
	syllables := strings.Fields("ka lo mi ne ru ta vo shi pe da gu ri fo ze bal tor men sin cal dep")
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		var b strings.Builder
		for s := 0; s < 2+rng.IntN(3); s++ {
			b.WriteString(syllables[rng.IntN(len(syllables))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

func generatedEngine(b *testing.B, chunks int) *retrieval.Engine {
	b.Helper()
	c := generatedCorpus(chunks)
	e, err := retrieval.New(knowledge.Bundle{Docs: c.docs, Glossary: kb.Glossary()}, retrieval.DefaultConfig())
	if err != nil {
		b.Fatal(err)
	}
	return e
}

func BenchmarkAsk10k(b *testing.B) {
	e := generatedEngine(b, 10_000)
	benchAsk(b, e, generatedCorpus(10_000).queries)
}

// BenchmarkAskHybrid10k is BenchmarkAsk10k with every chunk and question
// embedded (embed.Hashed, 384 dimensions, made before the timer starts):
// the cost of the vector search and the fusion over the lexical turn.
func BenchmarkAskHybrid10k(b *testing.B) {
	c := generatedCorpus(10_000)
	h := embed.Hashed(384)
	docs := make([]knowledge.Doc, len(c.docs))
	for i, d := range c.docs {
		d.Chunks = slices.Clone(d.Chunks)
		texts := make([]string, len(d.Chunks))
		for j, ch := range d.Chunks {
			texts[j] = ch.Content
		}
		vecs, err := h.Embed(context.Background(), texts)
		if err != nil {
			b.Fatal(err)
		}
		for j := range d.Chunks {
			d.Chunks[j].Embedding = &knowledge.Embedding{Model: h.Model(), Vector: vecs[j]}
		}
		docs[i] = d
	}
	e, err := retrieval.New(knowledge.Bundle{Docs: docs, Glossary: kb.Glossary()}, retrieval.DefaultConfig())
	if err != nil {
		b.Fatal(err)
	}
	if n := e.VectorInfo().Indexed; n != 10_000 {
		b.Fatalf("%d chunk vectors indexed, want 10000", n)
	}
	qvecs, err := h.Embed(context.Background(), c.queries)
	if err != nil {
		b.Fatal(err)
	}
	queries := make([]retrieval.Query, len(c.queries))
	for i, q := range c.queries {
		queries[i] = retrieval.Query{Text: q, Vector: qvecs[i], VectorModel: h.Model()}
	}
	benchAskQueries(b, e, queries)
}

func BenchmarkAsk100k(b *testing.B) {
	e := generatedEngine(b, 100_000)
	benchAsk(b, e, generatedCorpus(100_000).queries)
}

// BenchmarkAskParallel100k is BenchmarkAsk100k with 8 questions at once
// per core, as a server under load asks them: p99 is then also the wait
// for a core, and B/op counts the per-search scratch space the searches
// running at once need (40 bytes a chunk each).
func BenchmarkAskParallel100k(b *testing.B) {
	e := generatedEngine(b, 100_000)
	benchAskParallel(b, e, generatedCorpus(100_000).queries)
}

// BenchmarkBuild100k times building the index for 100k chunks (generation
// excluded).
func BenchmarkBuild100k(b *testing.B) {
	c := generatedCorpus(100_000)
	b.ResetTimer()
	for b.Loop() {
		if _, err := retrieval.New(knowledge.Bundle{Docs: c.docs, Glossary: kb.Glossary()}, retrieval.DefaultConfig()); err != nil {
			b.Fatal(err)
		}
	}
}

// benchAsk runs the whole pipeline (normalize → score → rank → decide →
// reply) over queries and reports per-query p50/p95 besides ns/op.
func benchAsk(b *testing.B, e *retrieval.Engine, queries []string) {
	b.Helper()
	qs := make([]retrieval.Query, len(queries))
	for i, q := range queries {
		qs[i] = retrieval.Query{Text: q}
	}
	benchAskQueries(b, e, qs)
}

func benchAskQueries(b *testing.B, e *retrieval.Engine, queries []retrieval.Query) {
	b.Helper()
	var lat []time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		start := time.Now()
		e.Ask(queries[i%len(queries)])
		lat = append(lat, time.Since(start))
		i++
	}
	b.StopTimer()
	slices.Sort(lat)
	pct := func(p float64) float64 {
		idx := int(p*float64(len(lat))+0.5) - 1
		return float64(lat[min(max(idx, 0), len(lat)-1)].Nanoseconds())
	}
	b.ReportMetric(pct(0.50), "p50-ns")
	b.ReportMetric(pct(0.95), "p95-ns")
	// p99 is what make load's HTTP figures are compared with.
	b.ReportMetric(pct(0.99), "p99-ns")
}

func benchAskParallel(b *testing.B, e *retrieval.Engine, queries []string) {
	b.Helper()
	var mu sync.Mutex
	var lat []time.Duration
	var next atomic.Int64
	b.SetParallelism(8)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			q := queries[int(next.Add(1))%len(queries)]
			start := time.Now()
			e.Ask(retrieval.Query{Text: q})
			mine = append(mine, time.Since(start))
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	b.StopTimer()
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(int(p*float64(len(lat))), len(lat)-1)].Nanoseconds())
	}
	b.ReportMetric(pct(0.50), "p50-ns")
	b.ReportMetric(pct(0.99), "p99-ns")
}
