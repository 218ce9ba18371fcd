BEGIN;

DROP TABLE IF EXISTS notes_generations;
DROP TABLE IF EXISTS note_reads;
DROP TABLE IF EXISTS notes_knowledge_chunks;
DROP TABLE IF EXISTS notes;

COMMIT;
