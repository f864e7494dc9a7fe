-- Relayer transactions sent in place of a stuck one (same nonce, higher
-- fees). The payment or refund row holds the newest; the ones it replaced
-- are kept here, because any of them may still be the one mined.
CREATE TABLE replaced_transactions (
    tx_hash     TEXT PRIMARY KEY, -- lower-case 0x hex
    kind        TEXT NOT NULL,    -- x402_payment or refund
    owner_id    TEXT NOT NULL,    -- the payment's or refund's id
    replaced_by TEXT NOT NULL,
    created_at  INTEGER NOT NULL
);
CREATE INDEX replaced_transactions_owner ON replaced_transactions(kind, owner_id);
