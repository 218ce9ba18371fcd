package retrieval_test

import (
	"context"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/llm/embed"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/retrieval/retrievaltest"
)

// The hybrid tests embed with embed.Hashed, a deterministic test double
// of hashed character trigrams and words: it is no semantic model. What it
// can honestly show is a question whose words are misspelled ("retrun",
// "anywere"): the stemmer and the typo fixer (which corrects toward the
// titles' and headings' words only) miss them, while their trigrams still
// meet the chunk's.

// hashed is the embedder of the hybrid tests.
var hashed = embed.Hashed(256)

func embedOne(t testing.TB, text string) []float32 {
	t.Helper()
	v, err := hashed.Embed(context.Background(), []string{text})
	if err != nil {
		t.Fatalf("embed %q: %v", text, err)
	}
	return v[0]
}

// embeddedDocs is the small knowledge base with every chunk embedded from
// its content alone, as seeding embeds it.
func embeddedDocs(t testing.TB) []knowledge.Doc {
	t.Helper()
	docs := retrievaltest.Docs()
	for i := range docs {
		for j := range docs[i].Chunks {
			c := &docs[i].Chunks[j]
			c.Embedding = &knowledge.Embedding{Model: hashed.Model(), Vector: embedOne(t, c.Content)}
		}
	}
	return docs
}

