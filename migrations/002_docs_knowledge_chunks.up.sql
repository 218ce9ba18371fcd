-- One row per header-aware chunk of a document, the unit of retrieval.
BEGIN;

CREATE TABLE docs_knowledge_chunks (
    -- uuid v5 of the stable chunk id "{slug}#chunk-{index}", so re-seeding
    -- the same knowledge base always yields the same ids.
    id              uuid        PRIMARY KEY,
    doc_slug        text        NOT NULL REFERENCES docs_knowledge (slug) ON DELETE CASCADE,
    category        text        NOT NULL,
    title           text        NOT NULL,
    header_path     text        NOT NULL,
    chunk_index     integer     NOT NULL CHECK (chunk_index >= 0),
    content         text        NOT NULL,
    keywords        text[]      NOT NULL DEFAULT '{}',
    chunk_hash      text        NOT NULL,
    is_heading_only boolean     NOT NULL DEFAULT false,
    body_char_count integer     NOT NULL DEFAULT 0 CHECK (body_char_count >= 0),
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    -- The unique constraint's btree index is the (doc_slug, chunk_index)
    -- index: it serves the per-doc lookups and ordered scans, and a second
    -- identical index would only slow down every write.
    CONSTRAINT docs_knowledge_chunks_doc_slug_chunk_index_key UNIQUE (doc_slug, chunk_index)
);

CREATE INDEX docs_knowledge_chunks_category_idx ON docs_knowledge_chunks (category);

COMMIT;
