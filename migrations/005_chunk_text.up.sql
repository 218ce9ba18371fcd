-- Each chunk's plain text: what a reader sees of its markdown (headings,
-- paragraphs, list items, table cells; no markup, no code blocks),
-- rendered once at ingestion so that ranking, snippets and answers read
-- the same words. Rows written before this column existed hold '' until
-- the next seed: a chunk's fingerprint covers its text, so that seed
-- rewrites them. The doc's description (front matter) comes with it.
BEGIN;

ALTER TABLE docs_knowledge_chunks ADD COLUMN text text NOT NULL DEFAULT '';
ALTER TABLE docs_knowledge ADD COLUMN description text NOT NULL DEFAULT '';

COMMIT;
