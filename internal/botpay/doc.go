// Package botpay is the domain core: the types every other package speaks
// (bots, owners, wallets, ledger entries, guardrails, events), Money in
// integer cents, record IDs, secrets, the Error type with its Kind and public
// code, and the Clock.
//
// It performs no I/O and imports nothing from this module: storage, HTTP,
// mail and configuration live in their own packages around it.
package botpay
