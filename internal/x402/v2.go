package x402

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
)

// Version2 is x402 version 2: the requirements travel in the
// PAYMENT-REQUIRED header, the payment in PAYMENT-SIGNATURE (echoing the
// offer it accepted) and the settlement in PAYMENT-RESPONSE; networks are
// CAIP-2 ids. Version 1 (X-PAYMENT) is served beside it unchanged.
const Version2 = 2

// The HTTP headers of both versions.
const (
	HeaderPaymentRequired  = "PAYMENT-REQUIRED"
	HeaderPaymentSignature = "PAYMENT-SIGNATURE"
	HeaderPaymentResponse  = "PAYMENT-RESPONSE"
	HeaderXPayment         = "X-PAYMENT"
	HeaderXPaymentResponse = "X-PAYMENT-RESPONSE"
)

// ResourceInfo describes the paid resource in a v2 PaymentRequired (and,
// echoed, in a PaymentPayload).
type ResourceInfo struct {
	URL         string `json:"url"`
	Description string `json:"description"`
	MimeType    string `json:"mimeType"`
}

// PaymentRequirements is one v2 offer: what a payer may pay and where.
// Amount is in the asset's smallest units as a decimal string; Network is a
// CAIP-2 id such as eip155:8453. Extra keeps any JSON value (json.Number
// for numbers when decoded here) so an offer echoes back exactly.
type PaymentRequirements struct {
	Scheme            string         `json:"scheme"`
	Network           string         `json:"network"`
	Amount            string         `json:"amount"`
	Asset             string         `json:"asset"`
	PayTo             string         `json:"payTo"`
	MaxTimeoutSeconds int            `json:"maxTimeoutSeconds"`
	Extra             map[string]any `json:"extra"`
}

// PaymentRequiredV2 is the JSON inside a PAYMENT-REQUIRED header.
type PaymentRequiredV2 struct {
	X402Version int                   `json:"x402Version"`
	Error       string                `json:"error,omitempty"`
	Resource    ResourceInfo          `json:"resource"`
	Accepts     []PaymentRequirements `json:"accepts"`
	Extensions  map[string]any        `json:"extensions,omitempty"`
}

// WireAuthorization is an EIP-3009 authorization as x402 writes it: every
// number a decimal string, addresses and nonce as 0x hex.
type WireAuthorization struct {
	From        string `json:"from"`
	To          string `json:"to"`
	Value       string `json:"value"`
	ValidAfter  string `json:"validAfter"`
	ValidBefore string `json:"validBefore"`
	Nonce       string `json:"nonce"`
}

// ExactPayload is the payload of the exact EVM scheme: a signed
// TransferWithAuthorization.
type ExactPayload struct {
	Signature     string            `json:"signature"`
	Authorization WireAuthorization `json:"authorization"`
}

// PaymentPayloadV2 is the JSON inside a PAYMENT-SIGNATURE header.
type PaymentPayloadV2 struct {
	X402Version int                 `json:"x402Version"`
	Resource    *ResourceInfo       `json:"resource,omitempty"`
	Accepted    PaymentRequirements `json:"accepted"`
	Payload     ExactPayload        `json:"payload"`
	Extensions  map[string]any      `json:"extensions,omitempty"`
}

// CAIP2 is the CAIP-2 id of an EVM chain: eip155:<chain id>.
func CAIP2(chainID uint64) string { return "eip155:" + u(chainID) }

// CAIP2 is the CAIP-2 id of the domain's chain.
func (d Domain) CAIP2() string { return CAIP2(d.ChainID) }

// ChainOfCAIP2 reads an eip155:<chain id> network. Only the canonical form
// is accepted (no sign, no leading zero) so one chain has one spelling.
func ChainOfCAIP2(network string) (uint64, bool) {
	rest, ok := strings.CutPrefix(network, "eip155:")
	if !ok || rest == "" || len(rest) > 20 || rest[0] == '0' || strings.TrimLeft(rest, "0123456789") != "" {
		return 0, false
	}
	id, err := strconv.ParseUint(rest, 10, 64)
	return id, err == nil
}

