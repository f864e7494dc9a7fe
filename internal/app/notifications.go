package app

import (
	"context"
	"encoding/base64"
	"fmt"
	"html/template"
	"strconv"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/ledger"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/spending"
)

// Owner notifications by e-mail. Each is sent after the change it
// reports has committed, never inside a transaction; a failed send is logged
// and does not undo the change.

// decisionLinkAAD binds sealed decision tokens to their purpose, so no other
// sealed value can pass for one.
var decisionLinkAAD = []byte("owner-decision-link:v1")

// DecisionLink is what a one-click approve or deny link from an e-mail
// carries, once its token is opened.
type DecisionLink struct {
	OwnerID   string
	Kind      string // "purchase" or "signing"
	ID        string
	Approve   bool
	ExpiresAt time.Time
}

// decisionToken seals a link: AES-256-GCM under the service key, so it
// cannot be forged or altered (it is "signed" and also opaque).
func (s *Service) decisionToken(l DecisionLink) string {
	action := "deny"
	if l.Approve {
		action = "approve"
	}
	payload := strings.Join([]string{l.OwnerID, l.Kind, l.ID, action, strconv.FormatInt(l.ExpiresAt.UnixMilli(), 10)}, "|")
	return base64.RawURLEncoding.EncodeToString(s.sealer.Seal([]byte(payload), decisionLinkAAD))
}

var errBadDecisionLink = botpay.Errorf(botpay.KindNotFound, botpay.CodeInvalidLink, "this link is not valid; open the approvals queue in your dashboard instead")

var errExpiredDecisionLink = botpay.Errorf(botpay.KindGone, botpay.CodeLinkExpired, "this link has expired; the request can no longer be decided from it")

// OpenDecisionLink checks a token from an e-mail link: it must be intact and
// not expired. It does not act; DecideByLink does, on the page's POST.
func (s *Service) OpenDecisionLink(token string) (DecisionLink, error) {
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(token) > 1024 {
		return DecisionLink{}, errBadDecisionLink
	}
	plain, err := s.sealer.Open(raw, decisionLinkAAD)
	if err != nil {
		return DecisionLink{}, errBadDecisionLink
	}
	f := strings.Split(string(plain), "|")
	if len(f) != 5 || (f[3] != "approve" && f[3] != "deny") {
		return DecisionLink{}, errBadDecisionLink
	}
	exp, err := strconv.ParseInt(f[4], 10, 64)
	if err != nil {
		return DecisionLink{}, errBadDecisionLink
	}
	l := DecisionLink{OwnerID: f[0], Kind: f[1], ID: f[2], Approve: f[3] == "approve", ExpiresAt: time.UnixMilli(exp).UTC()}
	if !s.clock.Now().Before(l.ExpiresAt) {
		return l, errExpiredDecisionLink
	}
	return l, nil
}

var errDecisionLinkUsed = botpay.Errorf(botpay.KindConflict, botpay.CodeLinkUsed, "this request was already decided; a link works only once")

// DecideByLink applies the decision a link carries, exactly once: the
// decision itself can only happen once (a decided request is no longer
// pending), so a second POST of the same or the opposite link fails.
func (s *Service) DecideByLink(ctx context.Context, token string) (DecisionLink, Approval, error) {
	l, err := s.OpenDecisionLink(token)
	if err != nil {
		return l, Approval{}, err
	}
	owner, err := s.accounts.OwnerByID(ctx, l.OwnerID)
	if err != nil {
		return l, Approval{}, errBadDecisionLink
	}
	switch l.Kind {
	case "purchase":
		p, err := s.spending.DecidePurchase(ctx, owner, l.ID, l.Approve)
		if e := botpay.AsError(err); e != nil && e.Kind == botpay.KindConflict {
			return l, Approval{}, errDecisionLinkUsed
		}
		return l, Approval{Kind: l.Kind, Purchase: p}, err
	case "signing":
		a, err := s.decideSigningByLink(ctx, owner, l)
		return l, a, err
	default:
		return l, Approval{}, errBadDecisionLink
	}
}

// DecisionURL is the confirmation page of a one-click link.
func (s *Service) DecisionURL(l DecisionLink) string {
	return s.baseURL + "/dashboard/decide?t=" + s.decisionToken(l)
}

