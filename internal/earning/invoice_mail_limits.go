package earning

import (
	"errors"
	"fmt"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// Policies of the invoice e-mail limits (the RateLimit-Policy header).
const (
	botMailPolicy   = "invoice-mails-bot"
	ownerMailPolicy = "invoice-mails-owner"
)

// invoiceMailLimits are the daily limits one more invoice e-mail must fit
// (docs/decisions.md): the bot's, then its owner's over all their bots, so
// a leaked key or a runaway bot cannot make the service mail strangers in
// bulk, and neither can an owner with many bots.
func (s *Service) invoiceMailLimits(bot botpay.Bot) []Limit {
	day := 24 * time.Hour
	return []Limit{
		{Bucket: botMailPolicy + ":" + bot.ID, Max: s.limits.InvoiceMailsPerBotPerDay, Window: day},
		{Bucket: ownerMailPolicy + ":" + bot.OwnerID, Max: s.limits.InvoiceMailsPerOwnerPerDay, Window: day},
	}
}

// explainMailLimit says which limit refused an invoice e-mail.
func explainMailLimit(err error) error {
	var e *botpay.Error
	if !errors.As(err, &e) || e.Kind != botpay.KindRateLimited || e.Limit == nil {
		return err
	}
	who := map[string]string{botMailPolicy: "this bot", ownerMailPolicy: "this bot's owner (over all their bots)"}[e.Limit.Policy]
	if who == "" {
		return err
	}
	refused := *e
	refused.Message = fmt.Sprintf("%s sent %d invoice e-mails in the last 24 hours, the limit; the invoice stays a draft: send it again in %d seconds",
		who, e.Limit.Quota, e.RetryAfterSeconds)
	return &refused
}
