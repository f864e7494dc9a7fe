package web

import (
	"net/http"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/earning"
)

// methodOptions labels the methods a buyer may choose, in order; the
// first is checked, as it is the default of the sandbox pay endpoints.
func methodOptions(methods []string) []methodOption {
	out := make([]methodOption, 0, len(methods))
	for _, m := range methods {
		out = append(out, methodOption{Value: m, Label: methodLabel(m)})
	}
	return out
}

// methodLabel names a payment method for a buyer, in plain words.
func methodLabel(m string) string { return botpay.MethodLabel(m) }

// renderSold renders a pay page with the seller named: every buyer page
// says who is selling.
func (p *Pages) renderSold(w http.ResponseWriter, r *http.Request, status int, botID string, data payPage) {
	seller, err := p.svc.Earning().SellerOf(r.Context(), botID)
	if err != nil {
		p.payFailed(w, r, err)
		return
	}
	if data.Page != nil {
		seller.ContactEmail, seller.RefundPolicy = data.Page.ContactEmail, data.Page.RefundPolicy
	}
	data.Seller = &seller
	p.renderPay(w, status, data)
}

func receiptPath(payID, saleID string) string { return "/pay/" + payID + "/receipt/" + saleID }

// receiptPage is the data of receipt.html.
type receiptPage struct {
	Title      string
	Receipt    earning.Receipt
	For        string // what was bought: the page's title or the link's description
	Method     string
	ProductURL string
	SuccessURL string
	BuyerEmail string // or the paying wallet's address
	ByWallet   bool
	TxURL      string // the transaction on the block explorer, when one is configured
	Status     saleState
}

// saleState is how a receipt states a sale: paid, waiting, or what a
// refund gave back, in words a buyer reads without knowing the API.
type saleState struct {
	Words    string
	Refunded bool
}

func saleStateOf(s botpay.Sale) saleState {
	switch {
	case s.Refunded > 0 && s.Refunded >= s.Amount:
		return saleState{Words: "Refunded in full", Refunded: true}
	case s.Refunded > 0:
		return saleState{Words: "Partly refunded: " + formatUSD(s.Refunded) + " of " + formatUSD(s.Amount) + " given back", Refunded: true}
	case s.Status == botpay.SaleConfirmed:
		return saleState{Words: "Paid"}
	default:
		return saleState{Words: "Waiting for the payment to be confirmed"}
	}
}

// receipt shows the receipt of a sale: reference, amount, method, date,
// seller and, for on-chain payments, the transaction hash. It prints on
// one page (print CSS) and needs no script.
func (p *Pages) receipt(w http.ResponseWriter, r *http.Request) {
	id, saleID, ctx := pathID(r), r.PathValue("sale_id"), r.Context()
	if id == "" || !strings.HasPrefix(saleID, "sale_") || len(saleID) > 64 {
		p.notFound(w)
		return
	}
	rc, err := p.svc.Earning().ReceiptOf(ctx, id, saleID)
	if err != nil {
		p.payFailed(w, r, err)
		return
	}
	data := receiptPage{Title: "Receipt " + rc.Sale.ID, Receipt: rc, Method: methodLabel(rc.Sale.Method), For: rc.Sale.CheckoutTitle,
		BuyerEmail: rc.Sale.BuyerEmail, TxURL: p.svc.TransactionURL(rc.Sale.TxHash), Status: saleStateOf(rc.Sale)}
	switch {
	case rc.Sale.CheckoutPageID != "":
		page, err := p.svc.CheckoutPage(ctx, rc.Sale.CheckoutPageID)
		if err != nil {
			p.payFailed(w, r, err)
			return
		}
		data.For, data.SuccessURL = page.Title, page.SuccessURL
		data.Receipt.Seller.ContactEmail, data.Receipt.Seller.RefundPolicy = page.ContactEmail, page.RefundPolicy
		if page.PageType == botpay.PageDigitalProduct {
			data.ProductURL = page.DigitalProductURL
		}
	case rc.Sale.PaymentLinkID != "":
		l, err := p.svc.PaymentLink(ctx, rc.Sale.PaymentLinkID)
		if err != nil {
			p.payFailed(w, r, err)
			return
		}
		data.For = l.Description
	}
	if data.BuyerEmail == "" && rc.Sale.BuyerType == botpay.BuyerWallet {
		data.BuyerEmail, data.ByWallet = rc.Sale.BuyerIdentifier, true
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", payCSP)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	if err := p.pages.ExecuteTemplate(w, "receipt.html", data); err != nil {
		p.log.Error("render page", "page", "receipt.html", "err", err)
	}
}
