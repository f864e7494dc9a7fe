package x402

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// MaxVendorAskLen bounds the vendor's 402 a buyer hands over: a v1 body is
// a few hundred bytes per offer, a PAYMENT-REQUIRED header at most
// MaxHeaderLen.
const MaxVendorAskLen = 64 << 10

// ErrVendorAsk wraps every problem with a vendor's 402 handed over by a
// buyer: unreadable, or offering nothing the service can pay.
var ErrVendorAsk = errors.New("x402: the vendor's 402")

// VendorAsk is a vendor's 402 as a buyer hands it to the sign endpoint:
// the PAYMENT-REQUIRED header value (version 2) or the x402 v1 JSON body
// (version 1). Offers, resource and extensions are kept as the vendor
// wrote them, so what is echoed back is what the vendor compares.
type VendorAsk struct {
	Version    int
	offers     []json.RawMessage
	resource   json.RawMessage // version 2 only; nil when absent
	extensions json.RawMessage // version 2 only; nil when absent
}

// ReadVendorAsk reads payment_required: a JSON string is a PAYMENT-REQUIRED
// header value, a JSON object an x402 v1 402 body. The vendor is foreign,
// so nothing beyond what paying needs is judged here.
func ReadVendorAsk(raw json.RawMessage) (VendorAsk, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) > MaxVendorAskLen:
		return VendorAsk{}, askErr("is longer than %d bytes", MaxVendorAskLen)
	case len(raw) > 0 && raw[0] == '"':
		var header string
		if err := json.Unmarshal(raw, &header); err != nil {
			return VendorAsk{}, askErr("is not a valid JSON string")
		}
		return readV2Ask(header)
	case len(raw) > 0 && raw[0] == '{':
		return readV1Ask(raw)
	}
	return VendorAsk{}, askErr("must be the PAYMENT-REQUIRED header value (a string) or the x402 v1 402 body (an object)")
}

func askErr(format string, args ...any) error {
	return fmt.Errorf("%w %s", ErrVendorAsk, fmt.Sprintf(format, args...))
}

func readV2Ask(header string) (VendorAsk, error) {
	if _, err := decodePaymentRequired(header); err != nil {
		return VendorAsk{}, askErr("is not a readable PAYMENT-REQUIRED header: %s", strings.TrimPrefix(err.Error(), ErrHeader.Error()+": "))
	}
	_, doc, _ := headerObject(header) // decodePaymentRequired read it already
	ask := VendorAsk{Version: Version2, resource: presentJSON(doc["resource"]), extensions: presentJSON(doc["extensions"])}
	if err := json.Unmarshal(doc["accepts"], &ask.offers); err != nil {
		return VendorAsk{}, askErr("accepts must be a list of offers")
	}
	return ask, nil
}

func readV1Ask(body json.RawMessage) (VendorAsk, error) {
	if path, found := DuplicateMember(body); found {
		return VendorAsk{}, askErr("names %s more than once", path)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(body, &doc); err != nil {
		return VendorAsk{}, askErr("is not a JSON object")
	}
	if v, err := number(doc, "x402Version"); err != nil || v != Version {
		return VendorAsk{}, askErr("as an object must be the x402 v1 body: x402Version must be 1 (a v2 402 is its PAYMENT-REQUIRED header, as a string)")
	}
	ask := VendorAsk{Version: Version}
	if err := json.Unmarshal(doc["accepts"], &ask.offers); err != nil || ask.offers == nil {
		return VendorAsk{}, askErr("accepts must be a list of offers")
	}
	return ask, nil
}

// presentJSON is nil for an absent or null member.
func presentJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	return raw
}

// offerTerms are the members of an offer, in either version, that say
// what paying it takes.
type offerTerms struct {
	Scheme            string `json:"scheme"`
	Network           string `json:"network"`
	Amount            string `json:"amount"`            // version 2
	MaxAmountRequired string `json:"maxAmountRequired"` // version 1
	Asset             string `json:"asset"`
	PayTo             string `json:"payTo"`
}

// ChosenOffer is the offer a buyer pays, as the vendor wrote it.
type ChosenOffer struct {
	Version int
	Raw     json.RawMessage
	Network string // as the vendor wrote it
	Amount  string // in the token's smallest units, as written
	PayTo   string
	ask     VendorAsk
}

