// Package facilitator is botpay's x402 facilitator for its bots' own paid
// APIs: the three calls stock x402 server middleware makes (supported,
// verify, settle) in both protocol versions. It reads the requests, checks
// what a facilitator checks before any money moves — the payment matches
// the requirements, pays the calling bot's own processor wallet, in whole
// cents — and shapes the answers the stock HTTP facilitator client
// parses. Settling is the service's: the Payee interface is what this
// package needs of it, so the sale path and the relayer stay where they
// are. It must not know about HTTP routes, SQL or the relayer.
package facilitator
