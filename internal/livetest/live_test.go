package livetest

import (
	"context"
	"testing"

	"github.com/botpay/botpay/internal/payments"
	"github.com/botpay/botpay/internal/x402"
)

// TestStockClientPaysACheckoutPageOnChain: x402-fetch pays a live page on
// the node; the seller's wallet gains exactly the price and the payer
// loses it, one sale carries the real transaction hash, the replayed
// X-PAYMENT sends nothing more, and an unfunded payer is refused before
// any transaction.
func TestStockClientPaysACheckoutPageOnChain(t *testing.T) {
	forEachEngine(t, func(t *testing.T, l *live) {
		base := l.srv.URL
		seller := walletBot(t, base, "seller")
		url := page(t, base, seller, 0.25)
		status, req := call(t, base, "GET", url[len(base):], "", nil)
		accepts := req["accepts"].([]any)[0].(map[string]any)
		if status != 402 || accepts["network"] != "base-sepolia" || accepts["asset"] != l.node.Token.Hex() ||
			accepts["payTo"] != seller.Address.Hex() || accepts["extra"].(map[string]any)["name"] != "USDC" {
			t.Fatalf("402 = %d %v", status, req)
		}
		payer, _ := x402.GenerateKey()
		l.node.Mint(t, payer.Address(), 1_000_000)

		paid := payWithStockClient(t, url, payer)
		pr := paid.PaymentResponse
		if paid.Status != 200 || paid.Body.Status != "confirmed" || pr == nil || !pr.Success || pr.Network != "base-sepolia" ||
			pr.Transaction != paid.Body.TxHash || pr.Payer != payer.Address().Hex() {
			t.Fatalf("stock payment: %+v", paid)
		}
		receipt, err := l.node.RPC.TransactionReceipt(context.Background(), pr.Transaction)
		if err != nil || receipt == nil || !receipt.Succeeded() {
			t.Fatalf("receipt of %s: %+v %v", pr.Transaction, receipt, err)
		}
		if got := l.node.Balance(t, seller.Address); got != 250_000 {
			t.Fatalf("seller balance %d, want 250000", got)
		}
		if got := l.node.Balance(t, payer.Address()); got != 750_000 {
			t.Fatalf("payer balance %d, want 750000", got)
		}
		sales := must(t, base, 200, "GET", "/api/v1/bot/sales", seller.Key, nil)["sales"].([]any)
		if len(sales) != 1 || sales[0].(map[string]any)["tx_hash"] != pr.Transaction {
			t.Fatalf("sales = %v", sales)
		}
		if n := l.node.Nonce(t, l.relayer.Address()); n != 1 {
			t.Fatalf("relayer nonce %d after one payment", n)
		}

		status, again := call(t, base, "GET", url[len(base):], "", nil, "X-PAYMENT", paid.XPayment)
		if status != 200 || again["tx_hash"] != pr.Transaction || again["sale_id"] != paid.Body.SaleID {
			t.Fatalf("replay = %d %v", status, again)
		}
		if n := l.node.Nonce(t, l.relayer.Address()); n != 1 {
			t.Fatalf("relayer nonce %d after the replay: a second transaction was sent", n)
		}
		if sales := must(t, base, 200, "GET", "/api/v1/bot/sales", seller.Key, nil)["sales"].([]any); len(sales) != 1 {
			t.Fatalf("sales after replay = %v", sales)
		}

		block, _ := l.node.RPC.BlockNumber(context.Background())
		broke, _ := x402.GenerateKey()
		refused := payWithStockClient(t, url, broke)
		if refused.Status != 402 || refused.Body.Error != "insufficient_funds" {
			t.Fatalf("unfunded payer: %+v", refused)
		}
		after, _ := l.node.RPC.BlockNumber(context.Background())
		if n := l.node.Nonce(t, l.relayer.Address()); n != 1 || after != block {
			t.Fatalf("unfunded payer: relayer nonce %d, blocks %d → %d", n, block, after)
		}
		next, _ := l.srv.App.Payments().RelayerNextNonce(context.Background(), payments.RelayerAccount{ChainID: 84532, Address: l.relayer.Address().Hex()})
		if next != 1 {
			t.Fatalf("stored next nonce %d", next)
		}
	})
}
