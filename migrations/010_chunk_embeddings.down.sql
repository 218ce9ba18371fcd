BEGIN;

ALTER TABLE docs_knowledge_chunks
    DROP CONSTRAINT IF EXISTS docs_knowledge_chunks_embedding_whole,
    DROP COLUMN IF EXISTS embedding,
    DROP COLUMN IF EXISTS embedding_model,
    DROP COLUMN IF EXISTS embedding_dim;

COMMIT;
