// Package store is the service's database handle: Open connects the
// kernel's DB and the ledger's outbox over it, and the process reaches them
// through Kernel and Outbox. The capability packages (bots, accounts,
// spending, payments, earning, notifications, idempotency) hold their own
// SQL; what remains here is the SQL of the wallet use cases not yet cut
// out (funding, top-up requests, the wallet view and check, freezing),
// with copies of the few reads of other capabilities' tables they use
// (wallet_reads.go). Each exported method that changes something is one
// transaction of the kernel that applies the change together with its
// ledger rows and its outbox events.
//
// It knows nothing about HTTP, mail or tokens in the clear: callers pass
// digests and sealed bytes. Business decisions are made by the caller or by
// pure functions of package botpay.
package store
