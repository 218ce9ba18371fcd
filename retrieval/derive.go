package retrieval

// WithSettings is an engine over the same knowledge base and indexes as e
// that returns topK results per turn and weighs a hybrid turn with alpha;
// every other setting is e's. Nothing is rebuilt: the indexes, the
// vectors and the glossary are shared, and the Phase 1 index e builds
// lazily is built once for both. The assistant asks one for a wider pool
// of evidence to rerank, or to widen a turn the model found unanswerable.
func (e *Engine) WithSettings(topK int, alpha float64) (*Engine, error) {
	cfg := e.cfg
	cfg.TopK, cfg.Alpha = topK, alpha
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	d := &Engine{cfg: cfg, th: e.th, docs: e.docs, bySlug: e.bySlug, chunks: e.chunks,
		glossary: e.glossary, titleStarts: e.titleStarts, norm: e.norm, nChunks: e.nChunks, vec: e.vec}
	d.buildWhole = func() { d.whole = e.wholeIndex() }
	return d, nil
}
