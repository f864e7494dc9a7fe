package e2e

import (
	"encoding/base64"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/x402"
)

const vendor = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C"

func signBody(amount int64) map[string]any {
	return map[string]any{"resource_url": "https://api.vendor.example/report?q=1", "amount_usdc": amount, "recipient_address": vendor}
}

// checkSigned decodes a 200 answer of the sign endpoint and checks the
// signature recovers to the bot's wallet for the requested terms.
func checkSigned(t *testing.T, a answer, wallet string, amount uint64) x402.Payment {
	t.Helper()
	if a.Status != 200 {
		t.Fatalf("sign = %d %s", a.Status, a.Body)
	}
	body := a.json(t)
	p, err := x402.Decode(body["x_payment_header"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if p.Signature.Hex() != body["signature"] {
		t.Fatalf("signature field %v differs from the header's %s", body["signature"], p.Signature.Hex())
	}
	from, err := x402.Recover(x402.BaseUSDC.Digest(p.Authorization), p.Signature)
	if err != nil || from.Hex() != wallet || p.Authorization.From.Hex() != wallet {
		t.Fatalf("recovered %s (%v), want %s", from, err, wallet)
	}
	if p.Authorization.Value != amount || p.Authorization.To.Hex() != vendor || p.ChainID != 8453 || p.Token != x402.BaseUSDC.Contract {
		t.Fatalf("authorization %+v", p)
	}
	raw, _ := base64.StdEncoding.DecodeString(body["x_payment_header"].(string))
	var doc map[string]any
	json.Unmarshal(raw, &doc)
	for _, f := range []string{"signature", "from", "to", "value", "validAfter", "validBefore", "nonce", "chainId", "token", "x402Version", "scheme", "network", "payload"} {
		if _, ok := doc[f]; !ok {
			t.Fatalf("header lacks %s: %s", f, raw)
		}
	}
	if _, ok := doc["value"].(string); !ok {
		t.Fatalf("value must be a string: %s", raw)
	}
	return p
}

func TestSignEndpointSignsWithinDefaultValidity(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		b := r.walletBot("signer", 10)
		before := time.Now().Unix()
		p := checkSigned(t, r.sign(b, signBody(1_500_000)), b.Address, 1_500_000)
		if vb := int64(p.Authorization.ValidBefore); vb < before+299 || vb > time.Now().Unix()+301 || p.Authorization.ValidAfter != 0 {
			t.Fatalf("window %d..%d", p.Authorization.ValidAfter, vb)
		}
		explicit := signBody(1)
		explicit["valid_before"] = time.Now().Unix() + 600
		if q := checkSigned(t, r.sign(b, explicit), b.Address, 1); int64(q.Authorization.ValidBefore) != explicit["valid_before"].(int64) {
			t.Fatalf("valid_before = %d", q.Authorization.ValidBefore)
		}
		// The reservation shows: 10 USDC - 1.5 - 0.000001 remain available.
		pw := r.must(200, "GET", "/api/v1/bot/status", b.APIKey, nil)["rails"].(map[string]any)["processor_wallet"].(map[string]any)
		if pw["balance_usd"] != 8.499999 {
			t.Fatalf("available after two signatures = %v", pw["balance_usd"])
		}
	})
}

