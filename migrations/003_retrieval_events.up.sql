-- One row per answered question, to tune retrieval from real traffic.
BEGIN;

CREATE TABLE retrieval_events (
    id                bigint           GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    created_at        timestamptz      NOT NULL DEFAULT now(),
    query             text             NOT NULL,
    normalized_tokens text[]           NOT NULL DEFAULT '{}',
    -- [{"slug", "chunk_index", "score", "matched_terms"}, ...] best first.
    top_results       jsonb            NOT NULL DEFAULT '[]',
    action            text             NOT NULL DEFAULT '',
    confidence        double precision NOT NULL DEFAULT 0,
    latency_ms        double precision NOT NULL DEFAULT 0,
    phase             integer          NOT NULL DEFAULT 0
);

-- Events are read back by time window ("what did people ask this week").
CREATE INDEX retrieval_events_created_at_idx ON retrieval_events (created_at);

COMMIT;
