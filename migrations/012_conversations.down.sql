BEGIN;

DROP INDEX IF EXISTS retrieval_events_turn_idx;
ALTER TABLE retrieval_events
    DROP COLUMN IF EXISTS turn_index,
    DROP COLUMN IF EXISTS conversation_id;
DROP TABLE IF EXISTS turns;
DROP TABLE IF EXISTS conversations;

COMMIT;
