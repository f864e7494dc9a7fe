package botpay

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

var (
	buyerEmail                  = "b@example.com"
	cardWallet, processorWallet = RailCardWallet, RailProcessorWallet
	previousKeyExpires          = Timestamp(time.UnixMilli(1_700_000_000_123).UTC())
)

// eventWire is one event's data as its builder makes it, with the JSON
// bots received for it before the payloads were typed: keys, presence,
// null and the digits of every number must stay exactly these.
var eventWire = []struct {
	name, typ string
	data      EventData
	want      string
}{
	{"claim", EventWalletActivated, WalletActivatedData{WalletID: "wal_1", Rail: RailCardWallet, Message: "Your owner claimed you; the card wallet is active."},
		`{"message":"Your owner claimed you; the card wallet is active.","rail":"card_wallet","wallet_id":"wal_1"}`},
	{"card wallet funded", EventWalletFunded, WalletFundedData{WalletID: "wal_1", Amount: Money(1250), Currency: "USD", NewBalance: Money(3000)},
		`{"amount":12.50,"currency":"USD","new_balance":30.00,"wallet_id":"wal_1"}`},
	{"processor wallet funded", EventWalletFunded, WalletFundedData{WalletID: "0xabc", Rail: RailProcessorWallet, Amount: Micro(1_500_000), Currency: "USDC",
		NewBalance: Micro(2_000_001)},
		`{"amount":1.5,"currency":"USDC","new_balance":2.000001,"rail":"processor_wallet","wallet_id":"0xabc"}`},
	{"top-up", EventWalletTopupCompleted, WalletTopupCompletedData{WalletID: "wal_1", Amount: 500, Currency: "USD", NewBalance: 12345},
		`{"amount":5.00,"currency":"USD","new_balance":123.45,"wallet_id":"wal_1"}`},
	{"spend", EventSpendAuthorized, SpendAuthorizedData{Amount: 2400, Currency: "USD", Vendor: "Acme", Description: "Pen at Acme (pur_1)", RemainingBalance: 7},
		`{"amount":24.00,"currency":"USD","description":"Pen at Acme (pur_1)","remaining_balance":0.07,"vendor":"Acme"}`},
	{"declined", EventSpendDeclined, SpendDeclinedData{Amount: 99999, Currency: "USD", Vendor: "Acme", Reason: "over the limit"},
		`{"amount":999.99,"currency":"USD","reason":"over the limit","vendor":"Acme"}`},
	{"low balance", EventBalanceLow, BalanceLowData{WalletID: "wal_1", CurrentBalance: -5, Currency: "USD", Message: "low"},
		`{"currency":"USD","current_balance":-0.05,"message":"low","wallet_id":"wal_1"}`},
	{"link paid", EventWalletPaymentReceived, PaymentReceivedData{Amount: 4200, Currency: "USD", Source: "payment_link", ReferenceID: "pl_1"},
		`{"amount":42.00,"currency":"USD","reference_id":"pl_1","source":"payment_link"}`},
	{"sale", EventWalletSaleCompleted, SaleCompletedData{SaleID: "sale_1", Amount: 1250, Currency: "USD", BuyerEmail: &buyerEmail, Method: "x402"},
		`{"amount":12.50,"buyer_email":"b@example.com","currency":"USD","method":"x402","sale_id":"sale_1"}`},
	{"sale without e-mail", EventWalletSaleCompleted, SaleCompletedData{SaleID: "sale_2", Amount: 1, Currency: "USD", Method: "sandbox"},
		`{"amount":0.01,"buyer_email":null,"currency":"USD","method":"sandbox","sale_id":"sale_2"}`},
	{"purchase approved", EventPurchaseApproved, PurchaseApprovedData{CheckoutID: PurchaseCheckoutID("pur_1"), Amount: Money(2400), Currency: "USD", Vendor: "Acme",
		Description: "Pen at Acme (pur_1)", ApprovalMode: "owner"},
		`{"amount":24.00,"approval_mode":"owner","checkout_id":"pur_1","currency":"USD","description":"Pen at Acme (pur_1)","vendor":"Acme"}`},
	{"signing approved", EventPurchaseApproved, PurchaseApprovedData{CheckoutID: SigningCheckoutID(7), ApprovalID: 7, Amount: Micro(2_000_000), Currency: "USDC",
		Vendor: "api.vendor.example", ResourceURL: "https://api.vendor.example/r", Description: "Signed payment for https://api.vendor.example/r",
		ApprovalMode: "owner", XPaymentHeader: "eyJ4", Signature: "0xsig", ValidBefore: 1_700_000_300},
		`{"amount":2,"approval_id":7,"approval_mode":"owner","checkout_id":7,"currency":"USDC","description":"Signed payment for https://api.vendor.example/r","resource_url":"https://api.vendor.example/r","signature":"0xsig","valid_before":1700000300,"vendor":"api.vendor.example","x_payment_header":"eyJ4"}`},
	{"signing approved with offer", EventPurchaseApproved, PurchaseApprovedData{CheckoutID: SigningCheckoutID(8), ApprovalID: 8, Amount: Micro(1234), Currency: "USDC",
		Vendor: "v.example", ResourceURL: "https://v.example/", Description: "Signed payment for https://v.example/", ApprovalMode: "owner",
		XPaymentHeader: "h1", Signature: "0xs", ValidBefore: 1_700_000_301, PaymentSignatureHeader: "h2", XPaymentStandardHeader: "h3"},
		`{"amount":0.001234,"approval_id":8,"approval_mode":"owner","checkout_id":8,"currency":"USDC","description":"Signed payment for https://v.example/","payment_signature_header":"h2","resource_url":"https://v.example/","signature":"0xs","valid_before":1700000301,"vendor":"v.example","x_payment_header":"h1","x_payment_standard_header":"h3"}`},
	{"purchase rejected", EventPurchaseRejected, PurchaseRejectedData{CheckoutID: PurchaseCheckoutID("pur_1"), Amount: Money(2400), Currency: "USD", Vendor: "Acme",
		Reason: "denied by owner"},
		`{"amount":24.00,"checkout_id":"pur_1","currency":"USD","reason":"denied by owner","vendor":"Acme"}`},
	{"signing rejected", EventPurchaseRejected, PurchaseRejectedData{CheckoutID: SigningCheckoutID(9), ApprovalID: 9, Amount: Micro(2_500_000), Currency: "USDC",
		Vendor: "v.example", ResourceURL: "https://v.example/", Reason: "denied by owner"},
		`{"amount":2.5,"approval_id":9,"checkout_id":9,"currency":"USDC","reason":"denied by owner","resource_url":"https://v.example/","vendor":"v.example"}`},
	{"purchase expired", EventPurchaseExpired, PurchaseExpiredData{CheckoutID: PurchaseCheckoutID("pur_2"), Amount: Money(100), Currency: "USD", Vendor: "Acme",
		Message: "Your owner did not decide on Pen within 15 minutes; the purchase expired and its hold was released."},
		`{"amount":1.00,"checkout_id":"pur_2","currency":"USD","message":"Your owner did not decide on Pen within 15 minutes; the purchase expired and its hold was released.","vendor":"Acme"}`},
	{"signing expired", EventPurchaseExpired, PurchaseExpiredData{CheckoutID: SigningCheckoutID(10), ApprovalID: 10, Amount: Micro(10), Currency: "USDC",
		Vendor: "v.example", Message: "Your owner did not decide on your signing request within 15 minutes; it expired and nothing was signed."},
		`{"amount":0.00001,"approval_id":10,"checkout_id":10,"currency":"USDC","message":"Your owner did not decide on your signing request within 15 minutes; it expired and nothing was signed.","vendor":"v.example"}`},
	{"card file", EventRail5Delivered, Rail5CardDeliveredData{CardID: "r5card_1", CardName: "Ops", CardLast4: "4242", FileContent: "{\"v\":1}",
		SuggestedPath: ".botpay/cards/r5card_1.card.json", Instructions: "Save <it> & confirm"},
		`{"card_id":"r5card_1","card_last4":"4242","card_name":"Ops","file_content":"{\"v\":1}","instructions":"Save \u003cit\u003e \u0026 confirm","suggested_path":".botpay/cards/r5card_1.card.json"}`},
	{"rail5 completed", EventRail5Completed, Rail5CheckoutCompletedData{CardID: "r5card_1", Amount: 100, Currency: "USD", Vendor: "Acme",
		Description: "Pen at Acme (r5chk_1)"},
		`{"amount":1.00,"card_id":"r5card_1","currency":"USD","description":"Pen at Acme (r5chk_1)","vendor":"Acme"}`},
	{"rail5 failed", EventRail5Failed, Rail5CheckoutFailedData{CardID: "r5card_1", Amount: 100, Currency: "USD", Vendor: "Acme",
		Reason: "declined by the shop"},
		`{"amount":1.00,"card_id":"r5card_1","currency":"USD","reason":"declined by the shop","vendor":"Acme"}`},
	{"rails of the card wallet", EventRailsUpdated, RailsUpdatedData{Action: ActionLimitsUpdated, Rail: &cardWallet, BotID: "bot_1",
		Message: "Your owner changed your spending guardrails."},
		`{"action":"limits_updated","bot_id":"bot_1","message":"Your owner changed your spending guardrails.","rail":"card_wallet"}`},
	{"processor wallet created", EventRailsUpdated, RailsUpdatedData{Action: "wallet_created", Rail: &processorWallet, BotID: "bot_1",
		Message: "Your processor wallet 0xabc was created."},
		`{"action":"wallet_created","bot_id":"bot_1","message":"Your processor wallet 0xabc was created.","rail":"processor_wallet"}`},
	{"key rotated", EventRailsUpdated, RailsUpdatedData{Action: ActionAPIKeyRotated, BotID: "bot_1", Message: "rotated",
		PreviousKeyExpiresAt: &previousKeyExpires},
		`{"action":"api_key_rotated","bot_id":"bot_1","message":"rotated","previous_key_expires_at":"2023-11-14T22:13:20.123Z","rail":null}`},
	{"purchase refunded", EventRefundCompleted, RefundCompletedData{RefundID: "ref_1", Amount: 50, Currency: "USD", NewBalance: 1050,
		Reason: "", CheckoutID: "pur_1"},
		`{"amount":0.50,"checkout_id":"pur_1","currency":"USD","new_balance":10.50,"reason":"","refund_id":"ref_1"}`},
	{"sale refunded", EventRefundCompleted, RefundCompletedData{RefundID: "ref_2", Amount: 50, Currency: "USD", NewBalance: 0,
		Reason: "damaged", SaleID: "sale_1"},
		`{"amount":0.50,"currency":"USD","new_balance":0.00,"reason":"damaged","refund_id":"ref_2","sale_id":"sale_1"}`},
}

func TestEventDataKeepsItsWireForm(t *testing.T) {
	for _, c := range eventWire {
		if c.data.EventType() != c.typ {
			t.Errorf("%s: EventType() = %s, want %s", c.name, c.data.EventType(), c.typ)
		}
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
