// Package store holds the SQL of the use cases not yet moved into their
// capability packages (bots, accounts, spending, payments, earning,
// notifications, idempotency and wallets hold their own): the bot rows
// other capabilities read, wallet activation and guardrails, rate-limit
// windows, the dashboard's remaining reads, seeding and database
// administration. Each
// exported method is one transaction of the kernel that applies a change
// together with its ledger rows and its outbox events.
//
// It knows nothing about HTTP, mail or tokens in the clear: callers pass
// digests and sealed bytes. Business decisions are made by the caller or by
// pure functions of package botpay.
package store
