-- API tokens of `docent serve`: a request's workspace and user come from
-- its token, never from its body. Only a SHA-256 of the token is kept, so
-- a copy of this table lets nobody call the API; the token itself is
-- printed once, by `docent tokens create`.
BEGIN;

CREATE TABLE api_tokens (
    id           text        PRIMARY KEY CHECK (id <> ''),
    token_hash   bytea       NOT NULL UNIQUE CHECK (octet_length(token_hash) = 32),
    name         text        NOT NULL DEFAULT '',
    workspace_id text        NOT NULL CHECK (workspace_id <> ''),
    user_id      text        NOT NULL CHECK (user_id <> ''),
    created_at   timestamptz NOT NULL DEFAULT now(),
    -- Set by a revoke: the row stays so `tokens list` still shows it.
    revoked_at   timestamptz NULL
);

COMMIT;
