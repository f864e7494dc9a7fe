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
