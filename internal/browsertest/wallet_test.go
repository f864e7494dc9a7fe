package browsertest

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/chaintest"
	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/x402"
)

// TestWalletPaysBuyerPagesOnChainInChromium: a live service on anvil, on
// both engines; an EIP-1193 wallet injected into Chromium (backed by a
// funded anvil key through viem) pays a checkout page, an invoice, a
// payment link and a pay-what-you-want page that accepts only usdc_direct, at desktop and
// phone widths (wallet.test.mjs). Each payment settles on chain: the
// seller's token balance rises by exactly the amounts, every sale is
// listed once, and a refused signature, a refused chain switch and an
// underfunded wallet leave no sale.
func TestWalletPaysBuyerPagesOnChainInChromium(t *testing.T) {
	repo := requireBrowser(t)
	chaintest.Require(t)
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		node := chaintest.Start(t)
		relayer, _ := x402.GenerateKey()
		node.FundGas(t, relayer.Address())
		srv := testserver.Start(t, d, testserver.Options{Limits: app.Limits{RegisterPerHour: 1000},
			ExplorerURL: "https://explorer.example",
			Chain:       &settle.Chain{RPC: node.RPC, Key: relayer, Domain: node.Domain(), Confirmations: 1, Poll: 20 * time.Millisecond}})
		fx := walletFixtures(t, srv.URL)
		rich, poor := mustKey(t), mustKey(t)
		node.Mint(t, rich.Address(), 1_000_000_000) // $1,000
		node.Mint(t, poor.Address(), 1_000_000)     // $1, less than any price here
		fx.RichKey, fx.PoorKey, fx.ChainID = hexKey(rich), hexKey(poor), chaintest.ChainID

		paid := runWalletScript(t, repo, string(d), fx)

		var want uint64
		hashes := map[string]bool{}
		for _, p := range paid {
			want += p.Micro
			if hashes[p.TxHash] || len(p.TxHash) != 66 {
				t.Errorf("payment %+v: transaction hash repeated or not whole", p)
			}
			hashes[p.TxHash] = true
		}
		if len(paid) != 8 {
			t.Fatalf("%d payments reported, want 8 (four at each width)", len(paid))
		}
		if got := node.Balance(t, fx.seller); got != want {
			t.Fatalf("seller holds %d micro-USDC on chain, want exactly %d", got, want)
		}
		sales := fx.sales(t)
		if len(sales) != len(paid) {
			t.Fatalf("%d sales listed, want %d (one per payment, none for a refusal)", len(sales), len(paid))
		}
		for _, s := range sales {
			if !hashes[s.TxHash] || strings.EqualFold(s.Buyer, poor.Address().Hex()) {
				t.Errorf("sale %+v is not one of the payments", s)
			}
		}
		// The buyer gave an e-mail address on the checkout,
		// pay-what-you-want and link pages (not on the invoices): one
		// receipt each, naming its transaction.
		receipts := 0
		for _, m := range srv.Mail.Sent() {
			if m.To != "bea@example.com" {
				continue
			}
			receipts++
			if !slices.ContainsFunc(paid, func(p walletPayment) bool { return strings.Contains(m.Text, p.TxHash) }) {
				t.Errorf("receipt %q names none of the transactions", m.Subject)
			}
		}
		if receipts != 6 {
			t.Errorf("%d receipt e-mails to the buyer, want 6", receipts)
		}
	})
}

// walletPlan is what wallet.test.mjs is given: the pages to pay and the
// anvil keys of the wallets it injects.
type walletPlan struct {
	Base     string   `json:"base"`
	ChainID  uint64   `json:"chainId"`
	RichKey  string   `json:"richKey"`
	PoorKey  string   `json:"poorKey"`
	Checkout string   `json:"checkout"` // a fixed $12.50
	Choose   string   `json:"choose"`   // pay what you want, usdc_direct only, collects names
	Invoices []string `json:"invoices"` // one per width
	Links    []string `json:"links"`    // one per width, $3.75 each
	seller   x402.Address
	key      string
}

type walletPayment struct {
	Case, Width, SaleID, TxHash string
	Micro                       uint64
}

type listedSale struct {
	TxHash string `json:"tx_hash"`
	Buyer  string `json:"buyer_identifier"`
}

