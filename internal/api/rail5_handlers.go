package api

import (
	"bytes"
	"net/http"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/spending"
	"github.com/botpay/botpay/wire"
)

func (s *Server) createRail5Card(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	// The card's digits may be strings or integers: they are read by name.
	var req wire.CreateRail5CardRequest
	f := body.into(&req)
	f.text(&req.CardName)
	in := spending.Rail5CardInput{BotID: pathID(r, "bot_id"), CardName: req.CardName,
		Number: body.digitsOrString(f.name(&req.Number)), CVV: body.digitsOrString(f.name(&req.CVV)),
		ExpiryMonth: body.digitsOrString(f.name(&req.ExpiryMonth)), ExpiryYear: body.digitsOrString(f.name(&req.ExpiryYear))}
	f.text(&req.HolderName)
	in.HolderName = req.HolderName
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	c, err := s.svc.Spending().CreateRail5Card(r.Context(), o, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, wire.CreateRail5CardResponse{CardID: c.ID, CardName: c.Name, CardLast4: c.Last4,
		Status: c.Status, CreatedAt: at(c.CreatedAt)})
}

// confirmRail5Delivery takes no body (docs/decisions.md); a JSON body
// may name the card with card_id when several await delivery.
func (s *Server) confirmRail5Delivery(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	data, err := readBody(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var cardID string
	if len(bytes.TrimSpace(data)) > 0 {
		body, err := decodeObject(data)
		if err != nil {
			writeError(w, r, err)
			return
		}
		var req wire.ConfirmRail5DeliveryRequest
		body.into(&req).optText(&req.CardID)
		if err := body.err(); err != nil {
			writeError(w, r, err)
			return
		}
		cardID = deref(req.CardID)
	}
	c, err := s.svc.Spending().ConfirmRail5Delivery(r.Context(), bot, cardID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, wire.ConfirmRail5DeliveryResponse{Status: c.Status, CardID: c.ID, CardName: c.Name,
		CardLast4: c.Last4, TestCheckoutURL: s.svc.Spending().Rail5TestCheckoutURL(),
		Message: "Card confirmed; the service no longer keeps your card file. Spend with POST /api/v1/bot/rail5/checkout."})
}

func viewRail5Checkout(c botpay.Rail5Checkout, msg string) wire.Rail5Checkout {
	return wire.Rail5Checkout{CheckoutID: c.ID, Status: c.Status, CardID: c.CardID, MerchantName: c.MerchantName,
		ItemName: c.ItemName, AmountUSD: usd(c.Amount), Message: msg}
}

func (s *Server) rail5Checkout(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	// amount_cents is a required integer of the wire type, but its absence
	// is the service's to report: it is read by name.
	var req wire.Rail5CheckoutRequest
	f := body.into(&req)
	f.optText(&req.CardID)
	f.text(&req.MerchantName)
	f.text(&req.MerchantURL)
	f.text(&req.ItemName)
	f.optText(&req.Category)
	in := spending.Rail5CheckoutInput{CardID: deref(req.CardID), MerchantName: req.MerchantName, MerchantURL: req.MerchantURL,
		ItemName: req.ItemName, AmountCents: body.integer(f.name(&req.AmountCents)), Category: deref(req.Category)}
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	c, err := s.svc.Spending().Rail5Checkout(r.Context(), bot, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, viewRail5Checkout(c, "Approved. Get the card key once with POST /api/v1/bot/rail5/key {\"checkout_id\": \""+c.ID+"\"}."))
}

func (s *Server) rail5Key(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var req wire.Rail5KeyRequest
	body.into(&req).text(&req.CheckoutID)
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	c, key, err := s.svc.Spending().ReleaseRail5Key(r.Context(), bot, req.CheckoutID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	v := viewRail5Checkout(c, "Decrypt your card file with this key, pay, then forget both and report with POST /api/v1/bot/rail5/complete.")
	v.Key, v.Alg = optText(key), wire.Ptr("AES-256-GCM")
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) rail5Complete(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	// success is a plain bool of the wire type, where absent would read as
	// false; its absence is the service's to report: it is read by name.
	var req wire.Rail5CompleteRequest
	f := body.into(&req)
	f.text(&req.CheckoutID)
	success := body.boolean(f.name(&req.Success))
	f.optText(&req.Reason)
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	c, err := s.svc.Spending().CompleteRail5Checkout(r.Context(), bot, req.CheckoutID, success, deref(req.Reason))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, viewRail5Checkout(c, "Recorded."))
}
