-- Foundation schema. Times are integer Unix milliseconds; money is integer cents.
CREATE TABLE owners (
    id            TEXT PRIMARY KEY,
    email         TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at    INTEGER NOT NULL
);

CREATE TABLE owner_tokens (
    token_hash TEXT PRIMARY KEY,
    owner_id   TEXT NOT NULL REFERENCES owners(id),
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
);
CREATE INDEX owner_tokens_owner ON owner_tokens(owner_id);

CREATE TABLE master_guardrails (
    owner_id              TEXT PRIMARY KEY REFERENCES owners(id),
    per_transaction_cents INTEGER,
    daily_budget_cents    INTEGER,
    monthly_budget_cents  INTEGER,
    updated_at            INTEGER NOT NULL
);

CREATE TABLE pairing_codes (
    code_hash  TEXT PRIMARY KEY,
    owner_id   TEXT NOT NULL REFERENCES owners(id),
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER,
    used_by    TEXT
);
CREATE INDEX pairing_codes_owner ON pairing_codes(owner_id, created_at);

CREATE TABLE bots (
    id                    TEXT PRIMARY KEY,
    name                  TEXT NOT NULL,
    owner_email           TEXT NOT NULL,
    description           TEXT NOT NULL DEFAULT '',
    bot_type              TEXT NOT NULL,
    api_key_hash          TEXT NOT NULL UNIQUE,
    claim_token_hash      TEXT UNIQUE,
    owner_id              TEXT REFERENCES owners(id),
    claimed_at            INTEGER,
    callback_url          TEXT,
    webhook_secret_sealed BLOB NOT NULL,
    webhook_status        TEXT NOT NULL,
    webhook_fail_count    INTEGER NOT NULL DEFAULT 0,
    tunnel_token_hash     TEXT UNIQUE,
    hooks_token_sealed    BLOB,
    local_port            INTEGER,
    webhook_path          TEXT,
    frozen                INTEGER NOT NULL DEFAULT 0,
    created_at            INTEGER NOT NULL,
    updated_at            INTEGER NOT NULL,
    UNIQUE (owner_email, name)
);
CREATE INDEX bots_owner ON bots(owner_id);

CREATE TABLE wallets (
    bot_id        TEXT PRIMARY KEY REFERENCES bots(id),
    id            TEXT NOT NULL UNIQUE,
    balance_cents INTEGER NOT NULL DEFAULT 0 CHECK (balance_cents >= 0),
    held_cents    INTEGER NOT NULL DEFAULT 0 CHECK (held_cents >= 0 AND held_cents <= balance_cents),
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
);

CREATE TABLE ledger (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    bot_id              TEXT NOT NULL REFERENCES bots(id),
    type                TEXT NOT NULL,
    amount_cents        INTEGER NOT NULL,
    balance_after_cents INTEGER,
    description         TEXT NOT NULL,
    created_at          INTEGER NOT NULL
);
CREATE INDEX ledger_bot ON ledger(bot_id, id);

CREATE TABLE guardrails (
    bot_id                   TEXT PRIMARY KEY REFERENCES bots(id),
    approval_mode            TEXT NOT NULL,
    per_transaction_cents    INTEGER NOT NULL,
    daily_cents              INTEGER NOT NULL,
    monthly_cents            INTEGER NOT NULL,
    ask_approval_above_cents INTEGER,
    recurring_allowed        INTEGER NOT NULL DEFAULT 0,
    notes                    TEXT,
    approved_categories      TEXT NOT NULL DEFAULT '[]',
    blocked_categories       TEXT NOT NULL DEFAULT '[]',
    updated_at               INTEGER NOT NULL
);

CREATE TABLE topup_requests (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    bot_id         TEXT NOT NULL REFERENCES bots(id),
    amount_cents   INTEGER NOT NULL,
    reason         TEXT NOT NULL DEFAULT '',
    status         TEXT NOT NULL,
    owner_notified INTEGER NOT NULL DEFAULT 0,
    created_at     INTEGER NOT NULL,
    fulfilled_at   INTEGER
);
CREATE INDEX topup_requests_bot ON topup_requests(bot_id, status, id);

CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id   TEXT NOT NULL UNIQUE,
    bot_id     TEXT NOT NULL REFERENCES bots(id),
    event_type TEXT NOT NULL,
    data       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX outbox_bot ON outbox(bot_id, id);

CREATE TABLE pending_messages (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    bot_id     TEXT NOT NULL REFERENCES bots(id),
    event_id   TEXT NOT NULL,
    event_type TEXT NOT NULL,
    data       TEXT NOT NULL,
    event_at   INTEGER NOT NULL,
    staged_at  INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    acked_at   INTEGER,
    UNIQUE (bot_id, event_id)
);
CREATE INDEX pending_messages_bot ON pending_messages(bot_id, acked_at, expires_at);

CREATE TABLE rate_limit_buckets (
    bucket TEXT PRIMARY KEY
);

CREATE TABLE rate_limit_hits (
    id     INTEGER PRIMARY KEY AUTOINCREMENT,
    bucket TEXT NOT NULL,
    at     INTEGER NOT NULL
);
CREATE INDEX rate_limit_hits_bucket ON rate_limit_hits(bucket, at);

CREATE TABLE idempotency_keys (
    scope           TEXT NOT NULL,
    idem_key        TEXT NOT NULL,
    request_hash    TEXT NOT NULL,
    status_code     INTEGER,
    response_sealed BLOB,
    created_at      INTEGER NOT NULL,
    locked_until    INTEGER NOT NULL,
    PRIMARY KEY (scope, idem_key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
