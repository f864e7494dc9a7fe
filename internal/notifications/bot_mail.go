package notifications

import (
	"context"
	"fmt"
	"net/url"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
)

// Owners finds a claimed bot's owner, whose account address gets the mail
// about the bot.
type Owners interface {
	OwnerByID(ctx context.Context, id string) (botpay.Owner, error)
}

// OwnerAddress is where mail about a bot goes: its owner's account, or
// before the claim the address the bot registered with.
func (o *OwnerMail) OwnerAddress(ctx context.Context, b botpay.Bot) (string, error) {
	if !b.Claimed() {
		return b.OwnerEmail, nil
	}
	owner, err := o.d.Owners.OwnerByID(ctx, b.OwnerID)
	return owner.Email, err
}

// NotifyCallbackChanged tells the owner where the bot's events go now: a
// leaked key that redirects them is seen at once.
func (o *OwnerMail) NotifyCallbackChanged(ctx context.Context, b botpay.Bot, previous, by string) {
	to, err := o.OwnerAddress(ctx, b)
	if err != nil {
		o.log.WarnContext(ctx, "callback mail: no owner address", "bot_id", b.ID, "err", err)
		return
	}
	text := fmt.Sprintf("The callback URL of your bot %q (%s) was changed by %s.\n\nBefore: %s\nNow:    %s\n\n"+
		"Its events (webhooks) now go to the new address. If you did not expect this, freeze the bot, set the "+
		"callback URL back from your dashboard and rotate the bot's API key.\n\nDashboard: %s/dashboard/bots/%s\n",
		b.Name, b.ID, by, displayURL(previous), displayURL(b.CallbackURL), o.d.BaseURL, b.ID)
	o.NotifyAboutBot(ctx, b, mail.Message{To: to, Subject: "Callback URL changed for your bot", Text: text})
}

// displayURL shows a callback URL without its query or user info, which
// may hold the receiver's own secret.
func displayURL(raw string) string {
	if raw == "" {
		return "(none)"
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "(unreadable)"
	}
	u.RawQuery, u.User, u.Fragment = "", nil, ""
	return u.String()
}
