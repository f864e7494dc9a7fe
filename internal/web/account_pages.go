package web

import (
	"net/http"

	"github.com/botpay/botpay/internal/botpay"
)

// Account pages without a session: "forgot password" (/forgot), the reset
// form a mailed link opens (/reset?token=…) and the e-mail verification
// link (/verify-email?token=…). Each calls the same app use case as the
// owner API.

type accountPage struct {
	Mode  string // "forgot" or "reset"
	Email string
	Token string
	Error string
}

func (a accountPage) PageTitle() string {
	if a.Mode == "forgot" {
		return "Forgot password"
	}
	return "Reset password"
}

func (p *Pages) forgotForm(w http.ResponseWriter, r *http.Request) {
	p.renderDash(w, r, http.StatusOK, "account", accountPage{Mode: "forgot"})
}

func (p *Pages) resetForm(w http.ResponseWriter, r *http.Request) {
	p.renderDash(w, r, http.StatusOK, "account", accountPage{Mode: "reset", Token: r.URL.Query().Get("token")})
}

func (p *Pages) forgotSubmit(w http.ResponseWriter, r *http.Request) {
	pg := accountPage{Mode: "forgot", Email: r.PostFormValue("email")}
	if err := p.svc.Accounts().RequestPasswordReset(r.Context(), pg.Email, p.clientIP(r)); err != nil {
		p.accountError(w, r, pg, err)
		return
	}
	p.renderDash(w, r, http.StatusAccepted, "message", msgPage{Title: "Check your inbox",
		Text: "If an owner account has this e-mail address, a link to choose a new password is on its way. It works once, for one hour.",
		Link: "/login"})
}

func (p *Pages) resetSubmit(w http.ResponseWriter, r *http.Request) {
	pg := accountPage{Mode: "reset", Token: r.PostFormValue("token")}
	if _, err := p.svc.Accounts().ConfirmPasswordReset(r.Context(), pg.Token, r.PostFormValue("password")); err != nil {
		p.accountError(w, r, pg, err)
		return
	}
	p.clearSession(w)
	p.renderDash(w, r, http.StatusOK, "message", msgPage{Title: "Password changed",
		Text: "Your new password is set, and every earlier session and owner API token has ended. Log in with the new password.",
		Link: "/login"})
}

func (p *Pages) accountError(w http.ResponseWriter, r *http.Request, pg accountPage, err error) {
	e := botpay.AsError(err)
	if e == nil {
		p.fail(w, r, err)
		return
	}
	pg.Error = errorText(e)
	p.renderDash(w, r, errorStatus(e), "account", pg)
}

func (p *Pages) verifyEmail(w http.ResponseWriter, r *http.Request) {
	o, err := p.svc.Accounts().VerifyEmail(r.Context(), r.URL.Query().Get("token"))
	if err != nil {
		p.fail(w, r, err)
		return
	}
	p.renderDash(w, r, http.StatusOK, "message", msgPage{Title: "E-mail verified",
		Text: o.Email + " is verified. Thank you.", Link: "/dashboard"})
}
