package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/store"
)

// settingRetrievalEnabled is the kill switch's key in docent_settings.
const settingRetrievalEnabled = "retrieval_enabled"

// RetrievalEnabled reads the team-wide kill switch: true unless an admin
// turned retrieval off (store.RetrievalSwitch).
func (s *Store) RetrievalEnabled(ctx context.Context) (bool, error) {
	var raw []byte
	err := s.pool.QueryRow(ctx, `SELECT value FROM docent_settings WHERE key = $1`, settingRetrievalEnabled).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return true, nil
	}
	if err != nil {
		return true, s.fail(ctx, "read the retrieval switch", err)
	}
	var on bool
	if err := json.Unmarshal(raw, &on); err != nil {
		return true, fmt.Errorf("read the retrieval switch: docent_settings.%s is %s, want true or false", settingRetrievalEnabled, raw)
	}
	return on, nil
}

// SetRetrievalEnabled turns retrieval on or off for every docent on this
// database, and tells the ones that watch (Watch) as it commits.
func (s *Store) SetRetrievalEnabled(ctx context.Context, enabled bool) error {
	value, _ := json.Marshal(enabled)
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `
			INSERT INTO docent_settings (key, value) VALUES ($1, $2)
			ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
			settingRetrievalEnabled, value)
		if err != nil {
			return err
		}
		return notify(ctx, tx, store.Change{Kind: store.ChangeSwitch, Enabled: enabled})
	})
	if err != nil {
		return s.fail(ctx, "set the retrieval switch", err)
	}
	return nil
}
