// Package events delivers what the transactional outbox holds: a dispatcher
// claims due outbox rows under a lease (FOR UPDATE SKIP LOCKED on
// PostgreSQL, the single writer on SQLite), posts each event as a signed
// webhook (docs/decisions.md) or hands it to the bot's managed tunnel,
// tracks webhook health (docs/api.md), stages events as
// pending messages, retries with exponential backoff and jitter, and purges
// expired messages. Because every claim is a lease in the database, several
// replicas share the work and a crashed one's rows come back when its lease
// ends.
//
// It owns delivery only: it never writes events (the store's use cases do
// that in the transaction of their change) and never decides what a bot may
// do.
package notifications
