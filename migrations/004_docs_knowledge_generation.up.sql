-- One row holding the knowledge generation: every seed that writes bumps it
-- in its own transaction, so a running docent sharing this database can
-- tell with one primary-key lookup that the knowledge base changed and
-- rebuild its index, without re-reading the docs on every question.
BEGIN;

CREATE TABLE docs_knowledge_generation (
    -- Always true: the primary key and the check together allow one row.
    id         boolean     PRIMARY KEY DEFAULT true CHECK (id),
    generation bigint      NOT NULL CHECK (generation >= 0),
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- Seeded here so readers always find the row; a database upgraded with
-- content already in it starts at 0 like an empty one, which is harmless:
-- a running docent only compares generations for change.
INSERT INTO docs_knowledge_generation (generation) VALUES (0);

COMMIT;
