package reference

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/docent-sh/docent/internal/redact"
)

// textSearchTable is qualified with pg_temp so a permanent table of the
// same name, whatever the search_path, is never read or dropped.
const textSearchTable = "pg_temp.docent_text_search"

// destroyTimeout bounds closing a connection we give up on; the caller's
// context may be what failed, so it cannot bound it.
const destroyTimeout = 5 * time.Second

// TextDoc is one document of a full-text index.
type TextDoc struct{ ID, Title, Text string }

// TextSearch is a full-text index over a fixed set of documents, ranked the
// way PostgreSQL ranks them, so docent's own engine can be measured against
// it. The documents live in a temporary table on one connection held for
// the index's life: temporary tables are private to their session, so
// concurrent runs against the same database never see each other's
// documents, and even a crashed run leaves nothing behind in the database.
// Calls are serialized, since one connection runs one statement at a time.
type TextSearch struct {
	where string // the database, for errors
	mu    sync.Mutex
	conn  *pgxpool.Conn // nil once closed
}

// NewTextSearch builds the index over docs in the database of pool, named
// where in errors, stemmed as English: each document's title and text
// become one tsvector in a GIN-indexed column. Invalid docs (an empty or
// repeated ID, text PostgreSQL cannot store) are rejected before anything
// is created. The caller must Close the index.
func NewTextSearch(ctx context.Context, pool *pgxpool.Pool, where string, docs []TextDoc) (*TextSearch, error) {
	if err := validateTextDocs(docs); err != nil {
		return nil, err
	}
	t := &TextSearch{where: where}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, t.fail(ctx, "build text search", err)
	}
	if err := buildTextSearch(ctx, conn.Conn(), docs); err != nil {
		// Closing the session drops its temporary table with it, whatever
		// state the failed statement left the connection in.
		destroy(ctx, conn)
		return nil, t.fail(ctx, "build text search", err)
	}
	t.conn = conn
	return t, nil
}

// fail names the database and the cause of a cancelled or timed-out call,
// with anything credential-shaped masked, as the store's own errors do.
func (t *TextSearch) fail(ctx context.Context, op string, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
		err = fmt.Errorf("%w: %w", ctxErr, err)
	}
	return redact.New().Error(fmt.Errorf("%s (%s): %w", op, t.where, err))
}

func validateTextDocs(docs []TextDoc) error {
	seen := make(map[string]int, len(docs))
	for i, d := range docs {
		if d.ID == "" {
			return fmt.Errorf("text search: doc %d has an empty id", i)
		}
		if j, ok := seen[d.ID]; ok {
			return fmt.Errorf("text search: doc %d (id %q) repeats the id of doc %d", i, d.ID, j)
		}
		seen[d.ID] = i
		// PostgreSQL text holds neither NUL nor invalid UTF-8, and its own
		// error would not say which doc was at fault.
		for _, f := range [...]struct{ name, value string }{{"id", d.ID}, {"title", d.Title}, {"text", d.Text}} {
			if strings.IndexByte(f.value, 0) >= 0 || !utf8.ValidString(f.value) {
				return fmt.Errorf("text search: doc %d (id %q): %s is not NUL-free UTF-8", i, d.ID, f.name)
			}
		}
	}
	return nil
}

func buildTextSearch(ctx context.Context, conn *pgx.Conn, docs []TextDoc) error {
	// A pooled connection may still hold the table of an index whose Close
	// could not run.
	if _, err := conn.Exec(ctx, `DROP TABLE IF EXISTS `+textSearchTable); err != nil {
		return fmt.Errorf("drop leftover table: %w", err)
	}
	// ord keeps insertion order, the tie-breaker between equal ranks, so
	// results never depend on the physical row order.
	if _, err := conn.Exec(ctx, `CREATE TEMPORARY TABLE `+textSearchTable+` (
		ord int NOT NULL,
		id text NOT NULL,
		title text NOT NULL,
		body text NOT NULL,
		tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', title || ' ' || body)) STORED
	)`); err != nil {
		return fmt.Errorf("create table: %w", err)
	}
	_, err := conn.CopyFrom(ctx, pgx.Identifier{"pg_temp", "docent_text_search"}, []string{"ord", "id", "title", "body"},
		pgx.CopyFromSlice(len(docs), func(i int) ([]any, error) {
			return []any{i, docs[i].ID, docs[i].Title, docs[i].Text}, nil
		}))
	if err != nil {
		return fmt.Errorf("load docs: %w", err)
	}
	// Building the index once over loaded rows is faster than maintaining
	// it row by row during the load.
	if _, err := conn.Exec(ctx, `CREATE INDEX ON `+textSearchTable+` USING gin (tsv)`); err != nil {
		return fmt.Errorf("create index: %w", err)
	}
	// Autovacuum never analyzes temporary tables; without statistics the
	// planner guesses the table is tiny and may ignore the index.
	if _, err := conn.Exec(ctx, `ANALYZE `+textSearchTable); err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	return nil
}

// Search returns up to limit document IDs, best first: documents matching
// query, in websearch_to_tsquery syntax ("quoted phrases", or, -exclusion),
// by descending ts_rank_cd, equal ranks in the order the docs were given.
// A query of stopwords only matches nothing.
func (t *TextSearch) Search(ctx context.Context, query string, limit int) ([]string, error) {
	if limit <= 0 {
		return nil, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.conn == nil {
		return nil, errors.New("text search: search after Close")
	}
	rows, _ := t.conn.Query(ctx, `SELECT id FROM `+textSearchTable+`, websearch_to_tsquery('english', $1) q
		WHERE tsv @@ q ORDER BY ts_rank_cd(tsv, q) DESC, ord LIMIT $2`, query, limit)
	// A query error surfaces from CollectRows, which reads rows.Err().
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, t.fail(ctx, "text search", err)
	}
	return ids, nil
}

// Close drops the table and gives the connection back. Whatever it
// returns, nothing of the index is left: a connection whose table cannot
// be dropped is closed instead of returned to the pool. Closing again
// does nothing.
func (t *TextSearch) Close(ctx context.Context) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	conn := t.conn
	if conn == nil {
		return nil
	}
	t.conn = nil
	if conn.Conn().IsClosed() {
		// The session ended (a cancelled statement closes the connection),
		// and its temporary table ended with it; Release discards it.
		conn.Release()
		return nil
	}
	if _, err := conn.Exec(ctx, `DROP TABLE `+textSearchTable); err != nil {
		destroy(ctx, conn)
		return t.fail(ctx, "close text search", err)
	}
	conn.Release()
	return nil
}

// destroy closes a connection and hands the dead connection to the pool,
// which discards it, so the session and its temporary table end here.
func destroy(ctx context.Context, conn *pgxpool.Conn) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), destroyTimeout)
	defer cancel()
	_ = conn.Conn().Close(ctx) // the socket closes even when this fails
	conn.Release()
}
