-- Money going back. A purchase refund credits the bot's card wallet (the
-- merchant returned the money); a sale refund debits it, or, for an x402
-- sale in live mode, pays the buyer back on chain. refunded_cents on the
-- origin is raised by a conditional UPDATE in the refund's transaction, so
-- refunds of one origin can never sum above it, however many race.
CREATE TABLE refunds (
    id           TEXT PRIMARY KEY,
    bot_id       TEXT NOT NULL REFERENCES bots(id),
    purchase_id  TEXT REFERENCES purchases(id),
    sale_id      TEXT REFERENCES sales(id),
    amount_cents BIGINT NOT NULL CHECK (amount_cents > 0),
    reason       TEXT NOT NULL,
    status       TEXT NOT NULL,
    tx_hash      TEXT,
    ledger_id    BIGINT,
    created_at   BIGINT NOT NULL,
    completed_at BIGINT,
    CHECK ((purchase_id IS NULL) <> (sale_id IS NULL))
);
CREATE INDEX refunds_purchase ON refunds(purchase_id) WHERE purchase_id IS NOT NULL;
CREATE INDEX refunds_sale ON refunds(sale_id) WHERE sale_id IS NOT NULL;
CREATE INDEX refunds_bot ON refunds(bot_id, created_at);

ALTER TABLE purchases ADD COLUMN refunded_cents BIGINT NOT NULL DEFAULT 0;
ALTER TABLE purchases ADD CONSTRAINT purchases_refund_bound CHECK (refunded_cents BETWEEN 0 AND amount_cents);
ALTER TABLE sales ADD COLUMN refunded_cents BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sales ADD CONSTRAINT sales_refund_bound CHECK (refunded_cents BETWEEN 0 AND amount_cents);
-- An invoice paid by a refunded sale shows what was given back.
ALTER TABLE invoices ADD COLUMN refunded_cents BIGINT NOT NULL DEFAULT 0;