func hybridEngine(t testing.TB, mutate func(*retrieval.Config)) *retrieval.Engine {
	t.Helper()
	cfg := retrieval.DefaultConfig()
	if mutate != nil {
		mutate(&cfg)
	}
	e, err := retrieval.New(retrievaltest.Bundle(embeddedDocs(t)), cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return e
}

func hybridQuery(t testing.TB, text string) retrieval.Query {
	return retrieval.Query{Text: text, Vector: embedOne(t, text), VectorModel: hashed.Model()}
}

func TestVectorInfo(t *testing.T) {
	e := hybridEngine(t, nil)
	info := e.VectorInfo()
	// Answerable chunks: the small knowledge base's, less heading-only
	// and links-only ones (Recent's "Empty", Quick Links' "Related").
	_, chunks := e.Size()
	if info.Model != hashed.Model() || info.Dim != 256 || info.Indexed != chunks-2 || info.OtherModel+info.Missing+info.Invalid != 0 {
		t.Fatalf("VectorInfo %+v, want %s of 256 dimensions over %d chunks, none left out", info, hashed.Model(), chunks-2)
	}

	// Mixed: the model most chunks carry wins; others, none and unusable
	// vectors are counted and left out.
	docs := embeddedDocs(t)
	var answerable []*knowledge.Chunk
	for i := range docs {
		for j := range docs[i].Chunks {
			c := &docs[i].Chunks[j]
			if !c.HeadingOnly && !strings.HasPrefix(c.Content, "## Related") {
				answerable = append(answerable, c)
			}
		}
	}
	answerable[0].Embedding = &knowledge.Embedding{Model: "other", Vector: []float32{1, 2}}
	answerable[1].Embedding = &knowledge.Embedding{Model: "other", Vector: []float32{1, 2}}
	answerable[2].Embedding = nil
	answerable[3].Embedding.Vector = make([]float32, 256)   // zero: no direction
	answerable[4].Embedding.Vector = []float32{1, 2, 3}     // another dimension
	answerable[5].Embedding.Vector[7] = float32(math.NaN()) // not a number
	e, err := retrieval.New(retrievaltest.Bundle(docs), retrieval.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	want := retrieval.VectorInfo{Model: hashed.Model(), Dim: 256, Indexed: len(answerable) - 6, OtherModel: 2, Missing: 1, Invalid: 3}
	if got := e.VectorInfo(); got != want {
		t.Fatalf("VectorInfo %+v, want %+v", got, want)
	}

	// No embeddings at all.
	e, err = retrieval.New(retrievaltest.Bundle(retrievaltest.Docs()), retrieval.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if got := e.VectorInfo(); got.Model != "" || got.Indexed != 0 || got.Missing != len(answerable) {
		t.Fatalf("VectorInfo without embeddings %+v, want no model and %d missing", got, len(answerable))
	}
}

// TestHybridRanksTheChunkThatSaysIt: "Press Ctrl+Shift+H to return to
// Home from anywhere" is Home's Overview. Asked with a typo no fixer
// takes for a slip ("retutn") and a slip of the function word "anywhere",
// which weighs nothing, the words find only "home", which Home's intro
// carries in its title and first line; the trigrams of "retutn" and
// "anywere" meet the Overview's.
func TestHybridRanksTheChunkThatSaysIt(t *testing.T) {
	const q = "how do i retutn home from anywere"
	e := hybridEngine(t, nil)
	lex := e.Search(q, 5)
	if len(lex) == 0 || lex[0].ChunkID != "concepts/home#chunk-0" {
		t.Fatalf("precondition: lexical ranking %v, want Home's intro first", lex)
	}
	hyb := e.SearchQuery(hybridQuery(t, q), 5)
	if len(hyb) == 0 || hyb[0].ChunkID != "concepts/home#chunk-1" || hyb[0].Source != retrieval.SourceHybrid {
		t.Fatalf("hybrid ranking %+v, want Home's Overview first, from both signals", hyb)
	}
	for i := 1; i < len(hyb); i++ {
		if hyb[i].FusedScore > hyb[i-1].FusedScore {
			t.Fatalf("hybrid ranking not in fused order: %+v", hyb)
		}
	}
	// Ask weighs the same candidate chunk for Home.
	res := e.Ask(hybridQuery(t, q))
	if len(res.Candidates) == 0 || res.Candidates[0].ChunkID != "concepts/home#chunk-1" || !(res.Candidates[0].FusedScore > 0) {
		t.Fatalf("hybrid Ask candidates %+v, want Home's Overview first with its fused score", res.Candidates)
	}
	if lexRes := e.Ask(retrieval.Query{Text: q}); lexRes.Candidates[0].ChunkID != "concepts/home#chunk-0" {
		t.Fatalf("precondition: lexical Ask candidates %+v, want Home's intro first", lexRes.Candidates)
	}
}

// TestVectorOnlyNeverAnswers: a question whose every word is misspelled
// finds nothing by its words; the vector side's best doc is offered, not
// answered.
func TestVectorOnlyNeverAnswers(t *testing.T) {
	const q = "onbording or recipies" // Workspace's Overview: "such as onboarding or recipes"
	e := hybridEngine(t, nil)
	lex := e.Ask(retrieval.Query{Text: q})
	if lex.Status != retrieval.StatusNoMatch || len(lex.Options) != 0 || len(lex.Candidates) != 0 {
		t.Fatalf("precondition: lexical %s (%s), options %v, candidates %v: want nothing retrieved", lex.Status, lex.Rule, lex.Options, lex.Candidates)
	}
	res := e.Ask(hybridQuery(t, q))
	if res.Status != retrieval.StatusNoMatch || len(res.Results) != 0 {
		t.Fatalf("hybrid %s (%s) with %d results: a doc the vector side alone found must not answer", res.Status, res.Rule, len(res.Results))
	}
	if len(res.Options) == 0 || res.Options[0].DocSlug != "concepts/workspace" {
		t.Fatalf("hybrid options %+v, want Workspace offered first", res.Options)
	}
	c := res.Candidates[0]
	if c.DocSlug != "concepts/workspace" || c.ChunkID != "concepts/workspace#chunk-1" || c.Coverage != 0 || c.Rank != 0 || !(c.FusedScore > 0) {
		t.Fatalf("hybrid candidate %+v, want Workspace's Overview, unweighed by the policy, with a fused score", c)
	}
}

// TestVectorOnlyNotOfferedBelowTheWords: when words found a doc, the vector
// side's other docs rank below it (alpha 0.5) and are not offered.
func TestVectorOnlyNotOfferedBelowTheWords(t *testing.T) {
	const q = "what is the orange badge on a note" // no_match: "orange" is nowhere
	e := hybridEngine(t, nil)
	lex, hyb := e.Ask(retrieval.Query{Text: q}), e.Ask(hybridQuery(t, q))
	if lex.Status != retrieval.StatusNoMatch || hyb.Status != retrieval.StatusNoMatch {
		t.Fatalf("precondition: %s / %s, want no_match both", lex.Status, hyb.Status)
	}
	if !reflect.DeepEqual(lex.Options, hyb.Options) {
		t.Fatalf("hybrid options %+v, want the lexical ones %+v", hyb.Options, lex.Options)
	}
}

func TestHybridSourceAndFusedScore(t *testing.T) {
	alpha := retrieval.DefaultConfig().Alpha
	e := hybridEngine(t, nil)
	sources := map[retrieval.Source]int{}
	for _, q := range []string{"how many links can quick links hold", "delete a workspace", "ctrl shift h retrun home", "tangerine badge"} {
		lex := e.Ask(retrieval.Query{Text: q})
		res := e.Ask(hybridQuery(t, q))
		if len(lex.Results) == 0 || len(res.Results) == 0 {
			t.Fatalf("%q: no results (%s / %s)", q, lex.Status, res.Status)
		}
		if lex.Results[0].FusedScore != 0 || lex.Results[0].VectorScore != 0 || lex.Results[0].Source != retrieval.SourceKeyword {
			t.Fatalf("%q: lexical evidence %+v has hybrid scores", q, lex.Results[0])
		}
		best := lex.Results[0].RankScore // the turn's best rank score: lexical order's first
		if !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "embeddings") }) {
			t.Errorf("%q: notes %q do not say the turn was hybrid", q, res.Notes)
		}
		for i, ev := range res.Results {
			sources[ev.Source]++
			want := alpha*ev.VectorScore + (1-alpha)*ev.RankScore/best
			if math.Abs(ev.FusedScore-want) > 1e-9 {
				t.Errorf("%q #%d %s: fused %v, want %v·%v + %v·%v/%v = %v", q, i, ev.ChunkID, ev.FusedScore, alpha, ev.VectorScore, 1-alpha, ev.RankScore, best, want)
			}
			switch ev.Source {
			case retrieval.SourceEmbedding:
				if ev.RankScore != 0 || len(ev.MatchedTerms) != 0 || !(ev.VectorScore > 0) {
					t.Errorf("%q #%d: embedding-only evidence %+v has words or no similarity", q, i, ev)
				}
			case retrieval.SourceHybrid:
				if !(ev.RankScore > 0) {
					t.Errorf("%q #%d: hybrid evidence %+v without a rank score", q, i, ev)
				}
			case retrieval.SourceKeyword:
				if !(ev.RankScore > 0) || ev.VectorScore != 0 {
					t.Errorf("%q #%d: keyword evidence %+v", q, i, ev)
				}
			default:
				t.Errorf("%q #%d: source %q", q, i, ev.Source)
			}
			// In fused order, but for the decided doc's first chunk, led.
			if i > 1 && ev.FusedScore > res.Results[i-1].FusedScore {
				t.Errorf("%q: evidence not in fused order at #%d", q, i)
			}
		}
	}
	if sources[retrieval.SourceHybrid] == 0 || sources[retrieval.SourceEmbedding] == 0 {
		t.Fatalf("sources seen %v: want hybrid and embedding evidence among these questions", sources)
	}
}