var heldMailHTML = template.Must(template.New("held").Parse(`<!doctype html><html><body style="font-family:system-ui,sans-serif">
<p>Your bot <strong>{{.Bot}}</strong> wants to buy <strong>{{.Item}}</strong> from <strong>{{.Merchant}}</strong> for <strong>{{.Amount}}</strong>{{with .Category}} (category {{.}}){{end}}.</p>
<p>The request waits for your decision until {{.Expires}} UTC.</p>
<p><a href="{{.Approve}}">Approve</a> &nbsp; <a href="{{.Deny}}">Deny</a></p>
<p>Each link opens a confirmation page; nothing happens until you press its button. Or decide in your dashboard: <a href="{{.Dashboard}}">{{.Dashboard}}</a></p>
</body></html>`))

// notifyHeldPurchase tells the owner a purchase awaits approval, with
// one-click approve and deny links that expire with the hold.
func (s *Service) notifyHeldPurchase(ctx context.Context, bot botpay.Bot, p botpay.Purchase) {
	owner, err := s.accounts.OwnerByID(ctx, p.OwnerID)
	if err != nil {
		s.log.WarnContext(ctx, "held purchase: owner not found", "purchase", p.ID, "err", err)
		return
	}
	link := DecisionLink{OwnerID: owner.ID, Kind: "purchase", ID: p.ID, ExpiresAt: p.ExpiresAt}
	deny := s.DecisionURL(link)
	link.Approve = true
	approve := s.DecisionURL(link)
	data := map[string]string{"Bot": bot.Name, "Item": p.ItemName, "Merchant": p.MerchantName, "Amount": botpay.FormatUSD(p.Amount),
		"Category": p.Category, "Expires": p.ExpiresAt.UTC().Format("2006-01-02 15:04"), "Approve": approve, "Deny": deny,
		"Dashboard": s.baseURL + "/dashboard/approvals"}
	var html strings.Builder
	if err := heldMailHTML.Execute(&html, data); err != nil {
		s.log.WarnContext(ctx, "held purchase mail", "err", err)
		return
	}
	text := fmt.Sprintf("Your bot %q wants to buy %q from %q for %s.\n\nIt waits for your decision until %s UTC.\n\nApprove: %s\n\nDeny: %s\n\n"+
		"Each link opens a confirmation page; nothing happens until you press its button.\nApprovals queue: %s\n",
		bot.Name, p.ItemName, p.MerchantName, data["Amount"], data["Expires"], approve, deny, data["Dashboard"])
	s.notifyAboutBot(ctx, bot, mail.Message{To: owner.Email, Subject: "Approval needed: " + data["Amount"] + " purchase by your bot",
		Text: text, HTML: html.String()})
}

// notifyLowBalance tells the owner when an approved checkout took the
// available balance below the bot's threshold (once per crossing).
// The store says whether it did, from the numbers of the checkout's own
// transaction.
func (s *Service) notifyLowBalance(ctx context.Context, bot botpay.Bot, low *ledger.LowBalance) {
	after, threshold := low.Available, low.Threshold
	owner, err := s.accounts.OwnerByID(ctx, bot.OwnerID)
	if err != nil {
		return
	}
	s.notifyAboutBot(ctx, bot, mail.Message{To: owner.Email, Subject: "Low balance on your bot",
		Text: fmt.Sprintf("Your bot %q has %s available, below its low-balance threshold of %s.\n\nFund it from your dashboard: %s/dashboard/bots/%s\n",
			bot.Name, botpay.FormatUSD(after), botpay.FormatUSD(threshold), s.baseURL, bot.ID)})
}

// notifyCheckout mails the owner about a committed checkout: a held one
// needs a decision; an approved one may have crossed the low-balance line.
func (s *Service) notifyCheckout(ctx context.Context, bot botpay.Bot, res spending.CheckoutResult) {
	p := res.Purchase
	switch {
	case p.Status == botpay.PurchasePending:
		s.notifyHeldPurchase(ctx, bot, p)
	case p.Status == botpay.PurchaseApproved && res.LowBalance != nil:
		s.notifyLowBalance(ctx, bot, res.LowBalance)
	}
}
