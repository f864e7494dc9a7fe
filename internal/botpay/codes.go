package botpay

// Error codes of x402 signing, settlement, processor wallets, owner
// decision links, keys and the service itself (docs/api.md). Every code
// the service answers is a constant of this package.
const (
	// The signing endpoint's bodies are exactly these (docs/decisions.md).
	CodeInvalidSignRequest = "Invalid request"
	CodeSignAuthFailed     = "Invalid or missing API key"
	CodeGuardrailBlocked   = "guardrail_blocked"
	CodeInsufficientTokens = "insufficient_token_balance"
	CodePaymentInProgress  = "payment_in_progress"
	// An x402 v2 payment identifier sent again with another authorization.
	CodePaymentIdentifierReused = "payment_identifier_reused"
	CodeNoProcessorWallet       = "no_processor_wallet"
	CodeLinkExpired             = "link_expired"
	CodeLinkUsed                = "link_used"
	CodeKeySuperseded           = "key_superseded"
	CodeTunnelNotInUse          = "tunnel_not_in_use"
	CodeCrossOrigin             = "cross_origin_request"
	CodeLiveMode                = "live_mode" // what only the sandbox may do
	CodeVendorNotFound          = "vendor_not_found"
	CodeDatabaseUnreachable     = "database_unreachable" // GET /readyz
)
