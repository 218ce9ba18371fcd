-- The vocabulary that came with the docs: the glossary of core concepts
-- (always put into prompts), the synonyms that rewrite questions and the
-- concept docs that answer "what is X". A seed writes it with the docs, in
-- the same transaction, so every docent reading a shared store answers
-- with the words of the knowledge base that was seeded, not with its own
-- start-up folder's. One row, like the generation.
BEGIN;

CREATE TABLE docs_vocabulary (
    id         boolean     PRIMARY KEY DEFAULT true CHECK (id),
    glossary   text        NOT NULL DEFAULT '',
    -- [{"from": "...", "to": "..."}], in the order they apply.
    synonyms   jsonb       NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(synonyms) = 'array'),
    concepts   text[]      NOT NULL DEFAULT '{}',
    updated_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO docs_vocabulary DEFAULT VALUES;

COMMIT;
