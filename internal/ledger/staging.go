package ledger

import (
	"strings"

	"github.com/botpay/botpay/internal/botpay"
)

// stagedWhen is the SQL condition, over a row of bots, under which an event
// is staged at once rather than left to the dispatcher. It is written out
// from botpay.AttemptsDelivery, case by case, so that the SQL and the Go
// of the dispatcher cannot disagree: for each webhook status (and for any
// other, in ELSE) the combinations of callback URL and tunnel token the
// rule does not attempt.
var stagedWhen = stagingCondition(botpay.AttemptsDelivery)

func stagingCondition(attempts func(botpay.DeliveryTarget) bool) string {
	var b strings.Builder
	b.WriteString(`CASE webhook_status`)
	for _, status := range botpay.WebhookStatuses {
		b.WriteString(` WHEN '` + strings.ReplaceAll(status, "'", "''") + `' THEN ` + stagedFor(attempts, status))
	}
	// No status is outside the list; an empty one stands for any other.
	b.WriteString(` ELSE ` + stagedFor(attempts, "") + ` END`)
	return b.String()
}

// stagedFor is the condition over callback_url and tunnel_token_hash under
// which an event of a bot with this webhook status is not attempted.
func stagedFor(attempts func(botpay.DeliveryTarget) bool, status string) string {
	var terms []string
	for _, callback := range []bool{false, true} {
		for _, tunnel := range []bool{false, true} {
			if attempts(botpay.DeliveryTarget{WebhookStatus: status, CallbackURL: callback, TunnelToken: tunnel}) {
				continue
			}
			cb, tn := `COALESCE(callback_url, '') = ''`, `tunnel_token_hash IS NULL`
			if callback {
				cb = `COALESCE(callback_url, '') <> ''`
			}
			if tunnel {
				tn = `tunnel_token_hash IS NOT NULL`
			}
			terms = append(terms, `(`+cb+` AND `+tn+`)`)
		}
	}
	switch len(terms) {
	case 0:
		return `FALSE`
	case 4:
		return `TRUE`
	}
	return `(` + strings.Join(terms, ` OR `) + `)`
}
