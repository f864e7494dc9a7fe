package web

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/earning"
)

// payCSP lets buyer pages show the product image a bot linked, and
// nothing else from elsewhere: no scripts at all, forms post only here.
const payCSP = "default-src 'none'; img-src https: http:; style-src 'unsafe-inline'; form-action 'self'; " +
	"frame-ancestors 'none'; base-uri 'none'"

// walletCSP is payCSP for a page that offers "Pay with a wallet": scripts
// only from here (the wallet script, assets.go) and fetches only to here
// (the page's x402 route). Pages without the section keep payCSP.
const walletCSP = "default-src 'none'; script-src 'self'; connect-src 'self'; img-src https: http:; style-src 'unsafe-inline'; " +
	"form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

type methodOption struct{ Value, Label string }

type payForm struct{ Email, Name, Amount, Method string }

// payPage is the data of pay.html. Everything a bot wrote reaches the page
// only through html/template's contextual escaping.
type payPage struct {
	NotFound    bool
	Title       string
	Seller      *earning.Seller
	Page        *botpay.CheckoutPage
	Link        *botpay.PaymentLink
	Invoice     *botpay.Invoice
	State       string // open, paid, expired, cancelled, unavailable
	FixedAmount *botpay.Money
	CollectName bool
	Methods     []methodOption
	Action      string
	Ref         string
	Token       string // the invoice's payment token, posted back with Ref
	PDFURL      string
	ReceiptURL  string // of a paid invoice
	X402URL     string
	Wallet      *walletPay // the "Pay with a wallet" section; nil: none
	Form        payForm
	Error       string
}

// walletPay is what the wallet script reads from the page: the x402 route
// to ask and pay (same origin, with the invoice's query) and where the
// receipts of this page live.
type walletPay struct {
	Route       string
	ReceiptBase string
	ChainName   string
	Script      string
	Integrity   string
}

// walletFor offers the wallet section for a page paid through route.
func (p *Pages) walletFor(payID, route string) *walletPay {
	return &walletPay{Route: route, ReceiptBase: "/pay/" + payID + "/receipt/", ChainName: chainName(p.svc.Domain().ChainID),
		Script: WalletScriptPath(), Integrity: walletScriptIntegrity}
}

// chainName names a chain for a buyer.
func chainName(id uint64) string {
	switch id {
	case 8453:
		return "Base"
	case 84532:
		return "Base Sepolia"
	}
	return "chain " + strconv.FormatUint(id, 10)
}

func (p *Pages) renderPay(w http.ResponseWriter, status int, data payPage) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	csp := payCSP
	if data.Wallet != nil && data.State == "open" {
		csp = walletCSP
	}
	w.Header().Set("Content-Security-Policy", csp)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	if err := p.pages.ExecuteTemplate(w, "pay.html", data); err != nil {
		p.log.Error("render page", "page", "pay.html", "err", err)
	}
}

func (p *Pages) notFound(w http.ResponseWriter) {
	p.renderPay(w, http.StatusNotFound, payPage{NotFound: true, Title: "Not found"})
}

// pathID accepts only the short ASCII IDs the service hands out.
func pathID(r *http.Request) string {
	id := r.PathValue("id")
	if len(id) > 64 || strings.ContainsFunc(id, func(c rune) bool { return c <= ' ' || c > '~' }) {
		return ""
	}
	return id
}

func (p *Pages) payView(w http.ResponseWriter, r *http.Request) {
	id, ctx := pathID(r), r.Context()
	switch {
	case strings.HasPrefix(id, "cp_"):
		ref, token := invoiceParams(r.URL.Query())
		v, err := p.svc.OpenCheckoutPage(ctx, id, ref, token, p.clientIP(r), r.Method != http.MethodHead)
		if err != nil {
			p.payFailed(w, r, err)
			return
		}
		p.renderSold(w, r, http.StatusOK, v.Page.BotID, p.pageData(v.Page, v.Invoice, payForm{}))
	case strings.HasPrefix(id, "pl_"):
		l, err := p.svc.PaymentLink(ctx, id)
		if err != nil {
			p.payFailed(w, r, err)
			return
		}
		p.renderSold(w, r, http.StatusOK, l.BotID, p.linkData(l, payForm{Email: l.PayerEmail}))
	default:
		p.notFound(w)
	}
}

