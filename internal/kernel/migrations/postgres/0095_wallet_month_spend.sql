-- A wallet keeps what its bot spent in one UTC month (spent_month, the
-- month's first instant in Unix milliseconds; month_spent_cents, the sum of
-- that month's spend ledger rows), updated by the debit that writes each
-- spend row. Reading the month's spend is then one row, not a sum over
-- every spend of the month, and the ledger index that served that sum
-- (the only read of it) is dropped: every ledger row wrote an entry in it.
ALTER TABLE wallets ADD COLUMN month_spent_cents BIGINT NOT NULL DEFAULT 0;
ALTER TABLE wallets ADD COLUMN spent_month BIGINT NOT NULL DEFAULT 0;

UPDATE wallets SET spent_month = m.start, month_spent_cents = COALESCE((SELECT SUM(-l.amount_cents) FROM ledger l
        WHERE l.bot_id = wallets.bot_id AND l.type = 'spend' AND l.created_at >= m.start), 0)
    FROM (SELECT CAST(EXTRACT(EPOCH FROM date_trunc('month', now() AT TIME ZONE 'UTC')) * 1000 AS BIGINT) AS start) m;

DROP INDEX ledger_bot_type_created;
