-- x402 on payment links: an authorization presented at a link's x402 route
-- names the link it pays (link_id; bot_id names the link's bot, so the
-- payee CHECK holds). A link is paid once: while one authorization's claim
-- is settling, submitted or confirmed, no other may claim the link, so a
-- second payer is refused before anything is sent on chain. A failed or
-- released claim frees the link again.
ALTER TABLE x402_payments ADD COLUMN link_id TEXT REFERENCES payment_links(id);
CREATE UNIQUE INDEX x402_payments_one_per_link ON x402_payments(link_id)
    WHERE link_id IS NOT NULL AND status IN ('settling', 'submitted', 'confirmed');
