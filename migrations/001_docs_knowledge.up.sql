-- One row per markdown document of the knowledge base.
BEGIN;

CREATE TABLE docs_knowledge (
    slug         text        PRIMARY KEY,
    category     text        NOT NULL,
    title        text        NOT NULL,
    content      text        NOT NULL,
    content_hash text        NOT NULL,
    -- Bumped by the seeder each time content_hash changes, so answers can
    -- cite which revision of a doc they came from.
    version      integer     NOT NULL DEFAULT 1 CHECK (version >= 1),
    keywords     text[]      NOT NULL DEFAULT '{}',
    source_path  text        NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);

COMMIT;
