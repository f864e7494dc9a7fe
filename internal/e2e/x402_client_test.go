package e2e

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/botpay/botpay/client"
)

// TestGoClientPaysA402ResourceThroughTheSignEndpoint walks the SDK: the
// owner creates and funds a processor wallet, the bot pays a checkout
// page's x402 endpoint with PayX402, and a held payment is approved with
// the owner calls.
func TestGoClientPaysA402ResourceThroughTheSignEndpoint(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		ctx := t.Context()
		seller := r.walletBot("seller", 0)
		b := r.claimedBot("sdk")
		owner := client.NewOwner(r.srv.URL, b.OwnerToken)
		bot := client.New(r.srv.URL, b.APIKey)

		if _, err := bot.Sign(ctx, client.SignRequest{ResourceURL: "https://x.example", AmountUSDC: 1, RecipientAddress: vendor}); !client.IsCode(err, client.CodeNoProcessorWallet) {
			t.Fatalf("sign without wallet: %v", err)
		}
		addr, err := owner.CreateProcessorWallet(ctx, b.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := owner.Fund(ctx, b.ID, client.Dollars(1, 0), "processor_wallet"); err != nil {
			t.Fatal(err)
		}
		r.guardrails(x402Bot{ID: b.ID, OwnerToken: b.OwnerToken}, map[string]any{"limits": map[string]any{"ask_approval_above_usd": 0.1}})

		url := r.srv.URL + "/api/v1/checkout/" + r.page(seller, nil)["checkout_page_id"].(string) + "/x402"
		if _, err := bot.PayX402(ctx, url, nil, 49_999); !errors.Is(err, client.ErrOverLimit) {
			t.Fatalf("over the caller's limit: %v", err)
		}
		paid, err := bot.PayX402(ctx, url, nil, 50_000)
		if err != nil || paid.StatusCode != 200 || paid.Settlement == nil || textOf(paid.Settlement.Payer) != addr || paid.Signed.From != addr {
			t.Fatalf("PayX402 = %+v, %v", paid, err)
		}
		var body struct {
			Product struct{ URL string } `json:"product"`
		}
		json.Unmarshal(paid.Body, &body)
		if body.Product.URL != "https://files.example/secret-dataset.csv" {
			t.Fatalf("body %s", paid.Body)
		}

		expensive := r.srv.URL + "/api/v1/checkout/" + r.page(seller, map[string]any{"amount_usd": 0.5})["checkout_page_id"].(string) + "/x402"
		held, err := bot.PayX402(ctx, expensive, nil, 1_000_000)
		if !errors.Is(err, client.ErrAwaitingApproval) || held.Signed.ApprovalID == 0 {
			t.Fatalf("held: %+v %v", held, err)
		}
		list, err := owner.SigningRequests(ctx)
		if err != nil || len(list) != 1 || usdOf(list[0].AmountUSD) != client.Dollars(0, 50) {
			t.Fatalf("approvals %+v %v", list, err)
		}
		if id, ok := client.SigningApprovalID(list[0]); !ok || id != held.Signed.ApprovalID {
			t.Fatalf("approvals %+v %v", list, err)
		}
		d, err := owner.DecideSigning(ctx, held.Signed.ApprovalID, true)
		if err != nil || d.Status != "approved" {
			t.Fatalf("approve: %+v %v", d, err)
		}
		r.guardrails(x402Bot{ID: b.ID, OwnerToken: b.OwnerToken}, map[string]any{"limits": map[string]any{"per_transaction_usd": 0.01}})
		_, err = bot.Sign(ctx, client.SignRequest{ResourceURL: "https://x.example", AmountUSDC: 20_000, RecipientAddress: vendor})
		var e *client.Error
		if !errors.As(err, &e) || e.StatusCode != 403 || e.Code != client.CodeGuardrailBlocked || e.Reason != "amount exceeds the per-transaction limit of $0.01" {
			t.Fatalf("blocked: %#v", err)
		}
	})
}
