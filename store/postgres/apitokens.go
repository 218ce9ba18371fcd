package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/apitoken"
)

// APITokens is the api_tokens table (migration 011) as an apitoken.Store.
type APITokens struct{ s *Store }

// APITokens returns the store's API tokens, on the store's pool.
func (s *Store) APITokens() *APITokens { return &APITokens{s} }

var _ apitoken.Store = (*APITokens)(nil)

// CreateToken inserts a record.
func (t *APITokens) CreateToken(ctx context.Context, r apitoken.Record) error {
	_, err := t.s.pool.Exec(ctx, `INSERT INTO api_tokens (id, token_hash, name, workspace_id, user_id, created_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, r.ID, r.Hash[:], r.Name, r.Workspace, r.User, r.CreatedAt)
	if err != nil {
		return t.s.fail(ctx, "create API token", err)
	}
	return nil
}

const tokenColumns = `id, token_hash, name, workspace_id, user_id, created_at, revoked_at`

func scanToken(row pgx.Row) (apitoken.Record, error) {
	var r apitoken.Record
	var hash []byte
	if err := row.Scan(&r.ID, &hash, &r.Name, &r.Workspace, &r.User, &r.CreatedAt, &r.RevokedAt); err != nil {
		return r, err
	}
	if len(hash) != len(r.Hash) {
		return r, fmt.Errorf("API token %s: stored hash has %d bytes", r.ID, len(hash))
	}
	copy(r.Hash[:], hash)
	return r, nil
}

// LookupToken finds a record by hash, through the unique index.
func (t *APITokens) LookupToken(ctx context.Context, h apitoken.Hash) (apitoken.Record, error) {
	r, err := scanToken(t.s.pool.QueryRow(ctx, `SELECT `+tokenColumns+` FROM api_tokens WHERE token_hash = $1`, h[:]))
	if errors.Is(err, pgx.ErrNoRows) {
		return apitoken.Record{}, apitoken.ErrNotFound
	}
	if err != nil {
		return apitoken.Record{}, t.s.fail(ctx, "look up API token", err)
	}
	return r, nil
}

// ListTokens returns every record, oldest first.
func (t *APITokens) ListTokens(ctx context.Context) ([]apitoken.Record, error) {
	rows, err := t.s.pool.Query(ctx, `SELECT `+tokenColumns+` FROM api_tokens ORDER BY created_at, id`)
	if err != nil {
		return nil, t.s.fail(ctx, "list API tokens", err)
	}
	defer rows.Close()
	var out []apitoken.Record
	for rows.Next() {
		r, err := scanToken(rows)
		if err != nil {
			return nil, t.s.fail(ctx, "list API tokens", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, t.s.fail(ctx, "list API tokens", err)
	}
	return out, nil
}

// RevokeToken sets revoked_at once; a revoked token keeps its first time.
func (t *APITokens) RevokeToken(ctx context.Context, id string) error {
	tag, err := t.s.pool.Exec(ctx, `UPDATE api_tokens SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1`, id)
	if err != nil {
		return t.s.fail(ctx, "revoke API token", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("revoke API token %q: %w", id, apitoken.ErrNotFound)
	}
	return nil
}

// Ready reports whether the database answers and its schema is the one
// this docent ships, for a server's readiness check.
func (s *Store) Ready(ctx context.Context) error {
	st, err := readStatus(ctx, s.pool)
	if err != nil {
		return s.fail(ctx, "check schema", err)
	}
	if err := st.check(); err != nil {
		return fmt.Errorf("postgres %s: %w", s.where, err)
	}
	return nil
}
