-- The running total of a processor wallet's live reservations and the
-- signing request indexes, as in the PostgreSQL migration of the same
-- number (which explains them). SQLite keeps the foreign key.
ALTER TABLE processor_wallets ADD COLUMN reserved_micro INTEGER NOT NULL DEFAULT 0;
ALTER TABLE processor_wallets ADD COLUMN reserved_as_of INTEGER NOT NULL DEFAULT 0;
UPDATE processor_wallets SET reserved_micro = (SELECT COALESCE(SUM(r.amount_micro), 0) FROM signing_requests r
	WHERE r.bot_id = processor_wallets.bot_id AND r.status IN ('signed', 'pending'));

DROP INDEX signing_requests_bot_created;
DROP INDEX signing_requests_owner;
CREATE INDEX signing_requests_owner_pending ON signing_requests(owner_id, reserved_until) WHERE status = 'pending';
CREATE INDEX signing_requests_held ON signing_requests(expires_at) WHERE status = 'pending';
