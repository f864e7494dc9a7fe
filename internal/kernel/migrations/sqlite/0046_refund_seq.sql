-- Refunds follow insertion order like every other list (see the
-- PostgreSQL migration of the same number, and 0040 for the trigger).
ALTER TABLE refunds ADD COLUMN seq INTEGER;
UPDATE refunds SET seq = (SELECT last FROM list_sequence WHERE id = 1) + (
	SELECT COUNT(*) FROM refunds r WHERE r.created_at < refunds.created_at OR (r.created_at = refunds.created_at AND r.id <= refunds.id));
UPDATE list_sequence SET last = last + (SELECT COUNT(*) FROM refunds) WHERE id = 1;
CREATE TRIGGER refunds_seq AFTER INSERT ON refunds BEGIN
	UPDATE list_sequence SET last = last + 1 WHERE id = 1;
	UPDATE refunds SET seq = (SELECT last FROM list_sequence WHERE id = 1) WHERE rowid = NEW.rowid;
END;
CREATE INDEX refunds_origin_seq ON refunds(bot_id, seq);
