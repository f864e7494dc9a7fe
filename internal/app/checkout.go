package app

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
)

// CheckoutInput is the body of POST /api/v1/bot/merchant/checkout
// (INTERFACE.md 4.3), decoded. Nil pointers are fields left out.
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
	return s.checkout(ctx, &bot, store.CheckoutInput{BotID: bot.ID}, in)
}

// CheckoutByKey is Checkout for the bot whose API key this is, which the
// store authenticates in the checkout's first round trip instead of one of
// its own. A caller that is not authenticated gets 401 even when its
// request is invalid too, as on every other bot route.
func (s *Service) CheckoutByKey(ctx context.Context, apiKey string, in CheckoutInput) (CheckoutOutcome, error) {
	if _, _, _, err := s.validCheckout(in); err != nil || !botpay.WellFormedSecret(apiKey, botpay.APIKeyPrefix) {
		if _, authErr := s.AuthenticateBot(ctx, apiKey); authErr != nil {
			return CheckoutOutcome{}, authErr
		}
		return CheckoutOutcome{}, err
	}
	out, err := s.checkout(ctx, nil, store.CheckoutInput{APIKeyHash: botpay.Digest(apiKey)}, in)
	if errors.Is(err, store.ErrUnknownAPIKey) {
		return out, errBotAuth
	}
	return out, err
}

// checkout validates in and runs it for the bot that who names (bot, when
// the caller has read it already).
func (s *Service) checkout(ctx context.Context, bot *botpay.Bot, who store.CheckoutInput, in CheckoutInput) (CheckoutOutcome, error) {
	req, item, cardID, err := s.validCheckout(in)
	if err != nil {
		return CheckoutOutcome{}, err
	}
	who.CardID, who.ProfileIndex, who.ItemName, who.TaskID = cardID, *in.ProfileIndex, item, strings.TrimSpace(in.TaskID)
	who.Request = req
	who.Limit = store.Limit{Bucket: "checkout", Max: s.limits.CheckoutPerHour, Window: time.Hour}
	res, err := s.store.Checkout(ctx, who)
	if err != nil {
		return CheckoutOutcome{}, err
	}
	out := CheckoutOutcome{Purchase: res.Purchase}
	if bot == nil {
		bot = &res.Bot
	}
	s.notifyCheckout(ctx, *bot, res) // after commit (issue 8)
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

// CheckoutStatus reads one of the bot's purchases (INTERFACE.md 4.4); the
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

// Approvals lists what awaits the owner's decision.
func (s *Service) Approvals(ctx context.Context, owner botpay.Owner) ([]Approval, error) {
	ps, err := s.store.PendingPurchases(ctx, owner.ID)
	if err != nil {
		return nil, err
	}
	signing, err := s.PendingSigningApprovals(ctx, owner)
	if err != nil {
		return nil, err
	}
	out := make([]Approval, 0, len(ps)+len(signing))
	for _, p := range ps {
		out = append(out, Approval{Kind: "purchase", Purchase: p})
	}
	for _, sa := range signing {
		out = append(out, Approval{Kind: "signing", Signing: sa})
	}
	return out, nil
}

// DecidePurchase approves or denies a held purchase of one of the owner's
// bots.
func (s *Service) DecidePurchase(ctx context.Context, owner botpay.Owner, confirmationID string, approve bool) (botpay.Purchase, error) {
	if confirmationID == "" {
		return botpay.Purchase{}, botpay.ErrNotFound("confirmation")
	}
	return s.store.DecidePurchase(ctx, owner.ID, confirmationID, approve)
}
