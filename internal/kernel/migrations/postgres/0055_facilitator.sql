-- botpay as an x402 facilitator for a bot's own paid API: an authorization
-- settled through the facilitator belongs to no checkout page. It is paid
-- to the bot's processor wallet (bot_id) for a resource of the bot's own
-- (resource_url), and becomes a sale with that resource_url and no page.
-- (payer, nonce) stays unique across both kinds.
ALTER TABLE x402_payments ALTER COLUMN page_id DROP NOT NULL;
ALTER TABLE x402_payments ADD COLUMN bot_id TEXT REFERENCES bots(id);
ALTER TABLE x402_payments ADD COLUMN resource_url TEXT;
ALTER TABLE x402_payments ADD CONSTRAINT x402_payments_payee CHECK (page_id IS NOT NULL OR bot_id IS NOT NULL);

ALTER TABLE sales ADD COLUMN resource_url TEXT;
