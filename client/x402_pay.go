package client

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/botpay/botpay/wire"
)

// SettleResponse is the decoded PAYMENT-RESPONSE (x402 v2) or
// X-PAYMENT-RESPONSE (v1) header of a paid resource: the x402 settlement
// answer, the same shape as the answer of FacilitatorSettle (Amount only
// in v2).
type SettleResponse = wire.FacilitatorSettleResponse

// PaidResponse is the outcome of PayX402: the resource's final answer and
// what was signed for it.
type PaidResponse struct {
	StatusCode int
	Header     http.Header
	Body       []byte
	// Version is the x402 version paid in: 2 when the resource asked with
	// PAYMENT-REQUIRED, 1 when only with the v1 body; 0 without a 402.
	Version int
	// Requirement is what the resource asked, in v1 terms (a v2 offer's
	// amount is in MaxAmountRequired); nil when it did not answer 402.
	Requirement *PaymentRequirement
	// Offer is the chosen offer exactly as the resource wrote it.
	Offer  json.RawMessage
	Signed *Signed
	// Settlement is the PAYMENT-RESPONSE, or the X-PAYMENT-RESPONSE, when
	// the resource sent one.
	Settlement *SettleResponse
}

// ErrAwaitingApproval is returned by PayX402 when the owner must approve
// the payment first; PaidResponse.Signed carries the approval id.
var ErrAwaitingApproval = errors.New("botpay: the payment awaits the owner's approval")

// ErrNoExactBase is returned when a 402 answer offers no "exact" payment
// on the network the service signs for (the only kind it signs). The name
// is from when that was always base.
var ErrNoExactBase = errors.New("botpay: the resource accepts no exact payment on the service's network")

// ErrOverLimit is returned when a resource asks more than the caller allows.
var ErrOverLimit = errors.New("botpay: the resource asks more than the allowed maximum")

// ErrNoSignatureHeader is returned when the resource asks in x402 v2 only
// and the service answered no payment_signature_header (a service older
// than v2 signing).
var ErrNoSignatureHeader = errors.New("botpay: the service signed no PAYMENT-SIGNATURE for this x402 v2 resource")

// PayX402 requests resourceURL (GET when body is nil, else POST with body
// as JSON); when it answers 402, it reads PAYMENT-REQUIRED (x402 v2) or
// else the v1 body, picks the first "exact" offer on the network the
// service signs for, asks the signing endpoint for that offer's amount
// (at most maxUSDC) handing it the 402 as it came, and repeats the request
// with PAYMENT-SIGNATURE (v2) or X-PAYMENT (v1).
func (c *Client) PayX402(ctx context.Context, resourceURL string, body []byte, maxUSDC MicroUSDC, opts ...CallOption) (*PaidResponse, error) {
	first, err := c.fetch(ctx, resourceURL, body, "", "")
	if err != nil || first.StatusCode != http.StatusPaymentRequired {
		return first, err
	}
	asked, err := readAsk(first)
	if err != nil {
		return first, fmt.Errorf("botpay: 402 answer of %s: %w", resourceURL, err)
	}
	networks, err := c.signingNetworks(ctx, opts)
	if err != nil {
		return first, err
	}
	offer, ok := asked.choose(networks)
	if !ok {
		return first, ErrNoExactBase
	}
	first.Version, first.Requirement, first.Offer = asked.version, &offer.PaymentRequirement, offer.raw
	amount, err := strconv.ParseInt(offer.MaxAmountRequired, 10, 64)
	if err != nil || amount <= 0 {
		return first, fmt.Errorf("botpay: 402 answer asks for %q micro-USDC", offer.MaxAmountRequired)
	}
	if MicroUSDC(amount) > maxUSDC {
		return first, ErrOverLimit
	}
	resource := offer.Resource
	if resource == "" || asked.version == 2 {
		resource = resourceURL
	}
	signed, err := c.Sign(ctx, SignRequest{ResourceURL: resource, AmountUSDC: MicroUSDC(amount), RecipientAddress: offer.PayTo,
		PaymentRequired: asked.handOver}, opts...)
	if err != nil {
		return first, err
	}
	first.Signed = signed
	if signed.AwaitingApproval() {
		return first, ErrAwaitingApproval
	}
	name, value := paymentHeader(asked.version, signed)
	if value == "" {
		return first, ErrNoSignatureHeader
	}
	paid, err := c.fetch(ctx, resourceURL, body, name, value)
	if paid != nil {
		paid.Version, paid.Requirement, paid.Offer, paid.Signed = first.Version, first.Requirement, first.Offer, signed
	}
	return paid, err
}

