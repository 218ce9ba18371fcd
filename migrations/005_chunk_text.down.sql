BEGIN;

ALTER TABLE docs_knowledge_chunks DROP COLUMN IF EXISTS text;
ALTER TABLE docs_knowledge DROP COLUMN IF EXISTS description;

COMMIT;
