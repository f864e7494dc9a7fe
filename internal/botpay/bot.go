package botpay

import "time"

// Bot statuses reported by the status endpoint (docs/api.md).
const (
	BotPending  = "pending"
	BotActive   = "active"
	BotFrozen   = "frozen"
	BotInactive = "inactive"
	// BotPendingVerification is the status in the registration answer of an
	// unpaired bot.
	BotPendingVerification = "pending_owner_verification"
)

// Webhook health states (docs/api.md).
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

// Status derives the bot status of docs/decisions.md: pending until
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
	// EmailVerifiedAt is when the owner opened a link mailed to Email
	// (zero: not yet).
	EmailVerifiedAt time.Time
}

// EmailVerified reports whether the owner proved the address is theirs.
func (o Owner) EmailVerified() bool { return !o.EmailVerifiedAt.IsZero() }
