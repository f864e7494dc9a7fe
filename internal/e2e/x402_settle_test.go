package e2e

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/x402"
)

// outsider signs authorizations with a key that is not one of ours.
func outsider(t testing.TB, to string, value uint64, validBefore int64) (x402.Payment, string) {
	t.Helper()
	key, _ := x402.GenerateKey()
	payTo, err := x402.ParseAddress(to)
	if err != nil {
		t.Fatal(err)
	}
	var n x402.Nonce
	copy(n[:], []byte(time.Now().String()+strings.Repeat("n", 32)))
	a := x402.Authorization{From: key.Address(), To: payTo, Value: value, ValidBefore: uint64(validBefore), Nonce: n}
	p := x402.Payment{Authorization: a, Signature: key.Sign(x402.BaseUSDC.Digest(a))}
	return p, x402.Encode(p, x402.BaseUSDC)
}

func nested(p x402.Payment) string {
	a := p.Authorization
	doc := map[string]any{"x402Version": 1, "scheme": "exact", "network": "base", "payload": map[string]any{
		"signature": p.Signature.Hex(), "authorization": map[string]any{"from": strings.ToLower(a.From.Hex()), "to": strings.ToLower(a.To.Hex()),
			"value": "50000", "validAfter": "0", "validBefore": json.Number(itoa(a.ValidBefore)), "nonce": a.Nonce.Hex()}}}
	b, _ := json.Marshal(doc)
	return base64.StdEncoding.EncodeToString(b)
}

func itoa(v uint64) string { b, _ := json.Marshal(v); return string(b) }

func TestCheckoutPageAsks402WithAbsoluteResourceAndNoProductURL(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		seller := r.walletBot("seller", 0)
		page := r.page(seller, nil)
		path := "/api/v1/checkout/" + page["checkout_page_id"].(string) + "/x402"
		for _, method := range []string{"GET", "POST"} {
			a := r.do(method, path, "", nil)
			if a.Status != 402 || strings.Contains(string(a.Body), "secret-dataset") {
				t.Fatalf("%s: %d %s", method, a.Status, a.Body)
			}
			body := a.json(t)
			acc := body["accepts"].([]any)[0].(map[string]any)
			extra := acc["extra"].(map[string]any)
			if body["x402Version"] != 1.0 || acc["scheme"] != "exact" || acc["network"] != "base" || acc["maxAmountRequired"] != "50000" ||
				acc["resource"] != r.srv.URL+path || acc["payTo"] != seller.Address || acc["asset"] != x402.BaseUSDC.Contract.Hex() ||
				extra["name"] != "USD Coin" || extra["version"] != "2" || acc["maxTimeoutSeconds"] != 300.0 || acc["description"] != "Dataset" {
				t.Fatalf("requirements = %s", a.Body)
			}
		}
		if a := r.do("GET", "/api/v1/checkout/cp_0000000000000000/x402", "", nil); a.Status != 404 || a.json(t)["error"] != "checkout_page_not_found" {
			t.Fatalf("unknown page: %d %s", a.Status, a.Body)
		}
		cardOnly := r.page(seller, map[string]any{"allowed_methods": []string{"l2_pay"}})
		if a := r.do("GET", "/api/v1/checkout/"+cardOnly["checkout_page_id"].(string)+"/x402", "", nil); a.Status != 400 || a.json(t)["error"] != "method_not_allowed_on_page" {
			t.Fatalf("x402 not allowed: %d %s", a.Status, a.Body)
		}
		// A seller without a processor wallet gets one with its first page,
		// and buyers are asked to pay to it.
		noWallet := r.claimedBot("no-wallet")
		p := r.page(noWallet, nil)
		a := r.do("GET", "/api/v1/checkout/"+p["checkout_page_id"].(string)+"/x402", "", nil)
		if a.Status != 402 || p["wallet_address"] == nil || a.json(t)["accepts"].([]any)[0].(map[string]any)["payTo"] != p["wallet_address"] {
			t.Fatalf("seller whose page created its wallet (%v): %d %s", p["wallet_address"], a.Status, a.Body)
		}
		owned := r.must(201, "POST", "/api/v1/owner/bots/"+noWallet.ID+"/processor-wallet", noWallet.OwnerToken, nil)
		if owned["address"] != p["wallet_address"] {
			t.Fatalf("the owner's processor wallet %v is not the page's %v", owned["address"], p["wallet_address"])
		}
	})
}

