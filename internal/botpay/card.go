package botpay

import "time"

// Card statuses on the card_wallet rail.
const (
	CardActive   = "active"
	CardInactive = "inactive"
)

// Allowance windows of a payment profile: calendar day, ISO week (Monday to
// Sunday) or calendar month, all in UTC (docs/decisions.md).
const (
	AllowanceDay   = "day"
	AllowanceWeek  = "week"
	AllowanceMonth = "month"
)

// ValidAllowanceDuration reports whether d names an allowance window.
func ValidAllowanceDuration(d string) bool {
	return d == AllowanceDay || d == AllowanceWeek || d == AllowanceMonth
}

// WindowStart is the first instant of the allowance window of duration d
// that contains t.
func WindowStart(d string, t time.Time) time.Time {
	switch d {
	case AllowanceDay:
		return DayStart(t)
	case AllowanceWeek:
		return WeekStart(t)
	default:
		return MonthStart(t)
	}
}

// WeekStart is Monday 00:00 UTC of t's ISO week.
func WeekStart(t time.Time) time.Time {
	d := DayStart(t)
	back := (int(d.Weekday()) + 6) % 7 // Monday → 0, Sunday → 6
	return d.AddDate(0, 0, -back)
}

// CardLimits are a card's own limits; nil means the card adds no limit and
// the bot's guardrails alone apply.
type CardLimits struct {
	PerTransaction *Money
	Daily          *Money
	Monthly        *Money
}

// PaymentProfile is one of a card's profiles 1..N (docs/decisions.md).
type PaymentProfile struct {
	Index                   int
	AllowanceDuration       string
	Allowance               Money
	HumanPermissionRequired bool
}

// Card is an owner-registered card of the card_wallet rail. Exactly one
// profile is real; the others are decoys. The card's digits live sealed in
// the store and never appear here.
type Card struct {
	ID               string
	BotID            string
	Name             string
	Status           string
	RealProfileIndex int
	Profiles         []PaymentProfile
	Limits           CardLimits
	CreatedAt        time.Time
}

// Profile returns the profile with index i.
func (c Card) Profile(i int) (PaymentProfile, bool) {
	for _, p := range c.Profiles {
		if p.Index == i {
			return p, true
		}
	}
	return PaymentProfile{}, false
}

// CardDetails are what an approved checkout hands the bot: the digits the
// bot does not already hold, and the expiry. For a decoy profile they are
// decoy values.
type CardDetails struct {
	MissingDigits string `json:"missing_digits"`
	ExpiryMonth   string `json:"expiry_month"`
	ExpiryYear    string `json:"expiry_year"`
}
