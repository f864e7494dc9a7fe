package botpay

import "time"

// Filters, results and views that cross the app layer: the HTTP packages
// name them without importing the store.

// OwnerToken is one live owner credential as GET /api/v1/owner/sessions
// lists it.
type OwnerToken struct {
	ID         string
	Kind       string // OwnerTokenSession or OwnerTokenAPIToken
	CreatedAt  time.Time
	LastUsedAt time.Time
	ExpiresAt  time.Time
	Current    bool // the credential of the request that lists them
}

// InvoiceFilter narrows Invoices; empty fields do not filter.
type InvoiceFilter struct {
	Status         string
	CheckoutPageID string
}

// SaleFilter narrows Sales; empty fields do not filter.
type SaleFilter struct {
	CheckoutPageID string
	Status         string
	PaymentMethod  string
}

// SaleResult is the recorded sale with the records it changed.
type SaleResult struct {
	Sale    Sale
	Page    *CheckoutPage
	Link    *PaymentLink
	Invoice *Invoice
	Wallet  Wallet
	Ledger  Transaction
}

// SaleInput is one payment to record. Exactly one of PageID and LinkID is
// set; InvoiceRef (with PageID) pays that invoice. Amount is what the buyer
// asked to pay (nil: the page's or invoice's own amount); the domain rules
// of SaleAmount decide, inside the transaction.
type SaleInput struct {
	PageID          string
	LinkID          string
	InvoiceRef      string
	Amount          *Money
	Method          string
	BuyerType       string // BuyerEmail or BuyerWallet
	BuyerIdentifier string // e-mail address or chain address
	BuyerEmail      string
	BuyerName       string
	TxHash          string // on-chain payments; unique across the service
	ExternalRef     string // the processor's own reference, if any
	// OnChain marks a payment whose money moved on a real chain to the
	// seller's address (live-mode x402): the sale is recorded and announced
	// but no ledger balance changes, since the chain holds that money.
	OnChain bool
	// BotID and ResourceURL make a sale of a bot's own resource (x402
	// through the facilitator): no page or link, Amount as paid.
	BotID       string
	ResourceURL string
	// LinkHeld marks the sale of an x402 claim that took LinkID while it
	// was pending: the claim's own hold does not refuse it, nor does the
	// link's expiry since (the payer's money may already have moved).
	LinkHeld bool
}

// DayAmount is one day of a chart.
type DayAmount struct {
	Day    time.Time // UTC midnight
	Amount Money
}

// DaySpending is one day of the spending chart.
type DaySpending struct {
	Day      time.Time // UTC midnight
	Approved Money
	Declined Money // refused by a guardrail or denied by the owner
}

// DeliveryRecord is one recent webhook event of a bot and how its delivery
// went.
type DeliveryRecord struct {
	EventID   string
	EventType string
	Attempts  int
	Done      bool
	Outcome   string // delivered, staged, failed… (empty while in flight)
	CreatedAt time.Time
	// AckedAt is when the bot acknowledged the pending message of a staged
	// event (zero while it has not).
	AckedAt time.Time
}

// WalletView is what the wallet and status endpoints show about a claimed
// bot, read in one statement.
type WalletView struct {
	WalletID      string
	Wallet        Wallet
	PendingTopups int
	MonthlySpent  Money // spends this UTC month plus current holds
}

// Funding is the outcome of an owner funding.
type Funding struct {
	Transaction Transaction
	Wallet      Wallet
	Fulfilled   []TopupRequest
	Processor   *ProcessorWallet // set when the processor_wallet rail was funded
}

// ProcessorWallet is a bot's token wallet: its address (EIP-55), its key
// sealed by the app, and its micro-USDC balance. Reserved is the part of
// the balance promised to signatures that may still be settled.
type ProcessorWallet struct {
	BotID     string
	Address   string
	SealedKey []byte
	Balance   Micro
	Reserved  Micro
	// BalanceUnknown: in live mode the chain did not answer, so Balance
	// means nothing (shown as null, never as 0).
	BalanceUnknown bool
	// BalanceReadAt is when a live Balance was read from the node.
	BalanceReadAt time.Time
}

// Available is what new signatures may still promise.
func (w ProcessorWallet) Available() Micro { return w.Balance - w.Reserved }

// SigningRequest is one request of the signing endpoint (docs/api.md).
type SigningRequest struct {
	ID            int64
	BotID         string
	OwnerID       string
	Status        string // Signing*
	ResourceURL   string
	ResourceHost  string
	Recipient     string
	Amount        Micro
	Nonce         string
	ValidBefore   int64 // Unix seconds
	ReservedUntil time.Time
	Signature     string
	Header        string
	ApprovalMode  string
	ExpiresAt     *time.Time
	DecidedAt     *time.Time
	CreatedAt     time.Time
	// PaymentRequired is the vendor's 402 the bot handed over (its JSON as
	// sent), kept while the request waits for the owner; "" otherwise.
	PaymentRequired string
}
