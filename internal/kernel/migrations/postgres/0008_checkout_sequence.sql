-- Each bot's checkouts (card and rail5, declined ones included) are
-- numbered 1, 2, 3, ... under the wallet lock, and the wallet keeps the
-- last number. The checkout rate limit ("max per rolling window") then
-- needs one probe instead of a count: a bot is limited when its max-th most
-- recent checkout, number checkout_seq + 1 - max, is still inside the
-- window. Counting the window instead read up to max index entries per
-- checkout, and every one of them with a large limit.
ALTER TABLE wallets ADD COLUMN checkout_seq BIGINT NOT NULL DEFAULT 0;
ALTER TABLE purchases ADD COLUMN bot_seq BIGINT;
ALTER TABLE rail5_checkouts ADD COLUMN bot_seq BIGINT;

WITH numbered AS (
	SELECT id, ROW_NUMBER() OVER (PARTITION BY bot_id ORDER BY created_at, id) AS n FROM (
		SELECT id, bot_id, created_at FROM purchases
		UNION ALL
		SELECT id, bot_id, created_at FROM rail5_checkouts) c)
UPDATE purchases SET bot_seq = numbered.n FROM numbered WHERE numbered.id = purchases.id;

WITH numbered AS (
	SELECT id, ROW_NUMBER() OVER (PARTITION BY bot_id ORDER BY created_at, id) AS n FROM (
		SELECT id, bot_id, created_at FROM purchases
		UNION ALL
		SELECT id, bot_id, created_at FROM rail5_checkouts) c)
UPDATE rail5_checkouts SET bot_seq = numbered.n FROM numbered WHERE numbered.id = rail5_checkouts.id;

UPDATE wallets SET checkout_seq = (SELECT COUNT(*) FROM purchases WHERE purchases.bot_id = wallets.bot_id)
	+ (SELECT COUNT(*) FROM rail5_checkouts WHERE rail5_checkouts.bot_id = wallets.bot_id);

CREATE UNIQUE INDEX purchases_bot_seq ON purchases(bot_id, bot_seq);
CREATE UNIQUE INDEX rail5_checkouts_bot_seq ON rail5_checkouts(bot_id, bot_seq);
