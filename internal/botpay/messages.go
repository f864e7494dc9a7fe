package botpay

import (
	"encoding/json"
	"strings"
	"time"
)

// Pending-message lifetimes (docs/decisions.md): card files and purchase
// outcomes go stale within a day; everything else is kept for a week.
const (
	ShortMessageLife   = 24 * time.Hour
	DefaultMessageLife = 7 * 24 * time.Hour
)

// MessageLife is how long a staged event of type eventType stays readable.
func MessageLife(eventType string) time.Duration {
	if eventType == "rail5.card.delivered" || strings.HasPrefix(eventType, "purchase.") {
		return ShortMessageLife
	}
	return DefaultMessageLife
}

// PendingMessage is an event staged for the bot to poll (docs/api.md).
type PendingMessage struct {
	ID        int64
	BotID     string
	EventID   string
	Event     string
	Data      json.RawMessage
	EventAt   time.Time
	StagedAt  time.Time
	ExpiresAt time.Time
}
