package x402

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// PaymentSignature is a decoded PAYMENT-SIGNATURE header: the payload as it
// came, and the Payment it carries, which every check of version 1 then
// judges unchanged.
type PaymentSignature struct {
	PaymentPayloadV2
	Payment Payment
	// PaymentID is the payment-identifier extension's id; "" when the payer
	// sent none.
	PaymentID string
}

// DecodePaymentSignature reads a PAYMENT-SIGNATURE header: base64 of a v2
// PaymentPayload for the exact EVM scheme. The Payment's chain and token
// are those of the accepted offer, so Verify refuses a signature for
// another chain or token exactly as it does in version 1.
func DecodePaymentSignature(header string) (PaymentSignature, error) {
	out, err := decodePaymentSignature(header)
	return out, unreadable(HeaderPaymentSignature, err)
}

func decodePaymentSignature(header string) (PaymentSignature, error) {
	var out PaymentSignature
	_, doc, err := headerObject(header)
	if err != nil {
		return out, err
	}
	if v, err := number(doc, "x402Version"); err != nil || v != Version2 {
		return out, headerErr("x402Version must be 2")
	}
	if err := decodeStrict(doc["accepted"], &out.Accepted); err != nil || doc["accepted"] == nil {
		return out, headerErr("accepted must be an offer object")
	}
	if raw, ok := doc["resource"]; ok && string(raw) != "null" {
		if err := decodeStrict(raw, &out.Resource); err != nil {
			return out, headerErr("resource must be an object with a url")
		}
	}
	if raw, ok := doc["extensions"]; ok && string(raw) != "null" {
		if err := decodeStrict(raw, &out.Extensions); err != nil {
			return out, headerErr("extensions must be an object")
		}
	}
	out.X402Version = Version2
	if out.Payment, err = paymentOfV2(doc["payload"], out.Accepted); err != nil {
		return out, err
	}
	out.Payload = exactPayloadOf(out.Payment)
	out.PaymentID, err = paymentIDOf(out.Extensions)
	return out, err
}

func paymentOfV2(rawPayload json.RawMessage, accepted PaymentRequirements) (Payment, error) {
	var p Payment
	if accepted.Scheme != Scheme {
		return p, headerErr("accepted.scheme must be exact")
	}
	id, ok := ChainOfCAIP2(accepted.Network)
	if !ok {
		return p, headerErr("accepted.network must be a CAIP-2 id such as eip155:8453")
	}
	token, err := ParseAddress(accepted.Asset)
	if err != nil {
		return p, headerErr("accepted.asset is not an address")
	}
	p.ChainID, p.Token = id, token
	var payload map[string]json.RawMessage
	if err := json.Unmarshal(rawPayload, &payload); err != nil || payload == nil {
		return p, headerErr("payload must be an object")
	}
	var auth map[string]json.RawMessage
	if err := json.Unmarshal(payload["authorization"], &auth); err != nil || auth == nil {
		return p, headerErr("payload.authorization must be an object")
	}
	// Version 2 writes every number of the authorization as a decimal string.
	for _, field := range []string{"value", "validAfter", "validBefore"} {
		if raw := bytes.TrimSpace(auth[field]); len(raw) == 0 || raw[0] != '"' {
			return p, headerErr("payload.authorization.%s must be a decimal string", field)
		}
	}
	if err := readAuthorization(auth, &p.Authorization, "payload.authorization."); err != nil {
		return p, err
	}
	return p, readSignature(payload, &p.Signature, "payload.signature")
}

func exactPayloadOf(p Payment) ExactPayload {
	return NewPaymentPayloadV2(p, PaymentRequirements{}, nil, nil).Payload
}

// DecodePaymentRequired reads a PAYMENT-REQUIRED header: base64 of a v2
// PaymentRequired. Numbers inside extra and extensions stay json.Number so
// an offer re-encodes as the seller wrote it.
func DecodePaymentRequired(header string) (PaymentRequiredV2, error) {
	out, err := decodePaymentRequired(header)
	return out, unreadable(HeaderPaymentRequired, err)
}

