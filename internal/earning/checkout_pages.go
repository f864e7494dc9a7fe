package earning

import (
	"context"
	"slices"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/validate"
)

// CheckoutPageInput is a create request (docs/api.md); nil and ""
// mean "not sent".
type CheckoutPageInput struct {
	Title             string
	Description       string
	Amount            *botpay.Money
	AmountLocked      *bool
	AllowedMethods    *[]string
	SuccessURL        string
	ContactEmail      string
	RefundPolicy      string
	ExpiresAt         string
	PageType          string
	DigitalProductURL string
	ImageURL          string
	CollectBuyerName  *bool
}

// errWalletNotFound is the 400 of invoices and checkout pages for a bot
// without a wallet (not yet claimed).
var errWalletNotFound = botpay.Errorf(botpay.KindInvalid, botpay.CodeWalletNotFound,
	"the bot has no wallet yet: its owner must claim it first")

// CreateCheckoutPage validates and stores a page of a claimed bot.
func (s *Service) CreateCheckoutPage(ctx context.Context, bot botpay.Bot, in CheckoutPageInput) (botpay.CheckoutPage, error) {
	now := s.clock.Now()
	p := validate.Problems{}
	page := botpay.CheckoutPage{ID: botpay.NewID("cp_"), BotID: bot.ID, CreatedAt: now, AmountLocked: true,
		AllowedMethods: slices.Clone(botpay.CheckoutMethods), PageType: botpay.PageProduct}
	page.Title = p.Text("title", in.Title, 1, 200, false)
	page.Description = p.Text("description", in.Description, 0, 2000, true)
	if in.Amount != nil {
		validPageAmount(p, *in.Amount)
		page.Amount = in.Amount
	}
	if in.AmountLocked != nil {
		page.AmountLocked = *in.AmountLocked
	}
	if page.Amount == nil {
		page.AmountLocked = false // nothing to lock: the buyer chooses
	}
	if in.AllowedMethods != nil {
		page.AllowedMethods = p.Methods("allowed_methods", *in.AllowedMethods)
	}
	page.SuccessURL = p.OptionalURL("success_url", in.SuccessURL)
	if strings.TrimSpace(in.ContactEmail) != "" {
		page.ContactEmail = p.Email("contact_email", in.ContactEmail)
	}
	page.RefundPolicy = p.Text("refund_policy", in.RefundPolicy, 0, 500, true)
	page.ImageURL = p.OptionalURL("image_url", in.ImageURL)
	page.DigitalProductURL = p.OptionalURL("digital_product_url", in.DigitalProductURL)
	if in.PageType != "" {
		page.PageType = in.PageType
	}
	switch page.PageType {
	case botpay.PageProduct, botpay.PageEvent:
	case botpay.PageDigitalProduct:
		if strings.TrimSpace(in.DigitalProductURL) == "" {
			p.Add("digital_product_url", "is required when page_type is digital_product")
		}
	default:
		p.Add("page_type", "must be product, event or digital_product")
	}
	if in.ExpiresAt != "" {
		page.ExpiresAt = p.FutureTime("expires_at", in.ExpiresAt, now)
	}
	if in.CollectBuyerName != nil {
		page.CollectBuyerName = *in.CollectBuyerName
	}
	if err := p.Err(); err != nil {
		return page, err
	}
	if !bot.Claimed() {
		return page, errWalletNotFound
	}
	// Buyers pay a page to its seller's processor wallet; a bot without
	// one gets it with its first page.
	if _, err := s.wallets.EnsureProcessorWallet(ctx, bot.OwnerID, bot.ID); err != nil {
		return page, err
	}
	return page, s.insertPage(ctx, page)
}

func validPageAmount(p validate.Problems, amount botpay.Money) {
	switch {
	case amount <= 0:
		p.Add("amount_usd", "must be greater than 0")
	case amount > botpay.MaxPageAmount:
		p.Add("amount_usd", "must be at most "+botpay.MaxPageAmount.USD())
	}
}

// CheckoutPages pages through a bot's checkout pages; none before the
// claim.
func (s *Service) CheckoutPages(ctx context.Context, bot botpay.Bot, page botpay.PageRequest) (botpay.Page[botpay.CheckoutPage], error) {
	if !bot.Claimed() {
		return botpay.Page[botpay.CheckoutPage]{Items: []botpay.CheckoutPage{}}, nil
	}
	return s.pagesOf(ctx, bot.ID, page)
}

// WalletAddress is the chain address buyers of the bot's pages pay to: the
// bot's processor wallet, or "" (wallet_address null) while it has none.
func (s *Service) WalletAddress(ctx context.Context, botID string) string {
	return s.wallets.ProcessorAddress(ctx, botID)
}
