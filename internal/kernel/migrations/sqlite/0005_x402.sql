-- x402: processor wallets, signing requests and x402 settlements (issue 6).
-- Token amounts are integer micro-USDC (1 USDC = 1,000,000); validity
-- times of authorizations are Unix seconds, as on chain; other times ms.
CREATE TABLE processor_wallets (
    bot_id        TEXT PRIMARY KEY REFERENCES bots(id),
    address       TEXT NOT NULL UNIQUE, -- lower-case 0x hex, for lookups
    sealed_key    BLOB NOT NULL,
    balance_micro INTEGER NOT NULL DEFAULT 0 CHECK (balance_micro >= 0),
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
);

CREATE TABLE processor_ledger (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    bot_id              TEXT NOT NULL REFERENCES bots(id),
    type                TEXT NOT NULL,
    amount_micro        INTEGER NOT NULL,
    balance_after_micro INTEGER NOT NULL,
    description         TEXT NOT NULL,
    created_at          INTEGER NOT NULL
);
CREATE INDEX processor_ledger_bot ON processor_ledger(bot_id, id);

CREATE TABLE signing_requests (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    bot_id         TEXT NOT NULL REFERENCES bots(id),
    owner_id       TEXT NOT NULL,
    status         TEXT NOT NULL, -- signed, pending, denied, settled
    resource_url   TEXT NOT NULL,
    resource_host  TEXT NOT NULL,
    recipient      TEXT NOT NULL,
    amount_micro   INTEGER NOT NULL CHECK (amount_micro > 0),
    nonce          TEXT NOT NULL UNIQUE,
    valid_before   INTEGER NOT NULL,
    reserved_until INTEGER NOT NULL, -- ms; the amount counts against the balance until then
    signature      TEXT,
    header         TEXT,
    approval_mode  TEXT NOT NULL,
    expires_at     INTEGER,
    decided_at     INTEGER,
    created_at     INTEGER NOT NULL
);
-- Covering indexes: the signing transaction sums live reservations and the
-- day's and month's commitments without touching table rows.
CREATE INDEX signing_requests_bot ON signing_requests(bot_id, status, reserved_until, amount_micro);
CREATE INDEX signing_requests_bot_created ON signing_requests(bot_id, created_at, status, amount_micro);
CREATE INDEX ledger_bot_type_created ON ledger(bot_id, type, created_at, amount_cents);
CREATE INDEX signing_requests_owner ON signing_requests(owner_id, status);

CREATE TABLE x402_payments (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    payer        TEXT NOT NULL, -- lower-case 0x hex
    nonce        TEXT NOT NULL, -- lower-case 0x hex
    page_id      TEXT NOT NULL REFERENCES checkout_pages(id),
    invoice_ref  TEXT NOT NULL DEFAULT '',
    amount_micro INTEGER NOT NULL,
    status       TEXT NOT NULL, -- settling, confirmed
    sale_id      TEXT,
    tx_hash      TEXT,
    created_at   INTEGER NOT NULL,
    UNIQUE (payer, nonce)
);
