package web

import (
	"net/http"
	"strconv"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/bots"
)

// Dashboard pages for the owner's keys and credentials: rotating a bot's
// API key, listing and revoking sessions and tokens, asking for a new
// verification link.

type newKeyPage struct {
	Bot      botpay.Bot
	Rotation bots.KeyRotation
	Revoked  bool
}

func (newKeyPage) PageTitle() string { return "New API key" }

func (p *Pages) rotateKey(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	b, err := p.ownedBot(r, owner)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	grace, err := strconv.Atoi(r.PostFormValue("grace_seconds"))
	if err != nil {
		p.fail(w, r, botpay.ValidationError(map[string]string{"grace_seconds": "must be a whole number of seconds"}))
		return
	}
	rot, err := p.svc.Bots().RotateAPIKeyAsOwner(r.Context(), owner, b.ID, grace)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	p.renderDash(w, r, http.StatusOK, "newkey", newKeyPage{Bot: b, Rotation: rot, Revoked: grace == 0})
}

type sessionsPage struct {
	Sessions []botpay.OwnerToken
	Verified bool
}

func (sessionsPage) PageTitle() string { return "Sessions" }

func (p *Pages) sessionsPage(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	list, err := p.svc.Accounts().Sessions(r.Context(), owner, SessionToken(r))
	if err != nil {
		p.fail(w, r, err)
		return
	}
	p.renderDash(w, r, http.StatusOK, "sessions", sessionsPage{Sessions: list, Verified: owner.EmailVerified()})
}

func (p *Pages) revokeSession(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	if err := p.svc.Accounts().RevokeSession(r.Context(), owner, r.PathValue("id")); err != nil {
		p.fail(w, r, err)
		return
	}
	done(w, r, "/dashboard/sessions", "revoked")
}

func (p *Pages) resendVerification(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	if err := p.svc.Accounts().ResendVerification(r.Context(), owner); err != nil {
		p.fail(w, r, err)
		return
	}
	done(w, r, "/dashboard/sessions", "verification")
}
