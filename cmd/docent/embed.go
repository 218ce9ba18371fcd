package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/llm/embed"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/memory"
)

// embedder is the configured embedding model, or nil and no error when
// --embed-provider is none: seeding embeds with it, and a query must be
// embedded by the same model to be compared with the stored vectors.
func (e *env) embedder() (embed.Embedder, error) {
	emb, err := embed.Resolve(e.cfg.embedConfig(), e.getenv, embed.WithLogger(e.log))
	if err != nil {
		return nil, usageErrorf("--embed-provider %s: %v", e.cfg.embedProvider, err)
	}
	return emb, nil
}

// embedName names the embedder in messages: provider and model.
func (e *env) embedName(emb embed.Embedder) string {
	return strings.ToLower(strings.TrimSpace(e.cfg.embedProvider)) + " " + emb.Model()
}

// embeddingsCacheDir holds the embedded store's vectors, one file a
// model: $XDG_CACHE_HOME/docent/embeddings, else ~/.cache/docent/embeddings.
func embeddingsCacheDir(getenv func(string) string) string {
	if dir := getenv("XDG_CACHE_HOME"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "docent", "embeddings")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".cache", "docent", "embeddings")
	}
	return filepath.Join(os.TempDir(), "docent", "embeddings")
}

// embedDocs gives every chunk of docs an embedding of emb's model for
// seeding st: the vector st already holds for the same content and model
// is reused (and, for the embedded store, the one in the cache file), so
// only new or changed chunks, or all of them after a model change, go to
// the model, in batches, with progress on stderr. It returns the docs
// with their embeddings, or an error and nothing: the caller writes
// nothing then. For the embedded store it saves the vectors to the cache.
func (e *env) embedDocs(ctx context.Context, st store.Store, emb embed.Embedder, docs []knowledge.Doc, stderr io.Writer) ([]knowledge.Doc, store.EmbedReport, error) {
	model := emb.Model()
	stored, err := st.Corpus(ctx)
	if err != nil {
		return nil, store.EmbedReport{}, fmt.Errorf("read the stored embeddings from %s: %w", st.Describe(), err)
	}
	known, others := store.KnownEmbeddings(stored, model)
	cachePath := ""
	if e.cfg.dbURL == "" {
		dir := embeddingsCacheDir(e.getenv)
		cachePath = memory.EmbeddingCachePath(dir, model)
		if _, err := os.Stat(cachePath); err != nil {
			// No vectors of this model yet: if another model's are there,
			// the configured model changed, and everything is embedded anew.
			if last := memory.LatestOtherCacheModel(dir, model); last != "" && last != model {
				if _, ok := others[last]; !ok {
					others[last] = 0 // only its name is said
				}
			}
		}
		cached, err := memory.LoadEmbeddingCache(cachePath, model)
		if err != nil {
			// Only an optimization: everything is embedded again.
			fmt.Fprintf(stderr, "docent: warning: ignoring the embeddings cache: %v\n", err)
			e.log.Warn("embeddings cache ignored", "path", cachePath, "err", err)
		}
		for h, v := range cached {
			if _, ok := known[h]; !ok {
				known[h] = v
			}
		}
	}

	pending := 0
	for _, d := range docs {
		for _, c := range d.Chunks {
			if _, ok := known[c.Hash]; !ok && strings.TrimSpace(c.Content) != "" {
				pending++
			}
		}
	}
	if len(others) > 0 {
		fmt.Fprintf(stderr, "docent: embedding model changed from %s to %s: re-embedding %d chunks\n",
			strings.Join(slices.Sorted(maps.Keys(others)), ", "), model, pending)
	}
	// The chat's stderr collects start-up notes for its screen: progress
	// lines would crowd them out.
	_, quiet := stderr.(skippedLister)
	progress := func(done, total int) {
		if !quiet {
			fmt.Fprintf(stderr, "docent: embedding %d/%d chunks with %s\n", done, total, e.embedName(emb))
		}
	}
	out, rep, err := store.EmbedDocs(ctx, emb, docs, store.EmbedOptions{Known: known, Progress: progress})
	if err != nil {
		return nil, store.EmbedReport{}, fmt.Errorf("embed the docs with %s: %w", e.embedName(emb), err)
	}
	e.log.Info("embedded the docs", "embedder", e.embedName(emb), "embedded", rep.Embedded, "reused", rep.Reused, "skipped", rep.Skipped)

	if cachePath != "" {
		// Only the vectors of today's chunks: the cache does not grow with
		// every edit ever made.
		vectors := map[string][]float32{}
		for _, d := range out {
			for _, c := range d.Chunks {
				if c.Embedding != nil {
					vectors[c.Hash] = c.Embedding.Vector
				}
			}
		}
		if err := memory.SaveEmbeddingCache(cachePath, model, vectors); err != nil {
			fmt.Fprintf(stderr, "docent: warning: %v\n", err)
			e.log.Warn("embeddings cache not saved", "path", cachePath, "err", err)
		}
	}
	return out, rep, nil
}
