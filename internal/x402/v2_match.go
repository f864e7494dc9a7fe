package x402

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrNoMatchingOffer is a v2 payment whose accepted offer is none of the
// seller's; the wrapping error says how it differs.
var ErrNoMatchingOffer = errors.New("x402: the accepted offer matches none of the requirements")

// MatchAccepted finds the offer a v2 payment accepted: scheme, network,
// amount, asset, payTo and maxTimeoutSeconds equal (addresses without
// regard to case), and every member of the offer's extra present in the
// accepted one with the same value (the payer may add members). It returns
// the offer's index, or ErrNoMatchingOffer saying how accepted differs
// from the offer it comes closest to.
func MatchAccepted(accepted PaymentRequirements, offers []PaymentRequirements) (int, error) {
	why, closest := "there is no offer", -1
	for i, offer := range offers {
		difference, agreed := offerDifference(offer, accepted)
		if difference == "" {
			return i, nil
		}
		if agreed > closest {
			why, closest = difference, agreed
		}
	}
	return -1, fmt.Errorf("%w: %s", ErrNoMatchingOffer, why)
}

// offerDifference names the first member of accepted that differs from
// offer ("" when accepted is that offer) and how many members agreed
// before it.
func offerDifference(offer, accepted PaymentRequirements) (string, int) {
	for i, f := range []struct {
		name, want, got string
		anyCase         bool
	}{
		{"scheme", offer.Scheme, accepted.Scheme, false},
		{"network", offer.Network, accepted.Network, false},
		{"amount", offer.Amount, accepted.Amount, false},
		{"asset", offer.Asset, accepted.Asset, true},
		{"payTo", offer.PayTo, accepted.PayTo, true},
	} {
		if f.want != f.got && !(f.anyCase && strings.EqualFold(f.want, f.got)) {
			return fmt.Sprintf("accepted.%s is %q, the offer's is %q", f.name, clip(f.got), f.want), i
		}
	}
	if offer.MaxTimeoutSeconds != accepted.MaxTimeoutSeconds {
		return fmt.Sprintf("accepted.maxTimeoutSeconds is %d, the offer's is %d", accepted.MaxTimeoutSeconds, offer.MaxTimeoutSeconds), 5
	}
	for name, want := range offer.Extra {
		got, ok := accepted.Extra[name]
		if !ok {
			return fmt.Sprintf("accepted.extra.%s is missing", clip(name)), 6
		}
		if !sameJSON(want, got) {
			return fmt.Sprintf("accepted.extra.%s differs from the offer's", clip(name)), 6
		}
	}
	return "", 7
}

// sameJSON compares two decoded JSON values by their encoding (objects
// encode with sorted members, json.Number as written).
func sameJSON(a, b any) bool {
	ea, errA := json.Marshal(a)
	eb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ea) == string(eb)
}

// clip keeps a payer's text short inside an error message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// The extensions botpay declares.
const (
	ExtensionPaymentIdentifier = "payment-identifier"
	ExtensionBazaar            = "bazaar"
)

// Bounds of a payment identifier.
const (
	PaymentIDMinLen = 16
	PaymentIDMaxLen = 128
)

// ValidPaymentID reports an id of 16 to 128 characters of [A-Za-z0-9_-].
func ValidPaymentID(id string) bool {
	if len(id) < PaymentIDMinLen || len(id) > PaymentIDMaxLen {
		return false
	}
	for _, c := range []byte(id) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// DeclarePaymentIdentifier is the PaymentRequired extension declaring that
// a payer may (required false) or must send an idempotency id.
func DeclarePaymentIdentifier(required bool) map[string]any {
	return map[string]any{
		"info": map[string]any{"required": required},
		"schema": map[string]any{
			"$schema": "https://json-schema.org/draft/2020-12/schema",
			"type":    "object",
			"properties": map[string]any{
				"required": map[string]any{"type": "boolean"},
				"id": map[string]any{"type": "string", "minLength": PaymentIDMinLen, "maxLength": PaymentIDMaxLen,
					"pattern": "^[a-zA-Z0-9_-]+$"},
			},
			"required": []string{"required"},
		},
	}
}

// PaymentIDExtension is the payment-identifier member a payer adds to its
// PaymentPayload's extensions.
func PaymentIDExtension(id string) map[string]any {
	return map[string]any{"info": map[string]any{"required": false, "id": id}}
}

// paymentIDOf reads extensions["payment-identifier"].info.id: "" when the
// payer sent none, an error when it sent a malformed one.
func paymentIDOf(extensions map[string]any) (string, error) {
	ext, ok := extensions[ExtensionPaymentIdentifier]
	if !ok || ext == nil {
		return "", nil
	}
	obj, _ := ext.(map[string]any)
	info, _ := obj["info"].(map[string]any)
	if obj == nil || (obj["info"] != nil && info == nil) {
		return "", headerErr("extensions.%s must be an object with an info object", ExtensionPaymentIdentifier)
	}
	raw, present := info["id"]
	if !present || raw == nil {
		return "", nil
	}
	id, _ := raw.(string)
	if !ValidPaymentID(id) {
		return "", headerErr("extensions.%s.info.id must be %d to %d characters of A-Z, a-z, 0-9, _ and -",
			ExtensionPaymentIdentifier, PaymentIDMinLen, PaymentIDMaxLen)
	}
	return id, nil
}
