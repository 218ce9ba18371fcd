-- What the team's notes did in each turn: where the answer came from,
-- whether Docs and Notes pills were offered (and how far apart the two
-- corpora's tops were, and which was picked), and whether the notes could
-- be searched at all, with why not. NULL or false where there is nothing
-- to say, as for the rows written before.
BEGIN;

ALTER TABLE retrieval_events
    ADD COLUMN corpus                text,
    ADD COLUMN cross_corpus_shown    boolean NOT NULL DEFAULT false,
    ADD COLUMN cross_corpus_choice   text CHECK (cross_corpus_choice IN ('docs', 'notes')),
    ADD COLUMN cross_corpus_gap      double precision CHECK (cross_corpus_gap >= 0 AND cross_corpus_gap <= 1),
    ADD COLUMN notes_available       boolean NOT NULL DEFAULT false,
    ADD COLUMN notes_error           text,
    ADD COLUMN notes_fallback_reason text CHECK (notes_fallback_reason IN ('index_missing', 'workspace_missing', 'fetch_error', 'timeout'));

COMMIT;
