package spending

import (
	"context"
	"encoding/base64"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/cardfile"
	"github.com/botpay/botpay/internal/ledger"
	"github.com/botpay/botpay/internal/validate"
)

// Rail5CardInput is the body of POST /api/v1/owner/bots/{bot_id}/rail5-cards.
type Rail5CardInput struct {
	BotID       string
	CardName    string
	Number      string
	CVV         string
	ExpiryMonth string
	ExpiryYear  string
	HolderName  string
}

// Rail5Instructions tell the bot what to do with its card file.
const Rail5Instructions = "Save file_content to suggested_path (mode 0600), acknowledge this message if you polled it, " +
	"then call POST /api/v1/bot/rail5/confirm-delivery. The file is encrypted (AES-256-GCM); to spend, call " +
	"POST /api/v1/bot/rail5/checkout, then POST /api/v1/bot/rail5/key for that checkout's one-time key, decrypt the file, " +
	"pay, forget the key and the card details, and report with POST /api/v1/bot/rail5/complete."

// CreateRail5Card encrypts the owner's card into a card file under a fresh
// per-card key, keeps only the key (sealed) and the last four digits, and
// sends the file to the bot in rail5.card.delivered. The full number is
// never stored, logged or answered; validation messages never repeat it.
func (s *Service) CreateRail5Card(ctx context.Context, owner botpay.Owner, in Rail5CardInput) (botpay.Rail5Card, error) {
	p := validate.Problems{}
	name := p.Text("card_name", in.CardName, 1, 100, false)
	number := strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, in.Number)
	if len(number) < 12 || len(number) > 19 || !cardfile.Luhn(number) {
		p.Add("number", "must be a valid card number of 12 to 19 digits")
	}
	cvv := strings.TrimSpace(in.CVV)
	if len(cvv) < 3 || len(cvv) > 4 || !allDigits(cvv) {
		p.Add("cvv", "must be 3 or 4 digits")
	}
	month, year := cardExpiry(p, in.ExpiryMonth, in.ExpiryYear, s.clock.Now().Year())
	holder := p.Text("holder_name", in.HolderName, 1, 100, false)
	if err := p.Err(); err != nil {
		return botpay.Rail5Card{}, err
	}
	now := s.clock.Now()
	c := botpay.Rail5Card{ID: botpay.NewID("r5card_"), BotID: in.BotID, OwnerID: owner.ID, Name: name,
		Last4: number[len(number)-4:], Status: botpay.Rail5PendingDelivery, CreatedAt: now}
	key := cardfile.NewKey()
	file, err := cardfile.Encrypt(key, c.ID, cardfile.Details{Number: number, CVV: cvv, ExpiryMonth: month, ExpiryYear: year, HolderName: holder})
	if err != nil {
		return c, err
	}
	delivered := botpay.NewEvent(c.BotID, botpay.Rail5CardDeliveredData{
		CardID: c.ID, CardName: c.Name, CardLast4: c.Last4, FileContent: file,
		SuggestedPath: ".botpay/cards/" + c.ID + ".card.json", Instructions: Rail5Instructions,
	}, now)
	return c, s.AddRail5Card(ctx, c, s.sealer.Seal(key, rail5KeyAAD(c.ID)), delivered)
}

func rail5KeyAAD(cardID string) []byte { return []byte("rail5-key:" + cardID) }

// ConfirmRail5Delivery records that the bot saved its card file
// (docs/api.md).
func (s *Service) ConfirmRail5Delivery(ctx context.Context, bot botpay.Bot, cardID string) (botpay.Rail5Card, error) {
	if !bot.Claimed() {
		return botpay.Rail5Card{}, botpay.ErrWalletNotActive
	}
	return s.confirmRail5Delivery(ctx, bot.ID, strings.TrimSpace(cardID))
}

// Rail5TestCheckoutURL is where a bot tries its confirmed card.
func (s *Service) Rail5TestCheckoutURL() string { return s.baseURL + "/api/v1/bot/rail5/checkout" }

// Rail5CheckoutInput is the body of POST /api/v1/bot/rail5/checkout.
type Rail5CheckoutInput struct {
	CardID       string
	MerchantName string
	MerchantURL  string
	ItemName     string
	AmountCents  *int
	Category     string
}