// CAIP2OfNetwork is the CAIP-2 id of an x402 v1 network name ("base" →
// eip155:8453); a CAIP-2 id is returned as it is.
func CAIP2OfNetwork(network string) (string, bool) {
	id, ok := ChainOfNetwork(network)
	if !ok {
		return "", false
	}
	return CAIP2(id), true
}

// NetworkOfCAIP2 is the x402 v1 network name of a CAIP-2 id (eip155:8453 →
// "base"); chains v1 has no name for keep their CAIP-2 id.
func NetworkOfCAIP2(network string) (string, bool) {
	id, ok := ChainOfCAIP2(network)
	if !ok {
		return "", false
	}
	return NetworkOf(id), true
}

// ExactUSDCOffer is the v2 offer of amount micro-units of the token of
// domain d paid to payTo: the same offer as ExactUSDC in v1 form.
func ExactUSDCOffer(d Domain, amount uint64, payTo Address, timeoutSeconds int) PaymentRequirements {
	return PaymentRequirements{Scheme: Scheme, Network: d.CAIP2(), Amount: u(amount), Asset: d.Contract.Hex(),
		PayTo: payTo.Hex(), MaxTimeoutSeconds: timeoutSeconds, Extra: map[string]any{"name": d.Name, "version": d.Version}}
}

// OfferOf turns a v1 requirement into its v2 offer; false when its network
// is not an EVM network x402 knows or its amount is not a decimal number.
func OfferOf(r Requirement) (PaymentRequirements, bool) {
	network, ok := CAIP2OfNetwork(r.Network)
	if !ok || !isDecimal(r.MaxAmountRequired) {
		return PaymentRequirements{}, false
	}
	extra := make(map[string]any, len(r.Extra))
	for k, v := range r.Extra {
		extra[k] = v
	}
	return PaymentRequirements{Scheme: r.Scheme, Network: network, Amount: r.MaxAmountRequired, Asset: r.Asset,
		PayTo: r.PayTo, MaxTimeoutSeconds: r.MaxTimeoutSeconds, Extra: extra}, true
}

// NewPaymentPayloadV2 is the v2 payload paying offer accepted with p. The
// offer is echoed as given: a seller compares it member by member.
func NewPaymentPayloadV2(p Payment, accepted PaymentRequirements, resource *ResourceInfo, extensions map[string]any) PaymentPayloadV2 {
	a := p.Authorization
	return PaymentPayloadV2{X402Version: Version2, Resource: resource, Accepted: accepted, Extensions: extensions,
		Payload: ExactPayload{Signature: p.Signature.Hex(), Authorization: WireAuthorization{
			From: a.From.Hex(), To: a.To.Hex(), Value: u(a.Value), ValidAfter: u(a.ValidAfter),
			ValidBefore: u(a.ValidBefore), Nonce: a.Nonce.Hex()}}}
}

// EncodePaymentRequired is the PAYMENT-REQUIRED value: base64 JSON.
func EncodePaymentRequired(p PaymentRequiredV2) string { return encodeJSON(p) }

// EncodePaymentSignature is the PAYMENT-SIGNATURE value: base64 JSON.
func EncodePaymentSignature(p PaymentPayloadV2) string { return encodeJSON(p) }

// EncodePaymentResponse is the PAYMENT-RESPONSE value (v2; X-PAYMENT-RESPONSE
// is the same object with the v1 network name and no amount).
func EncodePaymentResponse(r SettleResponse) string { return encodeJSON(r) }

func encodeJSON(v any) string {
	b, _ := json.Marshal(v)
	return base64.StdEncoding.EncodeToString(b)
}

func isDecimal(s string) bool {
	return s != "" && len(s) <= 78 && strings.TrimLeft(s, "0123456789") == ""
}
