package app

import (
	"context"
	"slices"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/earning"
	"github.com/botpay/botpay/internal/invoicepdf"
	"github.com/botpay/botpay/internal/validate"
)

// BuyerPayment is a buyer's sandbox payment (docs/decisions.md).
type BuyerPayment struct {
	Ref        string // invoice reference number, checkout pages only
	Token      string // the invoice payment URL's token (t), with Ref
	BuyerEmail string
	BuyerName  string
	Method     string        // "" picks the first of BuyerMethods (LinkMethods for a link)
	Amount     *botpay.Money // nil: the page's, invoice's or link's own amount
	ClientIP   string        // limits guessing of invoice reference numbers
}

func (s *Service) validBuyer(p validate.Problems, in *BuyerPayment, needName bool) {
	in.BuyerEmail = p.Email("buyer_email", in.BuyerEmail)
	min := 0
	if needName {
		min = 1
	}
	in.BuyerName = p.Text("buyer_name", in.BuyerName, min, 200, false)
	if in.Method != "" && !slices.Contains(earning.SandboxMethods, in.Method) {
		p.Add("method", "must be processor_onramp, usdc_direct or l2_pay (x402 payments use the x402 endpoint)")
	}
	if len(in.Ref) > 64 {
		p.Add("ref", "is not an invoice reference number")
	}
}

// PayCheckoutSandbox pays a checkout page (or, with Ref, an invoice on it)
// through the sandbox provider, along the one sale path.
func (s *Service) PayCheckoutSandbox(ctx context.Context, pageID string, in BuyerPayment) (botpay.SaleResult, error) {
	if s.live {
		return botpay.SaleResult{}, errSandboxOnly
	}
	page, err := s.earning.CheckoutPage(ctx, pageID)
	if err != nil {
		return botpay.SaleResult{}, err
	}
	p := validate.Problems{}
	s.validBuyer(p, &in, page.CollectBuyerName)
	if err := p.Err(); err != nil {
		return botpay.SaleResult{}, err
	}
	if in.Ref = strings.TrimSpace(in.Ref); in.Ref != "" {
		if _, err := s.earning.InvoiceForBuyer(ctx, page.ID, in.Ref, in.Token, in.ClientIP); err != nil {
			return botpay.SaleResult{}, err
		}
	}
	if in.Method == "" {
		methods := earning.BuyerMethods(page.AllowedMethods)
		if len(methods) == 0 {
			return botpay.SaleResult{}, botpay.Errorf(botpay.KindInvalid, botpay.CodeMethodNotAllowedOnPage,
				"this checkout page accepts only x402 payments")
		}
		in.Method = methods[0]
	}
	return s.earning.RecordSale(ctx, botpay.SaleInput{PageID: page.ID, InvoiceRef: strings.TrimSpace(in.Ref), Amount: in.Amount,
		Method: in.Method, BuyerType: botpay.BuyerEmail, BuyerIdentifier: in.BuyerEmail, BuyerEmail: in.BuyerEmail,
		BuyerName: in.BuyerName})
}

// PayLinkSandbox pays a pending payment link through the sandbox provider.
func (s *Service) PayLinkSandbox(ctx context.Context, linkID string, in BuyerPayment) (botpay.SaleResult, error) {
	if s.live {
		return botpay.SaleResult{}, errSandboxOnly
	}
	if _, err := s.earning.PaymentLink(ctx, linkID); err != nil {
		return botpay.SaleResult{}, err
	}
	in.Ref = ""
	p := validate.Problems{}
	s.validBuyer(p, &in, false)
	if err := p.Err(); err != nil {
		return botpay.SaleResult{}, err
	}
	if in.Method == "" {
		in.Method = earning.LinkMethods()[0] // the default of a page with the default methods
	}
	return s.earning.RecordSale(ctx, botpay.SaleInput{LinkID: linkID, Amount: in.Amount, Method: in.Method,
		BuyerType: botpay.BuyerEmail, BuyerIdentifier: in.BuyerEmail, BuyerEmail: in.BuyerEmail, BuyerName: in.BuyerName})
}

// PageView is what a buyer sees on /pay/{cp_…}: the page, and with a
// reference number the invoice.
type PageView struct {
	Page    botpay.CheckoutPage
	Invoice *botpay.Invoice
}

// OpenCheckoutPage counts a view of the page; with ref and its token it
// also shows that invoice and moves it from sent to viewed
// (docs/decisions.md). A look that is not a view (an HTTP HEAD: link
// checkers, previews, monitors) reads the same and changes neither.
func (s *Service) OpenCheckoutPage(ctx context.Context, pageID, ref, token, clientIP string, view bool) (PageView, error) {
	var page botpay.CheckoutPage
	var err error
	if view {
		page, err = s.earning.CountPageView(ctx, pageID)
	} else {
		page, err = s.earning.CheckoutPage(ctx, pageID)
	}
	if err != nil {
		return PageView{}, err
	}
	v := PageView{Page: page}
	if ref = strings.TrimSpace(ref); ref == "" {
		return v, nil
	}
	inv, err := s.earning.InvoiceForBuyer(ctx, pageID, ref, token, clientIP)
	if err != nil {
		return v, err
	}
	if view && inv.Status == botpay.InvoiceSent {
		if inv, err = s.earning.MarkInvoiceViewed(ctx, inv.ID); err != nil {
			return v, err
		}
	}
	v.Invoice = &inv
	return v, nil
}

// PaymentLink reads a link for its buyer page.
func (s *Service) PaymentLink(ctx context.Context, id string) (botpay.PaymentLink, error) {
	return s.earning.PaymentLink(ctx, id)
}

// InvoicePDF renders the invoice with reference ref and token on page
// pageID.
func (s *Service) InvoicePDF(ctx context.Context, pageID, ref, token, clientIP string) (botpay.Invoice, []byte, error) {
	inv, err := s.earning.InvoiceForBuyer(ctx, pageID, ref, token, clientIP)
	if err != nil {
		return inv, nil, err
	}
	pdf, err := invoicepdf.Render(inv, s.baseURL+inv.PaymentURL())
	return inv, pdf, err
}

// IsNotFound reports whether err is a 404 of any code.
func IsNotFound(err error) bool {
	e := botpay.AsError(err)
	return e != nil && e.Kind == botpay.KindNotFound
}

// CheckoutPage reads a page without counting a view.
func (s *Service) CheckoutPage(ctx context.Context, id string) (botpay.CheckoutPage, error) {
	return s.earning.CheckoutPage(ctx, id)
}

// InvoiceByRef reads the invoice with reference ref and token on page
// pageID for a buyer at clientIP.
func (s *Service) InvoiceByRef(ctx context.Context, pageID, ref, token, clientIP string) (botpay.Invoice, error) {
	return s.earning.InvoiceForBuyer(ctx, pageID, ref, token, clientIP)
}
