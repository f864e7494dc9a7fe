package botpay

import (
	"errors"
	"fmt"
)

// Kind classifies an Error; Kind.HTTPStatus maps each kind to one HTTP status in a
// single place, so the domain never thinks in status codes.
type Kind int

const (
	KindInternal         Kind = iota // unexpected failure: 500
	KindInvalid                      // the request itself is wrong: 400
	KindUnauthenticated              // no or bad credentials: 401
	KindPaymentRequired              // not enough money: 402
	KindForbidden                    // understood, but not allowed: 403
	KindNotFound                     // no such record for this caller: 404
	KindConflict                     // clashes with current state: 409
	KindGone                         // existed, no longer actionable: 410
	KindTooLarge                     // request body too large: 413
	KindRateLimited                  // too many requests: 429
	KindMethodNotAllowed             // wrong HTTP method for the route: 405
	KindUnavailable                  // a dependency (the database) cannot be reached: 503
)

// ErrOutcomeUnknown marks a change whose database connection broke after
// COMMIT was sent: it may or may not have been applied.
var ErrOutcomeUnknown = errors.New("the database connection broke after COMMIT was sent; the outcome is unknown")

// CodeServiceUnavailable answers requests while the database cannot be
// reached; they are safe to retry after Retry-After.
const CodeServiceUnavailable = "service_unavailable"

// Error is the one error type the domain hands outward. Code is the public
// machine-readable code (docs/api.md); Message is for humans.
type Error struct {
	Kind    Kind
	Code    string
	Message string
	// Details names offending fields for validation errors.
	Details map[string]string
	// RetryAfterSeconds is set for rate-limit errors.
	RetryAfterSeconds int
	// Limit names the rate limit that refused the request, for the
	// RateLimit-Policy and RateLimit headers; LimitResetSeconds is when
	// the oldest request it counted leaves its window (RateLimit's t=),
	// which a fixed Retry-After may exceed.
	Limit             *RateLimit
	LimitResetSeconds int
}

// RateLimit describes a rolling-window limit: Quota requests per
// WindowSeconds, named by Policy ("register", "checkout", …).
type RateLimit struct {
	Policy        string
	Quota         int
	WindowSeconds int
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Errorf builds an Error with a formatted message.
func Errorf(kind Kind, code, format string, args ...any) *Error {
	return &Error{Kind: kind, Code: code, Message: fmt.Sprintf(format, args...)}
}

// ValidationError reports invalid fields; details maps field name to problem.
func ValidationError(details map[string]string) *Error {
	msg := "request has invalid fields"
	if len(details) == 1 {
		for field, problem := range details {
			msg = field + " " + problem
		}
	}
	return &Error{Kind: KindInvalid, Code: CodeValidation, Message: msg, Details: details}
}

// AsError returns the *Error inside err, or nil.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// Public error codes shared by several packages.
const (
	CodeValidation            = "validation_error"
	CodeInvalidJSON           = "invalid_json"
	CodeInvalidPairingCode    = "invalid_pairing_code"
	CodeDuplicateRegistration = "duplicate_registration"
	CodeRateLimited           = "rate_limited"
	CodeWalletNotActive       = "wallet_not_active"
	CodeWalletNotFound        = "wallet_not_found"
	CodeWalletFrozen          = "wallet_frozen"
	CodeNotFound              = "not_found"
	CodeInternal              = "internal_error"
	CodeAuthRequired          = "Authentication required"
	CodeUnauthorized          = "unauthorized"
	CodeInvalidCredentials    = "invalid_credentials"
	CodeInvalidClaimToken     = "invalid_claim_token"
	CodeEmailTaken            = "email_taken"
	CodeIdempotencyReused     = "idempotency_key_reused"
	CodeIdempotencyInUse      = "idempotency_key_in_use"
	CodeMethodNotAllowed      = "method_not_allowed"
	CodePayloadTooLarge       = "payload_too_large"
	CodeAlreadyClaimed        = "already_claimed"
)

// ErrNotFound is a generic 404 for records that are missing or belong to
// somebody else; the two cases must be indistinguishable.
func ErrNotFound(what string) *Error {
	return Errorf(KindNotFound, CodeNotFound, "%s not found", what)
}

// ErrWalletNotActive is the 403 for bots whose owner has not claimed them.
var ErrWalletNotActive = &Error{Kind: KindForbidden, Code: CodeWalletNotActive,
	Message: "the wallet is not active: the bot's owner has not claimed it yet"}

// ErrKeySuperseded refuses a key in the grace period of a rotation what
// only the current key may do: rotate, or change the bot's profile or
// callback. Such a key reads and spends until its grace period ends, but a
// leaked one must not take the bot over.
var ErrKeySuperseded = &Error{Kind: KindForbidden, Code: CodeKeySuperseded,
	Message: "this API key was rotated and only reads and spends until its grace period ends; use the current key"}
