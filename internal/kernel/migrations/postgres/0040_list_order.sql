-- Every list follows insertion order with a total order: the rows of the
-- tables below get an insertion number, seq, from one service-wide
-- sequence (one sequence rather than one per table, so the owner's
-- approvals, which merge held purchases and held signing requests, order
-- both kinds on one axis). Before this, lists ordered by created_at and
-- fell back to the random text ids on ties, so two tasks queued in the
-- same millisecond came out of POST /api/v1/bot/tasks/next in random
-- order. Keyset pagination (docs/decisions.md, "Lists page with keyset
-- cursors") seeks on (scope, seq) with the indexes created here, so a
-- page costs the same at the start and at the end of a long list.
-- Existing rows are numbered in their old order (created_at, then id).

CREATE SEQUENCE list_seq;

ALTER TABLE bots ADD COLUMN seq BIGINT;
ALTER TABLE cards ADD COLUMN seq BIGINT;
ALTER TABLE tasks ADD COLUMN seq BIGINT;
ALTER TABLE purchases ADD COLUMN seq BIGINT;
ALTER TABLE rail5_cards ADD COLUMN seq BIGINT;
ALTER TABLE checkout_pages ADD COLUMN seq BIGINT;
ALTER TABLE payment_links ADD COLUMN seq BIGINT;
ALTER TABLE invoices ADD COLUMN seq BIGINT;
ALTER TABLE sales ADD COLUMN seq BIGINT;
ALTER TABLE signing_requests ADD COLUMN seq BIGINT;

WITH numbered AS (
	SELECT tbl, id, ROW_NUMBER() OVER (ORDER BY created_at, tbl, id) AS n FROM (
		SELECT 'bots' AS tbl, CAST(id AS TEXT) AS id, created_at FROM bots
		UNION ALL SELECT 'cards' AS tbl, CAST(id AS TEXT) AS id, created_at FROM cards
		UNION ALL SELECT 'tasks' AS tbl, CAST(id AS TEXT) AS id, created_at FROM tasks
		UNION ALL SELECT 'purchases' AS tbl, CAST(id AS TEXT) AS id, created_at FROM purchases
		UNION ALL SELECT 'rail5_cards' AS tbl, CAST(id AS TEXT) AS id, created_at FROM rail5_cards
		UNION ALL SELECT 'checkout_pages' AS tbl, CAST(id AS TEXT) AS id, created_at FROM checkout_pages
		UNION ALL SELECT 'payment_links' AS tbl, CAST(id AS TEXT) AS id, created_at FROM payment_links
		UNION ALL SELECT 'invoices' AS tbl, CAST(id AS TEXT) AS id, created_at FROM invoices
		UNION ALL SELECT 'sales' AS tbl, CAST(id AS TEXT) AS id, created_at FROM sales
		UNION ALL SELECT 'signing_requests' AS tbl, CAST(id AS TEXT) AS id, created_at FROM signing_requests) everything)
UPDATE bots SET seq = numbered.n FROM numbered WHERE numbered.tbl = 'bots' AND numbered.id = CAST(bots.id AS TEXT);

WITH numbered AS (
	SELECT tbl, id, ROW_NUMBER() OVER (ORDER BY created_at, tbl, id) AS n FROM (
		SELECT 'bots' AS tbl, CAST(id AS TEXT) AS id, created_at FROM bots
		UNION ALL SELECT 'cards' AS tbl, CAST(id AS TEXT) AS id, created_at FROM cards
		UNION ALL SELECT 'tasks' AS tbl, CAST(id AS TEXT) AS id, created_at FROM tasks
		UNION ALL SELECT 'purchases' AS tbl, CAST(id AS TEXT) AS id, created_at FROM purchases
		UNION ALL SELECT 'rail5_cards' AS tbl, CAST(id AS TEXT) AS id, created_at FROM rail5_cards
		UNION ALL SELECT 'checkout_pages' AS tbl, CAST(id AS TEXT) AS id, created_at FROM checkout_pages
		UNION ALL SELECT 'payment_links' AS tbl, CAST(id AS TEXT) AS id, created_at FROM payment_links
		UNION ALL SELECT 'invoices' AS tbl, CAST(id AS TEXT) AS id, created_at FROM invoices
		UNION ALL SELECT 'sales' AS tbl, CAST(id AS TEXT) AS id, created_at FROM sales
		UNION ALL SELECT 'signing_requests' AS tbl, CAST(id AS TEXT) AS id, created_at FROM signing_requests) everything)
UPDATE cards SET seq = numbered.n FROM numbered WHERE numbered.tbl = 'cards' AND numbered.id = CAST(cards.id AS TEXT);

WITH numbered AS (
	SELECT tbl, id, ROW_NUMBER() OVER (ORDER BY created_at, tbl, id) AS n FROM (
		SELECT 'bots' AS tbl, CAST(id AS TEXT) AS id, created_at FROM bots
		UNION ALL SELECT 'cards' AS tbl, CAST(id AS TEXT) AS id, created_at FROM cards
		UNION ALL SELECT 'tasks' AS tbl, CAST(id AS TEXT) AS id, created_at FROM tasks
		UNION ALL SELECT 'purchases' AS tbl, CAST(id AS TEXT) AS id, created_at FROM purchases
		UNION ALL SELECT 'rail5_cards' AS tbl, CAST(id AS TEXT) AS id, created_at FROM rail5_cards
		UNION ALL SELECT 'checkout_pages' AS tbl, CAST(id AS TEXT) AS id, created_at FROM checkout_pages
		UNION ALL SELECT 'payment_links' AS tbl, CAST(id AS TEXT) AS id, created_at FROM payment_links
		UNION ALL SELECT 'invoices' AS tbl, CAST(id AS TEXT) AS id, created_at FROM invoices
		UNION ALL SELECT 'sales' AS tbl, CAST(id AS TEXT) AS id, created_at FROM sales
		UNION ALL SELECT 'signing_requests' AS tbl, CAST(id AS TEXT) AS id, created_at FROM signing_requests) everything)
UPDATE tasks SET seq = numbered.n FROM numbered WHERE numbered.tbl = 'tasks' AND numbered.id = CAST(tasks.id AS TEXT);

WITH numbered AS (
	SELECT tbl, id, ROW_NUMBER() OVER (ORDER BY created_at, tbl, id) AS n FROM (
		SELECT 'bots' AS tbl, CAST(id AS TEXT) AS id, created_at FROM bots
		UNION ALL SELECT 'cards' AS tbl, CAST(id AS TEXT) AS id, created_at FROM cards
		UNION ALL SELECT 'tasks' AS tbl, CAST(id AS TEXT) AS id, created_at FROM tasks
		UNION ALL SELECT 'purchases' AS tbl, CAST(id AS TEXT) AS id, created_at FROM purchases
		UNION ALL SELECT 'rail5_cards' AS tbl, CAST(id AS TEXT) AS id, created_at FROM rail5_cards
		UNION ALL SELECT 'checkout_pages' AS tbl, CAST(id AS TEXT) AS id, created_at FROM checkout_pages
		UNION ALL SELECT 'payment_links' AS tbl, CAST(id AS TEXT) AS id, created_at FROM payment_links
		UNION ALL SELECT 'invoices' AS tbl, CAST(id AS TEXT) AS id, created_at FROM invoices
		UNION ALL SELECT 'sales' AS tbl, CAST(id AS TEXT) AS id, created_at FROM sales
		UNION ALL SELECT 'signing_requests' AS tbl, CAST(id AS TEXT) AS id, created_at FROM signing_requests) everything)
UPDATE purchases SET seq = numbered.n FROM numbered WHERE numbered.tbl = 'purchases' AND numbered.id = CAST(purchases.id AS TEXT);

WITH numbered AS (
	SELECT tbl, id, ROW_NUMBER() OVER (ORDER BY created_at, tbl, id) AS n FROM (
		SELECT 'bots' AS tbl, CAST(id AS TEXT) AS id, created_at FROM bots
		UNION ALL SELECT 'cards' AS tbl, CAST(id AS TEXT) AS id, created_at FROM cards
		UNION ALL SELECT 'tasks' AS tbl, CAST(id AS TEXT) AS id, created_at FROM tasks
		UNION ALL SELECT 'purchases' AS tbl, CAST(id AS TEXT) AS id, created_at FROM purchases
		UNION ALL SELECT 'rail5_cards' AS tbl, CAST(id AS TEXT) AS id, created_at FROM rail5_cards
		UNION ALL SELECT 'checkout_pages' AS tbl, CAST(id AS TEXT) AS id, created_at FROM checkout_pages
		UNION ALL SELECT 'payment_links' AS tbl, CAST(id AS TEXT) AS id, created_at FROM payment_links
		UNION ALL SELECT 'invoices' AS tbl, CAST(id AS TEXT) AS id, created_at FROM invoices
		UNION ALL SELECT 'sales' AS tbl, CAST(id AS TEXT) AS id, created_at FROM sales
		UNION ALL SELECT 'signing_requests' AS tbl, CAST(id AS TEXT) AS id, created_at FROM signing_requests) everything)
UPDATE rail5_cards SET seq = numbered.n FROM numbered WHERE numbered.tbl = 'rail5_cards' AND numbered.id = CAST(rail5_cards.id AS TEXT);

WITH numbered AS (
	SELECT tbl, id, ROW_NUMBER() OVER (ORDER BY created_at, tbl, id) AS n FROM (
		SELECT 'bots' AS tbl, CAST(id AS TEXT) AS id, created_at FROM bots
		UNION ALL SELECT 'cards' AS tbl, CAST(id AS TEXT) AS id, created_at FROM cards
		UNION ALL SELECT 'tasks' AS tbl, CAST(id AS TEXT) AS id, created_at FROM tasks
		UNION ALL SELECT 'purchases' AS tbl, CAST(id AS TEXT) AS id, created_at FROM purchases
		UNION ALL SELECT 'rail5_cards' AS tbl, CAST(id AS TEXT) AS id, created_at FROM rail5_cards
		UNION ALL SELECT 'checkout_pages' AS tbl, CAST(id AS TEXT) AS id, created_at FROM checkout_pages
		UNION ALL SELECT 'payment_links' AS tbl, CAST(id AS TEXT) AS id, created_at FROM payment_links
		UNION ALL SELECT 'invoices' AS tbl, CAST(id AS TEXT) AS id, created_at FROM invoices
		UNION ALL SELECT 'sales' AS tbl, CAST(id AS TEXT) AS id, created_at FROM sales
		UNION ALL SELECT 'signing_requests' AS tbl, CAST(id AS TEXT) AS id, created_at FROM signing_requests) everything)
UPDATE checkout_pages SET seq = numbered.n FROM numbered WHERE numbered.tbl = 'checkout_pages' AND numbered.id = CAST(checkout_pages.id AS TEXT);

WITH numbered AS (
	SELECT tbl, id, ROW_NUMBER() OVER (ORDER BY created_at, tbl, id) AS n FROM (
		SELECT 'bots' AS tbl, CAST(id AS TEXT) AS id, created_at FROM bots
		UNION ALL SELECT 'cards' AS tbl, CAST(id AS TEXT) AS id, created_at FROM cards
		UNION ALL SELECT 'tasks' AS tbl, CAST(id AS TEXT) AS id, created_at FROM tasks
		UNION ALL SELECT 'purchases' AS tbl, CAST(id AS TEXT) AS id, created_at FROM purchases
		UNION ALL SELECT 'rail5_cards' AS tbl, CAST(id AS TEXT) AS id, created_at FROM rail5_cards
		UNION ALL SELECT 'checkout_pages' AS tbl, CAST(id AS TEXT) AS id, created_at FROM checkout_pages
		UNION ALL SELECT 'payment_links' AS tbl, CAST(id AS TEXT) AS id, created_at FROM payment_links
		UNION ALL SELECT 'invoices' AS tbl, CAST(id AS TEXT) AS id, created_at FROM invoices
		UNION ALL SELECT 'sales' AS tbl, CAST(id AS TEXT) AS id, created_at FROM sales
		UNION ALL SELECT 'signing_requests' AS tbl, CAST(id AS TEXT) AS id, created_at FROM signing_requests) everything)
UPDATE payment_links SET seq = numbered.n FROM numbered WHERE numbered.tbl = 'payment_links' AND numbered.id = CAST(payment_links.id AS TEXT);

WITH numbered AS (
	SELECT tbl, id, ROW_NUMBER() OVER (ORDER BY created_at, tbl, id) AS n FROM (
		SELECT 'bots' AS tbl, CAST(id AS TEXT) AS id, created_at FROM bots
		UNION ALL SELECT 'cards' AS tbl, CAST(id AS TEXT) AS id, created_at FROM cards
		UNION ALL SELECT 'tasks' AS tbl, CAST(id AS TEXT) AS id, created_at FROM tasks
		UNION ALL SELECT 'purchases' AS tbl, CAST(id AS TEXT) AS id, created_at FROM purchases
		UNION ALL SELECT 'rail5_cards' AS tbl, CAST(id AS TEXT) AS id, created_at FROM rail5_cards
		UNION ALL SELECT 'checkout_pages' AS tbl, CAST(id AS TEXT) AS id, created_at FROM checkout_pages
		UNION ALL SELECT 'payment_links' AS tbl, CAST(id AS TEXT) AS id, created_at FROM payment_links
		UNION ALL SELECT 'invoices' AS tbl, CAST(id AS TEXT) AS id, created_at FROM invoices
		UNION ALL SELECT 'sales' AS tbl, CAST(id AS TEXT) AS id, created_at FROM sales
		UNION ALL SELECT 'signing_requests' AS tbl, CAST(id AS TEXT) AS id, created_at FROM signing_requests) everything)
UPDATE invoices SET seq = numbered.n FROM numbered WHERE numbered.tbl = 'invoices' AND numbered.id = CAST(invoices.id AS TEXT);

WITH numbered AS (
	SELECT tbl, id, ROW_NUMBER() OVER (ORDER BY created_at, tbl, id) AS n FROM (
		SELECT 'bots' AS tbl, CAST(id AS TEXT) AS id, created_at FROM bots
		UNION ALL SELECT 'cards' AS tbl, CAST(id AS TEXT) AS id, created_at FROM cards
		UNION ALL SELECT 'tasks' AS tbl, CAST(id AS TEXT) AS id, created_at FROM tasks
		UNION ALL SELECT 'purchases' AS tbl, CAST(id AS TEXT) AS id, created_at FROM purchases
		UNION ALL SELECT 'rail5_cards' AS tbl, CAST(id AS TEXT) AS id, created_at FROM rail5_cards
		UNION ALL SELECT 'checkout_pages' AS tbl, CAST(id AS TEXT) AS id, created_at FROM checkout_pages
		UNION ALL SELECT 'payment_links' AS tbl, CAST(id AS TEXT) AS id, created_at FROM payment_links
		UNION ALL SELECT 'invoices' AS tbl, CAST(id AS TEXT) AS id, created_at FROM invoices
		UNION ALL SELECT 'sales' AS tbl, CAST(id AS TEXT) AS id, created_at FROM sales
		UNION ALL SELECT 'signing_requests' AS tbl, CAST(id AS TEXT) AS id, created_at FROM signing_requests) everything)
UPDATE sales SET seq = numbered.n FROM numbered WHERE numbered.tbl = 'sales' AND numbered.id = CAST(sales.id AS TEXT);

WITH numbered AS (
	SELECT tbl, id, ROW_NUMBER() OVER (ORDER BY created_at, tbl, id) AS n FROM (
		SELECT 'bots' AS tbl, CAST(id AS TEXT) AS id, created_at FROM bots
		UNION ALL SELECT 'cards' AS tbl, CAST(id AS TEXT) AS id, created_at FROM cards
		UNION ALL SELECT 'tasks' AS tbl, CAST(id AS TEXT) AS id, created_at FROM tasks
		UNION ALL SELECT 'purchases' AS tbl, CAST(id AS TEXT) AS id, created_at FROM purchases
		UNION ALL SELECT 'rail5_cards' AS tbl, CAST(id AS TEXT) AS id, created_at FROM rail5_cards
		UNION ALL SELECT 'checkout_pages' AS tbl, CAST(id AS TEXT) AS id, created_at FROM checkout_pages
		UNION ALL SELECT 'payment_links' AS tbl, CAST(id AS TEXT) AS id, created_at FROM payment_links
		UNION ALL SELECT 'invoices' AS tbl, CAST(id AS TEXT) AS id, created_at FROM invoices
		UNION ALL SELECT 'sales' AS tbl, CAST(id AS TEXT) AS id, created_at FROM sales
		UNION ALL SELECT 'signing_requests' AS tbl, CAST(id AS TEXT) AS id, created_at FROM signing_requests) everything)
UPDATE signing_requests SET seq = numbered.n FROM numbered WHERE numbered.tbl = 'signing_requests' AND numbered.id = CAST(signing_requests.id AS TEXT);

SELECT setval('list_seq', (SELECT COALESCE(MAX(seq), 0) + 1 FROM (
	SELECT MAX(seq) AS seq FROM bots
	UNION ALL SELECT MAX(seq) AS seq FROM cards
	UNION ALL SELECT MAX(seq) AS seq FROM tasks
	UNION ALL SELECT MAX(seq) AS seq FROM purchases
	UNION ALL SELECT MAX(seq) AS seq FROM rail5_cards
	UNION ALL SELECT MAX(seq) AS seq FROM checkout_pages
	UNION ALL SELECT MAX(seq) AS seq FROM payment_links
	UNION ALL SELECT MAX(seq) AS seq FROM invoices
	UNION ALL SELECT MAX(seq) AS seq FROM sales
	UNION ALL SELECT MAX(seq) AS seq FROM signing_requests) everything), false);

ALTER TABLE bots ALTER COLUMN seq SET DEFAULT nextval('list_seq'), ALTER COLUMN seq SET NOT NULL;
ALTER TABLE cards ALTER COLUMN seq SET DEFAULT nextval('list_seq'), ALTER COLUMN seq SET NOT NULL;
ALTER TABLE tasks ALTER COLUMN seq SET DEFAULT nextval('list_seq'), ALTER COLUMN seq SET NOT NULL;
ALTER TABLE purchases ALTER COLUMN seq SET DEFAULT nextval('list_seq'), ALTER COLUMN seq SET NOT NULL;
ALTER TABLE rail5_cards ALTER COLUMN seq SET DEFAULT nextval('list_seq'), ALTER COLUMN seq SET NOT NULL;
ALTER TABLE checkout_pages ALTER COLUMN seq SET DEFAULT nextval('list_seq'), ALTER COLUMN seq SET NOT NULL;
ALTER TABLE payment_links ALTER COLUMN seq SET DEFAULT nextval('list_seq'), ALTER COLUMN seq SET NOT NULL;
ALTER TABLE invoices ALTER COLUMN seq SET DEFAULT nextval('list_seq'), ALTER COLUMN seq SET NOT NULL;
ALTER TABLE sales ALTER COLUMN seq SET DEFAULT nextval('list_seq'), ALTER COLUMN seq SET NOT NULL;
ALTER TABLE signing_requests ALTER COLUMN seq SET DEFAULT nextval('list_seq'), ALTER COLUMN seq SET NOT NULL;

CREATE UNIQUE INDEX bots_owner_seq ON bots(owner_id, seq);
CREATE UNIQUE INDEX cards_bot_seq ON cards(bot_id, seq);
CREATE INDEX tasks_queue ON tasks(bot_id, status, seq);
DROP INDEX tasks_bot;
CREATE INDEX rail5_cards_bot_seq ON rail5_cards(bot_id, status, seq);
CREATE UNIQUE INDEX checkout_pages_bot_seq ON checkout_pages(bot_id, seq);
CREATE UNIQUE INDEX payment_links_bot_seq ON payment_links(bot_id, seq);
CREATE UNIQUE INDEX invoices_bot_seq ON invoices(bot_id, seq);
CREATE UNIQUE INDEX sales_bot_seq ON sales(bot_id, seq);
CREATE INDEX purchases_held_owner_seq ON purchases(owner_id, seq) WHERE status = 'pending';
CREATE INDEX signing_requests_held_owner_seq ON signing_requests(owner_id, seq) WHERE status = 'pending';
-- Pending messages and ledger rows page on their own integer ids, which
-- already follow insertion; the ledger has ledger_bot(bot_id, id).
CREATE INDEX pending_messages_unacked ON pending_messages(bot_id, id) WHERE acked_at IS NULL;
