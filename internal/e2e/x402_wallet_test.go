package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/x402"
)

var x402Opts = testserver.Options{Limits: app.Limits{RegisterPerHour: 1000}}

// forEachX402Engine runs test on a fresh service per engine, in parallel.
func forEachX402Engine(t *testing.T, test func(t *testing.T, r raw)) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		test(t, raw{t: t, srv: testserver.Start(t, d, x402Opts)})
	})
}

func TestProcessorWalletIsCreatedOnceSealedAndShownInStatus(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		b := r.claimedBot("pw")
		if a := r.do("POST", "/api/v1/owner/bots/"+b.ID+"/fund", b.OwnerToken, map[string]any{"amount_usd": 5, "rail": "processor_wallet"}); a.Status != 404 || a.json(t)["error"] != "no_processor_wallet" {
			t.Fatalf("fund before wallet: %d %s", a.Status, a.Body)
		}
		if st := r.must(200, "GET", "/api/v1/bot/status", b.APIKey, nil); len(st["active_rails"].([]any)) != 1 || st["rails"].(map[string]any)["processor_wallet"] != nil {
			t.Fatalf("status before wallet: %v", st)
		}
		addr := r.must(201, "POST", "/api/v1/owner/bots/"+b.ID+"/processor-wallet", b.OwnerToken, nil)["address"].(string)
		parsed, err := x402.ParseAddress(addr)
		if err != nil || parsed.Hex() != addr {
			t.Fatalf("address %q is not EIP-55 checksummed: %v", addr, err)
		}
		if again := r.must(201, "POST", "/api/v1/owner/bots/"+b.ID+"/processor-wallet", b.OwnerToken, nil)["address"]; again != addr {
			t.Fatalf("asking again answered %v, want the bot's wallet %s", again, addr)
		}
		other := r.claimedBot("pw-other")
		if a := r.do("POST", "/api/v1/owner/bots/"+b.ID+"/processor-wallet", other.OwnerToken, nil); a.Status != 404 {
			t.Fatalf("foreign owner: %d %s", a.Status, a.Body)
		}

		fund := r.must(200, "POST", "/api/v1/owner/bots/"+b.ID+"/fund", b.OwnerToken, map[string]any{"amount_usd": 12.34, "rail": "processor_wallet"})
		if fund["balance_usd"] != 12.34 || fund["transaction"].(map[string]any)["amount_usd"] != 12.34 || fund["transaction"].(map[string]any)["type"] != "fund" {
			t.Fatalf("fund: %v", fund)
		}
		st := r.must(200, "GET", "/api/v1/bot/status", b.APIKey, nil)
		pw := st["rails"].(map[string]any)["processor_wallet"].(map[string]any)
		if pw["status"] != "active" || pw["balance_usd"] != 12.34 || pw["address"] != addr {
			t.Fatalf("rails.processor_wallet = %v", pw)
		}
		if rails := st["active_rails"].([]any); len(rails) != 2 || rails[1] != "processor_wallet" {
			t.Fatalf("active_rails = %v", rails)
		}
		if page := r.page(b, nil); page["wallet_address"] != addr {
			t.Fatalf("checkout page wallet_address = %v", page["wallet_address"])
		}
		// The card wallet is untouched: USD funding of the processor rail
		// becomes micro-USDC 1:1.
		if card := st["rails"].(map[string]any)["card_wallet"].(map[string]any); card["balance_usd"] != 0.0 {
			t.Fatalf("card wallet = %v", card)
		}
		w, ok, err := storedWallet(t.Context(), r.srv.App, b.ID)
		if err != nil || !ok || w.Balance != 12_340_000 {
			t.Fatalf("stored wallet %+v %v %v", w, ok, err)
		}
		if sum, _ := r.srv.App.Payments().ProcessorLedgerSum(t.Context(), b.ID); sum != w.Balance {
			t.Fatalf("ledger sum %d != balance %d", sum, w.Balance)
		}
		// At rest the key is sealed: 32 raw bytes would be shorter than the
		// sealed value, and only the sealer bound to this bot opens it.
		if len(w.SealedKey) <= 32 {
			t.Fatalf("sealed key is %d bytes", len(w.SealedKey))
		}
		plain, err := r.srv.Sealer.Open(w.SealedKey, []byte("processor-wallet-key:"+b.ID))
		if err != nil {
			t.Fatal(err)
		}
		key, _ := x402.KeyFromBytes(plain)
		if key.Address() != parsed || strings.Contains(string(w.SealedKey), string(plain)) {
			t.Fatal("sealed key does not open to the wallet's key")
		}
		if _, err := r.srv.Sealer.Open(w.SealedKey, []byte("processor-wallet-key:"+other.ID)); err == nil {
			t.Fatal("sealed key opens for another bot")
		}
		events, _ := storetest.OutboxOf(r.srv.Store).Events(t.Context(), b.ID)
		var types []string
		for _, e := range events {
			types = append(types, e.Type)
		}
		if got := strings.Join(types, ","); !strings.HasSuffix(got, "rails.updated,wallet.funded") {
			t.Fatalf("events = %s", got)
		}
		_ = time.Second
	})
}
