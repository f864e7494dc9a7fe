package api

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/earning"
	"github.com/botpay/botpay/wire"
)

func (s *Server) listCheckoutPages(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	list := newList(r, "checkout_pages", bot.ID, maxPageLimit)
	page, err := s.page(r, list)
	if err != nil {
		writeError(w, r, err)
		return
	}
	pages, err := s.svc.Earning().CheckoutPages(r.Context(), bot, page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	addr, now := s.svc.Earning().WalletAddress(r.Context(), bot.ID), s.svc.Now()
	out := make([]wire.CheckoutPage, len(pages.Items))
	for i, p := range pages.Items {
		out[i] = viewCheckoutPage(p, addr, now)
	}
	more, cursor := s.pageEnd(list, pages.Next)
	writeJSON(w, http.StatusOK, wire.ListCheckoutPagesResponse{CheckoutPages: out, HasMore: more, NextCursor: cursor})
}

func (s *Server) createCheckoutPage(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := checkoutPageInput(body)
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	page, err := s.svc.Earning().CreateCheckoutPage(r.Context(), bot, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, viewCheckoutPage(page, s.svc.Earning().WalletAddress(r.Context(), bot.ID), s.svc.Now()))
}

func checkoutPageInput(body *object) earning.CheckoutPageInput {
	var req wire.CheckoutPageRequest
	f := body.into(&req)
	f.text(&req.Title)
	for _, text := range []**string{&req.Description, &req.SuccessURL, &req.ExpiresAt, &req.ContactEmail,
		&req.RefundPolicy, &req.PageType, &req.DigitalProductURL, &req.ImageURL} {
		f.optText(text)
	}
	f.flag(&req.AmountLocked)
	f.flag(&req.CollectBuyerName)
	f.strings(&req.AllowedMethods)
	f.optUSD(&req.AmountUSD)
	return earning.CheckoutPageInput{Title: req.Title, Description: deref(req.Description), Amount: optMoney(req.AmountUSD),
		AmountLocked: req.AmountLocked, AllowedMethods: sentList(req.AllowedMethods), SuccessURL: deref(req.SuccessURL),
		ContactEmail: deref(req.ContactEmail), RefundPolicy: deref(req.RefundPolicy), ExpiresAt: deref(req.ExpiresAt),
		PageType: deref(req.PageType), DigitalProductURL: deref(req.DigitalProductURL), ImageURL: deref(req.ImageURL),
		CollectBuyerName: req.CollectBuyerName}
}

func (s *Server) listPaymentLinks(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	status := r.URL.Query().Get("status")
	if err := earning.ValidPaymentLinkStatus(status); err != nil {
		writeError(w, r, err)
		return
	}
	list := newList(r, "payment_links", bot.ID, 20, "status")
	page, err := s.page(r, list)
	if err != nil {
		writeError(w, r, err)
		return
	}
	links, err := s.svc.Earning().PaymentLinks(r.Context(), bot, status, page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	now := s.svc.Now()
	out := make([]wire.PaymentLink, len(links.Items))
	for i, l := range links.Items {
		out[i] = viewPaymentLink(l, now)
	}
	more, cursor := s.pageEnd(list, links.Next)
	writeJSON(w, http.StatusOK, wire.ListPaymentLinksResponse{PaymentLinks: out, HasMore: more, NextCursor: cursor})
}

func (s *Server) createPaymentLink(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var req wire.CreatePaymentLinkRequest
	f := body.into(&req)
	f.usd(&req.AmountUSD)
	f.text(&req.Description)
	f.optText(&req.PayerEmail)
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	l, err := s.svc.Earning().CreatePaymentLink(r.Context(), bot, money(req.AmountUSD), req.Description, deref(req.PayerEmail))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, viewPaymentLink(l, s.svc.Now()))
}

func (s *Server) listInvoices(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	list := newList(r, "invoices", bot.ID, 50, "status", "checkout_page_id")
	page, err := s.page(r, list)
	if err != nil {
		writeError(w, r, err)
		return
	}
	q := r.URL.Query()
	invoices, err := s.svc.Earning().Invoices(r.Context(), bot, botpay.InvoiceFilter{Status: q.Get("status"),
		CheckoutPageID: q.Get("checkout_page_id")}, page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	more, cursor := s.pageEnd(list, invoices.Next)
	writeJSON(w, http.StatusOK, wire.ListInvoicesResponse{Invoices: botpay.MapPage(invoices, viewInvoice).Items, HasMore: more, NextCursor: cursor})
}

func (s *Server) createInvoice(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := invoiceInput(body)
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	inv, err := s.svc.Earning().CreateInvoice(r.Context(), bot, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, viewInvoice(inv))
}

// invoiceInput reads a new invoice; problems of a line are named
// line_items[i].member.
func invoiceInput(body *object) earning.InvoiceInput {
	var req wire.InvoiceRequest
	f := body.into(&req)
	f.text(&req.CheckoutPageID)
	for _, text := range []**string{&req.RecipientName, &req.RecipientEmail, &req.RecipientType, &req.DueDate, &req.Notes} {
		f.optText(text)
	}
	f.optUSD(&req.TaxUSD)
	in := earning.InvoiceInput{CheckoutPageID: req.CheckoutPageID, RecipientName: deref(req.RecipientName),
		RecipientEmail: deref(req.RecipientEmail), RecipientType: deref(req.RecipientType), DueDate: deref(req.DueDate),
		Notes: deref(req.Notes), Tax: money(deref(req.TaxUSD))}
	for _, line := range body.objects(f.name(&req.LineItems), requiredField) {
		var item wire.InvoiceRequestLineItem
		l := line.into(&item)
		l.text(&item.Description)
		l.usd(&item.UnitPriceUSD)
		l.decimal(&item.Quantity)
		in.LineItems = append(in.LineItems, earning.LineInput{Description: item.Description, Quantity: string(item.Quantity),
			UnitPrice: money(item.UnitPriceUSD)})
	}
	return in
}

// objects reads an array of objects; each element's problems are reported
// as name[i].field.
func (o *object) objects(name string, required field) []*object {
	v, ok := o.raw(name, required)
	if !ok {
		return nil
	}
	var list []json.RawMessage
	if v[0] != '[' || json.Unmarshal(v, &list) != nil {
		o.fail(name, "must be an array of objects")
		return nil
	}
	if required == requiredField && len(list) == 0 {
		o.fail(name, "must contain at least one item")
	}
	out := make([]*object, 0, len(list))
	for i, raw := range list {
		var fields map[string]json.RawMessage
		if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &fields) != nil {
			o.fail(name+"["+strconv.Itoa(i)+"]", "must be an object")
			continue
		}
		out = append(out, &object{prefix: o.prefix + name + "[" + strconv.Itoa(i) + "].", fields: fields, problems: o.problems})
	}
	return out
}

func (s *Server) sendInvoice(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	id := r.PathValue("id")
	if strings.TrimSpace(id) == "" {
		writeError(w, r, earning.ErrMissingInvoiceID)
		return
	}
	if id = pathID(r, "id"); id == "" {
		writeError(w, r, botpay.ErrNotFound("invoice"))
		return
	}
	sent, err := s.svc.Earning().SendInvoice(r.Context(), bot, id)
	if err != nil {
		if botpay.AsError(err) == nil { // the status update itself failed (docs/api.md)
			s.log.ErrorContext(r.Context(), "invoice send failed", "request_id", requestID(r), "invoice_id", id, "err", err)
			writeJSON(w, http.StatusInternalServerError, errorBody(botpay.CodeSendFailed,
				"the invoice could not be marked sent; try again", nil, 0, requestID(r)))
			return
		}
		writeError(w, r, err)
		return
	}
	inv := sent.Invoice
	writeJSON(w, http.StatusOK, wire.SendInvoiceResponse{InvoiceID: inv.ID, ReferenceNumber: inv.ReferenceNumber,
		Status: inv.Status, SentAt: at(inv.SentAt), PaymentURL: inv.PaymentURL(), EmailSent: sent.EmailSent,
		EmailReason: optText(sent.EmailReason)})
}

func (s *Server) listSales(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	list := newList(r, "sales", bot.ID, 50, "checkout_page_id", "status", "payment_method")
	page, err := s.page(r, list)
	if err != nil {
		writeError(w, r, err)
		return
	}
	q := r.URL.Query()
	sales, err := s.svc.Earning().Sales(r.Context(), bot, botpay.SaleFilter{CheckoutPageID: q.Get("checkout_page_id"),
		Status: q.Get("status"), PaymentMethod: q.Get("payment_method")}, page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	more, cursor := s.pageEnd(list, sales.Next)
	writeJSON(w, http.StatusOK, wire.ListSalesResponse{Sales: botpay.MapPage(sales, viewSale).Items, HasMore: more, NextCursor: cursor})
}

func (s *Server) cancelInvoice(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	id := pathID(r, "invoice_id")
	if id == "" {
		writeError(w, r, botpay.ErrNotFound("invoice"))
		return
	}
	inv, err := s.svc.Earning().CancelInvoice(r.Context(), o, id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, viewInvoice(inv))
}

// buyerPayment decodes {buyer_email, buyer_name, method, amount_usd?,
// ref?, t?}; ref and t may come in the query instead, as the invoice's
// payment URL carries them.
func buyerPayment(r *http.Request) (app.BuyerPayment, error) {
	body, err := parseObject(r)
	if err != nil {
		return app.BuyerPayment{}, err
	}
	var req wire.BuyerPayment
	f := body.into(&req)
	f.text(&req.BuyerEmail)
	for _, text := range []**string{&req.BuyerName, &req.Method, &req.Ref, &req.Token} {
		f.optText(text)
	}
	f.optUSD(&req.AmountUSD)
	q := r.URL.Query()
	in := app.BuyerPayment{Ref: q.Get("ref"), Token: q.Get("t"), BuyerEmail: req.BuyerEmail, BuyerName: deref(req.BuyerName),
		Method: deref(req.Method), Amount: optMoney(req.AmountUSD), ClientIP: clientIP(r)}
	if ref := deref(req.Ref); ref != "" {
		in.Ref = ref
	}
	if token := deref(req.Token); token != "" {
		in.Token = token
	}
	return in, body.err()
}

// viewSettlement renders a recorded sale as the payment answer (the API
// reference's settlement body, docs/decisions.md).
func viewSettlement(res botpay.SaleResult) wire.Settlement {
	v := wire.Settlement{Status: res.Sale.Status, SaleID: res.Sale.ID, TXHash: optText(res.Sale.TxHash),
		AmountUSD: usd(res.Sale.Amount)}
	if p := res.Page; p != nil && p.PageType == botpay.PageDigitalProduct {
		v.Product = &wire.Product{URL: p.DigitalProductURL, Type: botpay.PageDigitalProduct}
	}
	if inv := res.Invoice; inv != nil {
		v.InvoiceID, v.ReferenceNumber = optText(inv.ID), optText(inv.ReferenceNumber)
	}
	if l := res.Link; l != nil {
		v.PaymentLinkID, v.Status, v.PaidAt = optText(l.ID), botpay.LinkCompleted, optTime(l.PaidAt)
	}
	return v
}

func (s *Server) payCheckoutSandbox(w http.ResponseWriter, r *http.Request) {
	id := pathID(r, "id")
	if id == "" {
		writeError(w, r, botpay.ErrCheckoutPageNotFound)
		return
	}
	in, err := buyerPayment(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	res, err := s.svc.PayCheckoutSandbox(r.Context(), id, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, viewSettlement(res))
}

func (s *Server) payLinkSandbox(w http.ResponseWriter, r *http.Request) {
	id := pathID(r, "id")
	if id == "" {
		writeError(w, r, botpay.ErrNotFound("payment link"))
		return
	}
	in, err := buyerPayment(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	res, err := s.svc.PayLinkSandbox(r.Context(), id, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, viewSettlement(res))
}
