package api

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/x402"
)

// x402Ask is what a paid route asks, in both versions: the v1 requirement
// of the 402 body and the v2 PaymentRequired of its PAYMENT-REQUIRED
// header, the same offer in two forms.
type x402Ask struct {
	v1 x402.Requirement
	v2 x402.PaymentRequiredV2
	// unpayable is the offer's Closed: why nothing more can be paid at
	// the route (a paid invoice, an expired page, a link no longer
	// pending). It answers instead of every 402, so no client is invited
	// to sign for what cannot be paid.
	unpayable error
}

func (s *Server) x402Ask(r *http.Request, offer app.X402Offer, description string) x402Ask {
	d, resource := s.svc.Domain(), s.svc.BaseURL()+r.URL.RequestURI()
	micro := uint64(offer.Micro())
	return x402Ask{
		unpayable: offer.Closed,
		v1:        x402.ExactUSDC(d, resource, description, micro, offer.PayTo, app.X402Timeout),
		v2: x402.PaymentRequiredV2{X402Version: x402.Version2,
			Resource: x402.ResourceInfo{URL: resource, Description: description, MimeType: "application/json"},
			Accepts:  []x402.PaymentRequirements{x402.ExactUSDCOffer(d, micro, offer.PayTo, app.X402Timeout)},
			Extensions: map[string]any{
				x402.ExtensionPaymentIdentifier: x402.DeclarePaymentIdentifier(false),
				x402.ExtensionBazaar:            bazaar(r.Method, offer),
			}},
	}
}

// refuse answers 402: the v1 body with v1Reason as its error, and the
// PAYMENT-REQUIRED header with v2Reason as its error; a route where nothing
// can be paid answers why instead.
func (a x402Ask) refuse(w http.ResponseWriter, r *http.Request, v1Reason, v2Reason string) {
	if a.unpayable != nil {
		writeError(w, r, a.unpayable)
		return
	}
	required := a.v2
	required.Error = v2Reason
	w.Header().Set(x402.HeaderPaymentRequired, x402.EncodePaymentRequired(required))
	w.Header().Set("Access-Control-Expose-Headers", x402.HeaderPaymentRequired)
	writeJSON(w, http.StatusPaymentRequired, x402.PaymentRequired{X402Version: x402.Version, Error: v1Reason,
		Accepts: []x402.Requirement{a.v1}})
}

// payX402V2 pays the route with a PAYMENT-SIGNATURE: read it (an
// unreadable one is no payment, as the stock servers treat it), find the
// offer it accepted, then settle along the one path of both versions.
func (s *Server) payX402V2(w http.ResponseWriter, r *http.Request, offer app.X402Offer, ask x402Ask, header string) {
	sig, err := x402.DecodePaymentSignature(header)
	if err != nil {
		var unreadable *x402.UnreadableError
		detail := err.Error()
		if errors.As(err, &unreadable) {
			detail = unreadable.Detail
		}
		reason := "invalid_payload: the PAYMENT-SIGNATURE header could not be read: " + detail
		ask.refuse(w, r, reason, reason)
		return
	}
	if _, err := x402.MatchAccepted(sig.Accepted, ask.v2.Accepts); err != nil {
		reason := "no_matching_requirements: " + strings.TrimPrefix(err.Error(), x402.ErrNoMatchingOffer.Error()+": ")
		ask.refuse(w, r, reason, reason)
		return
	}
	res, err := s.svc.Payments().SettleX402V2(r.Context(), offer, sig)
	s.answerSettlement(w, r, ask, res, err, func(settled x402.SettleResponse) {
		settled.Network, settled.Amount = s.svc.Domain().CAIP2(), strconv.FormatInt(int64(offer.Micro()), 10)
		w.Header().Set(x402.HeaderPaymentResponse, x402.EncodePaymentResponse(settled))
		w.Header().Set("Access-Control-Expose-Headers", x402.HeaderPaymentResponse+", "+x402.HeaderXPaymentResponse)
	})
}

// answerSettlement answers a settlement of either version: a refusal as
// 402 naming its reason, any other error as itself, a sale as 200 with
// X-PAYMENT-RESPONSE; v2 adds its own headers to the success.
func (s *Server) answerSettlement(w http.ResponseWriter, r *http.Request, ask x402Ask, res app.X402Settlement, err error,
	v2 func(x402.SettleResponse)) {
	var rejected *app.X402Rejected
	if errors.As(err, &rejected) {
		ask.refuse(w, r, rejected.Reason, rejected.Reason)
		return
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	settled := x402.SettleResponse{Success: true, Transaction: res.Sale.Sale.TxHash, Network: s.svc.Domain().Network(),
		Payer: res.Payer.Hex()}
	w.Header().Set(x402.HeaderXPaymentResponse, x402.EncodeSettleResponse(settled))
	w.Header().Set("Access-Control-Expose-Headers", x402.HeaderXPaymentResponse)
	if v2 != nil {
		v2(settled)
	}
	writeJSON(w, http.StatusOK, viewSettlement(res.Sale))
}

// bazaar is the discovery extension describing the route: how it is
// called and what a paid call answers (a page's or a payment link's).
func bazaar(method string, offer app.X402Offer) map[string]any {
	if method != http.MethodPost {
		method = http.MethodGet
	}
	input := map[string]any{"type": "http", "method": method,
		"queryParams": map[string]any{"ref": "an invoice's reference number, to pay that invoice",
			"amount_usd": "the amount, on pages that let the buyer choose it"}}
	example := map[string]any{"status": "confirmed", "sale_id": "sale_…", "tx_hash": "0x…", "amount_usd": 1.5, "product": nil}
	if offer.Link != nil {
		input = map[string]any{"type": "http", "method": method}
		example = map[string]any{"status": botpay.LinkCompleted, "payment_link_id": offer.Link.ID, "sale_id": "sale_…",
			"tx_hash": "0x…", "amount_usd": offer.Link.Amount, "paid_at": "2026-11-27T09:30:00.000Z", "product": nil}
	}
	return map[string]any{
		"info": map[string]any{
			"input":  input,
			"output": map[string]any{"type": "json", "example": example},
		},
		"schema": map[string]any{
			"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
			"properties": map[string]any{
				"input":  map[string]any{"type": "object", "properties": map[string]any{"type": map[string]any{"const": "http"}, "method": map[string]any{"type": "string"}}, "required": []string{"type", "method"}},
				"output": map[string]any{"type": "object"},
			},
			"required": []string{"input"},
		},
	}
}
