BEGIN;

ALTER TABLE retrieval_events
    DROP COLUMN IF EXISTS cost_usd,
    DROP COLUMN IF EXISTS completion_tokens,
    DROP COLUMN IF EXISTS prompt_tokens;

COMMIT;
