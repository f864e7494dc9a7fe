-- Refunds of purchases and sales (see the PostgreSQL migration of the same
-- number). SQLite cannot add a CHECK constraint to an existing table; the
-- conditional UPDATE that raises refunded_cents is the bound on both engines.
CREATE TABLE refunds (
    id           TEXT PRIMARY KEY,
    bot_id       TEXT NOT NULL REFERENCES bots(id),
    purchase_id  TEXT REFERENCES purchases(id),
    sale_id      TEXT REFERENCES sales(id),
    amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
    reason       TEXT NOT NULL,
    status       TEXT NOT NULL,
    tx_hash      TEXT,
    ledger_id    INTEGER,
    created_at   INTEGER NOT NULL,
    completed_at INTEGER,
    CHECK ((purchase_id IS NULL) <> (sale_id IS NULL))
);
CREATE INDEX refunds_purchase ON refunds(purchase_id) WHERE purchase_id IS NOT NULL;
CREATE INDEX refunds_sale ON refunds(sale_id) WHERE sale_id IS NOT NULL;
CREATE INDEX refunds_bot ON refunds(bot_id, created_at);

ALTER TABLE purchases ADD COLUMN refunded_cents INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sales ADD COLUMN refunded_cents INTEGER NOT NULL DEFAULT 0;
-- An invoice paid by a refunded sale shows what was given back.
ALTER TABLE invoices ADD COLUMN refunded_cents INTEGER NOT NULL DEFAULT 0;
