package facilitator

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/botpay/botpay/internal/x402"
)

// Request is a verify or settle call read in either version: the signed
// payment, and what its requirements ask.
type Request struct {
	Version int
	Payment x402.Payment
	// Network is the requirements' network as they name it (a v1 name or
	// a CAIP-2 id): the answers name it back.
	Network     string
	Amount      uint64 // micro-units the requirements ask
	PayTo       x402.Address
	Asset       x402.Address
	ResourceURL string
}

// Refusal is a request the facilitator answers with isValid (or success)
// false: Reason is the x402 error code, Message says why.
type Refusal struct {
	Reason  string
	Message string
}

func (r *Refusal) Error() string { return r.Reason + ": " + r.Message }

func refuse(reason, format string, args ...any) *Refusal {
	return &Refusal{Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// ErrBody is a request that is not a facilitator call at all (not a JSON
// object with paymentPayload and paymentRequirements): a 400, not a
// refusal.
var ErrBody = errors.New("facilitator: the body must be a JSON object with x402Version, paymentPayload and paymentRequirements")

type envelope struct {
	X402Version         json.Number     `json:"x402Version"`
	PaymentPayload      json.RawMessage `json:"paymentPayload"`
	PaymentRequirements json.RawMessage `json:"paymentRequirements"`
}

// ParseRequest reads a verify or settle body. A body of the wrong shape is
// ErrBody; a payment or requirements that cannot be read is a *Refusal
// (invalid_payload or invalid_payment_requirements), as the stock
// facilitator answers them.
func ParseRequest(body []byte) (Request, error) {
	var env envelope
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&env); err != nil || len(env.PaymentPayload) == 0 || len(env.PaymentRequirements) == 0 {
		return Request{}, ErrBody
	}
	if _, dup := x402.DuplicateMember(body); dup {
		return Request{}, refuse(ReasonInvalidPayload, "the body names a member twice")
	}
	version, err := strconv.Atoi(env.X402Version.String())
	if err != nil {
		version = payloadVersion(env.PaymentPayload)
	}
	switch version {
	case x402.Version:
		return parseV1(env)
	case x402.Version2:
		return parseV2(env)
	}
	return Request{}, refuse(ReasonInvalidVersion, "x402Version must be 1 or 2")
}

func payloadVersion(raw json.RawMessage) int {
	var v struct {
		X402Version int `json:"x402Version"`
	}
	_ = json.Unmarshal(raw, &v)
	return v.X402Version
}

// headerOf turns a JSON object back into the base64 header it would have
// travelled in, so the one codec of package x402 reads it.
func headerOf(raw json.RawMessage) string { return base64.StdEncoding.EncodeToString(raw) }

func parseV1(env envelope) (Request, error) {
	var out Request
	p, err := x402.Decode(headerOf(env.PaymentPayload))
	if err != nil {
		return out, refuse(ReasonInvalidPayload, "paymentPayload: %s", strings.TrimPrefix(err.Error(), "x402: "))
	}
	var req x402.Requirement
	if err := json.Unmarshal(env.PaymentRequirements, &req); err != nil {
		return out, refuse(ReasonInvalidRequirements, "paymentRequirements must be an x402 v1 requirement")
	}
	if req.Scheme != x402.Scheme {
		return out, refuse(ReasonUnsupportedScheme, "only the exact scheme is settled here")
	}
	out = Request{Version: x402.Version, Payment: p, Network: req.Network, ResourceURL: req.Resource}
	return out, out.readOffer(req.MaxAmountRequired, req.PayTo, req.Asset, "maxAmountRequired")
}

func parseV2(env envelope) (Request, error) {
	var out Request
	sig, err := x402.DecodePaymentSignature(headerOf(env.PaymentPayload))
	if err != nil {
		return out, refuse(ReasonInvalidPayload, "paymentPayload: %s", strings.TrimPrefix(err.Error(), "x402: "))
	}
	var req x402.PaymentRequirements
	dec := json.NewDecoder(bytes.NewReader(env.PaymentRequirements))
	dec.UseNumber()
	if err := dec.Decode(&req); err != nil {
		return out, refuse(ReasonInvalidRequirements, "paymentRequirements must be an x402 v2 offer")
	}
	if req.Scheme != x402.Scheme {
		return out, refuse(ReasonUnsupportedScheme, "only the exact scheme is settled here")
	}
	if _, err := x402.MatchAccepted(sig.Accepted, []x402.PaymentRequirements{req}); err != nil {
		return out, refuse(ReasonAcceptedMismatch, "%s", strings.TrimPrefix(err.Error(), "x402: "))
	}
	out = Request{Version: x402.Version2, Payment: sig.Payment, Network: req.Network}
	if sig.Resource != nil {
		out.ResourceURL = sig.Resource.URL
	}
	return out, out.readOffer(req.Amount, req.PayTo, req.Asset, "amount")
}

func (r *Request) readOffer(amount, payTo, asset, amountField string) error {
	var err error
	if r.Amount, err = strconv.ParseUint(amount, 10, 64); err != nil || strings.TrimLeft(amount, "0123456789") != "" {
		return refuse(ReasonInvalidRequirements, "paymentRequirements.%s must be a decimal number of micro-units", amountField)
	}
	if r.PayTo, err = x402.ParseAddress(payTo); err != nil {
		return refuse(ReasonInvalidRequirements, "paymentRequirements.payTo is not an address")
	}
	if r.Asset, err = x402.ParseAddress(asset); err != nil {
		return refuse(ReasonInvalidRequirements, "paymentRequirements.asset is not an address")
	}
	return nil
}
