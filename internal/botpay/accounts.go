package botpay

// Keys and accounts: rail.updated action, error codes and the
// kinds of owner credentials.

// ActionAPIKeyRotated is the rails.updated action of an API key rotation.
const ActionAPIKeyRotated = "api_key_rotated"

// Error codes of key rotation and owner accounts.
const (
	CodeEmailNotVerified = "email_not_verified"
	CodeInvalidLink      = "invalid_link"
	CodeLoginThrottled   = "login_throttled"
)

// Owner credential kinds, as GET /api/v1/owner/sessions lists them.
const (
	OwnerTokenSession  = "session"   // a dashboard session (cookie), fixed life
	OwnerTokenAPIToken = "api_token" // a bearer token from signup or login, sliding life
)

// MaxKeyGraceSeconds bounds how long a rotated API key may keep working (a
// week).
const MaxKeyGraceSeconds = 604800
