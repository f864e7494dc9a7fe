package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/botpay/botpay/wire"
)

// Error codes a bot commonly branches on (docs/api.md, docs/decisions.md);
// use them with IsCode.
const (
	CodeValidation            = "validation_error"
	CodeInvalidJSON           = "invalid_json"
	CodeInvalidPairingCode    = "invalid_pairing_code"
	CodeDuplicateRegistration = "duplicate_registration"
	CodeRateLimited           = "rate_limited"
	CodeWalletNotActive       = "wallet_not_active"
	CodeWalletFrozen          = "wallet_frozen"
	CodeNotFound              = "not_found"
	CodeAuthRequired          = "Authentication required"
	CodeIdempotencyKeyReused  = "idempotency_key_reused"
	CodeIdempotencyKeyInUse   = "idempotency_key_in_use"
	CodeInternal              = "internal_error"

	// Owner API (docs/decisions.md).
	CodeEmailTaken         = "email_taken"
	CodeInvalidCredentials = "invalid_credentials"
	CodeInvalidClaimToken  = "invalid_claim_token"
	CodeAlreadyClaimed     = "already_claimed"
	CodeEmailNotVerified   = "email_not_verified"
	CodeLoginThrottled     = "login_throttled"
	// A password-reset link that is unknown, expired or already used.
	CodeInvalidLink = "invalid_link"
	// An owner's decision link (approve or deny from an e-mail).
	CodeLinkExpired = "link_expired"
	CodeLinkUsed    = "link_used"
	// An owner call made by a browser from another site.
	CodeCrossOrigin = "cross_origin_request"

	// Requests refused before they are read.
	CodeMethodNotAllowed = "method_not_allowed"
	CodePayloadTooLarge  = "payload_too_large"
	// A list's cursor that the service did not issue for this list.
	CodeInvalidCursor = "invalid_cursor"
	// A key in the grace period of a rotation reads and spends, but may not
	// rotate again or change the bot.
	CodeKeySuperseded  = "key_superseded"
	CodeTunnelNotInUse = "tunnel_not_in_use"
	// What only a sandbox service may do.
	CodeLiveMode = "live_mode"

	// The service could not answer for now; retry after Retry-After.
	CodeServiceUnavailable  = "service_unavailable"
	CodeDatabaseUnreachable = "database_unreachable"
	// The chain did not answer; nothing was promised, sent or recorded.
	CodeChainUnavailable = "chain_unavailable"

	// Payments and refunds.
	CodePaymentInProgress   = "payment_in_progress"
	CodeDuplicatePayment    = "duplicate_payment"
	CodePaymentIDReused     = "payment_identifier_reused"
	CodeRefundExceedsAmount = "refund_exceeds_amount"
	CodeNotRefundable       = "not_refundable"
	CodeRefundRefused       = "refund_refused"
)

// Error is a non-2xx answer of the service, decoded from the error shape of
// the API reference (docs/api.md): {"error": code, "message": text, "details": {...},
// "retry_after_seconds": n}.
type Error struct {
	StatusCode int
	// Code is the "error" field: "validation_error", "wallet_not_active",
	// "rate_limited", "Authentication required", ... Empty when the body was
	// not the service's JSON (a proxy's HTML page, for example).
	Code    string
	Message string
	// Details names the offending fields of a validation_error.
	Details map[string]string
	// RetryAfterSeconds comes with 429 rate_limited (from the body, else the
	// Retry-After header).
	RetryAfterSeconds int
	// RequestID identifies the request in the service's logs; quote it when
	// reporting a 500.
	RequestID string
	// Reason explains a 403 guardrail_blocked of the signing endpoint.
	Reason string
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "botpay: HTTP %d", e.StatusCode)
	if e.Code != "" {
		b.WriteString(" " + e.Code)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if len(e.Details) > 0 {
		fmt.Fprintf(&b, " %v", e.Details)
	}
	if e.RequestID != "" {
		b.WriteString(" (request " + e.RequestID + ")")
	}
	return b.String()
}

// IsCode reports whether err is, or wraps, an *Error with the given code.
func IsCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// decodeError builds an *Error from a non-2xx answer. It never fails: a body
// that is not the service's JSON still yields the status and a message.
func decodeError(resp *http.Response, body []byte) *Error {
	e := &Error{StatusCode: resp.StatusCode, RequestID: resp.Header.Get("X-Request-Id")}
	var answer wire.Error
	err := json.Unmarshal(body, &answer)
	// A member of an unexpected type (a detail that is not a string, in a
	// future version) must not hide the error code itself.
	var typeErr *json.UnmarshalTypeError
	if (err != nil && !errors.As(err, &typeErr)) || answer.Error == "" {
		e.Message = shorten(strings.TrimSpace(string(body)), 200)
		if e.Message == "" {
			e.Message = http.StatusText(resp.StatusCode)
		}
	} else {
		fillError(e, answer, body, err != nil)
	}
	if e.RetryAfterSeconds == 0 {
		// Only the delay-seconds form; the service never sends an HTTP date.
		if n, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && n > 0 {
			e.RetryAfterSeconds = n
		}
	}
	return e
}

// fillError copies the service's error answer into e; partial says some
// member did not decode, so the details are read again one by one.
func fillError(e *Error, answer wire.Error, body []byte, partial bool) {
	e.Code, e.Message = answer.Error, text(answer.Message)
	if answer.RetryAfterSeconds != nil {
		e.RetryAfterSeconds = *answer.RetryAfterSeconds
	}
	if id := text(answer.RequestID); id != "" {
		e.RequestID = id
	}
	if len(answer.Details) > 0 {
		e.Details = answer.Details
	}
	if partial {
		e.Details = rawDetails(body)
	}
	if e.Code == CodeGuardrailBlocked {
		var blocked wire.GuardrailBlocked
		if json.Unmarshal(body, &blocked) == nil {
			e.Reason = blocked.Reason
		}
	}
}

// rawDetails reads the details of an error answer value by value: a value
// that is not a string becomes its JSON text.
func rawDetails(body []byte) map[string]string {
	var doc, details map[string]json.RawMessage
	if json.Unmarshal(body, &doc) != nil || json.Unmarshal(doc["details"], &details) != nil || len(details) == 0 {
		return nil
	}
	out := make(map[string]string, len(details))
	for field, raw := range details {
		var text string
		if json.Unmarshal(raw, &text) != nil {
			text = string(raw)
		}
		out[field] = text
	}
	return out
}

// shorten cuts s to at most max bytes on a rune boundary.
func shorten(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}
