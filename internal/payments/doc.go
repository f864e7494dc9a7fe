// Package payments is a bot's x402 money: its processor wallet (a key
// sealed to the bot, a balance in the sandbox, a token balance on chain in
// live mode) and signing payments from it. A signing request is one unit
// of work: under the processor wallet's lock the facts are read
// (signing_sql.go), botpay.DecideSigning judges them, the request and its
// reservation are written; an owner's decision on a held request and the
// expiry of an undecided one emit their events through the ledger's
// outbox. The owner's bots and mail are reached through the interfaces of
// service.go. Settlement, the relayer and on-chain refunds are still in
// app and store, which reach the wallets through this package.
package payments