func TestSignEndpointErrors(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		b := r.walletBot("errors", 1)
		bare := r.claimedBot("bare")
		// Every error body carries its request_id; the rest must be exact.
		requestID := regexp.MustCompile(`,"request_id":"req_[0-9a-f]+"`)
		exact := func(name string, a answer, status int, body string) {
			t.Helper()
			if a.Status != status || requestID.ReplaceAllString(strings.TrimSpace(string(a.Body)), "") != body {
				t.Errorf("%s: %d %s, want %d %s", name, a.Status, a.Body, status, body)
			}
		}
		unauth := `{"error":"Invalid or missing API key"}`
		exact("no key", r.do("POST", "/api/v1/processor-wallet/bot/sign", "", signBody(1)), 401, unauth)
		exact("malformed key", r.do("POST", "/api/v1/processor-wallet/bot/sign", "nope", signBody(1)), 401, unauth)
		exact("unknown key", r.do("POST", "/api/v1/processor-wallet/bot/sign", "bp_live_"+strings.Repeat("ab", 24), signBody(1)), 401, unauth)
		// The key is checked before the body: an unauthenticated caller learns
		// nothing from validation.
		exact("unknown key, not json", r.do("POST", "/api/v1/processor-wallet/bot/sign", "bp_live_"+strings.Repeat("ab", 24), "{"), 401, unauth)
		exact("unknown key, zero amount", r.do("POST", "/api/v1/processor-wallet/bot/sign", "bp_live_"+strings.Repeat("ab", 24),
			map[string]any{"resource_url": "https://a.example/x", "amount_usdc": 0, "recipient_address": vendor}), 401, unauth)
		exact("no key, empty object", r.do("POST", "/api/v1/processor-wallet/bot/sign", "", map[string]any{}), 401, unauth)

		invalid := map[string]struct {
			body any
			want string
		}{
			"not json":         {"{", `{"error":"Invalid request","details":{"body":"request body is not valid JSON: unexpected end of JSON input"}}`},
			"array":            {"[]", `{"error":"Invalid request","details":{"body":"request body must be a JSON object"}}`},
			"empty object":     {map[string]any{}, `{"error":"Invalid request","details":{"amount_usdc":"is required","recipient_address":"is required","resource_url":"is required"}}`},
			"fractional":       {map[string]any{"resource_url": "https://a.example/x", "amount_usdc": 1.5, "recipient_address": vendor}, `{"error":"Invalid request","details":{"amount_usdc":"must be a whole number of micro-units"}}`},
			"zero":             {map[string]any{"resource_url": "https://a.example/x", "amount_usdc": 0, "recipient_address": vendor}, `{"error":"Invalid request","details":{"amount_usdc":"must be a whole number of micro-units between 1 and 1000000 USDC"}}`},
			"amount as string": {map[string]any{"resource_url": "https://a.example/x", "amount_usdc": "5", "recipient_address": vendor}, `{"error":"Invalid request","details":{"amount_usdc":"must be a number"}}`},
			"no 0x":            {map[string]any{"resource_url": "https://a.example/x", "amount_usdc": 5, "recipient_address": vendor[2:]}, `{"error":"Invalid request","details":{"recipient_address":"must be a 0x address of 40 hex digits (mixed case must be a valid EIP-55 checksum)"}}`},
			"bad checksum":     {map[string]any{"resource_url": "https://a.example/x", "amount_usdc": 5, "recipient_address": strings.Replace(vendor, "C", "c", 1)}, `{"error":"Invalid request","details":{"recipient_address":"must be a 0x address of 40 hex digits (mixed case must be a valid EIP-55 checksum)"}}`},
			"zero address":     {map[string]any{"resource_url": "https://a.example/x", "amount_usdc": 5, "recipient_address": "0x0000000000000000000000000000000000000000"}, `{"error":"Invalid request","details":{"recipient_address":"must not be the zero address: tokens sent there are lost"}}`},
			"relative url":     {map[string]any{"resource_url": "/x", "amount_usdc": 5, "recipient_address": vendor}, `{"error":"Invalid request","details":{"resource_url":"must be an absolute http(s) URL of at most 2048 characters"}}`},
			"past":             {map[string]any{"resource_url": "https://a.example/x", "amount_usdc": 5, "recipient_address": vendor, "valid_before": 1000}, `{"error":"Invalid request","details":{"valid_before":"must be a Unix time more than 10 seconds and at most one hour ahead"}}`},
			"too far":          {map[string]any{"resource_url": "https://a.example/x", "amount_usdc": 5, "recipient_address": vendor, "valid_before": time.Now().Unix() + 7200}, `{"error":"Invalid request","details":{"valid_before":"must be a Unix time more than 10 seconds and at most one hour ahead"}}`},
		}
		exact("no body", r.do("POST", "/api/v1/processor-wallet/bot/sign", b.APIKey, nil), 400,
			`{"error":"Invalid request","details":{"body":"request body is empty; send a JSON object"}}`)
		for name, c := range invalid {
			a := r.do("POST", "/api/v1/processor-wallet/bot/sign", b.APIKey, c.body)
			exact(name, a, 400, c.want)
		}
		exact("no processor wallet", r.sign(bare, signBody(1)), 404, `{"error":"no_processor_wallet","message":"the bot has no processor wallet"}`)
		exact("insufficient", r.sign(b, signBody(1_000_001)), 403,
			`{"error":"insufficient_token_balance","message":"the processor wallet's available balance does not cover the amount"}`)

		r.guardrails(b, map[string]any{"limits": map[string]any{"per_transaction_usd": 0.5}})
		exact("per-transaction", r.sign(b, signBody(500_001)), 403,
			`{"error":"guardrail_blocked","reason":"amount exceeds the per-transaction limit of $0.50","message":"the request was refused by the owner's guardrails or procurement controls"}`)
		r.must(200, "PUT", "/api/v1/owner/master-guardrails", b.OwnerToken, map[string]any{"per_transaction_usd": 0.2})
		exact("master", r.sign(b, signBody(300_000)), 403,
			`{"error":"guardrail_blocked","reason":"amount exceeds the owner's master per-transaction limit of $0.20","message":"the request was refused by the owner's guardrails or procurement controls"}`)
		r.must(200, "POST", "/api/v1/owner/bots/"+b.ID+"/freeze", b.OwnerToken, map[string]any{"frozen": true})
		exact("frozen", r.sign(b, signBody(1)), 403,
			`{"error":"guardrail_blocked","reason":"the owner has frozen this bot's wallet","message":"the request was refused by the owner's guardrails or procurement controls"}`)
		r.must(200, "POST", "/api/v1/owner/bots/"+b.ID+"/freeze", b.OwnerToken, map[string]any{"frozen": false})

		r.guardrails(b, map[string]any{"approval_mode": "ask_for_everything"})
		a := r.sign(b, signBody(100_000))
		body := a.json(t)
		if id, ok := body["approval_id"].(float64); a.Status != 202 || body["status"] != "awaiting_approval" || !ok || id != float64(int64(id)) || id < 1 {
			t.Fatalf("held: %d %s", a.Status, a.Body)
		}
	})
}

