BEGIN;

DROP TABLE IF EXISTS docs_knowledge_generation;

COMMIT;