func TestBotPaysCheckoutPageWithSignedHeaderOnce(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		seller := r.walletBot("seller", 0)
		buyer := r.walletBot("buyer", 1)
		page := r.page(seller, nil)
		pageID := page["checkout_page_id"].(string)
		path := "/api/v1/checkout/" + pageID + "/x402"
		signed := r.sign(buyer, map[string]any{"resource_url": r.srv.URL + path, "amount_usdc": 50000, "recipient_address": strings.ToLower(seller.Address)})
		header := signed.json(t)["x_payment_header"].(string)

		a := r.do("GET", path, "", nil, "X-PAYMENT", header)
		if a.Status != 200 {
			t.Fatalf("pay: %d %s", a.Status, a.Body)
		}
		got := a.json(t)
		product := got["product"].(map[string]any)
		if got["status"] != "confirmed" || got["amount_usd"] != 0.05 || product["url"] != "https://files.example/secret-dataset.csv" ||
			product["type"] != "digital_product" || !strings.HasPrefix(got["sale_id"].(string), "sale_") || len(got["tx_hash"].(string)) != 66 {
			t.Fatalf("settlement = %s", a.Body)
		}
		raw, _ := base64.StdEncoding.DecodeString(a.Header.Get("X-PAYMENT-RESPONSE"))
		var resp map[string]any
		json.Unmarshal(raw, &resp)
		if resp["success"] != true || resp["transaction"] != got["tx_hash"] || resp["network"] != "base" || resp["payer"] != buyer.Address {
			t.Fatalf("X-PAYMENT-RESPONSE = %s", raw)
		}
		// Money moved inside the ledger: buyer's wallet down, seller's card wallet up.
		if w, _, _ := storedWallet(t.Context(), r.srv.App, buyer.ID); w.Balance != 950_000 || w.Reserved != 0 {
			t.Fatalf("buyer wallet %+v", w)
		}
		if sum, _ := r.srv.App.Payments().ProcessorLedgerSum(t.Context(), buyer.ID); sum != 950_000 {
			t.Fatalf("buyer ledger sum %d", sum)
		}
		sales := r.must(200, "GET", "/api/v1/bot/sales", seller.APIKey, nil)["sales"].([]any)
		if len(sales) != 1 || sales[0].(map[string]any)["payment_method"] != "x402" || sales[0].(map[string]any)["buyer_identifier"] != buyer.Address {
			t.Fatalf("sales = %v", sales)
		}

		// Replays: the same header, its malleated signature, another replica.
		p, _ := x402.Decode(header)
		mall := p
		mall.Signature = x402.Malleate(p.Signature)
		replica := raw2(t, r)
		for name, call := range map[string]func() answer{
			"same header": func() answer { return r.do("POST", path, "", nil, "X-PAYMENT", header) },
			"malleated":   func() answer { return r.do("GET", path, "", nil, "X-PAYMENT", x402.Encode(mall, x402.BaseUSDC)) },
			"replica":     func() answer { return replica.do("GET", path, "", nil, "X-PAYMENT", header) },
		} {
			again := call()
			if again.Status != 200 || string(again.Body) != string(a.Body) {
				t.Fatalf("%s: %d %s, want the original %s", name, again.Status, again.Body, a.Body)
			}
		}
		// The same authorization at another page of the seller is used up.
		other := "/api/v1/checkout/" + r.page(seller, nil)["checkout_page_id"].(string) + "/x402"
		if a := r.do("GET", other, "", nil, "X-PAYMENT", header); a.Status != 402 || a.json(t)["error"] != "authorization_already_used" {
			t.Fatalf("replay at another page: %d %s", a.Status, a.Body)
		}
		if n := len(r.must(200, "GET", "/api/v1/bot/sales", seller.APIKey, nil)["sales"].([]any)); n != 1 {
			t.Fatalf("%d sales after replays", n)
		}
		if w, _, _ := storedWallet(t.Context(), r.srv.App, buyer.ID); w.Balance != 950_000 {
			t.Fatalf("buyer wallet after replays %+v", w)
		}
	})
}

