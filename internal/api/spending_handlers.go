package api

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/spending"
)

func (s *Server) checkout(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	in := spending.CheckoutInput{
		ProfileIndex: body.integer("profile_index"),
		MerchantName: body.required("merchant_name"),
		MerchantURL:  body.required("merchant_url"),
		ItemName:     body.required("item_name"),
		AmountCents:  body.integer("amount_cents"),
		Category:     body.optional("category"),
		TaskID:       body.optional("task_id"),
		CardID:       body.optional("card_id"),
	}
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
	in := spending.NewCardInput{
		BotID:         pathID(r, "bot_id"),
		CardName:      body.required("card_name"),
		MissingDigits: body.required("missing_digits"),
		ExpiryMonth:   body.digitsOrString("expiry_month"),
		ExpiryYear:    body.digitsOrString("expiry_year"),
		Profiles:      body.profiles("profiles"),
	}
	if real := body.integer("real_profile_index"); real != nil {
		in.RealProfileIndex = *real
	} else {
		body.fail("real_profile_index", "is required")
	}
	if l := body.child("limits"); l != nil {
		in.Limits.PerTransaction = l.optUSD("per_transaction_usd")
		in.Limits.Daily = l.optUSD("daily_usd")
		in.Limits.Monthly = l.optUSD("monthly_usd")
	}
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
	s.writePage(w, list, cards.Next, map[string]any{"cards": botpay.MapPage(cards, viewCard).Items})
}

func (s *Server) patchCard(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	status := body.required("status")
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	c, err := s.svc.Spending().SetCardStatus(r.Context(), o, pathID(r, "bot_id"), pathID(r, "card_id"), status)
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
	in := spending.NewTaskInput{
		BotID:        pathID(r, "bot_id"),
		MerchantName: body.required("merchant_name"),
		MerchantURL:  body.required("merchant_url"),
		ItemName:     body.required("item_name"),
		AmountCents:  body.integer("amount_cents"),
		Category:     body.optional("category"),
		ProfileIndex: body.integer("profile_index"),
	}
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	t, err := s.svc.Spending().CreateTask(r.Context(), o, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"task_id": t.ID, "status": t.Status})
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
	s.writePage(w, list, held.Next, map[string]any{"approvals": botpay.MapPage(held, viewApproval).Items})
}

func (s *Server) decidePurchase(v verdict) ownerHandler {
	return func(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
		p, err := s.svc.Spending().DecidePurchase(r.Context(), o, pathID(r, "confirmation_id"), bool(v))
		if err != nil {
			writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"confirmation_id": p.ID, "status": p.Status})
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
	c := spending.ProcurementChange{AllowedDomains: body.strings("allowed_domains"), BlockedDomains: body.strings("blocked_domains"),
		AllowedMerchants: body.strings("allowed_merchants"), BlockedMerchants: body.strings("blocked_merchants"),
		AllowedRecipients: body.strings("allowed_recipients"),
		BlockedRecipients: body.strings("blocked_recipients")}
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
		var p botpay.PaymentProfile
		if idx := item.integer("profile_index"); idx != nil {
			p.Index = *idx
		} else {
			item.fail("profile_index", "is required")
		}
		p.AllowanceDuration = item.required("allowance_duration")
		p.Allowance, _ = item.usd("allowance_usd", requiredField)
		if h := item.boolean("human_permission_required"); h != nil {
			p.HumanPermissionRequired = *h
		}
		out = append(out, p)
	}
	return out
}
