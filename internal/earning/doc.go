// Package earning is how a bot earns: the one sale path by which money
// comes in (sandbox payments, buyer forms and x402 settlement all record
// their sale through RecordSale), the list of a bot's sales and a buyer's
// receipt, and refunds paid from the card wallet — of a sale back to its
// buyer, or of a purchase back to the bot. Checkout pages, invoices and
// payment links are reached through Offers while the store keeps them;
// on-chain refunds of live x402 sales through ChainRefunds. A recorded
// sale's receipt is mailed to its buyer (MailReceipt), within daily
// limits per seller bot and per address, through Receipts.
package earning
