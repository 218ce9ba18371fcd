package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
)

// RecordRetrieval inserts one retrieval event.
func (s *Store) RecordRetrieval(ctx context.Context, ev knowledge.RetrievalEvent) error {
	ev, err := store.PrepareEvent(ev, time.Now())
	if err != nil {
		return err
	}
	top, err := json.Marshal(ev.TopResults)
	if err != nil {
		return fmt.Errorf("record retrieval event: encode top results: %w", err)
	}
	_, err = s.pool.Exec(ctx, `INSERT INTO retrieval_events
		(created_at, query, normalized_tokens, top_results, action, confidence, latency_ms, phase,
		 prompt_tokens, completion_tokens, cost_usd,
		 corpus, cross_corpus_shown, cross_corpus_choice, cross_corpus_gap,
		 notes_available, notes_error, notes_fallback_reason, conversation_id, turn_index)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`,
		ev.Time, ev.Query, ev.NormalizedTokens, string(top), ev.Action, ev.Confidence, ev.LatencyMS, ev.Phase,
		ev.PromptTokens, ev.CompletionTokens, ev.CostUSD,
		nullIfEmpty(ev.Corpus), ev.CrossCorpusShown, nullIfEmpty(ev.CrossCorpusChoice), ev.CrossCorpusGap,
		ev.NotesAvailable, nullIfEmpty(ev.NotesError), nullIfEmpty(ev.NotesFallbackReason),
		nullIfEmpty(ev.ConversationID), ev.TurnIndex)
	if err != nil {
		return s.fail(ctx, "record retrieval event", err)
	}
	return nil
}

// nullIfEmpty stores "" as NULL: the column has nothing to say.
func nullIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Store lists its events for reports.
var _ store.EventLister = (*Store)(nil)

// Events returns the events recorded at or after since, oldest first
// (ties in the order they were inserted). The created_at index serves the
// time window.
func (s *Store) Events(ctx context.Context, since time.Time) ([]knowledge.RetrievalEvent, error) {
	rows, err := s.pool.Query(ctx, `SELECT created_at, query, normalized_tokens, top_results,
		action, confidence, latency_ms, phase, prompt_tokens, completion_tokens, cost_usd,
		coalesce(corpus, ''), cross_corpus_shown, coalesce(cross_corpus_choice, ''), cross_corpus_gap,
		notes_available, coalesce(notes_error, ''), coalesce(notes_fallback_reason, ''),
		coalesce(conversation_id::text, ''), turn_index
		FROM retrieval_events WHERE created_at >= $1 ORDER BY created_at, id`, since)
	if err != nil {
		return nil, s.fail(ctx, "list retrieval events", err)
	}
	events, err := pgx.CollectRows(rows, pgx.RowToStructByPos[knowledge.RetrievalEvent])
	if err != nil {
		return nil, s.fail(ctx, "list retrieval events", err)
	}
	return events, nil
}
