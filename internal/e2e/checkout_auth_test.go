package e2e

import (
	"net/http"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/testserver"
)

// The payment endpoints keep a claimed bot's authentication in memory
// between requests (app.AuthenticateBotForSpending). What an owner changes
// about the bot still applies to its very next checkout: here a freeze and
// an unfreeze between checkouts made with the same key.
func TestFreezeAppliesToTheNextCheckoutOfARecentlyAuthenticatedBot(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		s := h.shopper("cached", client.Dollars(100, 0), nil)
		if _, err := s.bot.Checkout(h.ctx, purchase(100)); err != nil {
			t.Fatalf("first checkout: %v", err)
		}
		if _, err := s.owner.Freeze(h.ctx, s.reg.BotID, true); err != nil {
			t.Fatal(err)
		}
		_, err := s.bot.Checkout(h.ctx, purchase(100))
		wantError(t, err, http.StatusForbidden, client.CodeWalletFrozen)
		if _, err := s.owner.Freeze(h.ctx, s.reg.BotID, false); err != nil {
			t.Fatal(err)
		}
		if _, err := s.bot.Checkout(h.ctx, purchase(100)); err != nil {
			t.Fatalf("checkout after unfreezing: %v", err)
		}
	})
}

// A bot that calls a payment endpoint before its owner claims it is refused
// and not remembered as unclaimed (app.AuthenticateBotForSpending keeps
// claimed bots only): once claimed, it signs for its owner. A bot kept from
// before the claim would have no owner, and signing refuses such a bot.
func TestPaymentBeforeTheClaimDoesNotOutliveIt(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		bot, reg := h.register(client.RegisterRequest{BotName: "early", OwnerEmail: uniqueEmail("early")})
		sign := client.SignRequest{ResourceURL: "https://vendor.example/data", AmountUSDC: 1000,
			RecipientAddress: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C"}
		_, err := bot.Sign(h.ctx, sign)
		wantError(t, err, http.StatusNotFound, client.CodeNoProcessorWallet)
		_, err = bot.Checkout(h.ctx, purchase(100))
		wantError(t, err, http.StatusForbidden, client.CodeWalletNotActive)
		owner, _ := h.signup(uniqueEmail("early-owner"))
		if _, err := owner.Claim(h.ctx, *reg.ClaimToken); err != nil {
			t.Fatal(err)
		}
		if _, err := owner.CreateProcessorWallet(h.ctx, reg.BotID); err != nil {
			t.Fatal(err)
		}
		if _, err := owner.Fund(h.ctx, reg.BotID, client.Dollars(10, 0), client.RailProcessorWallet); err != nil {
			t.Fatal(err)
		}
		if signed, err := bot.Sign(h.ctx, sign); err != nil || signed.XPaymentHeader == "" {
			t.Fatalf("sign after the claim = %+v, %v", signed, err)
		}
	})
}
