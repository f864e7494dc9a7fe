package livetest

import (
	"crypto/rand"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/payments"
	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/x402"
)

// TestRefusedPaymentsNameTheirReasonAndSendNothing: each check a
// facilitator makes refuses with its x402 error code, answered 402 before
// any transaction of the relayer; the authorization stays presentable
// when nothing was sent.
func TestRefusedPaymentsNameTheirReasonAndSendNothing(t *testing.T) {
	forEachEngine(t, func(t *testing.T, l *live) {
		base := l.srv.URL
		seller := walletBot(t, base, "seller")
		url := page(t, base, seller, 0.5)
		path := url[len(base):]
		payer, _ := x402.GenerateKey()
		l.node.Mint(t, payer.Address(), 5_000_000)
		now := time.Now().Unix()
		d := l.node.Domain()
		auth := func(value uint64, validBefore int64) x402.Authorization {
			var nonce x402.Nonce
			rand.Read(nonce[:])
			return x402.Authorization{From: payer.Address(), To: seller.Address, Value: value, ValidBefore: uint64(validBefore), Nonce: nonce}
		}
		signed := func(a x402.Authorization, key x402.Key, dom x402.Domain) string {
			return x402.Encode(x402.Payment{Authorization: a, Signature: key.Sign(dom.Digest(a))}, dom)
		}
		stranger, _ := x402.GenerateKey()
		otherToken := d
		otherToken.Contract = seller.Address
		mainnet := d
		mainnet.ChainID = 8453
		for _, tc := range []struct {
			name, header, reason string
		}{
			{"validity ends within the 6 s margin", signed(auth(500_000, now+3), payer, d), "expired"},
			{"another amount", signed(auth(400_000, now+600), payer, d), "wrong_amount"},
			{"signed by someone else", signed(auth(500_000, now+600), stranger, d), "invalid_signature"},
			{"another token", signed(auth(500_000, now+600), payer, otherToken), "wrong_token"},
			{"another chain", signed(auth(500_000, now+600), payer, mainnet), "wrong_network"},
		} {
			status, body := call(t, base, "GET", path, "", nil, "X-PAYMENT", tc.header)
			if status != 402 || body["error"] != tc.reason || body["x402Version"] != 1.0 {
				t.Errorf("%s: %d %v, want 402 %s", tc.name, status, body, tc.reason)
			}
		}
		// Someone else submitted this authorization on chain first.
		front := auth(500_000, now+600)
		p := x402.Payment{Authorization: front, Signature: payer.Sign(d.Digest(front))}
		l.node.FundGas(t, stranger.Address())
		l.node.Send(t, stranger, &l.node.Token, settle.CallData(p))
		if status, body := call(t, base, "GET", path, "", nil, "X-PAYMENT", x402.Encode(p, d)); status != 402 || body["error"] != "authorization_used" {
			t.Errorf("used on chain: %d %v", status, body)
		}
		if n := l.node.Nonce(t, l.relayer.Address()); n != 0 {
			t.Fatalf("the relayer sent %d transactions for refused payments", n)
		}
		// A relayer without ether for the gas stores and sends nothing.
		if err := l.node.RPC.Call(t.Context(), "anvil_setBalance", nil, l.relayer.Address().Hex(), "0x0"); err != nil {
			t.Fatal(err)
		}
		waiting := signed(auth(500_000, now+600), payer, d)
		if status, body := call(t, base, "GET", path, "", nil, "X-PAYMENT", waiting); status != 402 || body["error"] != "settlement_unavailable" {
			t.Fatalf("relayer without gas: %d %v", status, body)
		}
		if next, _ := l.srv.App.Payments().RelayerNextNonce(t.Context(), payments.RelayerAccount{ChainID: 84532, Address: l.relayer.Address().Hex()}); next != 0 {
			t.Fatalf("a nonce was taken for a transaction the relayer could not pay: next %d", next)
		}
		l.node.FundGas(t, l.relayer.Address())
		if status, body := call(t, base, "GET", path, "", nil, "X-PAYMENT", waiting); status != 200 {
			t.Fatalf("after funding the relayer: %d %v", status, body)
		}
		// The same authorization, once refused for lack of funds, pays after a top-up.
		poor, _ := x402.GenerateKey()
		a := auth(500_000, now+600)
		a.From = poor.Address()
		header := signed(a, poor, d)
		if status, body := call(t, base, "GET", path, "", nil, "X-PAYMENT", header); status != 402 || body["error"] != "insufficient_funds" {
			t.Fatalf("unfunded: %d %v", status, body)
		}
		l.node.Mint(t, poor.Address(), 500_000)
		if status, body := call(t, base, "GET", path, "", nil, "X-PAYMENT", header); status != 200 || body["status"] != "confirmed" {
			t.Fatalf("after the top-up: %d %v", status, body)
		}
	})
}
