// Package store owns the database: schema migrations for SQLite and
// PostgreSQL, and every SQL statement of the service. Each exported method is
// one database transaction that applies a change together with its ledger
// rows and its outbox events, so no balance moves without its record.
//
// It knows nothing about HTTP, mail or tokens in the clear: callers pass
// digests and sealed bytes. Business decisions (validation, who may do what)
// are made by the caller or by pure functions of package botpay; the store
// enforces only what must hold under concurrency (balances, uniqueness,
// rate-limit windows). The capability packages cut out of it (bots,
// accounts, earning, spending) hold their own SQL.
package store
