package assistant_test

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/llm/embed"
	"github.com/docent-sh/docent/retrieval"
)

// embeddedDemoEngine is the demo knowledge base with every chunk embedded
// by embed.Hashed (a deterministic test double, not a semantic model).
func embeddedDemoEngine(t testing.TB, h *embed.HashedEmbedder) *retrieval.Engine {
	t.Helper()
	ctx := context.Background()
	b, _, err := ingest.LoadBundle(ctx, kb.Docs(), "kb")
	if err != nil {
		t.Fatal(err)
	}
	for i := range b.Docs {
		for j := range b.Docs[i].Chunks {
			c := &b.Docs[i].Chunks[j]
			if strings.TrimSpace(c.Content) == "" {
				continue
			}
			v, err := h.Embed(ctx, []string{c.Content})
			if err != nil {
				t.Fatal(err)
			}
			c.Embedding = &knowledge.Embedding{Model: h.Model(), Vector: v[0]}
		}
	}
	e, err := retrieval.New(b, retrieval.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if e.VectorInfo().Indexed == 0 {
		t.Fatal("no chunk embedding indexed")
	}
	return e
}

// fakeEmbedder answers as its fields say and counts its calls.
type fakeEmbedder struct {
	model  string
	err    error
	vecs   [][]float32
	block  time.Duration // sleeps this long first, ignoring the context
	calls  atomic.Int32
	inputs atomic.Value // []string of the last call
}

func (f *fakeEmbedder) Model() string { return f.model }

func (f *fakeEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	f.calls.Add(1)
	f.inputs.Store(slices.Clone(texts))
	time.Sleep(f.block)
	return f.vecs, f.err
}

// lexicalOf is what a turn's result must equal when the question could
// not be embedded: the lexical result, less timing and notes.
func lexicalOf(r retrieval.Result) retrieval.Result {
	r.Metrics.RetrievalMS = 0
	r.Notes = nil
	return r
}

func TestQuestionEmbedded(t *testing.T) {
	h := embed.Hashed(256)
	e := embeddedDemoEngine(t, h)
	s := assistant.New(e, &recordingWriter{}, assistant.Options{Glossary: kb.Glossary(), Embedder: h})
	res := s.Retrieve(context.Background(), assistant.Request{Query: "how do I rename a workspace"})
	if len(res.Results) == 0 {
		t.Fatalf("no evidence (%s, %s)", res.Status, res.Rule)
	}
	if !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "keywords and embeddings") }) {
		t.Fatalf("notes %q: the turn was not hybrid", res.Notes)
	}
	for _, ev := range res.Results {
		if ev.Source == retrieval.SourceKeyword || !(ev.FusedScore > 0) {
			t.Fatalf("evidence %s from %s, fused %v: want the vector side to have taken part", ev.ChunkID, ev.Source, ev.FusedScore)
		}
	}
}

func TestEmbedderFailureFallsBackToWords(t *testing.T) {
	h := embed.Hashed(256)
	e := embeddedDemoEngine(t, h)
	good := h.Model()
	for _, tt := range []struct {
		name    string
		emb     *fakeEmbedder
		timeout time.Duration
		note    string
	}{
		{"error", &fakeEmbedder{model: good, err: errors.New("embed: openai: 503 Service Unavailable")}, 0, "embedding the question failed: embed: openai: 503"},
		{"slow, ignoring its context", &fakeEmbedder{model: good, block: 3 * time.Second, vecs: [][]float32{{1}}}, 100 * time.Millisecond, "timed out after 100ms"},
		{"no vector", &fakeEmbedder{model: good}, 0, "gave 0 vectors"},
		{"another model", &fakeEmbedder{model: "nomic-embed-text", vecs: [][]float32{make([]float32, 256)}}, 0, `query embedded with "nomic-embed-text"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.emb.vecs != nil && len(tt.emb.vecs[0]) == 256 {
				tt.emb.vecs[0][0] = 1
			}
			plain := assistant.New(e, &recordingWriter{}, assistant.Options{Glossary: kb.Glossary()})
			s := assistant.New(e, &recordingWriter{}, assistant.Options{Glossary: kb.Glossary(), Embedder: tt.emb, EmbedTimeout: tt.timeout})
			for _, q := range []string{"how do I rename a workspace", "explain calendar", "wrkspace"} {
				start := time.Now()
				res := s.Retrieve(context.Background(), assistant.Request{Query: q})
				took := time.Since(start)
				want := plain.Retrieve(context.Background(), assistant.Request{Query: q})
				if !reflect.DeepEqual(lexicalOf(res), lexicalOf(want)) {
					t.Errorf("%q: result differs from the lexical one", q)
				}
				if !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, tt.note) }) {
					t.Errorf("%q: notes %q do not say %q", q, res.Notes, tt.note)
				}
				if limit := 2 * time.Second; tt.timeout > 0 && took > limit {
					t.Errorf("%q: the turn took %s, want it back within the %s timeout (and well under %s)", q, took, tt.timeout, limit)
				}
			}
		})
	}
}

// TestEmbedderOnlyForQuestions: picks, continuations and "tell me more"
// name their chunk; embedding them would be a wasted call.
func TestEmbedderOnlyForQuestions(t *testing.T) {
	h := embed.Hashed(256)
	e := embeddedDemoEngine(t, h)
	f := &fakeEmbedder{model: h.Model(), err: errors.New("unused")}
	s := assistant.New(e, &recordingWriter{}, assistant.Options{Glossary: kb.Glossary(), Embedder: f})
	ctx := context.Background()
	res := s.Retrieve(ctx, assistant.Request{Query: "explain workspace"})
	if f.calls.Load() != 1 || !reflect.DeepEqual(f.inputs.Load(), []string{"explain workspace"}) {
		t.Fatalf("question: %d calls with %v, want one with the question", f.calls.Load(), f.inputs.Load())
	}
	s.Retrieve(ctx, assistant.Request{Query: "tell me more"})
	if len(res.Options) > 0 {
		s.Retrieve(ctx, assistant.Request{DocSlug: res.Options[0].DocSlug, Query: "explain workspace"})
	}
	if len(res.Results) > 0 {
		s.Retrieve(ctx, assistant.Request{AfterChunkID: res.Results[0].ChunkID})
	}
	if n := f.calls.Load(); n != 1 {
		t.Fatalf("embedder called %d times, want once (the question alone)", n)
	}
}
