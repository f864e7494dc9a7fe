package client_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"time"

	"github.com/botpay/botpay/client"
)

// exampleService stands in for botpay in these examples: canned answers in the
// shapes of the API reference (docs/api.md). Against a real service, pass
// its URL (for example http://127.0.0.1:8080 of `botpay serve`).
func exampleService() *httptest.Server {
	var statusPolls, checkoutPolls atomic.Int32
	answers := map[string]func() (int, string){
		"POST /api/v1/bots/register": func() (int, string) {
			return 201, `{"bot_id":"bot_0123456789abcdef","bot_name":"shopper","api_key":"bp_live_example",
				"claim_token":"river-7KQ2","status":"pending_owner_verification","paired":false,
				"owner_verification_url":"http://127.0.0.1:8080/claim?token=river-7KQ2",
				"webhook_secret":"whsec_example","webhook_note":"…","important":"…"}`
		},
		"GET /api/v1/bot/status": func() (int, string) {
			if statusPolls.Add(1) < 2 {
				return 200, `{"bot_id":"bot_0123456789abcdef","bot_name":"shopper","status":"pending","active_rails":[],"rails":{}}`
			}
			return 200, `{"bot_id":"bot_0123456789abcdef","bot_name":"shopper","status":"active","active_rails":["card_wallet"],"rails":{}}`
		},
		"GET /api/v1/bot/wallet/check": func() (int, string) {
			return 200, `{"wallet_status":"active","balance_usd":50,"held_usd":0,"card_status":"active","pending_topups":0,"frozen":false}`
		},
		"POST /api/v1/bot/merchant/checkout": func() (int, string) {
			return 202, `{"approved":false,"status":"pending_confirmation","confirmation_id":"chk_0123456789abcdef",
				"profile_index":1,"merchant_name":"Acme","item_name":"Paper","amount_usd":250,
				"expires_at":"2026-11-21T09:45:00.000Z","message":"Your owner must approve this purchase."}`
		},
		"GET /api/v1/bot/merchant/checkout/status": func() (int, string) {
			if checkoutPolls.Add(1) < 2 {
				return 200, `{"confirmation_id":"chk_0123456789abcdef","status":"pending","profile_index":1,
					"merchant_name":"Acme","item_name":"Paper","amount_usd":250,"message":"Waiting."}`
			}
			return 200, `{"confirmation_id":"chk_0123456789abcdef","status":"approved","profile_index":1,
				"merchant_name":"Acme","item_name":"Paper","amount_usd":250,"missing_digits":"4242",
				"expiry_month":"12","expiry_year":"2030","message":"Approved."}`
		},
		"POST /api/v1/bot/checkout-pages/create": func() (int, string) {
			return 201, `{"checkout_page_id":"cp_0123456789abcdef","checkout_url":"/pay/cp_0123456789abcdef",
				"title":"Sticker pack","amount_usd":12.5,"status":"active"}`
		},
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		answer, ok := answers[r.Method+" "+r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		status, body := answer()
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}))
}

// A bot registers itself, then hands its owner the verification URL (or the
// claim token). The API key is shown only once: store it.
func ExampleClient_Register() {
	srv := exampleService()
	defer srv.Close()
	ctx := context.Background()

	reg, err := client.New(srv.URL, "").Register(ctx, client.RegisterRequest{
		BotName: "shopper", OwnerEmail: "alice@example.com"}, client.WithIdempotencyKey("register-shopper-1"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(reg.BotID, reg.Status)
	fmt.Println("ask your owner to open", reg.OwnerVerificationURL)
	bot := client.New(srv.URL, reg.APIKey) // every later call uses the key
	_ = bot
	// Output:
	// bot_0123456789abcdef pending_owner_verification
	// ask your owner to open http://127.0.0.1:8080/claim?token=river-7KQ2
}

// Until the owner claims it, a bot's status is pending; poll it (or wait
// for the wallet.activated event).
func ExampleClient_Status_waitForClaim() {
	srv := exampleService()
	defer srv.Close()
	ctx := context.Background()
	bot := client.New(srv.URL, "bp_live_example")

	for {
		st, err := bot.Status(ctx)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("status:", st.Status)
		if st.Status != client.BotPending {
			break
		}
		time.Sleep(10 * time.Millisecond) // in production: a few seconds
	}
	// Output:
	// status: pending
	// status: active
}

// The balance is the available balance: held purchases are subtracted.
func ExampleClient_WalletCheck() {
	srv := exampleService()
	defer srv.Close()
	w, err := client.New(srv.URL, "bp_live_example").WalletCheck(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(w.WalletStatus, w.BalanceUSD)
	// Output: active 50.00
}

// A purchase above the owner's approval threshold is held (HTTP 202): poll
// its status until the owner decides or it expires after 15 minutes.
func ExampleClient_Checkout_held() {
	srv := exampleService()
	defer srv.Close()
	ctx := context.Background()
	bot := client.New(srv.URL, "bp_live_example")

	c, err := bot.Checkout(ctx, client.CheckoutRequest{ProfileIndex: 1, MerchantName: "Acme",
		MerchantURL: "https://acme.example", ItemName: "Paper", AmountCents: 25000},
		client.WithIdempotencyKey("paper-order-77")) // a retry cannot buy twice
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Status)
	for c.Status == client.PurchasePendingConfirmation || c.Status == client.PurchasePending {
		time.Sleep(10 * time.Millisecond) // in production: 5 s for a minute, then 15 s
		if c, err = bot.CheckoutStatus(ctx, c.ConfirmationID); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(c.Status)
	}
	if c.Status == client.PurchaseApproved {
		fmt.Println("card digits", c.MissingDigits, "expiry", c.ExpiryMonth+"/"+c.ExpiryYear)
	}
	// Output:
	// pending_confirmation
	// pending
	// approved
	// card digits 4242 expiry 12/2030
}

// A bot earns through a hosted checkout page; buyers pay at its URL.
func ExampleClient_CreateCheckoutPage() {
	srv := exampleService()
	defer srv.Close()
	price := client.Dollars(12, 50)
	page, err := client.New(srv.URL, "bp_live_example").CreateCheckoutPage(context.Background(),
		client.CheckoutPageRequest{Title: "Sticker pack", AmountUSD: &price})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(page.CheckoutPageID, srv.URL != "" && page.CheckoutURL == "/pay/"+page.CheckoutPageID)
	// Output: cp_0123456789abcdef true
}