// Choose picks the first exact offer on the chain and token of d: the
// only kind the service can sign. The network may be a CAIP-2 id in
// version 2, a v1 name (or CAIP-2 id) in version 1; the asset is compared
// without regard to case.
func (a VendorAsk) Choose(d Domain) (ChosenOffer, error) {
	var offered []string
	for _, raw := range a.offers {
		var t offerTerms
		if json.Unmarshal(raw, &t) != nil {
			offered = append(offered, "an unreadable offer")
			continue
		}
		offered = append(offered, clip(t.Scheme+" "+t.Network+" "+t.Asset))
		if t.Scheme != Scheme || !strings.EqualFold(t.Asset, d.Contract.Hex()) || !a.onChain(t.Network, d.ChainID) {
			continue
		}
		amount := t.Amount
		if a.Version == Version {
			amount = t.MaxAmountRequired
		}
		return ChosenOffer{Version: a.Version, Raw: raw, Network: t.Network, Amount: amount, PayTo: t.PayTo, ask: a}, nil
	}
	if len(offered) == 0 {
		offered = append(offered, "nothing")
	}
	network := d.CAIP2()
	if a.Version == Version {
		network = d.Network()
	}
	return ChosenOffer{}, askErr("offers no exact payment on %s in token %s (the service's network and token); it offers: %s",
		network, d.Contract.Hex(), strings.Join(offered, "; "))
}

func (a VendorAsk) onChain(network string, chainID uint64) bool {
	id, ok := ChainOfCAIP2(network)
	if a.Version == Version {
		id, ok = ChainOfNetwork(network)
	}
	return ok && id == chainID
}

// OfferMismatch is a signing request that does not pay the chosen offer:
// Field is the request's field that differs (amount_usdc or
// recipient_address), Detail how.
type OfferMismatch struct {
	Field  string
	Detail string
}

func (e *OfferMismatch) Error() string { return "x402: " + e.Field + " " + e.Detail }

// Check refuses a payment of amount to recipient that is not exactly what
// the offer asks: the vendor would refuse it after the money was promised.
func (c ChosenOffer) Check(amount uint64, recipient Address) error {
	if c.Amount != u(amount) {
		return &OfferMismatch{Field: "amount_usdc", Detail: fmt.Sprintf("is %d but the vendor's offer asks %q", amount, clip(c.Amount))}
	}
	if !strings.EqualFold(c.PayTo, recipient.Hex()) {
		return &OfferMismatch{Field: "recipient_address", Detail: fmt.Sprintf("is %s but the vendor's offer pays to %q", recipient.Hex(), clip(c.PayTo))}
	}
	return nil
}

// v2Payload is a PaymentPayload whose offer, resource and extensions are
// the vendor's own JSON.
type v2Payload struct {
	X402Version int             `json:"x402Version"`
	Resource    json.RawMessage `json:"resource,omitempty"`
	Accepted    json.RawMessage `json:"accepted"`
	Payload     ExactPayload    `json:"payload"`
	Extensions  json.RawMessage `json:"extensions,omitempty"`
}

// v1Payload is the x402 v1 PaymentPayload a stock v1 seller reads from
// X-PAYMENT.
type v1Payload struct {
	X402Version int          `json:"x402Version"`
	Scheme      string       `json:"scheme"`
	Network     string       `json:"network"`
	Payload     ExactPayload `json:"payload"`
}

// Header is the header paying the offer with p: for version 2 the
// PAYMENT-SIGNATURE value, whose accepted member is the offer exactly as
// the vendor wrote it, with the 402's resource and extensions echoed; for
// version 1 the standard X-PAYMENT value of a stock v1 seller.
func (c ChosenOffer) Header(p Payment) string {
	exact := exactPayloadOf(p)
	var doc any = v1Payload{X402Version: Version, Scheme: Scheme, Network: c.Network, Payload: exact}
	if c.Version == Version2 {
		doc = v2Payload{X402Version: Version2, Resource: c.ask.resource, Accepted: c.Raw, Payload: exact, Extensions: c.ask.extensions}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the vendor's text stays byte for byte what it wrote, bar whitespace
	if err := enc.Encode(doc); err != nil {
		panic("x402: encoding a payload of valid JSON failed: " + err.Error())
	}
	return base64.StdEncoding.EncodeToString(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}
