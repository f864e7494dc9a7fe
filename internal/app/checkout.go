package app

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/validate"
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

// Checkout validates a bot's purchase request, decides it and records it in
// one transaction (DecideCheckout), then tells the owner.
func (s *Service) Checkout(ctx context.Context, bot botpay.Bot, in CheckoutInput) (CheckoutOutcome, error) {
	req, item, cardID, err := s.validCheckout(in)
	if err != nil {
		return CheckoutOutcome{}, err
	}
	taskID := strings.TrimSpace(in.TaskID)
	res, err := DecideCheckout(ctx, s.store, store.CheckoutInput{
		BotID: bot.ID, CardID: cardID, ProfileIndex: *in.ProfileIndex, ItemName: item, TaskID: taskID,
		Request: req,
		Limit:   store.Limit{Bucket: "checkout:" + bot.ID, Max: s.limits.CheckoutPerHour, Window: time.Hour},
	})
	if err != nil {
		return CheckoutOutcome{}, err
	}
	out := CheckoutOutcome{Purchase: res.Purchase}
	s.notifyCheckout(ctx, bot, res) // after commit: a failed send must not undo the checkout
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
	p := validate.Problems{}
	if in.ProfileIndex == nil {
		p.Add("profile_index", "is required")
	} else if *in.ProfileIndex < 1 {
		p.Add("profile_index", "must be 1 or more")
	}
	req.MerchantName = p.Text("merchant_name", in.MerchantName, 1, 200, false)
	req.MerchantURL = p.Text("merchant_url", in.MerchantURL, 1, 2048, false)
	item = p.Text("item_name", in.ItemName, 1, 500, false)
	if in.AmountCents == nil {
		p.Add("amount_cents", "is required")
	} else if req.Amount = botpay.Money(*in.AmountCents); req.Amount <= 0 || req.Amount > MaxFunding {
		p.Add("amount_cents", "must be from 1 to "+itoa(int(MaxFunding)))
	}
	req.Category = strings.ToLower(p.Text("category", in.Category, 0, 50, false))
	p.Text("task_id", in.TaskID, 0, 64, false)
	cardID = p.Text("card_id", in.CardID, 0, 64, false)
	return req, item, cardID, p.Err()
}

// checkoutStore is what a checkout needs of the store: one transaction in
// which its phases run.
type checkoutStore interface {
	InCheckout(ctx context.Context, in store.CheckoutInput, phases func(*store.CheckoutTx) error) error
}

// checkoutTx is a checkout's transaction (store.CheckoutTx): the reads and
// writes between which the phases decide.
type checkoutTx interface {
	Open(ctx context.Context, pick store.CardPicker) (store.CheckoutFacts, error)
	TaskStatus(ctx context.Context) (status string, found bool, err error)
	OwnerUsage(ctx context.Context, u botpay.Usage) (botpay.Usage, error)
	RecordDeclined(ctx context.Context, p botpay.Purchase, reason string) error
	Record(ctx context.Context, p botpay.Purchase) (*store.LowBalance, error)
}

// DecideCheckout is where a card checkout is decided. Its phases run in
// one transaction of st (money moves with its ledger row and event, or not
// at all): read the facts under the wallet lock, admit the request (wallet,
// card, task, rate limit), judge it against the guardrails, and record the
// outcome. A refusal by the guardrails commits its declined record and
// event, then is returned.
func DecideCheckout(ctx context.Context, st checkoutStore, in store.CheckoutInput) (store.CheckoutResult, error) {
	var res store.CheckoutResult
	var refusal *botpay.Error
	err := st.InCheckout(ctx, in, func(tx *store.CheckoutTx) error {
		var err error
		res, refusal, err = checkoutPhases(ctx, tx, in)
		return err
	})
	if err == nil && refusal != nil {
		return store.CheckoutResult{}, refusal
	}
	return res, err
}

func checkoutPhases(ctx context.Context, tx checkoutTx, in store.CheckoutInput) (store.CheckoutResult, *botpay.Error, error) {
	f, err := tx.Open(ctx, botpay.PickCheckoutCard)
	if err != nil {
		return store.CheckoutResult{}, nil, err
	}
	if err := admitCheckout(ctx, tx, in, f); err != nil {
		return store.CheckoutResult{}, nil, err
	}
	rules := botpay.RulesFor(f.Rules, f.Card, f.Profile)
	usage := f.Usage
	if botpay.MasterBudgetsApply(rules) {
		if usage, err = tx.OwnerUsage(ctx, usage); err != nil {
			return store.CheckoutResult{}, nil, err
		}
	}
	p, refused := botpay.JudgeCheckout(botpay.CheckoutDraft{BotID: in.BotID, OwnerID: f.OwnerID, Card: f.Card, Profile: f.Profile,
		Request: in.Request, ItemName: in.ItemName, TaskID: in.TaskID}, rules, usage, f.Now)
	if refused != nil {
		return store.CheckoutResult{}, refused, tx.RecordDeclined(ctx, p, refused.Message)
	}
	res := store.CheckoutResult{Purchase: p}
	if res.LowBalance, err = tx.Record(ctx, p); err != nil {
		return store.CheckoutResult{}, nil, err
	}
	if p.Status == botpay.PurchaseApproved {
		res.SealedDetails = f.SealedDetails
	}
	return res, nil, nil
}

// admitCheckout refuses, in this order, a checkout of an unclaimed or
// frozen wallet, of no usable card or profile, naming a task the bot
// cannot complete, of a bot without guardrails, or over the rate limit.
func admitCheckout(ctx context.Context, tx checkoutTx, in store.CheckoutInput, f store.CheckoutFacts) error {
	if err := botpay.CheckWallet(f.Claimed, f.Frozen); err != nil {
		return err
	}
	if f.PickErr != nil {
		return f.PickErr
	}
	if in.TaskID != "" {
		status, found, err := tx.TaskStatus(ctx)
		if err != nil {
			return err
		}
		if err := botpay.CheckTaskForCheckout(in.TaskID, status, found); err != nil {
			return err
		}
	}
	if !f.HasGuardrails {
		return errors.New("checkout: the bot has no guardrails")
	}
	return botpay.CheckoutRateLimit(in.Limit.Max, in.Limit.Window, f.QuotathLatest, f.Now)
}
