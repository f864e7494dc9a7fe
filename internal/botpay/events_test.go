package botpay

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// eventWire is one event's data as its builder makes it, with the JSON
// bots received for it before the payloads were typed: keys, presence,
// null and the digits of every number must stay exactly these.
var eventWire = []struct {
	name, typ string
	data      any
	want      string
}{
	{"claim", EventWalletActivated, map[string]any{"wallet_id": "wal_1", "rail": RailCardWallet, "message": "Your owner claimed you; the card wallet is active."},
		`{"message":"Your owner claimed you; the card wallet is active.","rail":"card_wallet","wallet_id":"wal_1"}`},
	{"card wallet funded", EventWalletFunded, map[string]any{"wallet_id": "wal_1", "amount": Money(1250), "currency": "USD", "new_balance": Money(3000)},
		`{"amount":12.50,"currency":"USD","new_balance":30.00,"wallet_id":"wal_1"}`},
	{"processor wallet funded", EventWalletFunded, map[string]any{"wallet_id": "0xabc", "rail": RailProcessorWallet, "amount": Micro(1_500_000), "currency": "USDC",
		"new_balance": Micro(2_000_001)},
		`{"amount":1.5,"currency":"USDC","new_balance":2.000001,"rail":"processor_wallet","wallet_id":"0xabc"}`},
	{"top-up", EventWalletTopupCompleted, map[string]any{"wallet_id": "wal_1", "amount": Money(500), "currency": "USD", "new_balance": Money(12345)},
		`{"amount":5.00,"currency":"USD","new_balance":123.45,"wallet_id":"wal_1"}`},
	{"spend", EventSpendAuthorized, map[string]any{"amount": Money(2400), "currency": "USD", "vendor": "Acme", "description": "Pen at Acme (pur_1)",
		"remaining_balance": Money(7)},
		`{"amount":24.00,"currency":"USD","description":"Pen at Acme (pur_1)","remaining_balance":0.07,"vendor":"Acme"}`},
	{"declined", EventSpendDeclined, map[string]any{"amount": Money(99999), "currency": "USD", "vendor": "Acme", "reason": "over the limit"},
		`{"amount":999.99,"currency":"USD","reason":"over the limit","vendor":"Acme"}`},
	{"low balance", EventBalanceLow, map[string]any{"wallet_id": "wal_1", "current_balance": Money(-5), "currency": "USD", "message": "low"},
		`{"currency":"USD","current_balance":-0.05,"message":"low","wallet_id":"wal_1"}`},
	{"link paid", EventWalletPaymentReceived, map[string]any{"amount": Money(4200), "currency": "USD", "source": "payment_link", "reference_id": "pl_1"},
		`{"amount":42.00,"currency":"USD","reference_id":"pl_1","source":"payment_link"}`},
	{"sale", EventWalletSaleCompleted, map[string]any{"sale_id": "sale_1", "amount": Money(1250), "currency": "USD", "buyer_email": "b@example.com",
		"method": "x402"},
		`{"amount":12.50,"buyer_email":"b@example.com","currency":"USD","method":"x402","sale_id":"sale_1"}`},
	{"sale without e-mail", EventWalletSaleCompleted, map[string]any{"sale_id": "sale_2", "amount": Money(1), "currency": "USD", "buyer_email": nil,
		"method": "sandbox"},
		`{"amount":0.01,"buyer_email":null,"currency":"USD","method":"sandbox","sale_id":"sale_2"}`},
	{"purchase approved", EventPurchaseApproved, map[string]any{"checkout_id": "pur_1", "amount": Money(2400), "currency": "USD", "vendor": "Acme",
		"description": "Pen at Acme (pur_1)", "approval_mode": "owner"},
		`{"amount":24.00,"approval_mode":"owner","checkout_id":"pur_1","currency":"USD","description":"Pen at Acme (pur_1)","vendor":"Acme"}`},
	{"signing approved", EventPurchaseApproved, map[string]any{"checkout_id": int64(7), "approval_id": int64(7), "amount": Micro(2_000_000), "currency": "USDC",
		"vendor": "api.vendor.example", "resource_url": "https://api.vendor.example/r", "description": "Signed payment for https://api.vendor.example/r",
		"approval_mode": "owner", "x_payment_header": "eyJ4", "signature": "0xsig", "valid_before": int64(1_700_000_300)},
		`{"amount":2,"approval_id":7,"approval_mode":"owner","checkout_id":7,"currency":"USDC","description":"Signed payment for https://api.vendor.example/r","resource_url":"https://api.vendor.example/r","signature":"0xsig","valid_before":1700000300,"vendor":"api.vendor.example","x_payment_header":"eyJ4"}`},
	{"signing approved with offer", EventPurchaseApproved, map[string]any{"checkout_id": int64(8), "approval_id": int64(8), "amount": Micro(1234), "currency": "USDC",
		"vendor": "v.example", "resource_url": "https://v.example/", "description": "Signed payment for https://v.example/", "approval_mode": "owner",
		"x_payment_header": "h1", "signature": "0xs", "valid_before": int64(1_700_000_301), "payment_signature_header": "h2", "x_payment_standard_header": "h3"},
		`{"amount":0.001234,"approval_id":8,"approval_mode":"owner","checkout_id":8,"currency":"USDC","description":"Signed payment for https://v.example/","payment_signature_header":"h2","resource_url":"https://v.example/","signature":"0xs","valid_before":1700000301,"vendor":"v.example","x_payment_header":"h1","x_payment_standard_header":"h3"}`},
	{"purchase rejected", EventPurchaseRejected, map[string]any{"checkout_id": "pur_1", "amount": Money(2400), "currency": "USD", "vendor": "Acme",
		"reason": "denied by owner"},
		`{"amount":24.00,"checkout_id":"pur_1","currency":"USD","reason":"denied by owner","vendor":"Acme"}`},
	{"signing rejected", EventPurchaseRejected, map[string]any{"checkout_id": int64(9), "approval_id": int64(9), "amount": Micro(2_500_000), "currency": "USDC",
		"vendor": "v.example", "resource_url": "https://v.example/", "reason": "denied by owner"},
		`{"amount":2.5,"approval_id":9,"checkout_id":9,"currency":"USDC","reason":"denied by owner","resource_url":"https://v.example/","vendor":"v.example"}`},
	{"purchase expired", EventPurchaseExpired, map[string]any{"checkout_id": "pur_2", "amount": Money(100), "currency": "USD", "vendor": "Acme",
		"message": "Your owner did not decide on Pen within 15 minutes; the purchase expired and its hold was released."},
		`{"amount":1.00,"checkout_id":"pur_2","currency":"USD","message":"Your owner did not decide on Pen within 15 minutes; the purchase expired and its hold was released.","vendor":"Acme"}`},
	{"signing expired", EventPurchaseExpired, map[string]any{"checkout_id": int64(10), "approval_id": int64(10), "amount": Micro(10), "currency": "USDC",
		"vendor": "v.example", "message": "Your owner did not decide on your signing request within 15 minutes; it expired and nothing was signed."},
		`{"amount":0.00001,"approval_id":10,"checkout_id":10,"currency":"USDC","message":"Your owner did not decide on your signing request within 15 minutes; it expired and nothing was signed.","vendor":"v.example"}`},
	{"card file", EventRail5Delivered, map[string]any{"card_id": "r5card_1", "card_name": "Ops", "card_last4": "4242", "file_content": "{\"v\":1}",
		"suggested_path": ".botpay/cards/r5card_1.card.json", "instructions": "Save <it> & confirm"},
		`{"card_id":"r5card_1","card_last4":"4242","card_name":"Ops","file_content":"{\"v\":1}","instructions":"Save \u003cit\u003e \u0026 confirm","suggested_path":".botpay/cards/r5card_1.card.json"}`},
	{"rail5 completed", EventRail5Completed, map[string]any{"card_id": "r5card_1", "amount": Money(100), "currency": "USD", "vendor": "Acme",
		"description": "Pen at Acme (r5chk_1)"},
		`{"amount":1.00,"card_id":"r5card_1","currency":"USD","description":"Pen at Acme (r5chk_1)","vendor":"Acme"}`},
	{"rail5 failed", EventRail5Failed, map[string]any{"card_id": "r5card_1", "amount": Money(100), "currency": "USD", "vendor": "Acme",
		"reason": "declined by the shop"},
		`{"amount":1.00,"card_id":"r5card_1","currency":"USD","reason":"declined by the shop","vendor":"Acme"}`},
	{"rails of the card wallet", EventRailsUpdated, map[string]any{"action": ActionLimitsUpdated, "rail": RailCardWallet, "bot_id": "bot_1",
		"message": "Your owner changed your spending guardrails."},
		`{"action":"limits_updated","bot_id":"bot_1","message":"Your owner changed your spending guardrails.","rail":"card_wallet"}`},
	{"processor wallet created", EventRailsUpdated, map[string]any{"action": "wallet_created", "rail": RailProcessorWallet, "bot_id": "bot_1",
		"message": "Your processor wallet 0xabc was created."},
		`{"action":"wallet_created","bot_id":"bot_1","message":"Your processor wallet 0xabc was created.","rail":"processor_wallet"}`},
	{"key rotated", EventRailsUpdated, map[string]any{"action": ActionAPIKeyRotated, "rail": nil, "bot_id": "bot_1", "message": "rotated",
		"previous_key_expires_at": Timestamp(time.UnixMilli(1_700_000_000_123).UTC())},
		`{"action":"api_key_rotated","bot_id":"bot_1","message":"rotated","previous_key_expires_at":"2023-11-14T22:13:20.123Z","rail":null}`},
	{"purchase refunded", EventRefundCompleted, map[string]any{"refund_id": "ref_1", "amount": Money(50), "currency": "USD", "new_balance": Money(1050),
		"reason": "", "checkout_id": "pur_1"},
		`{"amount":0.50,"checkout_id":"pur_1","currency":"USD","new_balance":10.50,"reason":"","refund_id":"ref_1"}`},
	{"sale refunded", EventRefundCompleted, map[string]any{"refund_id": "ref_2", "amount": Money(50), "currency": "USD", "new_balance": Money(0),
		"reason": "damaged", "sale_id": "sale_1"},
		`{"amount":0.50,"currency":"USD","new_balance":0.00,"reason":"damaged","refund_id":"ref_2","sale_id":"sale_1"}`},
}

func TestEventDataKeepsItsWireForm(t *testing.T) {
	for _, c := range eventWire {
		got, err := json.Marshal(c.data)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if canonicalJSON(t, got) != canonicalJSON(t, []byte(c.want)) {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// canonicalJSON sorts the keys and keeps every number as written, so two
// encodings compare equal when only their key order differs.
func canonicalJSON(t *testing.T, b []byte) string {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
