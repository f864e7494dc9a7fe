package botpay

import "time"

// Event types written to the outbox (docs/api.md).
const (
	EventWalletActivated      = "wallet.activated"
	EventWalletFunded         = "wallet.funded"
	EventWalletTopupCompleted = "wallet.topup.completed"
	EventRailsUpdated         = "rails.updated"
)

// rails.updated actions used so far.
const (
	ActionWalletFrozen   = "wallet_frozen"
	ActionWalletUnfrozen = "wallet_unfrozen"
	ActionLimitsUpdated  = "limits_updated"
)

// Event is one outbox entry: written in the same database transaction as the
// change that caused it, delivered later by the events dispatcher.
type Event struct {
	ID        string // evt_…
	BotID     string
	Type      string
	Data      map[string]any
	CreatedAt time.Time
}

// NewEvent stamps a new event for bot.
func NewEvent(botID, typ string, data map[string]any, now time.Time) Event {
	return Event{ID: NewID("evt_"), BotID: botID, Type: typ, Data: data, CreatedAt: now}
}
