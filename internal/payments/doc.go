// Package payments is a bot's x402 money: signing payments from its
// processor wallet, in the sandbox and on chain. A signing request is one
// unit of work: under the processor wallet's lock the facts are read
// (signing_sql.go), botpay.DecideSigning judges them, the request and its
// reservation are written; an owner's decision on a held request and the
// expiry of an undecided one emit their events through the ledger's
// outbox. Wallet keys, the wallets' balances on chain and the owner's
// mail are reached through the interfaces of service.go.
package payments