// raw2 is a second replica on the same database.
func raw2(t *testing.T, r raw) raw {
	opts := x402Opts
	opts.DB, opts.Key = r.srv.DB, r.srv.Key
	return raw{t: t, srv: testserver.Start(t, r.srv.Store.Dialect(), opts)}
}

func TestExternalPayerIsRecordedWithDeterministicHashAndChecked(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		seller := r.walletBot("seller", 0)
		pageID := r.page(seller, nil)["checkout_page_id"].(string)
		path := "/api/v1/checkout/" + pageID + "/x402"
		now := time.Now().Unix()
		reject := func(name, header, want string) {
			t.Helper()
			a := r.do("GET", path, "", nil, "X-PAYMENT", header)
			if a.Status != 402 || !strings.Contains(a.json(t)["error"].(string), want) || a.json(t)["accepts"] == nil {
				t.Errorf("%s: %d %s, want 402 %q", name, a.Status, a.Body, want)
			}
		}
		_, wrongAmount := outsider(t, seller.Address, 49999, now+60)
		reject("wrong amount", wrongAmount, "amount does not match")
		_, wrongTo := outsider(t, vendor, 50000, now+60)
		reject("wrong recipient", wrongTo, "pays another recipient")
		_, expired := outsider(t, seller.Address, 50000, now-30)
		reject("expired", expired, "expired")
		reject("garbage", "bm9wZQ==", "invalid_payment_header")
		p, _ := outsider(t, seller.Address, 50000, now+60)
		tampered := p
		tampered.Authorization.Nonce[0] ^= 1
		reject("tampered", x402.Encode(tampered, x402.BaseUSDC), "not made by the payer")
		high := p
		high.Signature = x402.Malleate(p.Signature)
		reject("high-s first", x402.Encode(high, x402.BaseUSDC), "upper half")
		badV := p
		badV.Signature[64] = 1
		reject("bad v", x402.Encode(badV, x402.BaseUSDC), "v must be 27 or 28")

		// Lower-case recipient, nested-only header, still valid a few seconds late.
		late, _ := outsider(t, seller.Address, 50000, now-2)
		a := r.do("GET", path, "", nil, "X-PAYMENT", nested(late))
		if a.Status != 200 {
			t.Fatalf("nested external: %d %s", a.Status, a.Body)
		}
		if got := a.json(t)["tx_hash"]; got != settle.SandboxTxHash(late.Authorization) {
			t.Fatalf("tx_hash %v, want the deterministic %s", got, settle.SandboxTxHash(late.Authorization))
		}
	})
}

