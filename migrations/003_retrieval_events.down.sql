BEGIN;

DROP TABLE IF EXISTS retrieval_events;

COMMIT;
