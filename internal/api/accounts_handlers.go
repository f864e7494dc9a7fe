package api

import (
	"net/http"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/wire"
)

func (s *Server) requestPasswordReset(w http.ResponseWriter, r *http.Request) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var req wire.RequestPasswordResetRequest
	body.into(&req).text(&req.Email)
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.svc.Accounts().RequestPasswordReset(r.Context(), req.Email, clientIP(r)); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, wire.RequestPasswordResetResponse{Status: "accepted",
		Message: "if an owner account has this e-mail, a reset link is on its way; it works once, for one hour"})
}

func (s *Server) confirmPasswordReset(w http.ResponseWriter, r *http.Request) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var req wire.ConfirmPasswordResetRequest
	f := body.into(&req)
	f.text(&req.Token)
	f.text(&req.Password)
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	o, err := s.svc.Accounts().ConfirmPasswordReset(r.Context(), req.Token, req.Password)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, wire.ConfirmPasswordResetResponse{OwnerUID: o.ID, Email: o.Email, PasswordReset: true})
}

func (s *Server) resendVerification(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	if err := s.svc.Accounts().ResendVerification(r.Context(), o); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, wire.ResendEmailVerificationResponse{Email: o.Email, EmailVerified: o.EmailVerified()})
}

func viewSession(t botpay.OwnerToken) wire.OwnerSessionInfo {
	return wire.OwnerSessionInfo{ID: t.ID, Kind: t.Kind, CreatedAt: at(t.CreatedAt),
		LastUsedAt: optTime(t.LastUsedAt), ExpiresAt: at(t.ExpiresAt), Current: t.Current}
}

func (s *Server) sessions(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	current, _ := ownerCredential(r)
	list, err := s.svc.Accounts().Sessions(r.Context(), o, current)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]wire.OwnerSessionInfo, len(list))
	for i, t := range list {
		out[i] = viewSession(t)
	}
	writeJSON(w, http.StatusOK, wire.ListOwnerSessionsResponse{Sessions: out})
}

func (s *Server) revokeSession(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	id := pathID(r, "id")
	if err := s.svc.Accounts().RevokeSession(r.Context(), o, id); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, wire.RevokeOwnerSessionResponse{ID: id, Revoked: true})
}
