package facilitator

// Reasons a facilitator call is refused (invalidReason, errorReason),
// beside the service's settlement reasons (insufficient_funds,
// invalid_signature, authorization_used, expired, …) passed through.
const (
	ReasonInvalidPayload      = "invalid_payload"
	ReasonInvalidRequirements = "invalid_payment_requirements"
	ReasonInvalidVersion      = "invalid_x402_version"
	ReasonUnsupportedScheme   = "unsupported_scheme"
	ReasonAcceptedMismatch    = "accepted_mismatch"
	ReasonWrongNetwork        = "wrong_network"
	ReasonWrongToken          = "wrong_token"
	ReasonInvalidPayee        = "invalid_payee"
	ReasonAmountNotCents      = "amount_not_whole_cents"
)

var reasonMessages = map[string]string{
	"insufficient_funds":         "the payer's balance does not cover the amount",
	"invalid_signature":          "the signature was not made by the payer for this authorization",
	"authorization_used":         "this authorization was used already",
	"authorization_already_used": "this authorization was used already",
	"expired":                    "the authorization has expired (or expires too soon to be mined)",
	"not_yet_valid":              "the authorization is not valid yet",
	"wrong_recipient":            "the authorization pays another address than payTo",
	"wrong_amount":               "the authorized value is not the required amount",
	"wrong_network":              "the authorization is for another chain",
	"wrong_token":                "the authorization is for another token",
	"settlement_failed":          "the transfer failed on chain",
	"settlement_unavailable":     "the chain could not be reached; try again",
}

func reasonMessage(reason string) string {
	if m, ok := reasonMessages[reason]; ok {
		return m
	}
	return "the payment was refused: " + reason
}
