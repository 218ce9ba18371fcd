package postgres

import (
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/storetest"
)

func TestConformance(t *testing.T) {
	adminURL(t)
	storetest.Run(t,
		func(t *testing.T) store.Store { return openStore(t, newDatabase(t)) },
		func(t *testing.T, s store.Store) []knowledge.RetrievalEvent {
			rows, err := s.(*Store).pool.Query(t.Context(), `SELECT created_at, query, normalized_tokens, top_results,
				action, confidence, latency_ms, phase, prompt_tokens, completion_tokens, cost_usd,
				coalesce(corpus, ''), cross_corpus_shown, coalesce(cross_corpus_choice, ''), cross_corpus_gap,
				notes_available, coalesce(notes_error, ''), coalesce(notes_fallback_reason, ''),
				coalesce(conversation_id::text, ''), turn_index,
				NULL::jsonb -- Feedback: a rating is the turn's, never written with the event
				FROM retrieval_events ORDER BY id`)
			if err != nil {
				t.Fatalf("read events: %v", err)
			}
			events, err := pgx.CollectRows(rows, pgx.RowToStructByPos[knowledge.RetrievalEvent])
			if err != nil {
				t.Fatalf("read events: %v", err)
			}
			return events
		})
}
