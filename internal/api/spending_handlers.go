package api

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/spending"
	"github.com/botpay/botpay/wire"
)

func (s *Server) checkout(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	// profile_index and amount_cents are required integers of the wire type,
	// but their absence is the service's to report: they are read by name.
	var req wire.CheckoutRequest
	f := body.into(&req)
	f.text(&req.MerchantName)
	f.text(&req.MerchantURL)
	f.text(&req.ItemName)
	for _, text := range []**string{&req.Category, &req.TaskID, &req.CardID} {
		f.optText(text)
	}
	in := spending.CheckoutInput{ProfileIndex: body.integer(f.name(&req.ProfileIndex)), MerchantName: req.MerchantName,
		MerchantURL: req.MerchantURL, ItemName: req.ItemName, AmountCents: body.integer(f.name(&req.AmountCents)),
		Category: deref(req.Category), TaskID: deref(req.TaskID), CardID: deref(req.CardID)}
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	out, err := s.svc.Spending().Checkout(r.Context(), bot, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	status, v := viewCheckout(out)
	writeJSON(w, status, v)
}

func (s *Server) checkoutStatus(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	out, err := s.svc.Spending().CheckoutStatus(r.Context(), bot, r.URL.Query().Get("confirmation_id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, viewPurchase(out))
}

func (s *Server) nextTask(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	t, ok, err := s.svc.Spending().NextTask(r.Context(), bot)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, viewTask(t, ok))
}

// --- owner -----------------------------------------------------------------

func (s *Server) createCard(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := newCardInput(body)
	in.BotID = pathID(r, "bot_id")
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	c, err := s.svc.Spending().CreateCard(r.Context(), o, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, viewCard(c))
}

// newCardInput reads a new card. Expiry fields may be strings or
// integers, and a missing real_profile_index must not read as 0, so those
// are read by name.
func newCardInput(body *object) spending.NewCardInput {
	var req wire.CardRequest
	f := body.into(&req)
	f.text(&req.CardName)
	f.text(&req.MissingDigits)
	in := spending.NewCardInput{CardName: req.CardName, MissingDigits: req.MissingDigits,
		ExpiryMonth: body.digitsOrString(f.name(&req.ExpiryMonth)), ExpiryYear: body.digitsOrString(f.name(&req.ExpiryYear)),
		Profiles: body.profiles(f.name(&req.Profiles))}
	name := f.name(&req.RealProfileIndex)
	if real := body.integer(name); real != nil {
		in.RealProfileIndex = *real
	} else {
		body.fail(name, "is required")
	}
	if l := body.child(f.name(&req.Limits)); l != nil {
		var lim wire.CardRequestLimits
		lf := l.into(&lim)
		lf.optUSD(&lim.PerTransactionUSD)
		lf.optUSD(&lim.DailyUSD)
		lf.optUSD(&lim.MonthlyUSD)
		in.Limits.PerTransaction, in.Limits.Daily, in.Limits.Monthly = optMoney(lim.PerTransactionUSD),
			optMoney(lim.DailyUSD), optMoney(lim.MonthlyUSD)
	}
	return in
}

func (s *Server) listCards(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	botID := pathID(r, "bot_id")
	list := newList(r, "cards", o.ID+"/"+botID, maxPageLimit)
	page, err := s.page(r, list)
	if err != nil {
		writeError(w, r, err)
		return
	}
	cards, err := s.svc.Spending().Cards(r.Context(), o, botID, page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	more, cursor := s.pageEnd(list, cards.Next)
	writeJSON(w, http.StatusOK, wire.ListCardsResponse{Cards: botpay.MapPage(cards, viewCard).Items, HasMore: more, NextCursor: cursor})
}

func (s *Server) patchCard(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var req wire.PatchCardRequest
	body.into(&req).text(&req.Status)
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	c, err := s.svc.Spending().SetCardStatus(r.Context(), o, pathID(r, "bot_id"), pathID(r, "card_id"), req.Status)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, viewCard(c))
}

func (s *Server) createTask(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	// amount_cents is a required integer of the wire type, but its absence
	// is the service's to report: it is read by name.
	var req wire.CreateTaskRequest
	f := body.into(&req)
	f.text(&req.MerchantName)
	f.text(&req.MerchantURL)
	f.text(&req.ItemName)
	f.optText(&req.Category)
	f.integer(&req.ProfileIndex)
	in := spending.NewTaskInput{BotID: pathID(r, "bot_id"), MerchantName: req.MerchantName, MerchantURL: req.MerchantURL,
		ItemName: req.ItemName, AmountCents: body.integer(f.name(&req.AmountCents)), Category: deref(req.Category),
		ProfileIndex: req.ProfileIndex}
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	t, err := s.svc.Spending().CreateTask(r.Context(), o, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, wire.CreateTaskResponse{TaskID: t.ID, Status: t.Status})
}

func (s *Server) approvals(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	list := newList(r, "approvals", o.ID, maxPageLimit)
	page, err := s.page(r, list)
	if err != nil {
		writeError(w, r, err)
		return
	}
	held, err := s.svc.Approvals(r.Context(), o, page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	more, cursor := s.pageEnd(list, held.Next)
	writeJSON(w, http.StatusOK, wire.ListApprovalsResponse{Approvals: botpay.MapPage(held, viewApproval).Items, HasMore: more, NextCursor: cursor})
}

func (s *Server) decidePurchase(v verdict) ownerHandler {
	return func(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
		p, err := s.svc.Spending().DecidePurchase(r.Context(), o, pathID(r, "confirmation_id"), bool(v))
		if err != nil {
			writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, wire.ApprovePurchaseResponse{ConfirmationID: p.ID, Status: p.Status})
	}
}

func (s *Server) getProcurement(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	p, err := s.svc.Spending().Procurement(r.Context(), o, pathID(r, "bot_id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, viewProcurement(p))
}

func (s *Server) putProcurement(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var req wire.PutProcurementRequest
	f := body.into(&req)
	for _, list := range []*[]string{&req.AllowedDomains, &req.BlockedDomains, &req.AllowedMerchants, &req.BlockedMerchants,
		&req.AllowedRecipients, &req.BlockedRecipients} {
		f.strings(list)
	}
	c := spending.ProcurementChange{AllowedDomains: sentList(req.AllowedDomains), BlockedDomains: sentList(req.BlockedDomains),
		AllowedMerchants: sentList(req.AllowedMerchants), BlockedMerchants: sentList(req.BlockedMerchants),
		AllowedRecipients: sentList(req.AllowedRecipients), BlockedRecipients: sentList(req.BlockedRecipients)}
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	p, err := s.svc.Spending().SetProcurement(r.Context(), o, pathID(r, "bot_id"), c)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, viewProcurement(p))
}

// --- decoding helpers of this capability -----------------------------------

// digitsOrString reads a field sent either as a string ("07") or as an
// integer (7), as card expiry fields commonly are.
func (o *object) digitsOrString(name string) string {
	v, ok := o.raw(name, requiredField)
	if !ok {
		return ""
	}
	if v[0] == '"' {
		return o.required(name)
	}
	if n := o.integer(name); n != nil {
		return strconv.Itoa(*n)
	}
	return ""
}

// optUSD reads an optional dollar amount; absent and null are nil.
func (o *object) optUSD(name string) *botpay.Money {
	if _, ok := o.raw(name, optionalField); !ok {
		return nil
	}
	m, ok := o.usd(name, requiredField)
	if !ok {
		return nil
	}
	return &m
}

// profiles reads the payment profiles of a new card.
func (o *object) profiles(name string) []botpay.PaymentProfile {
	v, ok := o.raw(name, requiredField)
	if !ok {
		return nil
	}
	var items []json.RawMessage
	if v[0] != '[' || json.Unmarshal(v, &items) != nil {
		o.fail(name, "must be an array of objects")
		return nil
	}
	out := make([]botpay.PaymentProfile, 0, len(items))
	for i, raw := range items {
		wrapper := &object{prefix: o.prefix, fields: map[string]json.RawMessage{name + "[" + strconv.Itoa(i) + "]": raw}, problems: o.problems}
		item := wrapper.child(name + "[" + strconv.Itoa(i) + "]")
		if item == nil {
			continue
		}
		// profile_index is a plain int of the wire type, where absent would
		// read as 0: it is read by name, and absent is refused.
		var req wire.CardRequestProfile
		f := item.into(&req)
		var p botpay.PaymentProfile
		if idx := item.integer(f.name(&req.ProfileIndex)); idx != nil {
			p.Index = *idx
		} else {
			item.fail(f.name(&req.ProfileIndex), "is required")
		}
		f.text(&req.AllowanceDuration)
		f.usd(&req.AllowanceUSD)
		f.flag(&req.HumanPermissionRequired)
		p.AllowanceDuration, p.Allowance = req.AllowanceDuration, money(req.AllowanceUSD)
		p.HumanPermissionRequired = deref(req.HumanPermissionRequired)
		out = append(out, p)
	}
	return out
}
