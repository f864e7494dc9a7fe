package spending

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
	"github.com/botpay/botpay/internal/validate"
)

// MaxAmount bounds one checkout (one million dollars), as it bounds one
// funding or top-up request.
const MaxAmount botpay.Money = 100_000_000

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

// CheckoutResult is an admitted checkout as its transaction committed it.
// SealedDetails are the profile's sealed card details when the purchase was
// approved at once.
type CheckoutResult struct {
	Purchase      botpay.Purchase
	SealedDetails []byte
	LowBalance    *ledger.LowBalance // set when the checkout crossed the threshold
}

// Checkout validates a bot's purchase request, decides it and records it in
// one transaction (DecideCheckout), then tells the owner.
func (s *Service) Checkout(ctx context.Context, bot botpay.Bot, in CheckoutInput) (CheckoutOutcome, error) {
	req, item, cardID, err := ValidCheckout(in)
	if err != nil {
		return CheckoutOutcome{}, err
	}
	res, err := s.DecideCheckout(ctx, botpay.CheckoutAsk{
		BotID: bot.ID, CardID: cardID, ProfileIndex: *in.ProfileIndex, ItemName: item, TaskID: strings.TrimSpace(in.TaskID),
		Request: req, PerWindow: s.perHour, Window: time.Hour,
	})
	if err != nil {
		return CheckoutOutcome{}, err
	}
	out := CheckoutOutcome{Purchase: res.Purchase}
	if s.notices != nil { // after commit: a failed send must not undo the checkout
		s.notices.CheckoutCommitted(ctx, bot, res)
	}
	if res.SealedDetails != nil {
		d, err := s.openDetails(res.Purchase.CardID, res.Purchase.ProfileIndex, res.SealedDetails)
		if err != nil {
			return out, err
		}
		out.Details = &d
	}
	return out, nil
}

// ValidCheckout checks the fields of a checkout request (card or rail5).
func ValidCheckout(in CheckoutInput) (req botpay.CheckoutRequest, item, cardID string, err error) {
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
	} else if req.Amount = botpay.Money(*in.AmountCents); req.Amount <= 0 || req.Amount > MaxAmount {
		p.Add("amount_cents", "must be from 1 to "+strconv.Itoa(int(MaxAmount)))
	}
	req.Category = strings.ToLower(p.Text("category", in.Category, 0, 50, false))
	p.Text("task_id", in.TaskID, 0, 64, false)
	cardID = p.Text("card_id", in.CardID, 0, 64, false)
	return req, item, cardID, p.Err()
}

// DecideCheckout is where a card checkout is decided, as one unit of work
// in one transaction (money moves with its ledger row and event, or not at
// all): lock the bot's wallet and read the facts (checkout_sql.go), decide
// on them (botpay.DecideCheckout, pure), write the outcome and emit its
// event. A refusal by the guardrails commits its declined record and
// event, then is returned.
func (s *Service) DecideCheckout(ctx context.Context, ask botpay.CheckoutAsk) (CheckoutResult, error) {
	now := s.clock.Now()
	var res CheckoutResult
	var refusal *botpay.Error
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		f, locked, err := s.readCheckoutFacts(ctx, tx, ask, now)
		if err != nil {
			return err
		}
		d, err := botpay.DecideCheckout(f, ask)
		if err != nil {
			return err
		}
		refusal = d.Refusal
		res, err = s.writeCheckout(ctx, tx, ask, locked, d, now)
		return err
	})
	if err == nil && refusal != nil {
		return CheckoutResult{}, refusal
	}
	return res, wrapErr(err, "checkout by %s", ask.BotID)
}