// Rail5Checkout asks to spend with a confirmed rail5 card.
func (s *Service) Rail5Checkout(ctx context.Context, bot botpay.Bot, in Rail5CheckoutInput) (botpay.Rail5Checkout, error) {
	one := 1
	req, item, cardID, err := ValidCheckout(CheckoutInput{ProfileIndex: &one, MerchantName: in.MerchantName, MerchantURL: in.MerchantURL,
		ItemName: in.ItemName, AmountCents: in.AmountCents, Category: in.Category, CardID: in.CardID})
	if err != nil {
		return botpay.Rail5Checkout{}, err
	}
	return s.rail5Checkout(ctx, rail5Ask{BotID: bot.ID, CardID: cardID, Request: req, Item: item,
		PerWindow: s.perHour, Window: time.Hour})
}

// rail5Ask is a validated rail5 checkout of a bot.
type rail5Ask struct {
	BotID   string
	CardID  string // optional with one confirmed card
	Request botpay.CheckoutRequest
	Item    string
	// PerWindow checkouts of the bot (card wallet and rail5) are allowed
	// per Window; none is refused when PerWindow is 0.
	PerWindow int
	Window    time.Duration
}

// rail5Facts are what a rail5 checkout is decided on, read under the bot's
// wallet lock.
type rail5Facts struct {
	wallet ledger.Wallet
	cardID string
	rules  botpay.SpendingRules
	usage  botpay.Usage
}

// decideRail5 evaluates a rail5 spend with the same guardrail chain as a
// card-wallet checkout (no wallet balance: the owner's card is charged)
// and approves it, or declines it with the refusal. A spend the approval
// mode would hold for the owner is refused with 403 approval_required:
// rail5 has no hold.
func decideRail5(f rail5Facts, ask rail5Ask, now time.Time) (botpay.Rail5Checkout, *botpay.Error) {
	verdict, refused := botpay.EvaluateCheckout(ask.Request, f.rules, f.usage)
	if refused == nil && verdict == botpay.Hold {
		refused = botpay.Errorf(botpay.KindForbidden, botpay.CodeApprovalRequired,
			"your guardrails require your owner's approval for this amount; rail5 spends cannot wait for approval, use the card wallet checkout")
	}
	out := botpay.Rail5Checkout{ID: botpay.NewID("r5chk_"), BotID: ask.BotID, OwnerID: f.wallet.OwnerID, CardID: f.cardID,
		Amount: ask.Request.Amount, MerchantName: ask.Request.MerchantName, MerchantURL: ask.Request.MerchantURL,
		ItemName: ask.Item, Status: botpay.Rail5CheckoutApproved, CreatedAt: now}
	if refused != nil {
		out.Status = botpay.Rail5CheckoutDeclined
	}
	return out, refused
}

// ReleaseRail5Key returns the card key for an approved rail5 checkout,
// base64-encoded, exactly once.
func (s *Service) ReleaseRail5Key(ctx context.Context, bot botpay.Bot, checkoutID string) (botpay.Rail5Checkout, string, error) {
	if strings.TrimSpace(checkoutID) == "" {
		return botpay.Rail5Checkout{}, "", botpay.ValidationError(map[string]string{"checkout_id": "is required"})
	}
	c, sealed, err := s.releaseRail5Key(ctx, bot.ID, checkoutID)
	if err != nil {
		return c, "", err
	}
	key, err := s.sealer.Open(sealed, rail5KeyAAD(c.CardID))
	if err != nil {
		return c, "", err
	}
	return c, base64.StdEncoding.EncodeToString(key), nil
}

// CompleteRail5Checkout records whether the bot's payment went through.
func (s *Service) CompleteRail5Checkout(ctx context.Context, bot botpay.Bot, checkoutID string, success *bool, reason string) (botpay.Rail5Checkout, error) {
	p := validate.Problems{}
	if strings.TrimSpace(checkoutID) == "" {
		p.Add("checkout_id", "is required")
	}
	if success == nil {
		p.Add("success", "is required")
	}
	reason = p.Text("reason", reason, 0, 500, false)
	if success != nil && !*success && reason == "" {
		p.Add("reason", "is required when success is false")
	}
	if err := p.Err(); err != nil {
		return botpay.Rail5Checkout{}, err
	}
	return s.completeRail5Checkout(ctx, bot.ID, checkoutID, *success, reason)
}
