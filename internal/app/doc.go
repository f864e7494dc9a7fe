// Package app is the composition root of botpay's use cases. New builds
// the capability packages (bots, accounts, spending, payments, earning,
// notifications, idempotency, wallets) from the database kernel and wires
// each one's small interfaces to the others (the *_wiring.go files); the
// JSON API and the web pages reach them through its accessors (Bots,
// Spending, Payments, Wallets…), so an action behaves the same wherever it
// is taken.
//
// What stays here is what spans capabilities: the owner dashboard's reads
// (Dashboard), the approvals list that merges held purchases and held
// signatures, decision links by e-mail, the buyer pages' sandbox payments
// over earning, and the background jobs' registration. It does not know
// about HTTP or SQL.
package app
