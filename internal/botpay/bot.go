package botpay

import "time"

// Bot statuses reported by the status endpoint (INTERFACE.md 2.1).
const (
	BotPending  = "pending"
	BotActive   = "active"
	BotFrozen   = "frozen"
	BotInactive = "inactive"
	// BotPendingVerification is the status in the registration answer of an
	// unpaired bot.
	BotPendingVerification = "pending_owner_verification"
)

// Webhook health states (INTERFACE.md 3.4).
const (
	WebhookActive      = "active"
	WebhookDegraded    = "degraded"
	WebhookUnreachable = "unreachable"
	WebhookNone        = "none"
)

// DefaultBotType names the framework whose tunnel defaults apply when a bot
// does not say which framework it runs on.
const DefaultBotType = "openclaw"

// Bot is a registered bot. Secrets appear here only as digests or sealed.
type Bot struct {
	ID               string
	Name             string
	OwnerEmail       string
	Description      string
	BotType          string
	OwnerID          string // empty until claimed
	ClaimedAt        time.Time
	CallbackURL      string // empty for managed-tunnel bots
	WebhookStatus    string
	WebhookFailCount int
	LocalPort        int
	WebhookPath      string
	Frozen           bool
	CreatedAt        time.Time
}

// Claimed reports whether an owner has claimed the bot.
func (b *Bot) Claimed() bool { return b.OwnerID != "" }

// Status derives the bot status of DESIGN.md decision 2: pending until
// claimed, frozen when the owner froze it, active with at least one active
// rail, inactive otherwise.
func (b *Bot) Status(activeRails int) string {
	switch {
	case !b.Claimed():
		return BotPending
	case b.Frozen:
		return BotFrozen
	case activeRails > 0:
		return BotActive
	default:
		return BotInactive
	}
}

// Owner is a human account that claims and funds bots.
type Owner struct {
	ID        string
	Email     string
	CreatedAt time.Time
}
