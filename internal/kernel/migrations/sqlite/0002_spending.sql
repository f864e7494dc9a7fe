-- Spending: cards with payment profiles, purchases (checkout confirmations)
-- and their holds, procurement controls, owner tasks, rail5 cards.
ALTER TABLE wallets ADD COLUMN low_balance_cents INTEGER NOT NULL DEFAULT 500;

CREATE TABLE cards (
    id                    TEXT PRIMARY KEY,
    bot_id                TEXT NOT NULL REFERENCES bots(id),
    name                  TEXT NOT NULL,
    status                TEXT NOT NULL,
    real_profile_index    INTEGER NOT NULL,
    per_transaction_cents INTEGER,
    daily_cents           INTEGER,
    monthly_cents         INTEGER,
    created_at            INTEGER NOT NULL,
    updated_at            INTEGER NOT NULL
);
CREATE INDEX cards_bot ON cards(bot_id, status);

-- details_sealed holds {missing_digits, expiry_month, expiry_year}: the real
-- card's for the real profile, decoy values for the others.
CREATE TABLE card_profiles (
    card_id                   TEXT NOT NULL REFERENCES cards(id),
    profile_index             INTEGER NOT NULL,
    allowance_duration        TEXT NOT NULL,
    allowance_cents           INTEGER NOT NULL,
    human_permission_required INTEGER NOT NULL DEFAULT 0,
    details_sealed            BLOB NOT NULL,
    PRIMARY KEY (card_id, profile_index)
);

CREATE TABLE tasks (
    id             TEXT PRIMARY KEY,
    bot_id         TEXT NOT NULL REFERENCES bots(id),
    merchant_name  TEXT NOT NULL,
    merchant_url   TEXT NOT NULL,
    item_name      TEXT NOT NULL,
    amount_cents   INTEGER NOT NULL,
    category       TEXT NOT NULL DEFAULT '',
    profile_index  INTEGER,
    status         TEXT NOT NULL,
    purchase_id    TEXT,
    created_at     INTEGER NOT NULL,
    delivered_at   INTEGER,
    completed_at   INTEGER
);
CREATE INDEX tasks_bot ON tasks(bot_id, status, created_at);

CREATE TABLE purchases (
    id            TEXT PRIMARY KEY,
    bot_id        TEXT NOT NULL REFERENCES bots(id),
    owner_id      TEXT NOT NULL REFERENCES owners(id),
    card_id       TEXT NOT NULL REFERENCES cards(id),
    profile_index INTEGER NOT NULL,
    decoy         INTEGER NOT NULL,
    amount_cents  INTEGER NOT NULL CHECK (amount_cents > 0),
    merchant_name TEXT NOT NULL,
    merchant_url  TEXT NOT NULL,
    item_name     TEXT NOT NULL,
    category      TEXT NOT NULL DEFAULT '',
    task_id       TEXT REFERENCES tasks(id),
    status        TEXT NOT NULL,
    ledger_id     INTEGER,
    created_at    INTEGER NOT NULL,
    expires_at    INTEGER,
    decided_at    INTEGER
);
CREATE INDEX purchases_bot ON purchases(bot_id, created_at);
CREATE INDEX purchases_owner ON purchases(owner_id, created_at);
CREATE INDEX purchases_profile ON purchases(card_id, profile_index, created_at);
CREATE INDEX purchases_pending ON purchases(status, expires_at);

CREATE TABLE procurement (
    bot_id            TEXT PRIMARY KEY REFERENCES bots(id),
    allowed_domains   TEXT NOT NULL DEFAULT '[]',
    blocked_domains   TEXT NOT NULL DEFAULT '[]',
    allowed_merchants TEXT NOT NULL DEFAULT '[]',
    blocked_merchants TEXT NOT NULL DEFAULT '[]',
    updated_at        INTEGER NOT NULL
);

-- A rail5 card's details exist only inside its encrypted card file, which
-- travels to the bot in the rail5.card.delivered event; the service keeps
-- the file's key (sealed) and scrubs the file from that event once the bot
-- confirms delivery.
CREATE TABLE rail5_cards (
    id                TEXT PRIMARY KEY,
    bot_id            TEXT NOT NULL REFERENCES bots(id),
    owner_id          TEXT NOT NULL REFERENCES owners(id),
    name              TEXT NOT NULL,
    last4             TEXT NOT NULL,
    status            TEXT NOT NULL,
    key_sealed        BLOB NOT NULL,
    delivery_event_id TEXT NOT NULL,
    created_at        INTEGER NOT NULL,
    confirmed_at      INTEGER
);
CREATE INDEX rail5_cards_bot ON rail5_cards(bot_id, status, created_at);

CREATE TABLE rail5_checkouts (
    id              TEXT PRIMARY KEY,
    bot_id          TEXT NOT NULL REFERENCES bots(id),
    owner_id        TEXT NOT NULL REFERENCES owners(id),
    card_id         TEXT NOT NULL REFERENCES rail5_cards(id),
    amount_cents    INTEGER NOT NULL CHECK (amount_cents > 0),
    merchant_name   TEXT NOT NULL,
    merchant_url    TEXT NOT NULL,
    item_name       TEXT NOT NULL,
    status          TEXT NOT NULL,
    reason          TEXT NOT NULL DEFAULT '',
    created_at      INTEGER NOT NULL,
    key_released_at INTEGER,
    completed_at    INTEGER
);
CREATE INDEX rail5_checkouts_bot ON rail5_checkouts(bot_id, created_at);
CREATE INDEX rail5_checkouts_owner ON rail5_checkouts(owner_id, created_at);
