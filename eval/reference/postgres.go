package reference

import (
	"context"
	"errors"

	"github.com/docent-sh/docent/eval"
	"github.com/docent-sh/docent/store/postgres"
)

// Postgres is PostgreSQL's full-text search over the store's connection:
// to_tsvector('english', title || ' ' || text) in a GIN-indexed column,
// websearch_to_tsquery('english', q), ranked by ts_rank_cd.
type Postgres struct {
	store *postgres.Store
	index *TextSearch
}

// NewPostgres measures full-text search in the database store is open on.
// The index lives in a temporary table, so the database keeps nothing.
func NewPostgres(store *postgres.Store) *Postgres { return &Postgres{store: store} }

func (p *Postgres) Name() string { return "postgres" }

func (p *Postgres) Index(ctx context.Context, corpus []eval.Document) error {
	docs := make([]TextDoc, len(corpus))
	for i, d := range corpus {
		docs[i] = TextDoc{ID: d.ID, Title: d.Title, Text: d.Text}
	}
	index, err := NewTextSearch(ctx, p.store.Pool(), p.store.Describe(), docs)
	if err != nil {
		return err
	}
	p.index = index
	return nil
}

func (p *Postgres) Search(ctx context.Context, text string, k int) ([]string, error) {
	if p.index == nil {
		return nil, errors.New("postgres: Search before Index")
	}
	return p.index.Search(ctx, text, k)
}

func (p *Postgres) Close(ctx context.Context) error {
	if p.index == nil {
		return nil
	}
	err := p.index.Close(ctx)
	p.index = nil
	return err
}
