BEGIN;

ALTER TABLE retrieval_events
    DROP COLUMN corpus,
    DROP COLUMN cross_corpus_shown,
    DROP COLUMN cross_corpus_choice,
    DROP COLUMN cross_corpus_gap,
    DROP COLUMN notes_available,
    DROP COLUMN notes_error,
    DROP COLUMN notes_fallback_reason;

COMMIT;
