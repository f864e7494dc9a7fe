package earning

import (
	"context"
	"slices"

	"github.com/botpay/botpay/internal/botpay"
)

// SandboxMethods are the methods the sandbox provider stands in for; x402
// payments go through the x402 endpoint instead.
var SandboxMethods = []string{botpay.MethodProcessorOnramp, botpay.MethodUSDCDirect, botpay.MethodL2Pay}

// BuyerMethods are the sandbox methods a buyer may choose on a page that
// allows allowed, in the page's order; the first is the default, on the
// buyer page and in the sandbox pay endpoints alike. A payment link allows
// every method in botpay.CheckoutMethods' order, as a page made with the
// default methods does, so links, pages and invoices share one default.
func BuyerMethods(allowed []string) []string {
	var out []string
	for _, m := range allowed {
		if slices.Contains(SandboxMethods, m) && !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

// LinkMethods are the methods a payment link is paid with.
func LinkMethods() []string { return BuyerMethods(botpay.CheckoutMethods) }

// Seller is who a buyer page says is selling: the bot, by name and ID.
type Seller struct {
	BotID string
	Name  string
	// ContactEmail and RefundPolicy are the page's, where the buyer is on
	// one (or on its invoice or receipt).
	ContactEmail string
	RefundPolicy string
}

// SellerOf names the bot behind a checkout page, payment link or sale.
func (s *Service) SellerOf(ctx context.Context, botID string) (Seller, error) {
	name, err := s.sellers.SellerName(ctx, botID)
	if err != nil {
		return Seller{}, err
	}
	return Seller{BotID: botID, Name: name}, nil
}
