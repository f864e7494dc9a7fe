-- The rows written by every payment (purchases, ledger, outbox and
-- pending_messages) no longer carry foreign keys on PostgreSQL. Each
-- foreign-key check there runs a query that locks the parent row and logs
-- that lock: seven per checkout, about a tenth of the database's work for
-- one (docs/performance.md). What they guarded cannot happen in this
-- schema: bots, owners, cards and tasks are never deleted, and every parent
-- id inserted by these statements was read, in the same transaction, from
-- the parent row itself (the authenticated bot, its locked wallet, the card
-- and task the checkout picked). SQLite keeps the constraints, and every
-- store test runs on both engines, so a write of an orphan still fails the
-- suite. Every other table keeps its foreign keys.
ALTER TABLE purchases DROP CONSTRAINT purchases_bot_id_fkey;
ALTER TABLE purchases DROP CONSTRAINT purchases_owner_id_fkey;
ALTER TABLE purchases DROP CONSTRAINT purchases_card_id_fkey;
ALTER TABLE purchases DROP CONSTRAINT purchases_task_id_fkey;
ALTER TABLE ledger DROP CONSTRAINT ledger_bot_id_fkey;
ALTER TABLE outbox DROP CONSTRAINT outbox_bot_id_fkey;
ALTER TABLE pending_messages DROP CONSTRAINT pending_messages_bot_id_fkey;
