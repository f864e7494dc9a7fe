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
	in := spending.Rail5CardInput{BotID: pathID(r, "bot_id"), CardName: body.required("card_name"),
		Number: body.digitsOrString("number"), CVV: body.digitsOrString("cvv"),
		ExpiryMonth: body.digitsOrString("expiry_month"), ExpiryYear: body.digitsOrString("expiry_year"),
		HolderName: body.required("holder_name")}
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	c, err := s.svc.Spending().CreateRail5Card(r.Context(), o, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"card_id": c.ID, "card_name": c.Name, "card_last4": c.Last4,
		"status": c.Status, "created_at": botpay.Timestamp(c.CreatedAt)})
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
		cardID = body.optional("card_id")
		if err := body.err(); err != nil {
			writeError(w, r, err)
			return
		}
	}
	c, err := s.svc.Spending().ConfirmRail5Delivery(r.Context(), bot, cardID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": c.Status, "card_id": c.ID, "card_name": c.Name,
		"card_last4": c.Last4, "test_checkout_url": s.svc.Spending().Rail5TestCheckoutURL(),
		"message": "Card confirmed; the service no longer keeps your card file. Spend with POST /api/v1/bot/rail5/checkout."})
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
	in := spending.Rail5CheckoutInput{CardID: body.optional("card_id"), MerchantName: body.required("merchant_name"),
		MerchantURL: body.required("merchant_url"), ItemName: body.required("item_name"),
		AmountCents: body.integer("amount_cents"), Category: body.optional("category")}
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
	id := body.required("checkout_id")
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	c, key, err := s.svc.Spending().ReleaseRail5Key(r.Context(), bot, id)
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
	id, success, reason := body.required("checkout_id"), body.boolean("success"), body.optional("reason")
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	c, err := s.svc.Spending().CompleteRail5Checkout(r.Context(), bot, id, success, reason)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, viewRail5Checkout(c, "Recorded."))
}
