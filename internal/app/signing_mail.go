package app

import (
	"context"
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
)

// Held x402 signing requests reach the owner like held purchases: an e-mail with one-click approve and deny links that expire
// with the approval window, decided through DecideSigning, the use case of
// POST /api/v1/owner/signing-requests/{approval_id}/approve|deny.

// signingApproval is a signing request as an entry of the approvals list.
func signingApproval(r botpay.SigningRequest) SigningApproval {
	a := SigningApproval{Kind: "signing", ID: r.ID, BotID: r.BotID, AmountUSD: r.Amount, MerchantName: r.ResourceHost,
		ItemName: r.ResourceURL, Status: r.Status, CreatedAt: botpay.Timestamp(r.CreatedAt)}
	if r.ExpiresAt != nil {
		a.ExpiresAt = botpay.Timestamp(*r.ExpiresAt)
	}
	return a
}

// decideSigningByLink applies a link of kind "signing". A request already
// decided answers link_used, like a purchase's link.
func (s *Service) decideSigningByLink(ctx context.Context, owner botpay.Owner, l DecisionLink) (Approval, error) {
	id, err := strconv.ParseInt(l.ID, 10, 64)
	if err != nil || id <= 0 {
		return Approval{}, errBadDecisionLink
	}
	status, err := s.DecideSigning(ctx, owner, id, l.Approve)
	if e := botpay.AsError(err); e != nil && e.Kind == botpay.KindConflict {
		return Approval{}, errDecisionLinkUsed
	}
	if err != nil {
		return Approval{}, err
	}
	r, err := s.store.OwnedSigningRequest(ctx, owner.ID, id)
	if err != nil {
		return Approval{}, err
	}
	a := signingApproval(r)
	a.Status = status // approved or denied, as the owner API answers
	return Approval{Kind: "signing", Signing: a}, nil
}

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
	owner, err := s.accounts.OwnerByID(ctx, r.OwnerID)
	if err != nil {
		s.log.WarnContext(ctx, "held signing request: owner not found", "signing_request", r.ID, "err", err)
		return
	}
	link := DecisionLink{OwnerID: owner.ID, Kind: "signing", ID: strconv.FormatInt(r.ID, 10), ExpiresAt: *r.ExpiresAt}
	deny := s.DecisionURL(link)
	link.Approve = true
	approve := s.DecisionURL(link)
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
	s.notifyAboutBot(ctx, bot, mail.Message{To: owner.Email, Subject: "Approval needed: " + data["Amount"] + " x402 payment by your bot",
		Text: text, HTML: html.String()})
}
