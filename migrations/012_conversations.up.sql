-- Conversations: the questions a person asked docent and what docent did
-- with each, so a conversation can be continued, reviewed and exported,
-- and answers rated. A conversation is read by its own user in its own
-- workspace only; every read filters on
--   workspace_id = $1 AND user_id = $2
-- so the index below leads with them.
BEGIN;

CREATE TABLE conversations (
    id           uuid        PRIMARY KEY,
    workspace_id text        NOT NULL CHECK (workspace_id <> ''),
    user_id      text        NOT NULL CHECK (user_id <> ''),
    title        text        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);

-- A person's conversations, most recent first (docent history).
CREATE INDEX conversations_scope_idx ON conversations (workspace_id, user_id, updated_at DESC, id);

-- One row per question. Options and sources are small lists read whole
-- with their turn, hence jsonb; evidence is chunk ids, best first.
CREATE TABLE turns (
    conversation_id uuid             NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    turn_index      integer          NOT NULL CHECK (turn_index >= 0),
    asked_at        timestamptz      NOT NULL,
    question        text             NOT NULL,
    picked          text             NOT NULL DEFAULT '',
    status          text             NOT NULL CHECK (status <> ''),
    rule            text             NOT NULL DEFAULT '',
    confidence      double precision NOT NULL DEFAULT 0,
    options         jsonb            NOT NULL DEFAULT '[]',
    evidence        text[]           NOT NULL DEFAULT '{}',
    answer          text             NOT NULL DEFAULT '',
    sources         jsonb            NOT NULL DEFAULT '[]',
    provider        text             NOT NULL DEFAULT '',
    model           text             NOT NULL DEFAULT '',
    retrieval_ms    double precision NOT NULL DEFAULT 0,
    ttft_ms         double precision NOT NULL DEFAULT 0,
    answer_ms       double precision NOT NULL DEFAULT 0,
    -- The asker's rating: all three set, or none.
    feedback_rating text             CHECK (feedback_rating IN ('up', 'down')),
    feedback_reason text             NOT NULL DEFAULT ''
        CHECK (feedback_reason IN ('', 'not_what_i_meant', 'wrong', 'outdated', 'incomplete')),
    feedback_at     timestamptz,
    PRIMARY KEY (conversation_id, turn_index),
    CHECK ((feedback_rating IS NULL) = (feedback_at IS NULL)),
    CHECK (feedback_rating = 'down' OR feedback_reason = '')
);

-- Each retrieval event names the turn it was, so the asker's rating of the
-- answer joins it. No foreign key: events outlive what happens to a
-- conversation, as note_reads outlive notes.
ALTER TABLE retrieval_events
    ADD COLUMN conversation_id uuid,
    ADD COLUMN turn_index      integer CHECK (turn_index >= 0),
    ADD CHECK (turn_index IS NULL OR conversation_id IS NOT NULL);

-- The rating joins on (conversation_id, turn_index); no view does it, so
-- that later migrations of retrieval_events need not mind one.
CREATE INDEX retrieval_events_turn_idx ON retrieval_events (conversation_id, turn_index)
    WHERE conversation_id IS NOT NULL;

COMMIT;
