-- One index for a bot's waiting messages instead of two. Both reads of a
-- bot's messages ask for the unacknowledged, unexpired ones: the bot's
-- list pages on id, the wallet check counts them. pending_messages_bot
-- (bot_id, acked_at, expires_at) served the count and
-- pending_messages_unacked (bot_id, id) the list; with expires_at as its
-- last column the partial index serves both (on PostgreSQL the count
-- stays an index-only scan bounded to the bot's waiting messages), and
-- each staged message writes one index entry less. An acknowledged
-- message leaves the index instead of moving within it.
DROP INDEX pending_messages_bot;
DROP INDEX pending_messages_unacked;
CREATE INDEX pending_messages_unacked ON pending_messages(bot_id, id, expires_at) WHERE acked_at IS NULL;