func decodePaymentRequired(header string) (PaymentRequiredV2, error) {
	var out PaymentRequiredV2
	raw, doc, err := headerObject(header)
	if err != nil {
		return out, err
	}
	if v, err := number(doc, "x402Version"); err != nil || v != Version2 {
		return out, headerErr("x402Version must be 2")
	}
	if err := decodeStrict(raw, &out); err != nil {
		return PaymentRequiredV2{}, headerErr("not a v2 PaymentRequired: %s", jsonProblem(err))
	}
	if out.Accepts == nil {
		return PaymentRequiredV2{}, headerErr("accepts must be a list of offers")
	}
	return out, nil
}

// DecodeSettleResponse reads a PAYMENT-RESPONSE or X-PAYMENT-RESPONSE
// header.
func DecodeSettleResponse(header string) (SettleResponse, error) {
	out, err := decodeSettleResponse(header)
	return out, unreadable(HeaderPaymentResponse, err)
}

func decodeSettleResponse(header string) (SettleResponse, error) {
	var out SettleResponse
	raw, _, err := headerObject(header)
	if err != nil {
		return out, err
	}
	if err := decodeStrict(raw, &out); err != nil {
		return SettleResponse{}, headerErr("not a settlement response: %s", jsonProblem(err))
	}
	return out, nil
}

// UnreadableError is a v2 header that could not be read; errors.Is(err,
// ErrHeader) holds for it as for every decoding failure.
type UnreadableError struct {
	Header string // PAYMENT-SIGNATURE, PAYMENT-REQUIRED or PAYMENT-RESPONSE
	Detail string // what is wrong, for the payer
}

func (e *UnreadableError) Error() string {
	return "x402: could not read the " + e.Header + " header: " + e.Detail
}

// Is makes every unreadable header an ErrHeader.
func (e *UnreadableError) Is(target error) bool { return target == ErrHeader }

func unreadable(header string, err error) error {
	if err == nil {
		return nil
	}
	return &UnreadableError{Header: header, Detail: strings.TrimPrefix(err.Error(), ErrHeader.Error()+": ")}
}

// headerObject is the JSON object inside a base64 header, refused when it
// names a member twice at any depth: decoders disagree on which one wins,
// and a payer must not show one amount to one reader and another to the
// next.
func headerObject(header string) ([]byte, map[string]json.RawMessage, error) {
	header = strings.TrimSpace(header)
	if header == "" || len(header) > MaxHeaderLen {
		return nil, nil, headerErr("empty or longer than %d bytes", MaxHeaderLen)
	}
	raw, err := decodeBase64(header)
	if err != nil {
		return nil, nil, headerErr("not base64")
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil || doc == nil {
		return nil, nil, headerErr("not a JSON object")
	}
	if path, found := DuplicateMember(raw); found {
		return nil, nil, headerErr("%s is given more than once", path)
	}
	return raw, doc, nil
}

// decodeStrict decodes one JSON value keeping numbers as json.Number and
// refusing trailing data.
func decodeStrict(raw json.RawMessage, dst any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(dst); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("trailing data")
	}
	return nil
}

func jsonProblem(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return typeErr.Field + " has the wrong type"
	}
	return "malformed JSON"
}

// DuplicateMember reports the first member named twice in one object of a
// JSON document, as a dotted path ("accepted.amount"); false for a document
// without duplicates or one that is not valid JSON (its decoder refuses it).
func DuplicateMember(data []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	path, found, _ := duplicateIn(dec, "")
	return path, found
}

// duplicateIn walks the value whose first token comes next.
func duplicateIn(dec *json.Decoder, at string) (string, bool, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", false, err
	}
	switch tok {
	case json.Delim('{'):
		return duplicateInObject(dec, at)
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if path, found, err := duplicateIn(dec, at+"["+u(uint64(i))+"]"); found || err != nil {
				return path, found, err
			}
		}
		_, err := dec.Token()
		return "", false, err
	}
	return "", false, nil
}

func duplicateInObject(dec *json.Decoder, at string) (string, bool, error) {
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return "", false, err
		}
		name, _ := tok.(string)
		path := name
		if at != "" {
			path = at + "." + name
		}
		if seen[name] {
			return path, true, nil
		}
		seen[name] = true
		if path, found, err := duplicateIn(dec, path); found || err != nil {
			return path, found, err
		}
	}
	_, err := dec.Token()
	return "", false, err
}
