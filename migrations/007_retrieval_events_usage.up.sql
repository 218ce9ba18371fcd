-- What the model reported for each written answer, and what it cost by the
-- configured price table. NULL when there is nothing to say: a
-- clarification, the offline answer, a server that reports no usage, a
-- model without a price.
BEGIN;

ALTER TABLE retrieval_events
    ADD COLUMN prompt_tokens     integer          CHECK (prompt_tokens >= 0),
    ADD COLUMN completion_tokens integer          CHECK (completion_tokens >= 0),
    ADD COLUMN cost_usd          double precision CHECK (cost_usd >= 0);

COMMIT;
