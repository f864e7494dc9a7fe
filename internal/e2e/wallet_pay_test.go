package e2e

import (
	"testing"
	"time"
)

// A person paying from the buyer page with a browser wallet sends the
// e-mail and name the page asked for in a JSON body beside the
// PAYMENT-SIGNATURE; the sale records them. A body of another kind (a
// stock client's own) is no buyer detail and pays as before.
func TestWalletPayerDetailsReachTheSale(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		seller := r.walletBot("seller", 0)
		cases := []struct {
			name       string
			body       any
			headers    []string
			wantStatus int
			email      any
			buyer      string
		}{
			{"e-mail and name", map[string]any{"buyer_email": "Bea@Example.com", "buyer_name": " Bea Buyer "}, nil, 200, "bea@example.com", "Bea Buyer"},
			{"e-mail only", map[string]any{"buyer_email": "cy@example.com"}, nil, 200, "cy@example.com", ""},
			{"a stock client's own body", "plain words", []string{"Content-Type", "text/plain"}, 200, nil, ""},
			{"a JSON body that is not an object", []any{1, 2}, nil, 200, nil, ""},
			{"an e-mail that is no address", map[string]any{"buyer_email": "not-an-address"}, nil, 400, nil, ""},
			{"a name that is not text", map[string]any{"buyer_name": 7}, nil, 400, nil, ""},
		}
		for _, tc := range cases {
			page := r.page(seller, map[string]any{"collect_buyer_name": true})
			path := "/api/v1/checkout/" + page["checkout_page_id"].(string) + "/x402"
			_, required := r.asked(path)
			p, _ := outsider(t, seller.Address, 50000, time.Now().Unix()+120)
			a := r.do("POST", path, "", tc.body, append([]string{"PAYMENT-SIGNATURE", v2Signature(required, p, nil)}, tc.headers...)...)
			if a.Status != tc.wantStatus {
				t.Fatalf("%s: %d %s, want %d", tc.name, a.Status, a.Body, tc.wantStatus)
			}
			sales := r.must(200, "GET", "/api/v1/bot/sales?checkout_page_id="+page["checkout_page_id"].(string), seller.APIKey, nil)["sales"].([]any)
			if tc.wantStatus != 200 {
				if len(sales) != 0 {
					t.Fatalf("%s: refused, yet %d sales", tc.name, len(sales))
				}
				continue
			}
			if len(sales) != 1 {
				t.Fatalf("%s: %d sales, want 1", tc.name, len(sales))
			}
			sale := sales[0].(map[string]any)
			// The API's sale has no name; the stored sale (the seller's
			// dashboard) does.
			stored, err := r.srv.App.Earning().SaleByTxHash(t.Context(), sale["tx_hash"].(string))
			if err != nil {
				t.Fatal(err)
			}
			if sale["buyer_email"] != tc.email || stored.BuyerName != tc.buyer || sale["buyer_identifier"] != p.Authorization.From.Hex() {
				t.Fatalf("%s: sale %v named %q, want e-mail %v and name %q from %s", tc.name, sale, stored.BuyerName, tc.email, tc.buyer,
					p.Authorization.From.Hex())
			}
		}
	})
}

// The buyer page offers a wallet wherever the page accepts x402 or
// usdc_direct; a page that accepts only usdc_direct is paid through the
// same route and its sale is a usdc_direct sale. Other pages refuse.
func TestWalletTransfersPayPagesThatAcceptUSDCDirect(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		seller := r.walletBot("seller", 0)
		for _, tc := range []struct {
			methods    []string
			wantMethod string
		}{
			{[]string{"usdc_direct"}, "usdc_direct"},
			{[]string{"x402", "usdc_direct"}, "x402"},
			{[]string{"l2_pay"}, ""},
		} {
			id := r.page(seller, map[string]any{"allowed_methods": tc.methods})["checkout_page_id"].(string)
			path := "/api/v1/checkout/" + id + "/x402"
			if tc.wantMethod == "" {
				if a := r.do("GET", path, "", nil); a.Status != 400 || a.json(t)["error"] != "method_not_allowed_on_page" {
					t.Fatalf("%v: %d %s, want 400 method_not_allowed_on_page", tc.methods, a.Status, a.Body)
				}
				continue
			}
			_, required := r.asked(path)
			p, _ := outsider(t, seller.Address, 50000, time.Now().Unix()+120)
			r.must(200, "POST", path, "", nil, "PAYMENT-SIGNATURE", v2Signature(required, p, nil))
			sales := r.must(200, "GET", "/api/v1/bot/sales?checkout_page_id="+id, seller.APIKey, nil)["sales"].([]any)
			if len(sales) != 1 || sales[0].(map[string]any)["payment_method"] != tc.wantMethod {
				t.Fatalf("%v: sales %v, want one %s sale", tc.methods, sales, tc.wantMethod)
			}
		}
	})
}

// A payment link's x402 route takes the same buyer details as a checkout
// page's.
func TestWalletPayerDetailsReachALinksSale(t *testing.T) {
	forEachX402Engine(t, func(t *testing.T, r raw) {
		seller := r.walletBot("seller", 0)
		_, path := r.link(seller, 0.5)
		_, required := r.asked(path)
		p, _ := outsider(t, seller.Address, 500000, time.Now().Unix()+120)
		a := r.do("POST", path, "", map[string]any{"buyer_email": "cy@example.com", "buyer_name": "Cy"},
			"PAYMENT-SIGNATURE", v2Signature(required, p, nil))
		if a.Status != 200 {
			t.Fatalf("pay the link: %d %s", a.Status, a.Body)
		}
		stored, err := r.srv.App.Earning().SaleByTxHash(t.Context(), a.json(t)["tx_hash"].(string))
		if err != nil {
			t.Fatal(err)
		}
		if stored.BuyerEmail != "cy@example.com" || stored.BuyerName != "Cy" || stored.PaymentLinkID == "" || stored.Method != "x402" {
			t.Fatalf("link sale %+v, want the buyer's e-mail and name on an x402 sale of the link", stored)
		}
	})
}
