package livetest

import (
	"testing"
	"time"

	"github.com/botpay/botpay/internal/x402"
)

// TestProcessorWalletFundedOnChainSignsAndSettles: the owner funds a bot's
// processor wallet by sending tokens to its address; status shows the
// chain balance, the sign endpoint signs against it (and refuses what it
// does not cover), and the signature pays a live checkout page on chain.
func TestProcessorWalletFundedOnChainSignsAndSettles(t *testing.T) {
	forEachEngine(t, func(t *testing.T, l *live) {
		base := l.srv.URL
		seller := walletBot(t, base, "seller")
		buyer := walletBot(t, base, "buyer")
		url := page(t, base, seller, 0.25)
		owner, _ := x402.GenerateKey()
		l.node.FundGas(t, owner.Address())
		l.node.Mint(t, owner.Address(), 5_000_000)
		l.node.Transfer(t, owner, buyer.Address, 2_000_000)

		status := must(t, base, 200, "GET", "/api/v1/bot/status", buyer.Key, nil)
		pw := status["rails"].(map[string]any)["processor_wallet"].(map[string]any)
		if pw["balance_usd"] != 2.0 || pw["address"] != buyer.Address.Hex() {
			t.Fatalf("processor wallet in status: %v", pw)
		}
		if code, body := call(t, base, "POST", "/api/v1/processor-wallet/bot/sign", buyer.Key, map[string]any{
			"resource_url": url, "amount_usdc": 2_000_001, "recipient_address": seller.Address.Hex()}); code != 403 || body["error"] != "insufficient_token_balance" {
			t.Fatalf("sign above the chain balance: %d %v", code, body)
		}
		signed := must(t, base, 200, "POST", "/api/v1/processor-wallet/bot/sign", buyer.Key, map[string]any{
			"resource_url": url, "amount_usdc": 250_000, "recipient_address": seller.Address.Hex()})
		code, paid := call(t, base, "GET", url[len(base):], "", nil, "X-PAYMENT", signed["x_payment_header"].(string))
		if code != 200 || paid["status"] != "confirmed" {
			t.Fatalf("paying with the signature: %d %v", code, paid)
		}
		if got := l.node.Balance(t, seller.Address); got != 250_000 {
			t.Fatalf("seller balance %d", got)
		}
		if got := l.node.Balance(t, buyer.Address); got != 1_750_000 {
			t.Fatalf("buyer wallet balance %d", got)
		}
		status = must(t, base, 200, "GET", "/api/v1/bot/status", buyer.Key, nil)
		if pw := status["rails"].(map[string]any)["processor_wallet"].(map[string]any); pw["balance_usd"] != 1.75 {
			t.Fatalf("after settlement: %v", pw)
		}
	})
}

// TestStatusSurvivesANodeThatDoesNotAnswer: with the RPC endpoint gone,
// status still answers, showing the processor wallet's balance as unknown
// (null, never 0), and signing answers 503 chain_unavailable: nothing is
// signed against a balance nobody could read.
func TestStatusSurvivesANodeThatDoesNotAnswer(t *testing.T) {
	forEachEngine(t, func(t *testing.T, l *live) {
		base := l.srv.URL
		b := walletBot(t, base, "buyer")
		l.node.Mint(t, b.Address, 1_000_000)
		l.node.Stop()
		time.Sleep(chainBalanceTTL)
		pw := must(t, base, 200, "GET", "/api/v1/bot/status", b.Key, nil)["rails"].(map[string]any)["processor_wallet"].(map[string]any)
		if balance, ok := pw["balance_usd"]; !ok || balance != nil || pw["address"] != b.Address.Hex() {
			t.Fatalf("status with the node down: %v", pw)
		}
		if code, body := call(t, base, "POST", "/api/v1/processor-wallet/bot/sign", b.Key, map[string]any{
			"resource_url": "https://vendor.example/r", "amount_usdc": 1, "recipient_address": b.Address.Hex()}); code != 503 || body["error"] != "chain_unavailable" {
			t.Fatalf("signed with the node down: %v", body)
		}
	})
}

// chainBalanceTTL outlasts the service's cache of chain balances.
const chainBalanceTTL = 3*time.Second + 100*time.Millisecond
