package app

import (
	"context"
	"slices"

	"github.com/botpay/botpay/internal/botpay"
)

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
	b, err := s.store.Bot(ctx, botID)
	if err != nil {
		return Seller{}, err
	}
	return Seller{BotID: b.ID, Name: b.Name}, nil
}

// Receipt is a buyer's proof of payment: the sale, the invoice it paid
// (if any) and the seller.
type Receipt struct {
	Sale    botpay.Sale
	Invoice *botpay.Invoice
	Seller  Seller
}

// ReceiptOf reads the receipt of sale saleID made through payID (a
// checkout page or payment link ID). The pair is the capability: a sale
// ID with another page's ID is not found.
func (s *Service) ReceiptOf(ctx context.Context, payID, saleID string) (Receipt, error) {
	r, err := s.earning.ReceiptOf(ctx, payID, saleID)
	if err != nil {
		return Receipt{}, err
	}
	seller, err := s.SellerOf(ctx, r.Sale.BotID)
	if err != nil {
		return Receipt{}, err
	}
	return Receipt{Sale: r.Sale, Invoice: r.Invoice, Seller: seller}, nil
}
