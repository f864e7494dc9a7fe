-- Live-mode settlement on a real chain (issue 16). An x402 payment is
-- persisted as submitted, with its signed transaction, before it is sent;
-- a worker on any replica resumes it from the stored hash after a crash.
-- (payer, nonce) stays unique: one authorization is paid at most once.
ALTER TABLE x402_payments ADD COLUMN token TEXT NOT NULL DEFAULT '';
ALTER TABLE x402_payments ADD COLUMN raw_tx TEXT;
ALTER TABLE x402_payments ADD COLUMN relayer TEXT;
ALTER TABLE x402_payments ADD COLUMN relayer_nonce INTEGER;
ALTER TABLE x402_payments ADD COLUMN submitted_at INTEGER;
ALTER TABLE x402_payments ADD COLUMN failure TEXT;
CREATE INDEX x402_payments_submitted ON x402_payments(submitted_at) WHERE status = 'submitted';

-- The next transaction nonce of each relayer account, so replicas sharing
-- one relayer never sign two transactions with the same nonce.
CREATE TABLE relayer_nonces (
    chain_id   INTEGER NOT NULL,
    address    TEXT NOT NULL, -- lower-case 0x hex
    next_nonce INTEGER NOT NULL,
    PRIMARY KEY (chain_id, address)
);
