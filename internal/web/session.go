package web

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/accounts"
	"github.com/botpay/botpay/internal/botpay"
)

// SessionCookie names the dashboard session cookie. Its value is an owner
// token (the same kind the owner API takes as a Bearer token), so a session
// is looked up by digest and revoked like any owner token.
const SessionCookie = "botpay_session"

// SessionToken returns the owner token of the request's session cookie, or
// "" when there is none.
func SessionToken(r *http.Request) string {
	c, err := r.Cookie(SessionCookie)
	if err != nil {
		return ""
	}
	return c.Value
}

// openSession signs the owner up (mode "signup") or in for a dashboard
// session, whose token the server stops honouring after
// accounts.DashboardSessionFor, as the browser drops the cookie.
func (p *Pages) openSession(r *http.Request, mode, email, password string) (accounts.OwnerSession, error) {
	if mode == "signup" {
		return p.svc.Accounts().SignupForDashboard(r.Context(), email, password, p.clientIP(r))
	}
	return p.svc.Accounts().LoginForDashboard(r.Context(), email, password, p.clientIP(r))
}

// setSession stores a fresh owner token in the session cookie: HttpOnly,
// SameSite=Lax, Secure when the service is served over https.
func (p *Pages) setSession(w http.ResponseWriter, token string) {
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: token, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: p.secureCookies(), MaxAge: int(accounts.DashboardSessionFor / time.Second)})
}

func (p *Pages) clearSession(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: "", Path: "/", HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: p.secureCookies(), MaxAge: -1})
}

func (p *Pages) secureCookies() bool {
	return strings.HasPrefix(strings.ToLower(p.svc.BaseURL()), "https://")
}

type ownerCtxKey struct{}

// signedIn runs h for a request with a valid session; others are sent to
// the login page (GET) or refused (anything else).
func (p *Pages) signedIn(h func(w http.ResponseWriter, r *http.Request, owner botpay.Owner)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		token := SessionToken(r)
		if token == "" {
			p.toLogin(w, r)
			return
		}
		o, err := p.svc.Accounts().AuthenticateOwner(r.Context(), token)
		if err != nil {
			if botpay.AsError(err) == nil {
				p.fail(w, r, err)
				return
			}
			p.clearSession(w)
			p.toLogin(w, r)
			return
		}
		h(w, r.WithContext(context.WithValue(r.Context(), ownerCtxKey{}, o)), o)
	}
}

func (p *Pages) toLogin(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		p.renderDash(w, r, http.StatusUnauthorized, "message", msgPage{Title: "Signed out", Text: "Your session has ended. Log in and try again.", Link: "/login"})
		return
	}
	next := r.URL.RequestURI()
	http.Redirect(w, r, "/login?next="+urlQueryEscape(next), http.StatusSeeOther)
}
