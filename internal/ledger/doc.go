// Package ledger holds the money primitives every capability shares, each
// a piece of one kernel transaction: the wallet lock that orders every
// change to a bot's money, the ledger rows, the running spend totals that
// budgets read, and the outbox that writes an event in the transaction of
// its change; the guardrails write both a claim and an owner's change make
// (guardrails.go), and the bots row as every capability that answers with a
// bot reads it (bot_row.go). Capabilities compose them; none of them decides
// anything.
package ledger
