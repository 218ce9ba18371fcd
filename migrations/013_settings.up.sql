-- Team-wide settings every docent on this database reads: for now the
-- retrieval kill switch (key retrieval_enabled, value true or false),
-- which `docent admin retrieval off|on` flips and every running session
-- picks up within its poll interval. One row per key; a missing row is
-- the default.
BEGIN;

CREATE TABLE docent_settings (
    key        text PRIMARY KEY CHECK (key <> ''),
    value      jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

COMMIT;
