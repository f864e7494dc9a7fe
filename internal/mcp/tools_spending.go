package mcp

import (
	"context"
	"encoding/json"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/wire"
)

// checkoutInput is the body of a checkout and the idempotency key.
type checkoutInput struct {
	wire.CheckoutRequest
	idempotency
}

type checkoutStatusInput struct {
	ConfirmationID string `json:"confirmation_id" jsonschema:"the confirmation_id that checkout returned (chk_...)"`
}

func spendingTools() []toolDef {
	return []toolDef{
		endpoint(newTool("checkout",
			"Requests a purchase with the owner's card. The owner's guardrails run in this order: wallet active and not frozen, "+
				"card limits (per transaction, daily, monthly), the profile's allowance window, the owner's master budget, then the approval mode. "+
				"Three outcomes: approved at once (approved true, with missing_digits, expiry_month and expiry_year to complete the purchase at the merchant); "+
				"held for the owner (approved false, status pending_confirmation, confirmation_id and expires_at; this is not an error: call "+
				"get_checkout_status with the confirmation_id later, for up to "+span(botpay.HoldWindow)+"); or refused, as an error result with the code "+
				"(insufficient_funds, card_guardrail_violation, allowance_exceeded, master_budget_exceeded, wallet_frozen, wallet_not_active, invalid_profile, rate_limited). "+
				checkoutLimitText+" Pass an idempotency_key so a retry never buys twice.",
			hints{title: "Buy with the owner's card", destructive: true, openWorld: true},
			inputSchema[checkoutInput](), purchaseOutput),
			func(in checkoutInput, raw json.RawMessage) (call, error) {
				return relayed(raw, in.IdempotencyKey, (*client.Client).Checkout)
			}),
		endpoint(newTool("get_checkout_status",
			"Reads the state of a purchase by its confirmation_id: pending (the owner has not decided), approved (with the card details to "+
				"complete it), denied or expired (the owner did not decide within "+span(botpay.HoldWindow)+"). Poll a held purchase about every 15 seconds; "+
				"denied and expired are final.",
			hints{title: "Purchase status", readOnly: true}, inputSchema[checkoutStatusInput](), purchaseOutput),
			func(in checkoutStatusInput, _ json.RawMessage) (call, error) {
				return answered(func(bot *client.Client, ctx context.Context, opts ...client.CallOption) (*client.Checkout, error) {
					return bot.CheckoutStatus(ctx, in.ConfirmationID, opts...)
				}), nil
			}),
	}
}
