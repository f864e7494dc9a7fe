package mcp

import (
	"encoding/json"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/wire"
)

// signInput is the body of a signing request and the idempotency key.
type signInput struct {
	wire.SignX402PaymentRequest
	idempotency
}

func x402Tools() []toolDef {
	return []toolDef{
		endpoint(newTool("sign_x402_payment",
			"Signs a USDC payment (EIP-3009 TransferWithAuthorization) from this bot's processor wallet for an HTTP 402 (x402) resource, "+
				"within the owner's guardrails: master guardrails, approval mode, threshold, per-transaction, daily and monthly limits, and "+
				"procurement controls (allowed and blocked domains, recipients). Answers x_payment_header to send as the X-PAYMENT header "+
				"when retrying the resource (with payment_required, also payment_signature_header for PAYMENT-SIGNATURE in x402 v2 or "+
				"x_payment_standard_header for a stock v1 seller's X-PAYMENT), or, when the owner must approve first, status awaiting_approval with an approval_id (not an "+
				"error: the signed header arrives in a purchase.approved message once the owner approves). Refusals are error results: "+
				"guardrail_blocked (with a reason), insufficient_token_balance, no_processor_wallet. Prefer pay_x402_resource, which does the "+
				"whole exchange with the resource.",
			hints{title: "Sign an x402 payment", destructive: true},
			inputSchema[signInput](describe("valid_before", "Unix time after which the signature is void; default now plus "+
				span(botpay.SignatureDefaultValidity))), signOutput),
			func(in signInput, raw json.RawMessage) (call, error) {
				return relayed(raw, in.IdempotencyKey, (*client.Client).Sign)
			}),
		payTool(),
	}
}