func (p *Pages) pageData(page botpay.CheckoutPage, inv *botpay.Invoice, form payForm) payPage {
	d := payPage{Title: page.Title, Page: &page, Invoice: inv, State: "open", CollectName: page.CollectBuyerName,
		Action: "/pay/" + page.ID, Form: form}
	if !p.live { // sandbox methods settle nothing real
		d.Methods = methodOptions(earning.BuyerMethods(page.AllowedMethods))
	}
	route := "/api/v1/checkout/" + page.ID + "/x402"
	if page.Allows(botpay.MethodX402) {
		d.X402URL = p.svc.BaseURL() + route
	}
	if page.AcceptsWallet() {
		if inv != nil {
			route += "?" + inv.PayQuery()
		}
		d.Wallet = p.walletFor(page.ID, route)
	}
	if page.Amount != nil && page.AmountLocked {
		d.FixedAmount = page.Amount
	}
	if page.Amount != nil && form.Amount == "" {
		d.Form.Amount = page.Amount.USD()
	}
	switch {
	case inv == nil && page.Status(p.svc.Now()) == botpay.PageExpired:
		d.State = "expired"
	case len(d.Methods) == 0 && d.X402URL == "" && d.Wallet == nil:
		d.State = "unavailable"
	}
	if inv != nil {
		d.Title = "Invoice " + inv.ReferenceNumber
		d.Ref, d.Token, d.FixedAmount = inv.ReferenceNumber, inv.PayToken, &inv.Total
		d.PDFURL = "/pay/" + page.ID + "/invoice.pdf?" + inv.PayQuery()
		if d.X402URL != "" {
			d.X402URL += "?" + inv.PayQuery()
		}
		if d.Form.Email == "" {
			d.Form.Email = inv.RecipientEmail
		}
		switch {
		case inv.Status == botpay.InvoicePaid:
			d.State = "paid"
			if inv.SaleID != "" {
				d.ReceiptURL = receiptPath(page.ID, inv.SaleID)
			}
		case inv.Status == botpay.InvoiceCancelled:
			d.State = "cancelled"
		case !inv.Payable():
			d.State = "unavailable" // nothing to pay
		}
	}
	return d
}

func (p *Pages) linkData(l botpay.PaymentLink, form payForm) payPage {
	route := "/api/v1/payment-links/" + l.ID + "/x402"
	d := payPage{Title: "Payment request", Link: &l, State: "open", FixedAmount: &l.Amount, Action: "/pay/" + l.ID, Form: form,
		X402URL: p.svc.BaseURL() + route, Wallet: p.walletFor(l.ID, route)}
	if !p.live { // sandbox methods settle nothing real; x402 settles in both modes
		d.Methods = methodOptions(earning.LinkMethods())
	}
	switch l.Status(p.svc.Now()) {
	case botpay.LinkCompleted:
		d.State = "paid"
	case botpay.LinkExpired:
		d.State = "expired"
	}
	return d
}

// paySubmit takes the pay form and drives the same sale path as the
// sandbox pay endpoints.
func (p *Pages) paySubmit(w http.ResponseWriter, r *http.Request) {
	id, ctx := pathID(r), r.Context()
	if err := r.ParseForm(); err != nil {
		p.renderPay(w, http.StatusBadRequest, payPage{Title: "Payment", Error: "The form could not be read."})
		return
	}
	f := r.PostForm
	form := payForm{Email: f.Get("buyer_email"), Name: f.Get("buyer_name"), Amount: f.Get("amount_usd"), Method: f.Get("method")}
	ref, token := invoiceParams(f)
	in := app.BuyerPayment{Ref: ref, Token: token, BuyerEmail: form.Email, BuyerName: form.Name, Method: form.Method, ClientIP: p.clientIP(r)}
	var amountErr string
	if strings.TrimSpace(form.Amount) != "" {
		if m, err := botpay.ParseUSD(strings.TrimPrefix(strings.TrimSpace(form.Amount), "$")); err == nil {
			in.Amount = &m
		} else {
			amountErr = "The amount must be a number of dollars, such as 12.50."
		}
	}
	var res botpay.SaleResult
	var err error
	var data payPage
	var botID string
	switch {
	case strings.HasPrefix(id, "cp_"):
		page, perr := p.svc.CheckoutPage(ctx, id)
		if perr != nil {
			p.payFailed(w, r, perr)
			return
		}
		var inv *botpay.Invoice
		if in.Ref != "" {
			i, ierr := p.svc.InvoiceByRef(ctx, id, in.Ref, in.Token, p.clientIP(r))
			if ierr != nil {
				p.payFailed(w, r, ierr)
				return
			}
			inv = &i
			in.Amount = nil // an invoice is paid in full; the form shows no amount field
		}
		data, botID = p.pageData(page, inv, form), page.BotID
		if amountErr == "" || inv != nil {
			amountErr = ""
			res, err = p.svc.PayCheckoutSandbox(ctx, id, in)
		}
	case strings.HasPrefix(id, "pl_"):
		l, lerr := p.svc.PaymentLink(ctx, id)
		if lerr != nil {
			p.payFailed(w, r, lerr)
			return
		}
		in.Amount, amountErr = nil, ""
		data, botID = p.linkData(l, form), l.BotID
		res, err = p.svc.PayLinkSandbox(ctx, id, in)
	default:
		p.notFound(w)
		return
	}
	switch {
	case amountErr != "":
		data.Error = amountErr
		p.renderSold(w, r, http.StatusBadRequest, botID, data)
	case err != nil:
		data.Error = p.explain(r, err)
		p.renderSold(w, r, statusFor(err), botID, data)
	default:
		// Post/Redirect/Get: the receipt has its own address, so reloading
		// it never pays again and the buyer can keep or print it.
		http.Redirect(w, r, receiptPath(id, res.Sale.ID), http.StatusSeeOther)
	}
}

