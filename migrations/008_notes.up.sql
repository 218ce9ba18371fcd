-- Team notes: what support staff know that the docs do not say. Each note
-- belongs to a workspace (a team) and an owner, and is read by the whole
-- workspace or by its owner only. Every read filters on
--   workspace_id = $1 AND (visibility = 'workspace' OR owner_id = $2)
--   AND deleted_at IS NULL
-- so the indexes below lead with workspace_id.
BEGIN;

CREATE TABLE notes (
    id           uuid        PRIMARY KEY,
    workspace_id text        NOT NULL CHECK (workspace_id <> ''),
    owner_id     text        NOT NULL CHECK (owner_id <> ''),
    visibility   text        NOT NULL CHECK (visibility IN ('workspace', 'private')),
    title        text        NOT NULL,
    body         text        NOT NULL,
    body_format  text        NOT NULL CHECK (body_format IN ('markdown', 'tiptap')),
    tags         text[]      NOT NULL DEFAULT '{}',
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    -- Set by a delete: the row stays for the audit trail (note_reads
    -- points at it), its chunks go at once.
    deleted_at   timestamptz NULL,
    content_hash text        NOT NULL
);

-- Scoped reads of live notes: the workspace's team notes plus the
-- caller's private ones, newest first.
CREATE INDEX notes_live_scope_idx ON notes (workspace_id, owner_id, updated_at DESC)
    WHERE deleted_at IS NULL;
-- Everything of a workspace, deleted notes included (imports, reindex).
CREATE INDEX notes_workspace_idx ON notes (workspace_id);

-- One row per chunk of a live note, the unit of retrieval. The scope
-- columns are copied from the note (and rewritten with it) so a chunk
-- read filters without a join.
CREATE TABLE notes_knowledge_chunks (
    -- uuid v5 of the chunk id "notes/{note id}#chunk-{index}".
    id              uuid        PRIMARY KEY,
    note_id         uuid        NOT NULL REFERENCES notes (id) ON DELETE CASCADE,
    workspace_id    text        NOT NULL,
    owner_id        text        NOT NULL,
    visibility      text        NOT NULL CHECK (visibility IN ('workspace', 'private')),
    header_path     text        NOT NULL,
    chunk_index     integer     NOT NULL CHECK (chunk_index >= 0),
    content         text        NOT NULL,
    text            text        NOT NULL DEFAULT '',
    keywords        text[]      NOT NULL DEFAULT '{}',
    chunk_hash      text        NOT NULL,
    is_heading_only boolean     NOT NULL DEFAULT false,
    body_char_count integer     NOT NULL DEFAULT 0 CHECK (body_char_count >= 0),
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    -- Also the per-note lookup and ordered-scan index.
    CONSTRAINT notes_knowledge_chunks_note_id_chunk_index_key UNIQUE (note_id, chunk_index)
);

CREATE INDEX notes_knowledge_chunks_scope_idx ON notes_knowledge_chunks (workspace_id, owner_id);
-- Full-text search over what a reader sees of each chunk.
CREATE INDEX notes_knowledge_chunks_text_fts_idx ON notes_knowledge_chunks
    USING gin (to_tsvector('english', text));

-- Who read which private note, when and why: the audit of private reads.
-- No foreign key: the log outlives anything that happens to the note.
CREATE TABLE note_reads (
    id      bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id text        NOT NULL,
    note_id uuid        NOT NULL,
    read_at timestamptz NOT NULL DEFAULT now(),
    reason  text        NOT NULL CHECK (reason IN ('ask', 'lookup', 'follow-up'))
);

CREATE INDEX note_reads_note_id_idx ON note_reads (note_id, read_at);
CREATE INDEX note_reads_read_at_idx ON note_reads (read_at);

-- One row per workspace that ever had a write: every transaction that
-- changes a workspace's notes bumps its generation, so a running docent
-- tells with one primary-key lookup that its notes index is stale. No row
-- reads as generation 0.
CREATE TABLE notes_generations (
    workspace_id text        PRIMARY KEY,
    generation   bigint      NOT NULL CHECK (generation >= 0),
    updated_at   timestamptz NOT NULL DEFAULT now()
);

COMMIT;
