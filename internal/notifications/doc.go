// Package notifications is how a bot hears about things. Its dispatcher
// delivers what the transactional outbox holds: it claims due outbox rows
// under a lease (FOR UPDATE SKIP LOCKED on PostgreSQL, the single writer
// on SQLite), posts each event as a signed webhook (docs/decisions.md) or
// hands it to the bot's managed tunnel (Hub), tracks webhook health
// (docs/api.md), stages events as pending messages, retries with
// exponential backoff and jitter, and purges expired messages. Because
// every claim is a lease in the database, several replicas share the work
// and a crashed one's rows come back when its lease ends. Whether an event
// is attempted at all is botpay.AttemptsDelivery, the rule the outbox's
// SQL is written out from too.
//
// Its Service hands a bot its pending messages, counts them, takes their
// acknowledgements and authenticates tunnel clients. OutboxReader reads the
// outbox as it stands (the events a change wrote and their delivery, for
// tests and tools) and the figures an operator's metrics show (OpsStats). OwnerMail is how an
// owner hears about a bot by e-mail: daily limits per bot and per
// address, a digest of what they held back, and a retry job for mail the
// server refused. Each use case's SQL is beside it (*_sql.go), over the
// kernel; the bots' columns, the rate-limit windows and the job queue come
// through small interfaces (TunnelBots, MailLimits, MailJobs).
//
// It never writes events (the capabilities do, through the ledger, in the
// transaction of their change) and never decides what a bot may do.
package notifications