func (p *Pages) invoicePDF(w http.ResponseWriter, r *http.Request) {
	ref, token := invoiceParams(r.URL.Query())
	inv, pdf, err := p.svc.InvoicePDF(r.Context(), pathID(r), ref, token, p.clientIP(r))
	if err != nil {
		p.payFailed(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", `attachment; filename="`+inv.ReferenceNumber+`.pdf"`)
	w.Header().Set("Content-Length", strconv.Itoa(len(pdf)))
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Write(pdf)
}

// payFailed answers a lookup failure: 404 page for unknown records, a
// logged 500 for anything unexpected.
func (p *Pages) payFailed(w http.ResponseWriter, r *http.Request, err error) {
	if app.IsNotFound(err) {
		p.notFound(w)
		return
	}
	if e := botpay.AsError(err); e != nil && e.Kind == botpay.KindRateLimited {
		p.renderPay(w, http.StatusTooManyRequests, payPage{Title: "Too many attempts", State: "unavailable",
			Error: "Too many unknown invoice numbers from your address; try again later."})
		return
	}
	if botpay.Unreachable(err) {
		w.Header().Set("Retry-After", strconv.Itoa(botpay.UnavailableRetrySeconds))
		p.renderPay(w, http.StatusServiceUnavailable, payPage{Title: "Unavailable", State: "unavailable",
			Error: "This page cannot be shown right now; please try again in a few seconds."})
		return
	}
	p.log.ErrorContext(r.Context(), "buyer page failed", "path", r.URL.Path, "err", err)
	p.renderPay(w, http.StatusInternalServerError, payPage{Title: "Error", State: "unavailable",
		Error: "Something went wrong; please try again."})
}

// explain turns a refused payment into one sentence for the buyer.
func (p *Pages) explain(r *http.Request, err error) string {
	e := botpay.AsError(err)
	if e == nil || e.Kind == botpay.KindInternal {
		p.log.ErrorContext(r.Context(), "payment failed", "path", r.URL.Path, "err", err)
		return "Something went wrong; please try again."
	}
	if len(e.Details) > 0 {
		fields := make([]string, 0, len(e.Details))
		for f := range e.Details {
			fields = append(fields, f)
		}
		slices.Sort(fields)
		var b strings.Builder
		for _, f := range fields {
			b.WriteString(strings.ReplaceAll(f, "_", " ") + " " + e.Details[f] + ". ")
		}
		return strings.TrimSpace(b.String())
	}
	return e.Message
}

func statusFor(err error) int {
	e := botpay.AsError(err)
	if e == nil && botpay.Unreachable(err) {
		return http.StatusServiceUnavailable
	}
	if e == nil {
		return http.StatusInternalServerError
	}
	switch e.Kind {
	case botpay.KindInvalid:
		return http.StatusBadRequest
	case botpay.KindNotFound:
		return http.StatusNotFound
	case botpay.KindConflict:
		return http.StatusConflict
	case botpay.KindGone:
		return http.StatusGone
	case botpay.KindRateLimited:
		return http.StatusTooManyRequests
	}
	return http.StatusInternalServerError
}
