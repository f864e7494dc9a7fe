package api

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/payments"
	"github.com/botpay/botpay/internal/x402"
	"github.com/botpay/botpay/wire"
)

// signingAuthFailure: the signing endpoint's 401 body is exactly
// {"error":"Invalid or missing API key"} (docs/decisions.md).
func signingAuthFailure(r *botRoute) {
	r.authFailure = &botpay.Error{Kind: botpay.KindUnauthenticated, Code: botpay.CodeSignAuthFailed}
}

func (s *Server) createProcessorWallet(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	addr, err := s.svc.Payments().CreateProcessorWallet(r.Context(), o, pathID(r, "bot_id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, wire.CreateProcessorWalletResponse{Address: addr})
}

// invalidSignRequest turns any decoding problem into the sign endpoint's
// one 400 body, "Invalid request" with per-field details, so a client can
// tell a bad request from a refusal by the guardrails.
func invalidSignRequest(err error) error {
	e := botpay.AsError(err)
	if e == nil || e.Kind != botpay.KindInvalid {
		return err
	}
	details := e.Details
	if details == nil {
		details = map[string]string{"body": e.Message}
	}
	return &botpay.Error{Kind: botpay.KindInvalid, Code: botpay.CodeInvalidSignRequest, Details: details}
}

func (s *Server) sign(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, invalidSignRequest(err))
		return
	}
	in := signRequest(body)
	if err := body.err(); err != nil {
		writeError(w, r, invalidSignRequest(err))
		return
	}
	res, err := s.svc.Payments().Sign(r.Context(), bot, in)
	var blocked *payments.GuardrailBlocked
	switch {
	case errors.As(err, &blocked):
		writeJSON(w, http.StatusForbidden, wire.GuardrailBlocked{Error: botpay.CodeGuardrailBlocked, Reason: blocked.Reason,
			Message:   wire.Ptr("the request was refused by the owner's guardrails or procurement controls"),
			RequestID: optText(requestID(r))})
	case err != nil:
		writeError(w, r, invalidSignRequest(err))
	case res.Pending:
		writeJSON(w, http.StatusAccepted, wire.SigningHeld{Status: "awaiting_approval", ApprovalID: res.Request.ID,
			ExpiresAt: at(*res.Request.ExpiresAt),
			Message:   "Your owner must approve this payment; you will get purchase.approved with the signed header, or purchase.rejected."})
	default:
		writeJSON(w, http.StatusOK, viewSigned(res))
	}
}

// viewSigned is the 200 answer of a signature; it pays the vendor's own
// offer too when the bot handed over its 402.
func viewSigned(res payments.SignResult) wire.SignX402PaymentResponse {
	return wire.SignX402PaymentResponse{XPaymentHeader: res.Header, Signature: res.Signature, From: res.From,
		Nonce: res.Request.Nonce, ValidBefore: res.Request.ValidBefore, AmountUSDC: wire.MicroUSDC(res.Request.Amount),
		PaymentSignatureHeader: optText(res.PaymentSignature), XPaymentStandardHeader: optText(res.XPaymentStandard)}
}

