-- x402 v2 payment-identifier extension: a payer's idempotency id, bound to
-- the authorization it first came with on one route (a checkout page, or
-- an invoice on it). The same id with the same authorization answers the
-- first answer again; with another authorization it is refused. Written in
-- the transaction that claims the authorization, dropped with the claim
-- when its settlement fails before anything moved.
CREATE TABLE x402_payment_identifiers (
    route       TEXT NOT NULL,    -- page id, and "?ref=" invoice reference when an invoice
    payment_id  TEXT NOT NULL,    -- 16-128 characters of [A-Za-z0-9_-]
    payment_row BIGINT NOT NULL REFERENCES x402_payments(id),
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (route, payment_id)
);
CREATE INDEX x402_payment_identifiers_row ON x402_payment_identifiers(payment_row);
