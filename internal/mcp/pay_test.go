package mcp

import (
	"encoding/json"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/x402"
)

func offer(scheme, network, asset, amount, payTo string) x402.Requirement {
	return x402.Requirement{Scheme: scheme, Network: network, Asset: asset, MaxAmountRequired: amount, PayTo: payTo}
}

const (
	payTo       = "0x1111111111111111111111111111111111111111"
	sepoliaUSDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e"
)

func TestChooseTakesTheCheapestRequirementTheServiceCanSign(t *testing.T) {
	t.Parallel()
	usdc := DefaultPayment().Asset
	tests := []struct {
		name    string
		accepts []x402.Requirement
		max     int64
		want    string // amount chosen, or the refusal code
	}{
		{"exact USDC on base", []x402.Requirement{offer("exact", "base", usdc, "5000", payTo)}, 0, "5000"},
		{"asset compared case-insensitively", []x402.Requirement{offer("exact", "base", "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913", "7", payTo)}, 0, "7"},
		{"cheapest of several", []x402.Requirement{offer("exact", "base", usdc, "9000", payTo), offer("exact", "base", usdc, "3000", payTo)}, 0, "3000"},
		{"other network skipped", []x402.Requirement{offer("exact", "base-sepolia", sepoliaUSDC, "1", payTo), offer("exact", "base", usdc, "8", payTo)}, 0, "8"},
		{"other scheme", []x402.Requirement{offer("upto", "base", usdc, "5", payTo)}, 0, CodeNoPayableRequirement},
		{"other token", []x402.Requirement{offer("exact", "base", sepoliaUSDC, "5", payTo)}, 0, CodeNoPayableRequirement},
		{"amount not a positive integer", []x402.Requirement{offer("exact", "base", usdc, "1.5", payTo), offer("exact", "base", usdc, "0", payTo)}, 0, CodeNoPayableRequirement},
		{"recipient not an address", []x402.Requirement{offer("exact", "base", usdc, "5", "acme")}, 0, CodeNoPayableRequirement},
		{"nothing offered", nil, 0, CodeNoPayableRequirement},
		{"within the cap", []x402.Requirement{offer("exact", "base", usdc, "5000", payTo)}, 5000, "5000"},
		{"above the cap", []x402.Requirement{offer("exact", "base", usdc, "5001", payTo)}, 5000, CodeOverMaxAmount},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body, _ := json.Marshal(x402.PaymentRequired{X402Version: 1, Accepts: tc.accepts})
			p := &payer{deps: &Deps{Payment: DefaultPayment()}, in: payInput{MaxAmountUSDC: tc.max}}
			need, refusal := p.choose(fetched{status: 402, body: body})
			got := ""
			if refusal != nil {
				got = errorCode(t, refusal.Content)
			} else {
				got = need.MaxAmountRequired
			}
			if got != tc.want {
				t.Errorf("chose %q, want %q", got, tc.want)
			}
		})
	}
}

func TestBodiesAreTextOnlyWhenTextual(t *testing.T) {
	t.Parallel()
	tests := []struct {
		contentType string
		body        []byte
		want        string
	}{
		{"application/json; charset=utf-8", []byte(`{"a":1}`), "text"},
		{"text/csv", []byte("a,b\n1,2\n"), "text"},
		{"application/problem+json", []byte(`{}`), "text"},
		{"image/png", []byte("\x89PNG\r\n"), "base64"},
		{"text/plain", []byte{0xff, 0xfe, 0x00}, "base64"},
		{"application/octet-stream", []byte("abc"), "base64"},
	}
	for _, tc := range tests {
		f := fetched{status: 200, header: map[string][]string{"Content-Type": {tc.contentType}}, body: tc.body}
		if got := f.describe("https://x.example").BodyEncoding; got != tc.want {
			t.Errorf("%s: encoding %s, want %s", tc.contentType, got, tc.want)
		}
	}
}

func TestWithoutKeysKeepsNumbersAsWritten(t *testing.T) {
	t.Parallel()
	got, err := withoutKeys(json.RawMessage(`{"amount_usd": 12.345, "idempotency_key": "k", "reason": "x"}`), "idempotency_key")
	if err != nil || string(got) != `{"amount_usd":12.345,"reason":"x"}` {
		t.Fatalf("withoutKeys = %s, %v", got, err)
	}
	if got, _ := withoutKeys(nil); string(got) != "{}" {
		t.Fatalf("no arguments = %s, want {}", got)
	}
}

// TestWithoutKeysRefusesDuplicateMembers: the map would keep the last of
// two equal keys, so {"amount_usd":1,"amount_usd":500000} reached the
// endpoint as $500,000 without the endpoint seeing the duplicate.
func TestWithoutKeysRefusesDuplicateMembers(t *testing.T) {
	t.Parallel()
	got, err := withoutKeys(json.RawMessage(`{"amount_usd":1,"amount_usd":500000}`), "idempotency_key")
	e := botpay.AsError(err)
	if e == nil || e.Code != botpay.CodeValidation || e.Details["amount_usd"] == "" {
		t.Fatalf("withoutKeys = %s, %v; want validation_error naming amount_usd", got, err)
	}
}

// Output schemas accept fields they do not list: the service may add
// fields to an answer without breaking clients that validate.
func TestOutputSchemasAreOpen(t *testing.T) {
	t.Parallel()
	for _, def := range definitions() {
		raw, _ := json.Marshal(def.tool.OutputSchema)
		var s map[string]any
		json.Unmarshal(raw, &s)
		if closedAnywhere(s) {
			t.Errorf("%s: output schema forbids additional properties: %s", def.tool.Name, raw)
		}
		in, _ := json.Marshal(def.tool.InputSchema)
		var is map[string]any
		json.Unmarshal(in, &is)
		if is["additionalProperties"] == nil {
			t.Errorf("%s: input schema accepts unknown arguments", def.tool.Name)
		}
	}
}

func closedAnywhere(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		if ap, ok := x["additionalProperties"].(map[string]any); ok && ap["not"] != nil {
			return true
		}
		for _, child := range x {
			if closedAnywhere(child) {
				return true
			}
		}
	case []any:
		for _, child := range x {
			if closedAnywhere(child) {
				return true
			}
		}
	}
	return false
}
