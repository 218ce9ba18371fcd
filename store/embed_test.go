package store_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/storetest"
)

// countingEmbedder records what it was asked to embed; its vectors are the
// text's length and its first byte, in dim values.
type countingEmbedder struct {
	model string
	dim   int
	fail  error
	mu    sync.Mutex
	texts []string
	calls int
}

func (c *countingEmbedder) Model() string { return c.model }
func (c *countingEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	if c.fail != nil {
		return nil, c.fail
	}
	c.texts = append(c.texts, texts...)
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, c.dim)
		for k := range v {
			v[k] = float32(len(t)+k) + float32(t[0])/256
		}
		out[i] = v
	}
	return out, nil
}

func TestEmbedDocs(t *testing.T) {
	docs := storetest.Fixture()
	total := 0
	for _, d := range docs {
		total += len(d.Chunks)
	}
	e := &countingEmbedder{model: "m", dim: 4}
	var progress []int
	got, rep, err := store.EmbedDocs(t.Context(), e, docs, store.EmbedOptions{Batch: 3, Progress: func(done, all int) {
		progress = append(progress, done)
		if all != total {
			t.Errorf("progress total %d, want %d", all, total)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Embedded != total || rep.Reused != 0 || len(e.texts) != total {
		t.Errorf("report %+v, %d texts sent; want all %d embedded", rep, len(e.texts), total)
	}
	if want := (total + 2) / 3; e.calls != want || len(progress) != want+1 || progress[len(progress)-1] != total {
		t.Errorf("%d calls, progress %v; want %d batches of 3", e.calls, progress, want)
	}
	sent := map[string]bool{}
	for _, s := range e.texts {
		sent[s] = true
	}
	for _, d := range got {
		for _, c := range d.Chunks {
			if c.Embedding == nil || c.Embedding.Model != "m" || len(c.Embedding.Vector) != 4 {
				t.Fatalf("chunk %s: embedding %+v", c.ID(), c.Embedding)
			}
			if !sent[c.Content] {
				t.Errorf("chunk %s: its content alone was not what was embedded", c.ID())
			}
		}
	}
	for _, d := range docs {
		for _, c := range d.Chunks {
			if c.Embedding != nil {
				t.Fatal("EmbedDocs changed its input")
			}
		}
	}

	// Known vectors are reused: only the changed chunk goes to the model.
	known, others := store.KnownEmbeddings(got, "m")
	if len(others) != 0 || len(known) != total {
		t.Fatalf("known %d, others %v", len(known), others)
	}
	edited := storetest.CloneDocs(docs)
	edited[0].Chunks[1].Content += " More."
	edited[0] = storetest.Finish(edited[0])
	e2 := &countingEmbedder{model: "m", dim: 4}
	_, rep, err = store.EmbedDocs(t.Context(), e2, edited, store.EmbedOptions{Known: known})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Embedded != 1 || rep.Reused != total-1 || len(e2.texts) != 1 || e2.texts[0] != edited[0].Chunks[1].Content {
		t.Errorf("after one edit: report %+v, sent %q; want the edited chunk alone", rep, e2.texts)
	}
	if _, others := store.KnownEmbeddings(got, "other"); others["m"] != total {
		t.Errorf("other models %v, want m: %d", others, total)
	}

	// Known vectors of another length than the model now gives: all anew.
	e3 := &countingEmbedder{model: "m", dim: 5}
	_, rep, err = store.EmbedDocs(t.Context(), e3, edited, store.EmbedOptions{Known: known})
	if err != nil || rep.Embedded != total || rep.Reused != 0 {
		t.Errorf("dimension change: report %+v, %v; want all re-embedded", rep, err)
	}

	// A failure returns nothing and names the model.
	boom := errors.New("boom")
	out, _, err := store.EmbedDocs(t.Context(), &countingEmbedder{model: "m", dim: 4, fail: boom}, docs, store.EmbedOptions{})
	if !errors.Is(err, boom) || out != nil || !strings.Contains(err.Error(), "chunks 1–") {
		t.Errorf("failing embedder: %d docs, %v", len(out), err)
	}
}

// A blank chunk is not sent (a model refuses it) and stays without.
func TestEmbedDocsSkipsBlank(t *testing.T) {
	d := storetest.NewDoc("a/b", "B", storetest.Section{Body: "Text."})
	d.Chunks = append(d.Chunks, knowledge.Chunk{DocSlug: "a/b", Index: 1, Content: "  \n", Hash: "x"})
	e := &countingEmbedder{model: "m", dim: 2}
	got, rep, err := store.EmbedDocs(t.Context(), e, []knowledge.Doc{d}, store.EmbedOptions{})
	if err != nil || rep.Skipped != 1 || got[0].Chunks[1].Embedding != nil || got[0].Chunks[0].Embedding == nil {
		t.Errorf("report %+v, %v", rep, err)
	}
}