func TestSignGuardrailChainOrder(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		b := r.walletBot("chain", 100)
		reason := func(a answer) string {
			t.Helper()
			if a.Status != 403 {
				t.Fatalf("want 403, got %d %s", a.Status, a.Body)
			}
			return a.json(t)["reason"].(string)
		}
		// Threshold: above ask_approval_above_usd waits for the owner.
		r.guardrails(b, map[string]any{"approval_mode": "auto_approve_under_threshold", "limits": map[string]any{"ask_approval_above_usd": 1, "per_transaction_usd": 50, "daily_usd": 3, "monthly_usd": 100}})
		checkSigned(t, r.sign(b, signBody(1_000_000)), b.Address, 1_000_000)
		if a := r.sign(b, signBody(1_000_001)); a.Status != 202 {
			t.Fatalf("above threshold: %d %s", a.Status, a.Body)
		}
		// Daily limit counts the signature and the held request: 1 + 1.000001 + 1 > 3.
		if got := reason(r.sign(b, signBody(1_000_000))); got != "amount exceeds the daily limit of $3.00" {
			t.Fatalf("daily: %s", got)
		}
		// A limit refuses even when approval mode would only hold.
		r.guardrails(b, map[string]any{"approval_mode": "ask_for_everything", "limits": map[string]any{"daily_usd": 100, "monthly_usd": 4}})
		if got := reason(r.sign(b, signBody(2_000_000))); got != "amount exceeds the monthly limit of $4.00" {
			t.Fatalf("monthly: %s", got)
		}
		// Master budgets come first.
		r.must(200, "PUT", "/api/v1/owner/master-guardrails", b.OwnerToken, map[string]any{"daily_budget_usd": 2.5})
		if got := reason(r.sign(b, signBody(600_000))); got != "amount exceeds the owner's master daily budget of $2.50" {
			t.Fatalf("master daily: %s", got)
		}
	})
}
