// Package wallets is a bot's card wallet as its owner and the bot see it:
// the owner funding it (which fulfils the top-up requests the amount
// covers), freezing and unfreezing it, the bot's requests for money and
// the owner's queue of them, the wallet and ledger the bot reads, the
// wallet check that authenticates and reads in one statement, and the
// dashboard's reads of the wallet (top-up requests, spending by day,
// low-balance thresholds). Its SQL sits beside each use case (*_sql.go);
// a change of money is one kernel transaction with its ledger row and its
// event.
//
// What it needs of others comes through the interfaces of service.go: the
// guardrails and master guardrails and the pending-message count that the
// status view shows (Reads), the processor wallet the status view shows
// and the owner funds on the other rail (ProcessorWallets), the owner's
// mail about a top-up request (OwnerMail) and the rate-limit windows
// (RateLimits), all wired by app.New.
package wallets
