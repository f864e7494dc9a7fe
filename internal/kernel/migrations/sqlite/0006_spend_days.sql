-- Running spend totals per UTC day (issue 3): budgets read at most 31 rows
-- per scope instead of summing every purchase of the month. A scope is
-- 'bot:<id>' (real card purchases and rail5 spends), 'card:<id>' (real
-- purchases), 'profile:<card id>:<index>' (every purchase of the profile,
-- decoys too) or 'owner:<id>' (as bot:, over the owner's bots). A purchase
-- counts from its creation while approved or held (docs/decisions.md)
-- and stops counting when denied or expired; a rail5 spend counts unless it
-- was declined or failed. x402 signing requests (column micro, micro-USDC)
-- count in the bot: and owner: scopes while signed, settled or held, so
-- budgets are shared across rails.
CREATE TABLE spend_days (
    scope TEXT NOT NULL,
    day   INTEGER NOT NULL, -- UTC day start, Unix milliseconds
    cents INTEGER NOT NULL DEFAULT 0,
    micro INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, day)
);

INSERT INTO spend_days (scope, day, cents)
SELECT scope, day, SUM(cents) FROM (
    SELECT 'bot:' || bot_id AS scope, created_at - created_at % 86400000 AS day, amount_cents AS cents
        FROM purchases WHERE NOT decoy AND status IN ('approved', 'pending')
    UNION ALL SELECT 'card:' || card_id, created_at - created_at % 86400000, amount_cents
        FROM purchases WHERE NOT decoy AND status IN ('approved', 'pending')
    UNION ALL SELECT 'owner:' || owner_id, created_at - created_at % 86400000, amount_cents
        FROM purchases WHERE NOT decoy AND status IN ('approved', 'pending')
    UNION ALL SELECT 'profile:' || card_id || ':' || profile_index, created_at - created_at % 86400000, amount_cents
        FROM purchases WHERE status IN ('approved', 'pending')
    UNION ALL SELECT 'bot:' || bot_id, created_at - created_at % 86400000, amount_cents
        FROM rail5_checkouts WHERE status IN ('approved', 'key_released', 'completed')
    UNION ALL SELECT 'owner:' || owner_id, created_at - created_at % 86400000, amount_cents
        FROM rail5_checkouts WHERE status IN ('approved', 'key_released', 'completed')
) counted GROUP BY scope, day;

INSERT INTO spend_days (scope, day, micro)
SELECT scope, day, SUM(micro) FROM (
    SELECT 'bot:' || bot_id AS scope, created_at - created_at % 86400000 AS day, amount_micro AS micro
        FROM signing_requests WHERE status IN ('signed', 'settled', 'pending')
    UNION ALL SELECT 'owner:' || owner_id, created_at - created_at % 86400000, amount_micro
        FROM signing_requests WHERE status IN ('signed', 'settled', 'pending')
) counted WHERE true GROUP BY scope, day
ON CONFLICT (scope, day) DO UPDATE SET micro = excluded.micro;

-- Budgets no longer sum purchases by owner or by profile; only held
-- purchases are looked up by owner or expiry. Partial indexes of held rows
-- are small and untouched by approved purchases, the common insert.
DROP INDEX purchases_owner;
DROP INDEX purchases_profile;
DROP INDEX purchases_pending;
CREATE INDEX purchases_held ON purchases(expires_at) WHERE status = 'pending';
CREATE INDEX purchases_held_bot ON purchases(bot_id, expires_at) WHERE status = 'pending';
CREATE INDEX purchases_held_owner ON purchases(owner_id, expires_at) WHERE status = 'pending';
