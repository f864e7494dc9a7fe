-- Keys and accounts (issue 18).
--
-- An API key can be rotated with a grace period: the previous key's digest
-- and the time it stops working sit beside the current one, so every lookup
-- is one row. api_key_epoch counts rotations; each replica's in-memory
-- authentication of the payment endpoints reads it to drop what a rotation
-- made stale.
ALTER TABLE bots ADD COLUMN previous_api_key_hash TEXT;
ALTER TABLE bots ADD COLUMN previous_api_key_expires_at BIGINT;
CREATE UNIQUE INDEX bots_previous_api_key ON bots(previous_api_key_hash);
CREATE TABLE api_key_epoch (
    id    BIGINT PRIMARY KEY CHECK (id = 1),
    epoch BIGINT NOT NULL
);
INSERT INTO api_key_epoch (id, epoch) VALUES (1, 0);

-- Owner e-mail verification, and the single-use links that verify an
-- address or reset a password (stored as digests).
ALTER TABLE owners ADD COLUMN email_verified_at BIGINT;
CREATE TABLE owner_links (
    token_hash TEXT PRIMARY KEY,
    owner_id   TEXT NOT NULL REFERENCES owners(id),
    purpose    TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at    BIGINT
);
CREATE INDEX owner_links_owner ON owner_links(owner_id, purpose);

-- Owner tokens get a public id (for listing and revoking), a kind
-- (dashboard session or API token) and the time of their last use. API
-- tokens now expire 90 days after their last use; those that lived
-- forever start their 90 days now.
ALTER TABLE owner_tokens ADD COLUMN id TEXT;
ALTER TABLE owner_tokens ADD COLUMN kind TEXT NOT NULL DEFAULT 'api_token';
ALTER TABLE owner_tokens ADD COLUMN last_used_at BIGINT;
UPDATE owner_tokens SET id = 'tok_' || substr(token_hash, 1, 16);
UPDATE owner_tokens SET kind = 'session' WHERE expires_at IS NOT NULL;
UPDATE owner_tokens SET expires_at = (EXTRACT(EPOCH FROM now()) * 1000)::BIGINT + 7776000000
    WHERE expires_at IS NULL;
ALTER TABLE owner_tokens ALTER COLUMN id SET NOT NULL;
CREATE UNIQUE INDEX owner_tokens_id ON owner_tokens(id);

-- Failed logins per (e-mail, client address): each failure past the first
-- few doubles the wait before that pair may try again. Nothing here keys on
-- the e-mail alone, so no address can lock the owner out of another.
CREATE TABLE login_failures (
    email          TEXT NOT NULL,
    client_ip      TEXT NOT NULL,
    failures       BIGINT NOT NULL,
    last_failed_at BIGINT NOT NULL,
    locked_until   BIGINT NOT NULL,
    PRIMARY KEY (email, client_ip)
);
