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
// change that caused it, delivered later by the notifications dispatcher.
type Event struct {
	ID    string // evt_…
	BotID string
	Type  string // Payload.EventType() when written
	// Payload is the typed data written (NewEvent); the store encodes it
	// once, into the outbox row.
	Payload EventData
	// Data is the data as read back from the outbox (Store.Events), the
	// form tests and tools inspect key by key.
	Data      map[string]any
	CreatedAt time.Time
}

// NewEvent stamps a new event for bot; its type is data's.
func NewEvent(botID string, data EventData, now time.Time) Event {
	return Event{ID: NewID("evt_"), BotID: botID, Type: data.EventType(), Payload: data, CreatedAt: now}
}
