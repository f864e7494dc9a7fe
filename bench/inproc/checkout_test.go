package inproc

import (
	"net/http"
	"testing"
)

// buyers is how many bots BenchmarkCheckout spreads its calls over, one
// per goroutine, as loadgen's checkout scenario spreads its workers.
const buyers = 32

// BenchmarkCheckout is POST /api/v1/bot/merchant/checkout of $1.00,
// approved at once, through the full handler chain: the server's share
// of a checkout (authentication, decoding, the facts read under the
// wallet lock, the decision, the one write, the answer) without the
// network. Its CPU profile and allocations are the server half of the
// checkout's budget.
func BenchmarkCheckout(b *testing.B) {
	body := `{"profile_index":1,"merchant_name":"Bench Shop","merchant_url":"https://shop.example.com/item",` +
		`"item_name":"Widget","amount_cents":100,"category":"retail"}`
	benchBots(b, "/api/v1/bot/merchant/checkout", body, buyers, buyingBot)
}

// buyingBot registers a bot for a new owner, claims it, funds it with
// $1,000,000, lets it buy without approval and gives it a card, as
// loadgen's checkout scenario does; it answers the bot's API key.
func buyingBot(b *testing.B, h http.Handler, name string) string {
	b.Helper()
	apiKey, botID, ownerToken := claimedBot(b, h, "buyer-"+name, "bench-buyer-"+name+"@example.com")
	bot := "/api/v1/owner/bots/" + botID
	call(b, h, "POST", bot+"/fund", ownerToken, `{"amount_usd":1000000}`, 200, nil)
	call(b, h, "PUT", bot+"/guardrails", ownerToken, `{"approval_mode":"auto_approve_under_threshold",`+
		`"limits":{"per_transaction_usd":100,"daily_usd":100000000,"monthly_usd":100000000,"ask_approval_above_usd":null}}`, 200, nil)
	call(b, h, "POST", bot+"/cards", ownerToken, `{"card_name":"Bench card","missing_digits":"4242","expiry_month":"12",`+
		`"expiry_year":"2031","real_profile_index":1,"profiles":[{"profile_index":1,"allowance_duration":"month","allowance_usd":100000000}]}`, 201, nil)
	return apiKey
}
