package x402

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Payment is a decoded X-PAYMENT header: a signed authorization.
type Payment struct {
	Authorization Authorization
	Signature     Signature
	ChainID       uint64  // 0 when the header did not say
	Token         Address // zero when the header did not say
}

// Version is the x402 protocol version spoken here.
const Version = 1

// Scheme is the only x402 scheme served: an exact-amount EIP-3009 transfer.
const Scheme = "exact"

// MaxHeaderLen bounds what the decoder reads (a real header is ~600 bytes).
const MaxHeaderLen = 8 << 10

type nestedAuthorization struct {
	From        string `json:"from"`
	To          string `json:"to"`
	Value       string `json:"value"`
	ValidAfter  string `json:"validAfter"`
	ValidBefore string `json:"validBefore"`
	Nonce       string `json:"nonce"`
}

type nestedPayload struct {
	Signature     string              `json:"signature"`
	Authorization nestedAuthorization `json:"authorization"`
}

// wireHeader carries both shapes in one object (docs/decisions.md): the
// nested x402 v1 payload a stock x402 server reads, and the flat fields of
// the API reference (docs/api.md).
type wireHeader struct {
	X402Version int            `json:"x402Version"`
	Scheme      string         `json:"scheme"`
	Network     string         `json:"network"`
	Payload     *nestedPayload `json:"payload"`
	Signature   string         `json:"signature"`
	From        string         `json:"from"`
	To          string         `json:"to"`
	Value       string         `json:"value"`
	ValidAfter  uint64         `json:"validAfter"`
	ValidBefore uint64         `json:"validBefore"`
	Nonce       string         `json:"nonce"`
	ChainID     uint64         `json:"chainId"`
	Token       string         `json:"token"`
}

// Encode builds the X-PAYMENT value for p signed in domain d: base64 of a
// JSON object holding the nested x402 v1 payload and the flat fields.
func Encode(p Payment, d Domain) string {
	b, _ := json.Marshal(Document(p, d))
	return base64.StdEncoding.EncodeToString(b)
}

// Document is the JSON object inside the header.
func Document(p Payment, d Domain) any {
	a := p.Authorization
	return wireHeader{
		X402Version: Version, Scheme: Scheme, Network: d.Network(),
		Payload: &nestedPayload{Signature: p.Signature.Hex(), Authorization: nestedAuthorization{
			From: a.From.Hex(), To: a.To.Hex(), Value: u(a.Value), ValidAfter: u(a.ValidAfter),
			ValidBefore: u(a.ValidBefore), Nonce: a.Nonce.Hex()}},
		Signature: p.Signature.Hex(), From: a.From.Hex(), To: a.To.Hex(), Value: u(a.Value),
		ValidAfter: a.ValidAfter, ValidBefore: a.ValidBefore, Nonce: a.Nonce.Hex(),
		ChainID: d.ChainID, Token: d.Contract.Hex(),
	}
}

func u(v uint64) string { return strconv.FormatUint(v, 10) }

// ErrHeader wraps every decoding failure.
var ErrHeader = errors.New("x402: malformed X-PAYMENT header")

func headerErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrHeader, fmt.Sprintf(format, args...))
}

// Decode reads an X-PAYMENT header in any of the accepted shapes: nested
// x402 v1, the flat object of the API reference, or both in one object, in which case both must say
// the same thing. It never judges the signature; verification does.
func Decode(header string) (Payment, error) {
	header = strings.TrimSpace(header)
	if header == "" || len(header) > MaxHeaderLen {
		return Payment{}, headerErr("empty or longer than %d bytes", MaxHeaderLen)
	}
	raw, err := decodeBase64(header)
	if err != nil {
		return Payment{}, headerErr("not base64")
	}
	var doc map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil || doc == nil {
		return Payment{}, headerErr("not a JSON object")
	}
	var nested, flat *Payment
	if _, ok := doc["payload"]; ok {
		p, err := decodeNested(doc)
		if err != nil {
			return Payment{}, err
		}
		nested = &p
	}
	if _, ok := doc["from"]; ok {
		p, err := decodeFlat(doc)
		if err != nil {
			return Payment{}, err
		}
		flat = &p
	}
	switch {
	case nested != nil && flat != nil:
		if nested.Authorization != flat.Authorization || nested.Signature != flat.Signature {
			return Payment{}, headerErr("the nested payload and the flat fields disagree")
		}
		return *flat, nil
	case nested != nil:
		return *nested, nil
	case flat != nil:
		return *flat, nil
	}
	return Payment{}, headerErr("neither an x402 payload nor the flat fields")
}

