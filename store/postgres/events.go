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
	// The rating of the turn each event was joins it (the columns are in
	// RetrievalEvent's field order; the last one is its Feedback).
	rows, err := s.pool.Query(ctx, `SELECT e.created_at, e.query, e.normalized_tokens, e.top_results,
		e.action, e.confidence, e.latency_ms, e.phase, e.prompt_tokens, e.completion_tokens, e.cost_usd,
		coalesce(e.corpus, ''), e.cross_corpus_shown, coalesce(e.cross_corpus_choice, ''), e.cross_corpus_gap,
		e.notes_available, coalesce(e.notes_error, ''), coalesce(e.notes_fallback_reason, ''),
		coalesce(e.conversation_id::text, ''), e.turn_index,
		CASE WHEN t.feedback_rating IS NULL THEN NULL
		     ELSE jsonb_build_object('rating', t.feedback_rating, 'reason', t.feedback_reason, 'at', t.feedback_at) END
		FROM retrieval_events e
		LEFT JOIN turns t ON t.conversation_id = e.conversation_id AND t.turn_index = e.turn_index
		WHERE e.created_at >= $1 ORDER BY e.created_at, e.id`, since)
	if err != nil {
		return nil, s.fail(ctx, "list retrieval events", err)
	}
	events, err := pgx.CollectRows(rows, pgx.RowToStructByPos[knowledge.RetrievalEvent])
	if err != nil {
		return nil, s.fail(ctx, "list retrieval events", err)
	}
	return events, nil
}
