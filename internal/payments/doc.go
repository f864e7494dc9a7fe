// Package payments is a bot's x402 money: its processor wallet (a key
// sealed to the bot, a balance in the sandbox, a token balance on chain in
// live mode), signing payments from it, and settling the payments other
// payers make to it. A signing request is one unit of work: under the
// processor wallet's lock the facts are read (signing_sql.go),
// botpay.DecideSigning judges them, the request and its reservation are
// written; an owner's decision on a held request and the expiry of an
// undecided one emit their events through the ledger's outbox.
//
// Settlement (settlement*.go, facilitator.go) claims an authorization once
// in the database (x402_payments_sql.go), settles it through the sandbox
// settler or, in live mode, a relayer transaction stored before it is
// sent (settlement_chain.go, x402_chain_sql.go), and records the sale in
// the claim's transaction through internal/earning's one sale path. The
// relayer's transactions, of settlements and of on-chain refunds
// (refunds_chain.go), are followed to their outcome, resumed and replaced
// when stuck (relayer_sent.go). The owner's bots and mail, the pages,
// invoices and links paid for, the sale path and the refund rows are
// reached through the interfaces of service.go.
package payments
