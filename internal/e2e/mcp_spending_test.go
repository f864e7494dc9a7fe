package e2e

import (
	"strings"
	"testing"

	"github.com/botpay/botpay/client"
)

// A purchase held for the owner is an outcome, not an error: checkout
// answers its confirmation_id (the approval id) and says to poll
// get_checkout_status; once the owner approves, get_checkout_status shows
// it approved with the card details.
func mcpHeldCheckoutIsApprovedByTheOwner(t *testing.T, h *harness, transport string) {
	s := h.shopper(transport+"-held", client.Dollars(100, 0), nil) // owner approval above $25
	a := h.mcpAgent(t, transport, s.reg.APIKey)
	buy := map[string]any{"profile_index": 1, "merchant_name": "Acme", "merchant_url": "https://shop.acme.com",
		"item_name": "Chair", "amount_cents": 4000, "category": "office"}
	res := a.call("checkout", buy)
	if res.IsError {
		t.Fatalf("a held checkout is an error: %s", texts(res))
	}
	held := object(t, "checkout", res.StructuredContent)
	id, _ := held["confirmation_id"].(string)
	if held["approved"] != false || held["status"] != "pending_confirmation" || !strings.HasPrefix(id, "chk_") {
		t.Fatalf("checkout = %v", held)
	}
	if hint := texts(res); !strings.Contains(hint, "get_checkout_status") || !strings.Contains(hint, id) {
		t.Errorf("the held answer does not say what to do next: %s", hint)
	}
	if st := a.ok("get_checkout_status", map[string]any{"confirmation_id": id}); st["status"] != "pending" {
		t.Fatalf("before the decision: %v", st)
	}
	if _, err := s.owner.ApprovePurchase(h.ctx, id); err != nil {
		t.Fatal(err)
	}
	st := a.ok("get_checkout_status", map[string]any{"confirmation_id": id})
	if st["status"] != "approved" || st["missing_digits"] != realDigits || st["expiry_year"] != realYear {
		t.Fatalf("after approval: %v", st)
	}
}

// Guardrail refusals come back as tool results with isError and the
// endpoint's own error body (its code), never as protocol errors.
func mcpGuardrailRefusalsAreToolResultsWithTheCode(t *testing.T, h *harness, transport string) {
	s := h.shopper(transport+"-refused", client.Dollars(100, 0), nil) // $100 per transaction
	a := h.mcpAgent(t, transport, s.reg.APIKey)
	over := map[string]any{"profile_index": 1, "merchant_name": "Acme", "merchant_url": "https://shop.acme.com",
		"item_name": "Desk", "amount_cents": 15000}
	got := a.refused("checkout", over, "card_guardrail_violation")
	status, want := a.endpoint("POST", "/api/v1/bot/merchant/checkout", over)
	if status != 403 {
		t.Fatalf("the endpoint answered %d %v", status, want)
	}
	// Each answer carries the id of its own request.
	delete(got, "request_id")
	delete(want.(map[string]any), "request_id")
	sameAnswer(t, "checkout refusal", any(got), want)

	a.refused("sign_x402_payment", map[string]any{"resource_url": "https://data.example/x", "amount_usdc": 1000,
		"recipient_address": "0x1111111111111111111111111111111111111111"}, "no_processor_wallet")
	if _, err := s.owner.Freeze(h.ctx, s.reg.BotID, true); err != nil {
		t.Fatal(err)
	}
	a.refused("checkout", with(over, "amount_cents", 500), "wallet_frozen")

	_, reg := h.register(client.RegisterRequest{BotName: transport + "-unclaimed", OwnerEmail: uniqueEmail("u")})
	b := h.mcpAgent(t, transport, reg.APIKey)
	b.refused("request_topup", map[string]any{"amount_usd": 10}, "wallet_not_active")
	b.refused("list_transactions", nil, "wallet_not_active")
}

// Arguments that break the tool's schema (missing, of the wrong type,
// unknown) are refused as a tool result too, in the same error shape,
// before any call of the service.
func TestMCPBadArgumentsAreToolResults(t *testing.T) {
	h := start(t, "sqlite", manyBots)
	s := h.shopper("args", client.Dollars(100, 0), nil)
	for _, transport := range mcpTransports {
		a := h.mcpAgent(t, transport, s.reg.APIKey)
		a.refused("checkout", map[string]any{"profile_index": 1, "merchant_name": "Acme"}, "invalid_arguments") // no amount, no item
		a.refused("list_sales", map[string]any{"limit": "ten"}, "invalid_arguments")
		a.refused("get_status", map[string]any{"verbose": true}, "invalid_arguments")
		if txs := a.ok("list_transactions", nil)["transactions"].([]any); len(txs) != 1 {
			t.Fatalf("%s: refused checkouts moved money: %v", transport, txs)
		}
	}
}
