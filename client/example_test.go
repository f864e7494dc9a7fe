package client_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/botpay/botpay/client"
)

// These examples run against a real botpay service (example_server_test.go
// starts one); against your own, pass its URL, for example
// http://127.0.0.1:8080 of `botpay serve`.

// A bot registers itself, then hands its owner the verification URL (or the
// claim token). The API key is shown only once: store it.
func ExampleClient_Register() {
	ctx := context.Background()
	reg, err := client.New(exampleURL, "").Register(ctx, client.RegisterRequest{
		BotName: "shopper", OwnerEmail: exampleEmail("alice")},
		client.WithIdempotencyKey(fmt.Sprint("register-shopper-", time.Now().UnixNano())))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.HasPrefix(reg.BotID, "bot_"), reg.Status)
	fmt.Println(strings.Contains(*reg.OwnerVerificationURL, "/claim?token="))
	bot := client.New(exampleURL, reg.APIKey) // every later call uses the key
	_ = bot
	// Output:
	// true pending_owner_verification
	// true
}

// Until the owner claims it, a bot's status is pending; poll it (or wait
// for the wallet.activated event).
func ExampleClient_Status_waitForClaim() {
	ctx := context.Background()
	reg, err := client.New(exampleURL, "").Register(ctx, client.RegisterRequest{BotName: "shopper", OwnerEmail: exampleEmail("alice")})
	if err != nil {
		fmt.Println(err)
		return
	}
	bot := client.New(exampleURL, reg.APIKey)
	owner := exampleOwner(ctx)
	for polls := 0; ; polls++ {
		st, err := bot.Status(ctx)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("status:", st.Status)
		if st.Status != client.BotPending {
			break
		}
		if polls == 0 { // the owner opens the link and claims the bot
			if _, err := owner.Claim(ctx, *reg.ClaimToken); err != nil {
				fmt.Println(err)
				return
			}
		}
		time.Sleep(10 * time.Millisecond) // in production: a few seconds
	}
	// Output:
	// status: pending
	// status: active
}

// The balance is the available balance: held purchases are subtracted.
func ExampleClient_WalletCheck() {
	ctx := context.Background()
	owner := exampleOwner(ctx)
	bot, botID := exampleBot(ctx, owner)
	if _, err := owner.Fund(ctx, botID, client.Dollars(50, 0), "card_wallet"); err != nil {
		fmt.Println(err)
		return
	}
	w, err := bot.WalletCheck(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(w.WalletStatus, w.BalanceUSD)
	// Output: active 50.00
}

// A purchase above the owner's approval threshold ($25 unless the owner
// sets another) is held (HTTP 202): poll its status until the owner decides
// or it expires after 15 minutes.
func ExampleClient_Checkout_held() {
	ctx := context.Background()
	owner := exampleOwner(ctx)
	bot, botID := exampleBot(ctx, owner)
	if err := exampleCard(ctx, owner, botID); err != nil {
		fmt.Println(err)
		return
	}
	c, err := bot.Checkout(ctx, client.CheckoutRequest{ProfileIndex: 1, MerchantName: "Acme",
		MerchantURL: "https://acme.example", ItemName: "Desk lamp", AmountCents: 3000},
		client.WithIdempotencyKey(fmt.Sprint("lamp-order-", time.Now().UnixNano()))) // a retry cannot buy twice
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Status)
	for c.Status == client.PurchasePendingConfirmation || c.Status == client.PurchasePending {
		if _, err := owner.ApprovePurchase(ctx, c.ConfirmationID); err != nil { // the owner decides
			fmt.Println(err)
			return
		}
		time.Sleep(10 * time.Millisecond) // in production: 5 s for a minute, then 15 s
		if c, err = bot.CheckoutStatus(ctx, c.ConfirmationID); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(c.Status)
	}
	if c.Status == client.PurchaseApproved {
		fmt.Println("card digits", *c.MissingDigits, "expiry", *c.ExpiryMonth+"/"+*c.ExpiryYear)
	}
	// Output:
	// pending_confirmation
	// approved
	// card digits 4242 expiry 12/2030
}

// exampleCard is the owner adding a card with $200 a month on profile 1 and
// funding the wallet with $100.
func exampleCard(ctx context.Context, owner *client.OwnerClient, botID string) error {
	_, err := owner.CreateCard(ctx, botID, client.NewCard{CardName: "Team card", MissingDigits: "4242",
		ExpiryMonth: "12", ExpiryYear: "2030", RealProfileIndex: 1, Profiles: []client.NewPaymentProfile{
			{ProfileIndex: 1, AllowanceDuration: "month", AllowanceUSD: client.Dollars(200, 0)},
			{ProfileIndex: 2, AllowanceDuration: "week", AllowanceUSD: client.Dollars(50, 0)}}})
	if err != nil {
		return err
	}
	_, err = owner.Fund(ctx, botID, client.Dollars(100, 0), "card_wallet")
	return err
}

// A bot earns through a hosted checkout page; buyers pay at its URL.
func ExampleClient_CreateCheckoutPage() {
	ctx := context.Background()
	bot, _ := exampleBot(ctx, exampleOwner(ctx))
	price := client.Dollars(12, 50)
	page, err := bot.CreateCheckoutPage(ctx, client.CheckoutPageRequest{Title: "Sticker pack", AmountUSD: &price})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(*page.AmountUSD, page.CheckoutURL == "/pay/"+page.CheckoutPageID)
	// Output: 12.50 true
}

// Lists are read page by page with cursors; All… iterates over every page.
func ExampleClient_AllTransactions() {
	ctx := context.Background()
	owner := exampleOwner(ctx)
	bot, botID := exampleBot(ctx, owner)
	for _, dollars := range []int64{5, 10, 20} {
		if _, err := owner.Fund(ctx, botID, client.Dollars(dollars, 0), "card_wallet"); err != nil {
			fmt.Println(err)
			return
		}
	}
	for tx, err := range bot.AllTransactions(ctx) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(tx.Type, tx.AmountUSD)
	}
	// Output:
	// fund 20.00
	// fund 10.00
	// fund 5.00
}
