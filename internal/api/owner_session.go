package api

import (
	"net/http"

	"github.com/botpay/botpay/internal/botpay"
)

// sessionCookie is the dashboard session cookie (web.SessionCookie): its
// value is an owner token, so owner routes accept either it or a Bearer
// token (docs/decisions.md).
const sessionCookie = "botpay_session"

// sessionCSRF refuses state-changing requests that a browser says come from
// another origin; only cookie-authenticated requests need it, since a
// Bearer token is never sent by a browser on its own.
var sessionCSRF = http.NewCrossOriginProtection()

var errCrossOrigin = botpay.Errorf(botpay.KindForbidden, botpay.CodeCrossOrigin, "cross-origin requests with a session cookie are refused")

// ownerCredential picks the owner token of a request: the Bearer token, or
// else the session cookie after the cross-origin check.
func ownerCredential(r *http.Request) (string, error) {
	if token := bearer(r); token != "" {
		return token, nil
	}
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return "", nil
	}
	if err := sessionCSRF.Check(r); err != nil {
		return "", errCrossOrigin
	}
	return c.Value, nil
}