// withoutTiming is a result less what differs from turn to turn anyway.
func withoutTiming(r retrieval.Result) retrieval.Result {
	r.Metrics.RetrievalMS = 0
	r.Notes = nil
	return r
}

// TestLexicalFallback: without a usable query vector a turn is today's
// lexical turn exactly, and says why in its notes.
func TestLexicalFallback(t *testing.T) {
	questions := []string{"explain workspace", "how do i retrun home from anywere", "workspace", "shortcuts", "delete a workspace", "workspace and widgets", "onbording or recipies"}
	plain, err := retrieval.New(retrievaltest.Bundle(retrievaltest.Docs()), retrieval.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	embedded := hybridEngine(t, nil)
	alphaZero := hybridEngine(t, func(c *retrieval.Config) { c.Alpha = 0 })
	for _, q := range questions {
		want := withoutTiming(plain.Ask(retrieval.Query{Text: q}))
		hq := hybridQuery(t, q)
		for _, tt := range []struct {
			name string
			e    *retrieval.Engine
			q    retrieval.Query
			note string
		}{
			{"no query vector", embedded, retrieval.Query{Text: q}, ""},
			{"model mismatch", embedded, retrieval.Query{Text: q, Vector: hq.Vector, VectorModel: "text-embedding-3-small"}, "query embedded with"},
			{"no chunk embeddings", plain, hq, "no chunk embeddings"},
			{"alpha 0", alphaZero, hq, "alpha 0"},
			{"another dimension", embedded, retrieval.Query{Text: q, Vector: hq.Vector[:100], VectorModel: hashed.Model()}, "vector search failed"},
			{"not a number", embedded, retrieval.Query{Text: q, Vector: append(slices.Clone(hq.Vector[:255]), float32(math.NaN())), VectorModel: hashed.Model()}, "vector search failed"},
			{"zero", embedded, retrieval.Query{Text: q, Vector: make([]float32, 256), VectorModel: hashed.Model()}, "vector search failed"},
		} {
			got := tt.e.Ask(tt.q)
			if !reflect.DeepEqual(withoutTiming(got), want) {
				t.Errorf("%q, %s: result differs from the lexical one:\n got %+v\nwant %+v", q, tt.name, withoutTiming(got), want)
			}
			hasNote := slices.ContainsFunc(got.Notes, func(n string) bool { return tt.note != "" && strings.Contains(n, tt.note) })
			if tt.note != "" && !hasNote && got.Rule != retrieval.RuleSmallTalk {
				t.Errorf("%q, %s: notes %q do not say why (%q)", q, tt.name, got.Notes, tt.note)
			}
			if tt.note == "" && len(got.Notes) != len(plain.Ask(retrieval.Query{Text: q}).Notes) {
				t.Errorf("%q, %s: notes %q added", q, tt.name, got.Notes)
			}
			if hits, lex := tt.e.SearchQuery(tt.q, 5), plain.Search(q, 5); !reflect.DeepEqual(hits, lex) {
				t.Errorf("%q, %s: SearchQuery %+v, want Search's %+v", q, tt.name, hits, lex)
			}
		}
	}
	// Phase 1 scores whole docs, which carry no embedding.
	phase1 := hybridEngine(t, func(c *retrieval.Config) { c.Phase = 1 })
	plain1, err := retrieval.New(retrievaltest.Bundle(retrievaltest.Docs()), func() retrieval.Config { c := retrieval.DefaultConfig(); c.Phase = 1; return c }())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range questions {
		got, want := phase1.Ask(hybridQuery(t, q)), plain1.Ask(retrieval.Query{Text: q})
		if !reflect.DeepEqual(withoutTiming(got), withoutTiming(want)) {
			t.Errorf("%q, phase 1: result differs from the lexical one", q)
		}
	}
}

// TestHybridConcurrent runs hybrid turns at once, for the race detector.
func TestHybridConcurrent(t *testing.T) {
	e := hybridEngine(t, nil)
	qs := []retrieval.Query{hybridQuery(t, "how do i retrun home from anywere"), hybridQuery(t, "onbording or recipies"), hybridQuery(t, "delete a workspace")}
	want := make([]retrieval.Result, len(qs))
	for i, q := range qs {
		want[i] = withoutTiming(e.Ask(q))
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				j := i % len(qs)
				if got := withoutTiming(e.Ask(qs[j])); !reflect.DeepEqual(got, want[j]) {
					t.Errorf("concurrent hybrid turn %d differs", j)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestHybridMultiIntent: the parts of a multi-intent question have no
// vectors of their own; they are answered as the words rank them.
func TestHybridMultiIntent(t *testing.T) {
	const q = "workspace and quick links"
	e := hybridEngine(t, nil)
	lex, hyb := e.Ask(retrieval.Query{Text: q}), e.Ask(hybridQuery(t, q))
	if lex.Status != retrieval.StatusMulti || hyb.Status != retrieval.StatusMulti {
		t.Fatalf("precondition: %s / %s, want multi both", lex.Status, hyb.Status)
	}
	if !reflect.DeepEqual(lex.Options, hyb.Options) || !reflect.DeepEqual(lex.Results, hyb.Results) {
		t.Fatalf("hybrid multi-intent options or evidence differ from the lexical ones")
	}
	if !slices.ContainsFunc(hyb.Notes, func(n string) bool { return strings.Contains(n, "multi-intent") }) {
		t.Fatalf("notes %q do not say the parts were ranked by keywords", hyb.Notes)
	}
}
