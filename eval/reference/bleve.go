// Package reference holds the engines docent's ranking is measured
// against in `docent-eval retrieval`: bleve and PostgreSQL full-text
// search. Neither is used to answer questions.
package reference

import (
	"context"
	"fmt"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/docent-sh/docent/eval"
)

// bleveBatchSize bounds the documents indexed per batch: big batches
// index faster, and 1,000 keeps the batch's own memory small.
const bleveBatchSize = 1000

// Bleve is a bleve index held in memory, with bleve's standard English
// analyzer (possessives, lower case, English stop words, Porter stemming)
// on the title and the text, queried with a match query over both and
// ranked by its default scoring (tf-idf).
type Bleve struct {
	name   string
	scorch bool
	index  bleve.Index
}

// NewBleve is bleve's in-memory index as its API offers it
// (bleve.NewMemOnly: the upsidedown index on an in-memory key-value store).
func NewBleve() *Bleve { return &Bleve{name: "bleve"} }

// NewBleveScorch is bleve's scorch index, its default for indexes on disk,
// kept in memory (no path, so never persisted). It answers several times
// faster than NewMemOnly and ranks the same way: a second reference for
// speed, so docent is not only measured against the slower of the two.
func NewBleveScorch() *Bleve { return &Bleve{name: "bleve-scorch", scorch: true} }

func (b *Bleve) Name() string { return b.name }

// bleveDoc is what bleve indexes: both fields also go to its _all field,
// which a match query without a field searches.
type bleveDoc struct {
	Title string `json:"title"`
	Text  string `json:"text"`
}

func (b *Bleve) Index(ctx context.Context, corpus []eval.Document) error {
	m := mapping.NewIndexMapping()
	m.DefaultAnalyzer = en.AnalyzerName
	var index bleve.Index
	var err error
	if b.scorch {
		index, err = bleve.NewUsing("", m, scorch.Name, scorch.Name, nil)
	} else {
		index, err = bleve.NewMemOnly(m)
	}
	if err != nil {
		return fmt.Errorf("%s: new in-memory index: %w", b.name, err)
	}
	batch := index.NewBatch()
	flush := func() error {
		if batch.Size() == 0 {
			return nil
		}
		if err := index.Batch(batch); err != nil {
			return fmt.Errorf("%s: index batch: %w", b.name, err)
		}
		batch.Reset()
		return ctx.Err()
	}
	for _, d := range corpus {
		if err := batch.Index(d.ID, bleveDoc{Title: d.Title, Text: d.Text}); err != nil {
			index.Close()
			return fmt.Errorf("%s: document %q: %w", b.name, d.ID, err)
		}
		if batch.Size() >= bleveBatchSize {
			if err := flush(); err != nil {
				index.Close()
				return err
			}
		}
	}
	if err := flush(); err != nil {
		index.Close()
		return err
	}
	b.index = index
	return nil
}

func (b *Bleve) Search(ctx context.Context, text string, k int) ([]string, error) {
	if b.index == nil {
		return nil, fmt.Errorf("%s: Search before Index", b.name)
	}
	req := bleve.NewSearchRequestOptions(bleve.NewMatchQuery(text), k, 0, false)
	res, err := b.index.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("%s: search: %w", b.name, err)
	}
	ids := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		ids[i] = h.ID
	}
	return ids, nil
}

func (b *Bleve) Close(context.Context) error {
	if b.index == nil {
		return nil
	}
	err := b.index.Close()
	b.index = nil
	return err
}