func TestInvoicePaidThroughX402Ref(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		seller := r.walletBot("seller", 0)
		buyer := r.walletBot("buyer", 20)
		pageID := r.page(seller, map[string]any{"page_type": "product", "digital_product_url": nil})["checkout_page_id"].(string)
		inv := r.must(201, "POST", "/api/v1/bot/invoices/create", seller.APIKey, map[string]any{"checkout_page_id": pageID,
			"line_items": []any{map[string]any{"description": "Work", "quantity": 2, "unit_price_usd": 3.5}}})
		ref := inv["reference_number"].(string)
		path := "/api/v1/checkout/" + pageID + "/x402?" + strings.SplitN(inv["payment_url"].(string), "?", 2)[1]
		a := r.do("GET", path, "", nil)
		acc := a.json(t)["accepts"].([]any)[0].(map[string]any)
		if a.Status != 402 || acc["maxAmountRequired"] != "7000000" || acc["resource"] != r.srv.URL+path || acc["description"] != "Invoice "+ref {
			t.Fatalf("invoice 402: %d %s", a.Status, a.Body)
		}
		h := r.sign(buyer, map[string]any{"resource_url": acc["resource"], "amount_usdc": 7000000, "recipient_address": seller.Address}).json(t)["x_payment_header"].(string)
		paid := r.do("POST", path, "", nil, "X-PAYMENT", h)
		if paid.Status != 200 || paid.json(t)["product"] != nil || paid.json(t)["reference_number"] != ref {
			t.Fatalf("pay invoice: %d %s", paid.Status, paid.Body)
		}
		list := r.must(200, "GET", "/api/v1/bot/invoices", seller.APIKey, nil)["invoices"].([]any)
		if st := list[0].(map[string]any)["status"]; st != "paid" {
			t.Fatalf("invoice status %v", st)
		}
		if a := r.do("GET", path, "", nil); a.Status != 409 {
			t.Fatalf("paid invoice asks again: %d %s", a.Status, a.Body)
		}
	})
}

func TestConcurrentSignaturesNeverExceedBalance(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		b := r.walletBot("racer", 1) // covers exactly 10 signatures of 0.1 USDC
		var wg sync.WaitGroup
		codes := make(chan int, 30)
		for range 30 {
			wg.Go(func() {
				a := r.do("POST", "/api/v1/processor-wallet/bot/sign", b.APIKey, signBody(100_000))
				if a.Status == 403 && a.json(t)["error"] != "insufficient_token_balance" {
					t.Errorf("403 %s", a.Body)
				}
				codes <- a.Status
			})
		}
		wg.Wait()
		close(codes)
		count := map[int]int{}
		for c := range codes {
			count[c]++
		}
		if count[200] != 10 || count[403] != 20 {
			t.Fatalf("statuses = %v, want 10×200 and 20×403", count)
		}
	})
}

func TestConcurrentSubmissionsOfOneHeaderMakeOneSale(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		seller := r.walletBot("seller", 0)
		buyer := r.walletBot("buyer", 1)
		pageID := r.page(seller, nil)["checkout_page_id"].(string)
		path := "/api/v1/checkout/" + pageID + "/x402"
		h := r.sign(buyer, map[string]any{"resource_url": r.srv.URL + path, "amount_usdc": 50000, "recipient_address": seller.Address}).json(t)["x_payment_header"].(string)
		replica := raw2(t, r)
		var wg sync.WaitGroup
		bodies := make(chan string, 20)
		for i := range 20 {
			wg.Go(func() {
				via := r
				if i%2 == 1 {
					via = replica
				}
				a := via.do("POST", path, "", nil, "X-PAYMENT", h)
				if a.Status != 200 {
					t.Errorf("submission: %d %s", a.Status, a.Body)
				}
				bodies <- string(a.Body)
			})
		}
		wg.Wait()
		close(bodies)
		distinct := map[string]bool{}
		for b := range bodies {
			distinct[b] = true
		}
		if len(distinct) != 1 {
			t.Fatalf("answers differ: %v", distinct)
		}
		if n := len(r.must(200, "GET", "/api/v1/bot/sales", seller.APIKey, nil)["sales"].([]any)); n != 1 {
			t.Fatalf("%d sales", n)
		}
		if w, _, _ := storedWallet(t.Context(), r.srv.App, buyer.ID); w.Balance != 950_000 {
			t.Fatalf("buyer wallet %+v", w)
		}
	})
}

var _ = storetest.Dialects