func decodeBase64(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, errors.New("not base64")
}

func decodeNested(doc map[string]json.RawMessage) (Payment, error) {
	var p Payment
	version, err := number(doc, "x402Version")
	if err != nil || version != Version {
		return p, headerErr("x402Version must be 1")
	}
	var scheme, network string
	if err := text(doc, "scheme", &scheme); err != nil || scheme != Scheme {
		return p, headerErr("scheme must be exact")
	}
	if err := text(doc, "network", &network); err != nil {
		return p, headerErr("network must be an x402 network name such as base")
	}
	id, ok := ChainOfNetwork(network)
	if !ok {
		return p, headerErr("network %q is not an EVM network x402 knows", network)
	}
	p.ChainID = id
	var payload map[string]json.RawMessage
	if err := json.Unmarshal(doc["payload"], &payload); err != nil || payload == nil {
		return p, headerErr("payload must be an object")
	}
	var auth map[string]json.RawMessage
	if err := json.Unmarshal(payload["authorization"], &auth); err != nil || auth == nil {
		return p, headerErr("payload.authorization must be an object")
	}
	if err := readAuthorization(auth, &p.Authorization, "payload.authorization."); err != nil {
		return p, err
	}
	return p, readSignature(payload, &p.Signature, "payload.signature")
}

func decodeFlat(doc map[string]json.RawMessage) (Payment, error) {
	var p Payment
	if err := readAuthorization(doc, &p.Authorization, ""); err != nil {
		return p, err
	}
	if err := readSignature(doc, &p.Signature, "signature"); err != nil {
		return p, err
	}
	if _, ok := doc["chainId"]; ok {
		id, err := number(doc, "chainId")
		if err != nil {
			return p, headerErr("chainId must be an integer")
		}
		p.ChainID = id
	}
	if _, ok := doc["token"]; ok {
		var s string
		if err := text(doc, "token", &s); err != nil {
			return p, headerErr("token must be a string")
		}
		t, err := ParseAddress(s)
		if err != nil {
			return p, headerErr("token is not an address")
		}
		p.Token = t
	}
	return p, nil
}

func readAuthorization(m map[string]json.RawMessage, a *Authorization, prefix string) error {
	var from, to, nonce string
	for field, dst := range map[string]*string{"from": &from, "to": &to, "nonce": &nonce} {
		if err := text(m, field, dst); err != nil {
			return headerErr("%s%s must be a string", prefix, field)
		}
	}
	var err error
	if a.From, err = ParseAddress(from); err != nil {
		return headerErr("%sfrom is not an address", prefix)
	}
	if a.To, err = ParseAddress(to); err != nil {
		return headerErr("%sto is not an address", prefix)
	}
	if a.Nonce, err = ParseNonce(nonce); err != nil {
		return headerErr("%snonce must be 0x and 64 hex digits", prefix)
	}
	for field, dst := range map[string]*uint64{"value": &a.Value, "validAfter": &a.ValidAfter, "validBefore": &a.ValidBefore} {
		if *dst, err = number(m, field); err != nil {
			return headerErr("%s%s must be a non-negative integer below 2^64", prefix, field)
		}
	}
	return nil
}

func readSignature(m map[string]json.RawMessage, s *Signature, field string) error {
	var str string
	if err := text(m, lastSegment(field), &str); err != nil {
		return headerErr("%s must be a string", field)
	}
	sig, err := ParseSignature(str)
	if err != nil {
		return headerErr("%s must be 0x and 130 hex digits", field)
	}
	*s = sig
	return nil
}

func lastSegment(field string) string {
	if i := strings.LastIndexByte(field, '.'); i >= 0 {
		return field[i+1:]
	}
	return field
}

func text(m map[string]json.RawMessage, field string, dst *string) error {
	raw, ok := m[field]
	if !ok {
		return errors.New("missing")
	}
	return json.Unmarshal(raw, dst)
}

// number reads an unsigned integer written as a JSON number or a decimal
// string (x402 v1 writes strings, the flat shape numbers).
func number(m map[string]json.RawMessage, field string) (uint64, error) {
	raw, ok := m[field]
	if !ok {
		return 0, errors.New("missing")
	}
	s := string(bytes.TrimSpace(raw))
	if len(s) >= 2 && s[0] == '"' {
		if err := json.Unmarshal(raw, &s); err != nil {
			return 0, err
		}
	}
	if s == "" || len(s) > 20 || strings.TrimLeft(s, "0123456789") != "" {
		return 0, errors.New("not an unsigned integer")
	}
	return strconv.ParseUint(s, 10, 64)
}
