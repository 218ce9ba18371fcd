BEGIN;

DROP TABLE IF EXISTS docs_knowledge_chunks;

COMMIT;
