package app

import (
	"context"
	"strconv"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// DecisionView is what the e-mail decision page shows before the owner
// presses Approve or Deny: the request itself, not just its id.
type DecisionView struct {
	Link        DecisionLink
	BotName     string
	Item        string
	Merchant    string
	MerchantURL string
	Category    string
	USD         botpay.Money // a card purchase
	USDC        botpay.Micro // an x402 signing request
	HeldBy      string       // the guardrail that asks the owner
	ExpiresAt   time.Time
	// ApproveToken and DenyToken post the two decisions: the e-mail
	// carries both links, so the page that one opens offers both.
	ApproveToken, DenyToken string
}

// TimeLeft is how long the request still waits, at now.
func (v DecisionView) TimeLeft(now time.Time) time.Duration { return v.ExpiresAt.Sub(now) }

// OpenDecision checks a decision link and reads the request it decides. A
// request that is no longer pending answers link_used (decided) or
// link_expired (its hold ended), so the page never offers a button that
// cannot work.
func (s *Service) OpenDecision(ctx context.Context, token string) (DecisionView, error) {
	l, err := s.OpenDecisionLink(token)
	if err != nil {
		return DecisionView{Link: l}, err
	}
	var v DecisionView
	switch l.Kind {
	case "purchase":
		v, err = s.purchaseDecision(ctx, l)
	case "signing":
		v, err = s.signingDecision(ctx, l)
	default:
		return DecisionView{Link: l}, errBadDecisionLink
	}
	approve, deny := l, l
	approve.Approve, deny.Approve = true, false
	v.ApproveToken, v.DenyToken = s.decisionToken(approve), s.decisionToken(deny)
	return v, err
}

func (s *Service) purchaseDecision(ctx context.Context, l DecisionLink) (DecisionView, error) {
	v := DecisionView{Link: l}
	d, reasonErr := s.spending.PurchaseToDecide(ctx, botpay.Owner{ID: l.OwnerID}, l.ID)
	if d.Purchase.ID == "" {
		return v, errBadDecisionLink
	}
	p := d.Purchase
	switch p.Status {
	case botpay.PurchasePending:
	case botpay.PurchaseExpired:
		return v, errExpiredDecisionLink
	default:
		return v, errDecisionLinkUsed
	}
	bot, err := s.bots.Bot(ctx, p.BotID)
	if err != nil {
		return v, err
	}
	v.BotName, v.Item, v.Merchant, v.MerchantURL, v.Category = bot.Name, p.ItemName, p.MerchantName, p.MerchantURL, p.Category
	v.USD, v.ExpiresAt, v.HeldBy = p.Amount, p.ExpiresAt, d.HeldBy
	return v, reasonErr
}

func (s *Service) signingDecision(ctx context.Context, l DecisionLink) (DecisionView, error) {
	v := DecisionView{Link: l}
	id, err := strconv.ParseInt(l.ID, 10, 64)
	if err != nil || id <= 0 {
		return v, errBadDecisionLink
	}
	r, err := s.payments.OwnedSigningRequest(ctx, l.OwnerID, id)
	if err != nil {
		return v, errBadDecisionLink
	}
	if r.Status != botpay.SigningPending {
		return v, errDecisionLinkUsed
	}
	if r.ExpiresAt == nil || !s.clock.Now().Before(*r.ExpiresAt) {
		return v, errExpiredDecisionLink
	}
	bot, err := s.bots.Bot(ctx, r.BotID)
	if err != nil {
		return v, err
	}
	v.BotName, v.Item, v.Merchant, v.MerchantURL = bot.Name, r.ResourceURL, r.ResourceHost, r.ResourceURL
	v.USDC, v.ExpiresAt = r.Amount, *r.ExpiresAt
	g, err := s.spending.BotGuardrails(ctx, bot)
	if err != nil {
		return v, err
	}
	v.HeldBy = botpay.ApprovalModeReason(r.ApprovalMode, g.AskApprovalAbove)
	return v, nil
}
