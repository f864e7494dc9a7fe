-- Keys and accounts (see the PostgreSQL migration of the same number).
ALTER TABLE bots ADD COLUMN previous_api_key_hash TEXT;
ALTER TABLE bots ADD COLUMN previous_api_key_expires_at INTEGER;
CREATE UNIQUE INDEX bots_previous_api_key ON bots(previous_api_key_hash);
CREATE TABLE api_key_epoch (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    epoch INTEGER NOT NULL
);
INSERT INTO api_key_epoch (id, epoch) VALUES (1, 0);

ALTER TABLE owners ADD COLUMN email_verified_at INTEGER;
CREATE TABLE owner_links (
    token_hash TEXT PRIMARY KEY,
    owner_id   TEXT NOT NULL REFERENCES owners(id),
    purpose    TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER
);
CREATE INDEX owner_links_owner ON owner_links(owner_id, purpose);

ALTER TABLE owner_tokens ADD COLUMN id TEXT;
ALTER TABLE owner_tokens ADD COLUMN kind TEXT NOT NULL DEFAULT 'api_token';
ALTER TABLE owner_tokens ADD COLUMN last_used_at INTEGER;
UPDATE owner_tokens SET id = 'tok_' || substr(token_hash, 1, 16);
UPDATE owner_tokens SET kind = 'session' WHERE expires_at IS NOT NULL;
UPDATE owner_tokens SET expires_at = CAST(strftime('%s', 'now') AS INTEGER) * 1000 + 7776000000
    WHERE expires_at IS NULL;
CREATE UNIQUE INDEX owner_tokens_id ON owner_tokens(id);

CREATE TABLE login_failures (
    email          TEXT NOT NULL,
    client_ip      TEXT NOT NULL,
    failures       INTEGER NOT NULL,
    last_failed_at INTEGER NOT NULL,
    locked_until   INTEGER NOT NULL,
    PRIMARY KEY (email, client_ip)
);
