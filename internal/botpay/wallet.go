package botpay

import "time"

// Rails (docs/api.md).
const (
	RailCardWallet      = "card_wallet"
	RailProcessorWallet = "processor_wallet"
)

// Wallet statuses (docs/api.md, docs/decisions.md).
const (
	WalletActive   = "active"
	WalletEmpty    = "empty"
	WalletPending  = "pending"
	WalletInactive = "inactive"
)

// Ledger transaction types.
const (
	TxFund   = "fund"
	TxSpend  = "spend"
	TxRefund = "refund"
	TxSale   = "sale"
)

// Wallet is a bot's card-wallet balance. Available = Balance - Held.
type Wallet struct {
	BotID   string
	Balance Money // ledger balance
	Held    Money // placed on held purchases, not yet captured
}

// Available is what the bot may still commit.
func (w Wallet) Available() Money { return w.Balance - w.Held }

// WalletStatus derives wallet_status: pending before the claim, inactive while
// frozen, empty at zero available balance, active otherwise.
func WalletStatus(bot *Bot, w Wallet) string {
	switch {
	case !bot.Claimed():
		return WalletPending
	case bot.Frozen:
		return WalletInactive
	case w.Available() <= 0:
		return WalletEmpty
	default:
		return WalletActive
	}
}

// Transaction is one ledger row (docs/api.md). Amount is negative for
// debits; BalanceAfter is the ledger balance after it.
type Transaction struct {
	ID           int64
	BotID        string
	Type         string
	Amount       Money
	BalanceAfter *Money
	Description  string
	CreatedAt    time.Time
}

// TopupRequest is a bot's request that its owner add money.
type TopupRequest struct {
	ID            int64
	BotID         string
	Amount        Money
	Reason        string
	Status        string // TopupSent, TopupFulfilled or TopupDismissed
	OwnerNotified bool
	CreatedAt     time.Time
}

// Top-up request states.
const (
	TopupSent      = "sent"
	TopupFulfilled = "fulfilled"
	// TopupDismissed: the owner closed the request without funding it.
	TopupDismissed = "dismissed"
)
