package app

import (
	"context"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
)

// CheckoutInput is the body of POST /api/v1/bot/merchant/checkout
// (docs/api.md), decoded. Nil pointers are fields left out.
type CheckoutInput struct {
	ProfileIndex *int
	MerchantName string
	MerchantURL  string
	ItemName     string
	AmountCents  *int
	Category     string
	TaskID       string
	CardID       string
}

// CheckoutOutcome is an admitted checkout: approved (Details set) or held.
type CheckoutOutcome struct {
	Purchase botpay.Purchase
	Details  *botpay.CardDetails
}

// Checkout validates a bot's purchase request and lets the store evaluate
// and apply it in one transaction.
func (s *Service) Checkout(ctx context.Context, bot botpay.Bot, in CheckoutInput) (CheckoutOutcome, error) {
	req, item, cardID, err := s.validCheckout(in)
	if err != nil {
		return CheckoutOutcome{}, err
	}
	taskID := strings.TrimSpace(in.TaskID)
	res, err := s.store.Checkout(ctx, store.CheckoutInput{
		BotID: bot.ID, CardID: cardID, ProfileIndex: *in.ProfileIndex, ItemName: item, TaskID: taskID,
		Request: req,
		Limit:   store.Limit{Bucket: "checkout:" + bot.ID, Max: s.limits.CheckoutPerHour, Window: time.Hour},
	})
	if err != nil {
		return CheckoutOutcome{}, err
	}
	out := CheckoutOutcome{Purchase: res.Purchase}
	s.notifyCheckout(ctx, bot, res) // after commit (issue 8)
	if res.SealedDetails != nil {
		d, err := s.openDetails(res.Purchase.CardID, res.Purchase.ProfileIndex, res.SealedDetails)
		if err != nil {
			return out, err
		}
		out.Details = &d
	}
	return out, nil
}

// validCheckout checks the fields of a checkout request.
func (s *Service) validCheckout(in CheckoutInput) (req botpay.CheckoutRequest, item, cardID string, err error) {
	p := problems{}
	if in.ProfileIndex == nil {
		p.add("profile_index", "is required")
	} else if *in.ProfileIndex < 1 {
		p.add("profile_index", "must be 1 or more")
	}
	req.MerchantName = p.text("merchant_name", in.MerchantName, 1, 200, false)
	req.MerchantURL = p.text("merchant_url", in.MerchantURL, 1, 2048, false)
	item = p.text("item_name", in.ItemName, 1, 500, false)
	if in.AmountCents == nil {
		p.add("amount_cents", "is required")
	} else if req.Amount = botpay.Money(*in.AmountCents); req.Amount <= 0 || req.Amount > MaxFunding {
		p.add("amount_cents", "must be from 1 to "+itoa(int(MaxFunding)))
	}
	req.Category = strings.ToLower(p.text("category", in.Category, 0, 50, false))
	p.text("task_id", in.TaskID, 0, 64, false)
	cardID = p.text("card_id", in.CardID, 0, 64, false)
	return req, item, cardID, p.err()
}

// CheckoutStatus reads one of the bot's purchases (docs/api.md); the
// status is as of now, so an overdue hold reads expired.
func (s *Service) CheckoutStatus(ctx context.Context, bot botpay.Bot, confirmationID string) (CheckoutOutcome, error) {
	id := strings.TrimSpace(confirmationID)
	if id == "" {
		return CheckoutOutcome{}, botpay.ValidationError(map[string]string{"confirmation_id": "is required"})
	}
	if len(id) > 64 {
		return CheckoutOutcome{}, botpay.ErrNotFound("confirmation")
	}
	p, sealed, err := s.store.BotPurchase(ctx, bot.ID, id)
	if err != nil {
		return CheckoutOutcome{}, err
	}
	p.Status = p.StatusAt(s.clock.Now())
	out := CheckoutOutcome{Purchase: p}
	if sealed != nil {
		d, err := s.openDetails(p.CardID, p.ProfileIndex, sealed)
		if err != nil {
			return out, err
		}
		out.Details = &d
	}
	return out, nil
}

// Approval is one entry of GET /api/v1/owner/approvals: a held purchase
// (Kind "purchase") or a held x402 signing request (Kind "signing").
type Approval struct {
	Kind     string
	Purchase botpay.Purchase // when Kind is "purchase"
	Signing  SigningApproval // when Kind is "signing"
}

// Approvals pages through what awaits the owner's decision, both kinds in
// the order they were requested.
func (s *Service) Approvals(ctx context.Context, owner botpay.Owner, page botpay.PageRequest) (botpay.Page[Approval], error) {
	held, err := s.store.PendingApprovals(ctx, owner.ID, page)
	if err != nil {
		return botpay.Page[Approval]{}, err
	}
	return botpay.MapPage(held, func(a store.Approval) Approval {
		if a.Purchase != nil {
			return Approval{Kind: "purchase", Purchase: *a.Purchase}
		}
		return Approval{Kind: "signing", Signing: signingApproval(*a.Signing)}
	}), nil
}

// DecidePurchase approves or denies a held purchase of one of the owner's
// bots.
func (s *Service) DecidePurchase(ctx context.Context, owner botpay.Owner, confirmationID string, approve bool) (botpay.Purchase, error) {
	if confirmationID == "" {
		return botpay.Purchase{}, botpay.ErrNotFound("confirmation")
	}
	return s.store.DecidePurchase(ctx, owner.ID, confirmationID, approve)
}