// paymentHeader is the header paying in version: PAYMENT-SIGNATURE in v2,
// X-PAYMENT in v1 in the standard form when the service made it (its own
// x_payment_header carries the same payload beside flat fields).
func paymentHeader(version int, signed *Signed) (string, string) {
	if version == 2 {
		return "PAYMENT-SIGNATURE", text(signed.PaymentSignatureHeader)
	}
	if h := text(signed.XPaymentStandardHeader); h != "" {
		return "X-PAYMENT", h
	}
	return "X-PAYMENT", signed.XPaymentHeader
}

// asked is a 402 read for paying: its offers, and what goes to the
// signing endpoint as payment_required.
type asked struct {
	version  int
	offers   []json.RawMessage
	handOver any // the header's text (v2) or the body (v1)
}

func readAsk(first *PaidResponse) (asked, error) {
	if h := strings.TrimSpace(first.Header.Get("PAYMENT-REQUIRED")); h != "" {
		var doc struct {
			X402Version int               `json:"x402Version"`
			Accepts     []json.RawMessage `json:"accepts"`
		}
		raw, err := decodeBase64(h)
		if err != nil || json.Unmarshal(raw, &doc) != nil || doc.X402Version != 2 {
			return asked{}, errors.New("PAYMENT-REQUIRED is not base64 of an x402 v2 PaymentRequired")
		}
		return asked{version: 2, offers: doc.Accepts, handOver: h}, nil
	}
	var doc struct {
		Accepts []json.RawMessage `json:"accepts"`
	}
	if err := json.Unmarshal(first.Body, &doc); err != nil {
		return asked{}, fmt.Errorf("neither PAYMENT-REQUIRED nor an x402 v1 body: %w", err)
	}
	return asked{version: 1, offers: doc.Accepts, handOver: json.RawMessage(first.Body)}, nil
}

// chosenOffer is an offer read in v1 terms, with its text as written.
type chosenOffer struct {
	PaymentRequirement
	raw json.RawMessage
}

// choose is the first exact offer on one of networks (the service's
// network under its v1 name and its CAIP-2 id).
func (a asked) choose(networks []string) (chosenOffer, bool) {
	for _, raw := range a.offers {
		var o struct {
			PaymentRequirement
			Extra  map[string]any `json:"extra"`
			Amount string         `json:"amount"`
		}
		if json.Unmarshal(raw, &o) != nil || o.Scheme != "exact" || !contains(networks, o.Network) {
			continue
		}
		if a.version == 2 {
			o.MaxAmountRequired = o.Amount
		}
		o.PaymentRequirement.Extra = map[string]string{}
		for k, v := range o.Extra {
			if s, ok := v.(string); ok {
				o.PaymentRequirement.Extra[k] = s
			}
		}
		return chosenOffer{PaymentRequirement: o.PaymentRequirement, raw: raw}, true
	}
	return chosenOffer{}, false
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// signingNetworks are the names of the network the service signs for, in
// both versions, as its facilitator's supported kinds list them.
func (c *Client) signingNetworks(ctx context.Context, opts []CallOption) ([]string, error) {
	var supported FacilitatorSupport
	if err := c.do(ctx, http.MethodGet, "/api/v1/x402/facilitator/supported", nil, &supported, opts); err != nil {
		return nil, fmt.Errorf("botpay: reading the network the service signs for: %w", err)
	}
	var out []string
	for _, k := range supported.Kinds {
		out = append(out, k.Network)
	}
	return out, nil
}

func (c *Client) fetch(ctx context.Context, url string, body []byte, headerName, payment string) (*PaidResponse, error) {
	method, rd := http.MethodGet, io.Reader(nil)
	if body != nil {
		method, rd = http.MethodPost, bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if payment != "" {
		req.Header.Set(headerName, payment)
	}
	if c.t.userAgent != "" {
		req.Header.Set("User-Agent", c.t.userAgent)
	}
	resp, err := c.t.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return nil, err
	}
	out := &PaidResponse{StatusCode: resp.StatusCode, Header: resp.Header, Body: data}
	for _, name := range []string{"PAYMENT-RESPONSE", "X-PAYMENT-RESPONSE"} {
		if s := settlementOf(resp.Header.Get(name)); s != nil {
			out.Settlement = s
			break
		}
	}
	return out, nil
}

func settlementOf(header string) *SettleResponse {
	raw, err := decodeBase64(strings.TrimSpace(header))
	if header == "" || err != nil {
		return nil
	}
	var s SettleResponse
	if json.Unmarshal(raw, &s) != nil {
		return nil
	}
	return &s
}

// decodeBase64 reads base64 padded or not, as sellers write it either way.
func decodeBase64(s string) ([]byte, error) {
	if b, err := base64.StdEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	return base64.RawStdEncoding.DecodeString(s)
}