func walletFixtures(t *testing.T, base string) *walletPlan {
	t.Helper()
	email := "wallet-owner-" + time.Now().Format("150405.000000") + "@example.com"
	reg := call(t, base, 201, "POST", "/api/v1/bots/register", "", map[string]any{"bot_name": "Studio Bot", "owner_email": email})
	owner := call(t, base, 201, "POST", "/api/v1/owner/signup", "", map[string]any{"email": email, "password": "correct horse battery staple"})
	botID, key, token := reg["bot_id"].(string), reg["api_key"].(string), owner["token"].(string)
	call(t, base, 200, "POST", "/api/v1/owner/bots/claim", token, map[string]any{"claim_token": reg["claim_token"]})
	addr := call(t, base, 201, "POST", "/api/v1/owner/bots/"+botID+"/processor-wallet", token, nil)["address"].(string)
	plan := &walletPlan{Base: base, key: key}
	plan.seller, _ = x402.ParseAddress(addr)
	fixed := call(t, base, 201, "POST", "/api/v1/bot/checkout-pages/create", key, map[string]any{"title": "Studio session", "amount_usd": 12.5})
	plan.Checkout = "/pay/" + fixed["checkout_page_id"].(string)
	choose := call(t, base, 201, "POST", "/api/v1/bot/checkout-pages/create", key, map[string]any{"title": "Tip the band",
		"allowed_methods": []string{"usdc_direct"}, "collect_buyer_name": true})
	plan.Choose = "/pay/" + choose["checkout_page_id"].(string)
	for range 2 {
		inv := call(t, base, 201, "POST", "/api/v1/bot/invoices/create", key, map[string]any{"checkout_page_id": fixed["checkout_page_id"],
			"recipient_name": "Ada Buyer", "line_items": []map[string]any{{"description": "Mixing", "quantity": 3, "unit_price_usd": 7.25}}})
		u := inv["payment_url"].(string)
		plan.Invoices = append(plan.Invoices, strings.TrimPrefix(u, base))
		link := call(t, base, 201, "POST", "/api/v1/bot/payments/create-link", key, map[string]any{"amount_usd": 3.75,
			"description": "Mastering"})
		plan.Links = append(plan.Links, "/pay/"+link["payment_link_id"].(string))
	}
	return plan
}

func (p *walletPlan) sales(t *testing.T) []listedSale {
	t.Helper()
	var out []listedSale
	raw, _ := json.Marshal(call(t, p.Base, 200, "GET", "/api/v1/bot/sales?limit=100", p.key, nil)["sales"])
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// runWalletScript runs browser/wallet.test.mjs and reads the payments it
// made from its last line.
func runWalletScript(t *testing.T, repo, engine string, plan *walletPlan) []walletPayment {
	t.Helper()
	shots := screenshots(t, repo, "wallet-"+engine)
	ctx, cancel := context.WithTimeout(t.Context(), 6*time.Minute)
	defer cancel()
	planJSON, _ := json.Marshal(plan)
	cmd := exec.CommandContext(ctx, "node", "wallet.test.mjs")
	cmd.Dir = filepath.Join(repo, "browser")
	cmd.Env = append(os.Environ(), "BOTPAY_URL="+plan.Base, "SCREENSHOT_DIR="+shots, "CHROMIUM="+chromium(), "WALLET_PLAN="+string(planJSON))
	out, err := cmd.CombinedOutput()
	t.Logf("wallet.test.mjs:\n%s", out)
	if err != nil {
		t.Fatalf("wallet.test.mjs failed: %v (screenshots in %s)", err, shots)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	last, ok := strings.CutPrefix(lines[len(lines)-1], "WALLET-PAYMENTS ")
	var paid []walletPayment
	if !ok || json.Unmarshal([]byte(last), &paid) != nil {
		t.Fatalf("wallet.test.mjs reported no payments on its last line")
	}
	return paid
}

func mustKey(t *testing.T) x402.Key {
	t.Helper()
	k, err := x402.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func hexKey(k x402.Key) string {
	const digits = "0123456789abcdef"
	out := []byte("0x")
	for _, c := range k.Bytes() {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

// call sends a JSON request and fails the test unless the status is want.
func call(t *testing.T, base string, want int, method, path, token string, body any) map[string]any {
	t.Helper()
	a := testserver.CallJSON(t, method, base+path, token, body)
	if a.Status != want {
		t.Fatalf("%s %s = %d %s, want %d", method, path, a.Status, a.Raw, want)
	}
	return a.Body
}
