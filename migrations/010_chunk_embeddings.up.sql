-- Each chunk's embedding, made at seed time from its content alone, with
-- the model that made it and its length: a query is only compared with
-- vectors of its own model. NULL in all three when no embedding provider
-- is configured or the chunk was not embedded yet. real[] (float4), not
-- pgvector's vector type: the server may lack the extension, and docent
-- searches vectors in process, so it needs storage, not an index.
BEGIN;

ALTER TABLE docs_knowledge_chunks
    ADD COLUMN embedding       real[],
    ADD COLUMN embedding_model text,
    ADD COLUMN embedding_dim   integer,
    ADD CONSTRAINT docs_knowledge_chunks_embedding_whole CHECK (
        (embedding IS NULL AND embedding_model IS NULL AND embedding_dim IS NULL)
        OR (embedding IS NOT NULL AND embedding_model <> '' AND embedding_dim > 0
            AND cardinality(embedding) = embedding_dim));

COMMIT;
