package mcp

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/botpay/botpay/wire"
)

// adviceFor tells the agent what to do after a refusal with code.
func adviceFor(code, reason string) string {
	switch code {
	case "validation_error", "invalid_json", "Invalid request", CodeInvalidArguments:
		return "Fix the arguments named in details and call again."
	case "Authentication required", "unauthorized", "Invalid or missing API key":
		return "The API key is missing, wrong or revoked; the bot needs a valid key (its owner can rotate it). Do not retry."
	case "wallet_not_active", "wallet_not_found":
		return "The wallet is not active: the owner has not claimed this bot yet, or has no active rail. Ask the owner; do not retry."
	case "wallet_frozen":
		return "The owner froze this wallet. Nothing can be spent until the owner unfreezes it; do not retry."
	case "insufficient_funds":
		return "The balance is too low. Call request_topup with the amount needed and a reason, then wait for wallet.topup.completed or wallet.funded."
	case "insufficient_token_balance":
		return "The processor wallet holds too little USDC. Call request_topup so the owner funds it; do not retry now."
	case "card_guardrail_violation", "allowance_exceeded", "master_budget_exceeded":
		return "The owner's spending limits refuse this amount now (see get_spending_rules). Do not retry the same purchase; ask the owner or wait for the budget window to reset."
	case "guardrail_blocked":
		return "The owner's guardrails or procurement controls refused this payment" + because(reason) + ". Do not retry it; choose another vendor or ask the owner."
	case "card_not_active", "card_not_found", "card_id_required", "invalid_profile":
		return "Check the card_id and profile_index against what the owner set up (get_status shows the rails)."
	case "no_processor_wallet":
		return "This bot has no processor wallet yet; its owner must create one before x402 payments can be signed."
	case "rate_limited":
		return "Too many requests: wait retry_after_seconds before calling again."
	case "idempotency_key_reused":
		return "This idempotency_key was used with other arguments; use a fresh key for a new operation."
	case CodeServiceUnreachable:
		return "The botpay service did not answer; try again in a little while."
	case CodeDestinationRefused:
		return "The outbound guard refuses internal, private and metadata addresses; only public URLs can be fetched."
	case CodeOverMaxAmount:
		return "The resource asks more than max_amount_usdc allows; raise the limit only if the price is acceptable."
	case CodeApprovalPending:
		return "The owner has not decided yet; call again later with the same approval_id."
	}
	return ""
}

func because(reason string) string {
	if reason == "" {
		return ""
	}
	return " (" + reason + ")"
}

// nextStep tells the agent what to do after a successful answer of tool, or
// "" when the answer speaks for itself.
func nextStep(tool string, status int, body []byte) string {
	switch tool {
	case "checkout", "get_checkout_status":
		var p wire.Purchase
		json.Unmarshal(body, &p)
		return purchaseStep(tool, status, p)
	case "sign_x402_payment":
		if status != http.StatusAccepted {
			return "Send x_payment_header as the X-PAYMENT header when you retry the resource, before valid_before (or let pay_x402_resource do all of it)."
		}
		var held wire.SigningHeld
		json.Unmarshal(body, &held)
		return fmt.Sprintf("Held for the owner's approval: approval_id %d, open until %s. This is not an error. When the owner approves, "+
			"a purchase.approved message (list_messages, or your webhook) carries x_payment_header; or call pay_x402_resource with this approval_id.",
			held.ApprovalID, timeText(&held.ExpiresAt))
	case "send_invoice":
		var sent wire.SendInvoiceResponse
		if json.Unmarshal(body, &sent) == nil && !sent.EmailSent {
			return "The invoice is marked sent but no e-mail went out (" + deref(sent.EmailReason) + "); share payment_url with the recipient yourself."
		}
	case "list_messages":
		var page wire.ListMessagesResponse
		if json.Unmarshal(body, &page) == nil && page.Count > 0 {
			return "Handle each message, then call ack_messages with their message_id values so they are not shown again."
		}
	}
	return ""
}

// purchaseStep is nextStep for an answer of checkout or of its status.
func purchaseStep(tool string, status int, p wire.Purchase) string {
	switch {
	case tool == "checkout" && status == http.StatusAccepted:
		return fmt.Sprintf("Held for the owner's approval: confirmation_id %s (the approval id), open until %s. "+
			"This is not an error. Call get_checkout_status with confirmation_id %s about every 15 seconds until its status is approved, denied or expired; do not call checkout again for this purchase.",
			p.ConfirmationID, timeText(p.ExpiresAt), p.ConfirmationID)
	case tool == "checkout" || p.Status == "approved":
		return "Approved: complete the purchase at the merchant with these card details."
	case p.Status == "pending":
		return "Still waiting for the owner until " + timeText(p.ExpiresAt) + "; call get_checkout_status again in about 15 seconds."
	}
	return "Final: the owner did not approve this purchase (" + p.Status + "). Do not retry it unless the owner asks."
}

// timeText writes t as the API does, "" when absent.
func timeText(t *wire.Timestamp) string {
	if t == nil || t.IsZero() {
		return ""
	}
	return t.UTC().Format(wire.TimeLayout)
}
