// Package earning is how a bot earns: the one sale path by which money
// comes in (sandbox payments, buyer forms and x402 settlement all record
// their sale through RecordSale), the list of a bot's sales and a buyer's
// receipt, and refunds paid from the card wallet — of a sale back to its
// buyer, or of a purchase back to the bot — and what a sale pays for:
// checkout pages, invoices (e-mailed with their PDF within daily limits
// per bot and per owner, paid through a URL whose token is an HMAC of the
// invoice ID) and payment links, locked and changed inside the sale's
// transaction. Whether an x402 payer's claim holds a link comes through
// LinkClaims, processor wallets through ProcessorWallets; on-chain refunds
// of live x402 sales through ChainRefunds. A recorded sale's receipt is
// mailed to its buyer (MailReceipt), within daily limits per seller bot
// and per address, through Receipts.
package earning
