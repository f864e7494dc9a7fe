// Package store is the service's database handle: Open connects the
// kernel's DB and the ledger's outbox over it, and the process reaches them
// through Kernel and Outbox. It holds no SQL of a use case: the capability
// packages (accounts, bots, wallets, spending, payments, earning,
// notifications, idempotency) hold their own, over the same kernel and
// outbox. Its tests are those of the handle and of the database as a
// whole (migrations, backups, the write gate, the books across
// capabilities).
package store