func (s *Server) pendingSigningRequests(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	list := newList(r, "signing_requests", o.ID, maxPageLimit)
	page, err := s.page(r, list)
	if err != nil {
		writeError(w, r, err)
		return
	}
	held, err := s.svc.Payments().PendingSigningApprovals(r.Context(), o, page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	more, cursor := s.pageEnd(list, held.Next)
	writeJSON(w, http.StatusOK, wire.ListSigningRequestsResponse{Approvals: botpay.MapPage(held, viewSigningApproval).Items, HasMore: more, NextCursor: cursor})
}

func (s *Server) decideSigning(v verdict) ownerHandler {
	return func(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
		id, err := strconv.ParseInt(r.PathValue("approval_id"), 10, 64)
		if err != nil || id <= 0 {
			writeError(w, r, botpay.ErrNotFound("signing request"))
			return
		}
		status, err := s.svc.Payments().DecideSigning(r.Context(), o, id, bool(v))
		if err != nil {
			writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, wire.ApproveSigningRequestResponse{ApprovalID: id, Status: status})
	}
}

// checkoutX402 is a checkout page's x402 endpoint: 402 with the
// requirements without X-PAYMENT, the settlement body with it.
func (s *Server) checkoutX402(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var requested *botpay.Money
	if v := q.Get("amount_usd"); v != "" {
		m, err := botpay.ParseUSD(v)
		if err != nil {
			writeError(w, r, botpay.ValidationError(map[string]string{"amount_usd": "must be a dollar amount"}))
			return
		}
		requested = &m
	}
	offer, err := s.svc.Payments().X402Offer(r.Context(), pathID(r, "id"), q.Get("ref"), q.Get("t"), requested, clientIP(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	description := offer.Page.Title
	if offer.Invoice != nil {
		description = "Invoice " + offer.Invoice.ReferenceNumber
	}
	s.payX402(w, r, offer, s.x402Ask(r, offer, description))
}

// paymentLinkX402 is a payment link's x402 endpoint, answered as a
// checkout page's: 402 with the link's requirements, the settlement body
// with a payment. A link that is completed or expired answers 409
// payment_link_not_pending instead of any 402, while the authorization
// that paid it gets its first answer again.
func (s *Server) paymentLinkX402(w http.ResponseWriter, r *http.Request) {
	offer, err := s.svc.Payments().X402LinkOffer(r.Context(), pathID(r, "id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.payX402(w, r, offer, s.x402Ask(r, offer, offer.Link.Description))
}

// payX402 answers a paid route: a PAYMENT-SIGNATURE (v2) or X-PAYMENT
// (v1) is settled; without either the route asks with 402 (a closed offer
// says why nothing more can be paid there, x402Ask).
func (s *Server) payX402(w http.ResponseWriter, r *http.Request, offer app.X402Offer, ask x402Ask) {
	if err := s.x402Buyer(r, &offer); err != nil {
		writeError(w, r, err)
		return
	}
	if signature := r.Header.Get(x402.HeaderPaymentSignature); signature != "" {
		s.payX402V2(w, r, offer, ask, signature)
		return
	}
	header := r.Header.Get(x402.HeaderXPayment)
	if header == "" {
		ask.refuse(w, r, "X-PAYMENT header is required", "PAYMENT-SIGNATURE header is required")
		return
	}
	res, err := s.svc.Payments().SettleX402(r.Context(), offer, header)
	s.answerSettlement(w, r, ask, res, err, nil)
}

// signRequest reads a signing request. The numbers are read by name: the
// service names its own problems for them (whole micro-units, whole
// seconds), and payment_required is kept as the JSON it came as.
func signRequest(body *object) payments.SignRequest {
	var req wire.SignX402PaymentRequest
	f := body.into(&req)
	f.text(&req.ResourceURL)
	f.text(&req.RecipientAddress)
	in := payments.SignRequest{ResourceURL: req.ResourceURL, Recipient: req.RecipientAddress}
	amount := f.name(&req.AmountUSDC)
	if n, ok := body.number(amount, requiredField); ok {
		if !n.IsInt() || !n.Num().IsInt64() {
			body.fail(amount, "must be a whole number of micro-units")
		} else {
			in.Amount = n.Num().Int64()
		}
	}
	validBefore := f.name(&req.ValidBefore)
	if n, ok := body.number(validBefore, optionalField); ok {
		if !n.IsInt() || !n.Num().IsInt64() {
			body.fail(validBefore, "must be a Unix time in whole seconds")
		} else {
			v := n.Num().Int64()
			in.ValidBefore = &v
		}
	}
	in.PaymentRequired, _ = body.raw(f.name(&req.PaymentRequired), optionalField)
	return in
}

// x402Buyer reads what a person paying from the buyer page tells the
// seller: buyer_email and buyer_name in a JSON object body of a POST.
// Any other body is left alone, as stock x402 clients may send their own.
func (s *Server) x402Buyer(r *http.Request, offer *app.X402Offer) error {
	if r.Method != http.MethodPost || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		return nil
	}
	data, err := readBody(r)
	if err != nil {
		return err
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil {
		return nil
	}
	var req wire.PayX402Request
	email, buyerName := jsonName(&req, &req.BuyerEmail), jsonName(&req, &req.BuyerName)
	text := map[string]string{}
	problems := map[string]string{}
	for _, name := range []string{email, buyerName} {
		raw, ok := fields[name]
		if !ok || string(raw) == "null" {
			continue
		}
		var v string
		if json.Unmarshal(raw, &v) != nil {
			problems[name] = "must be a string"
		}
		text[name] = v
	}
	if len(problems) > 0 {
		return botpay.ValidationError(problems)
	}
	return s.svc.Payments().X402Buyer(offer, text[email], text[buyerName])
}
