-- The outbox row of an event staged at emit carries no payload: the
-- pending message written in the same transaction holds it, and the
-- dispatcher reads the data only of rows it claims, never of a staged one
-- (which is written done). The check keeps every other row's payload, so
-- a row that can still be claimed always has one.
ALTER TABLE outbox ALTER COLUMN data DROP NOT NULL;
ALTER TABLE outbox ADD CONSTRAINT outbox_payload CHECK (data IS NOT NULL OR (outcome IS NOT NULL AND outcome = 'staged'));
