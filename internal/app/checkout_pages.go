package app

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
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
	p := problems{}
	page := botpay.CheckoutPage{ID: botpay.NewID("cp_"), BotID: bot.ID, CreatedAt: now, AmountLocked: true,
		AllowedMethods: slices.Clone(botpay.CheckoutMethods), PageType: botpay.PageProduct}
	page.Title = p.text("title", in.Title, 1, 200, false)
	page.Description = p.text("description", in.Description, 0, 2000, true)
	if in.Amount != nil {
		validAmount(p, "amount_usd", *in.Amount, botpay.MaxPageAmount)
		page.Amount = in.Amount
	}
	if in.AmountLocked != nil {
		page.AmountLocked = *in.AmountLocked
	}
	if page.Amount == nil {
		page.AmountLocked = false // nothing to lock: the buyer chooses
	}
	if in.AllowedMethods != nil {
		page.AllowedMethods = p.methods("allowed_methods", *in.AllowedMethods)
	}
	page.SuccessURL = p.optionalURL("success_url", in.SuccessURL)
	if strings.TrimSpace(in.ContactEmail) != "" {
		page.ContactEmail = p.email("contact_email", in.ContactEmail)
	}
	page.RefundPolicy = p.text("refund_policy", in.RefundPolicy, 0, 500, true)
	page.ImageURL = p.optionalURL("image_url", in.ImageURL)
	page.DigitalProductURL = p.optionalURL("digital_product_url", in.DigitalProductURL)
	if in.PageType != "" {
		page.PageType = in.PageType
	}
	switch page.PageType {
	case botpay.PageProduct, botpay.PageEvent:
	case botpay.PageDigitalProduct:
		if strings.TrimSpace(in.DigitalProductURL) == "" {
			p.add("digital_product_url", "is required when page_type is digital_product")
		}
	default:
		p.add("page_type", "must be product, event or digital_product")
	}
	if in.ExpiresAt != "" {
		page.ExpiresAt = p.futureTime("expires_at", in.ExpiresAt, now)
	}
	if in.CollectBuyerName != nil {
		page.CollectBuyerName = *in.CollectBuyerName
	}
	if err := p.err(); err != nil {
		return page, err
	}
	if !bot.Claimed() {
		return page, errWalletNotFound
	}
	// Buyers pay a page to its seller's processor wallet; a bot without
	// one gets it with its first page.
	if _, err := s.ensureProcessorWallet(ctx, bot.OwnerID, bot.ID); err != nil {
		return page, err
	}
	return page, s.store.CreateCheckoutPage(ctx, page)
}

// CheckoutPages pages through a bot's checkout pages; none before the
// claim.
func (s *Service) CheckoutPages(ctx context.Context, bot botpay.Bot, page botpay.PageRequest) (botpay.Page[botpay.CheckoutPage], error) {
	if !bot.Claimed() {
		return botpay.Page[botpay.CheckoutPage]{Items: []botpay.CheckoutPage{}}, nil
	}
	return s.store.CheckoutPages(ctx, bot.ID, page)
}

// WalletAddress is the chain address buyers of the bot's pages pay to: the
// bot's processor wallet, or "" (wallet_address null) while it has none.
func (s *Service) WalletAddress(ctx context.Context, botID string) string {
	return s.processorAddress(ctx, botID)
}

// methods checks a list of payment methods: at least one, each known, no
// repeats (repeats are dropped).
func (p problems) methods(field string, list []string) []string {
	if len(list) == 0 {
		p.add(field, "must name at least one of x402, usdc_direct, processor_onramp, l2_pay")
		return nil
	}
	var out []string
	for _, m := range list {
		if !slices.Contains(botpay.CheckoutMethods, m) {
			p.add(field, "must contain only x402, usdc_direct, processor_onramp, l2_pay")
			return nil
		}
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

// optionalURL checks a link shown to buyers: empty, or an absolute http or
// https URL without credentials, spaces or control characters.
func (p problems) optionalURL(field, v string) string {
	v = strings.TrimSpace(v)
	if v == "" {
		return ""
	}
	u, err := url.Parse(v)
	switch {
	case len(v) > 2048:
		p.add(field, "must be at most 2048 characters")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "":
		p.add(field, "must be an absolute http or https URL")
	case u.User != nil:
		p.add(field, "must not contain credentials")
	case strings.ContainsFunc(v, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		p.add(field, "must not contain spaces or control characters")
	default:
		return v
	}
	return ""
}

// timestamp parses an ISO 8601 date-time (RFC 3339) or a bare date
// (midnight UTC).
func (p problems) timestamp(field, v string) time.Time {
	v = strings.TrimSpace(v)
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t.UTC()
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t
	}
	p.add(field, "must be an ISO 8601 date-time such as 2026-11-21T09:30:00Z")
	return time.Time{}
}

func (p problems) futureTime(field, v string, now time.Time) time.Time {
	t := p.timestamp(field, v)
	if !t.IsZero() && !t.After(now) {
		p.add(field, "must be in the future")
		return time.Time{}
	}
	return t
}
