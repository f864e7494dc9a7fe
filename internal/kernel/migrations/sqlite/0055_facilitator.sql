-- botpay as an x402 facilitator for a bot's own paid API: an authorization
-- settled through the facilitator belongs to no checkout page. It is paid
-- to the bot's processor wallet (bot_id) for a resource of the bot's own
-- (resource_url), and becomes a sale with that resource_url and no page.
-- SQLite cannot drop a NOT NULL, so x402_payments is rebuilt; the payment
-- identifiers that reference it are set aside meanwhile, so no foreign key
-- is ever broken. (payer, nonce) stays unique across both kinds.
CREATE TABLE x402_payment_identifiers_kept AS SELECT * FROM x402_payment_identifiers;
DELETE FROM x402_payment_identifiers;
CREATE TABLE x402_payments_rebuilt (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    payer         TEXT NOT NULL, -- lower-case 0x hex
    nonce         TEXT NOT NULL, -- lower-case 0x hex
    page_id       TEXT REFERENCES checkout_pages(id), -- null: facilitator settlement
    invoice_ref   TEXT NOT NULL DEFAULT '',
    amount_micro  INTEGER NOT NULL,
    status        TEXT NOT NULL,
    sale_id       TEXT,
    tx_hash       TEXT,
    created_at    INTEGER NOT NULL,
    token         TEXT NOT NULL DEFAULT '',
    raw_tx        TEXT,
    relayer       TEXT,
    relayer_nonce INTEGER,
    submitted_at  INTEGER,
    failure       TEXT,
    bot_id        TEXT REFERENCES bots(id), -- facilitator settlements: the payee bot
    resource_url  TEXT,
    UNIQUE (payer, nonce),
    CHECK (page_id IS NOT NULL OR bot_id IS NOT NULL)
);
INSERT INTO x402_payments_rebuilt (id, payer, nonce, page_id, invoice_ref, amount_micro, status, sale_id, tx_hash,
    created_at, token, raw_tx, relayer, relayer_nonce, submitted_at, failure)
SELECT id, payer, nonce, page_id, invoice_ref, amount_micro, status, sale_id, tx_hash,
    created_at, token, raw_tx, relayer, relayer_nonce, submitted_at, failure FROM x402_payments;
DROP TABLE x402_payments;
ALTER TABLE x402_payments_rebuilt RENAME TO x402_payments;
CREATE INDEX x402_payments_submitted ON x402_payments(submitted_at) WHERE status = 'submitted';
INSERT INTO x402_payment_identifiers SELECT * FROM x402_payment_identifiers_kept;
DROP TABLE x402_payment_identifiers_kept;

ALTER TABLE sales ADD COLUMN resource_url TEXT;
