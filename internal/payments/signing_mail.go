package payments

import (
	"context"
	"fmt"
	"html/template"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
)

// Held x402 signing requests reach the owner like held purchases: an
// e-mail with one-click approve and deny links (OwnerMail makes them) that
// expire with the approval window, decided through DecideSigning, the use
// case of POST /api/v1/owner/signing-requests/{approval_id}/approve|deny.

var heldSigningMailHTML = template.Must(template.New("held-signing").Parse(`<!doctype html><html><body style="font-family:system-ui,sans-serif">
<p>Your bot <strong>{{.Bot}}</strong> asks to sign a payment of <strong>{{.Amount}}</strong> from its processor wallet to <strong>{{.Merchant}}</strong> for <code>{{.Item}}</code>.</p>
<p>The request waits for your decision until {{.Expires}} UTC.</p>
<p><a href="{{.Approve}}">Approve</a> &nbsp; <a href="{{.Deny}}">Deny</a></p>
<p>Each link opens a confirmation page; nothing happens until you press its button. Or decide in your dashboard: <a href="{{.Dashboard}}">{{.Dashboard}}</a></p>
</body></html>`))

// notifyHeldSigning tells the owner a signing request awaits approval.
// Called after the hold has committed.
func (s *Service) notifyHeldSigning(ctx context.Context, bot botpay.Bot, r botpay.SigningRequest) {
	if r.ExpiresAt == nil {
		return
	}
	email, err := s.mail.OwnerEmail(ctx, r.OwnerID)
	if err != nil {
		s.log.WarnContext(ctx, "held signing request: owner not found", "signing_request", r.ID, "err", err)
		return
	}
	approve, deny := s.mail.SigningDecisionURLs(r.OwnerID, r.ID, *r.ExpiresAt)
	data := map[string]string{"Bot": bot.Name, "Item": r.ResourceURL, "Merchant": r.ResourceHost, "Amount": botpay.FormatUSDC(r.Amount),
		"Expires": r.ExpiresAt.UTC().Format("2006-01-02 15:04"), "Approve": approve, "Deny": deny,
		"Dashboard": s.baseURL + "/dashboard/approvals"}
	var html strings.Builder
	if err := heldSigningMailHTML.Execute(&html, data); err != nil {
		s.log.WarnContext(ctx, "held signing request mail", "err", err)
		return
	}
	text := fmt.Sprintf("Your bot %q asks to sign a payment of %s from its processor wallet to %q for %q.\n\n"+
		"It waits for your decision until %s UTC.\n\nApprove: %s\n\nDeny: %s\n\n"+
		"Each link opens a confirmation page; nothing happens until you press its button.\nApprovals queue: %s\n",
		bot.Name, data["Amount"], r.ResourceHost, r.ResourceURL, data["Expires"], approve, deny, data["Dashboard"])
	s.mail.NotifyAboutBot(ctx, bot, mail.Message{To: email, Subject: "Approval needed: " + data["Amount"] + " x402 payment by your bot",
		Text: text, HTML: html.String()})
}
