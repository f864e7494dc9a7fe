-- Refunds follow insertion order like every other list (migration 0040):
-- two refunds of one purchase in the same millisecond keep their order.
ALTER TABLE refunds ADD COLUMN seq BIGINT;
UPDATE refunds SET seq = numbered.n FROM (
	SELECT id, nextval('list_seq') AS n FROM (SELECT id FROM refunds ORDER BY created_at, id) ordered) numbered
WHERE numbered.id = refunds.id;
ALTER TABLE refunds ALTER COLUMN seq SET DEFAULT nextval('list_seq'), ALTER COLUMN seq SET NOT NULL;
CREATE INDEX refunds_origin_seq ON refunds(bot_id, seq);
