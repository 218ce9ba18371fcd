// Package store holds what docent's knowledge stores share: the Store
// contract, the seed report and the pure seed planner (the retrieval event
// they record is a domain type, in knowledge). The stores themselves live
// in store/memory and store/postgres; both apply the same Plan so they
// agree on what a seed changes.
package store

import (
	"context"
	"fmt"
	"time"

	"github.com/docent-sh/docent/knowledge"
)

// Store is the contract every knowledge store keeps, the embedded one
// (store/memory) and PostgreSQL (store/postgres): the commands open one
// and store/storetest holds both to it. A use-case that needs less
// declares the smaller interface it uses, as assistant does.
type Store interface {
	// Seed makes the stored knowledge base the given docs (and vocabulary,
	// when opts carries one), as Plan decides, in one transaction.
	Seed(ctx context.Context, docs []knowledge.Doc, opts SeedOptions) (SeedReport, error)
	ListDocs(ctx context.Context) ([]knowledge.DocSummary, error)
	// Corpus is every stored doc with its chunks, for building the index.
	Corpus(ctx context.Context) ([]knowledge.Doc, error)
	Vocabulary(ctx context.Context) (knowledge.Vocabulary, error)
	// Generation changes whenever a seed changes what Corpus returns, so a
	// reader knows when to rebuild its index.
	Generation(ctx context.Context) (int64, error)
	RecordRetrieval(ctx context.Context, ev knowledge.RetrievalEvent) error
	// Describe names the store for the status bar, never with credentials.
	Describe() string
	Close()
}

// Counts tallies what a seed did to one kind of row.
type Counts struct {
	Inserted  int
	Updated   int
	Unchanged int
	Deleted   int
	// Kept counts stored rows left as they were because their file was
	// skipped: the snapshot lacks them, yet they are not gone.
	Kept int
}

// String renders the counts as "1 inserted, 2 updated, 3 unchanged, 0 deleted, 0 kept".
func (c Counts) String() string {
	return fmt.Sprintf("%d inserted, %d updated, %d unchanged, %d deleted, %d kept",
		c.Inserted, c.Updated, c.Unchanged, c.Deleted, c.Kept)
}

// changed reports whether these counts involve any write.
func (c Counts) changed() bool {
	return c.Inserted+c.Updated+c.Deleted > 0
}

// SeedReport is what one seed of a knowledge base did.
type SeedReport struct {
	Docs     Counts
	Chunks   Counts
	Duration time.Duration
	// Vocabulary is true when the seed rewrote the stored glossary,
	// synonyms or concept docs.
	Vocabulary bool
}

// String renders the report on one line for logs and the CLI, e.g.
// "docs: 19 inserted, 0 updated, 0 unchanged, 0 deleted, 0 kept; chunks: 88 inserted, …; 41ms".
func (r SeedReport) String() string {
	vocabulary := "unchanged"
	if r.Vocabulary {
		vocabulary = "updated"
	}
	return fmt.Sprintf("docs: %s; chunks: %s; vocabulary %s; %s", r.Docs, r.Chunks, vocabulary, roundDuration(r.Duration))
}

// Changed reports whether the seed wrote anything.
func (r SeedReport) Changed() bool {
	return r.Docs.changed() || r.Chunks.changed() || r.Vocabulary
}

// roundDuration keeps a report readable: milliseconds are precise enough
// for a seed, but an unchanged re-seed can take less than one.
func roundDuration(d time.Duration) time.Duration {
	if d >= time.Millisecond {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Microsecond)
}
