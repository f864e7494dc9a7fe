package api

import (
	"net/http"
	"regexp"
	"strconv"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/wire"
)

// TunnelSessionHeader carries the client's session id.
const TunnelSessionHeader = "X-Tunnel-Session"

var sessionPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{8,64}$`)

func (s *Server) tunnelNext(w http.ResponseWriter, r *http.Request) {
	bot, err := s.svc.Notifications().AuthenticateTunnel(r.Context(), bearer(r))
	if err != nil {
		pollFailed(w, r, err)
		return
	}
	session := r.Header.Get(TunnelSessionHeader)
	if !sessionPattern.MatchString(session) {
		writeError(w, r, botpay.ValidationError(map[string]string{TunnelSessionHeader: "must be 8-64 of A-Z a-z 0-9 _ -"}))
		return
	}
	req, err := s.cfg.Tunnel.Next(r.Context(), bot.ID, session)
	if err != nil {
		pollFailed(w, r, err)
		return
	}
	if req == nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	authorization, err := s.svc.Notifications().TunnelAuthorization(r.Context(), bot.ID)
	if err != nil {
		pollFailed(w, r, err)
		return
	}
	if req.Headers == nil {
		req.Headers = http.Header{}
	}
	req.Headers.Set("Authorization", authorization)
	writeJSON(w, http.StatusOK, wire.TunnelNextResponse{RequestID: req.ID, Path: req.Path, Headers: req.Headers, Body: string(req.Body)})
}

// pollFailed answers a long poll that could not finish. A client that went
// away is a poll ended without a request, 204 as when the wait runs out,
// whichever database call its leaving interrupted: clients close long
// polls routinely, and that is no server error to log or count.
func pollFailed(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	writeError(w, r, err)
}

func (s *Server) tunnelResult(w http.ResponseWriter, r *http.Request) {
	bot, err := s.svc.Notifications().AuthenticateTunnel(r.Context(), bearer(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 1 {
		writeError(w, r, botpay.ErrNotFound("tunnel request"))
		return
	}
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var req wire.TunnelResultRequest
	f := body.into(&req)
	f.integer(&req.StatusCode)
	f.optText(&req.Error)
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	code, errText := deref(req.StatusCode), deref(req.Error)
	if code == 0 && errText == "" {
		writeError(w, r, botpay.ValidationError(map[string]string{f.name(&req.StatusCode): "is required unless error is given"}))
		return
	}
	if len(errText) > 500 {
		errText = errText[:500]
	}
	if err := s.cfg.Tunnel.Answer(r.Context(), bot.ID, id, code, errText); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, wire.TunnelResultResponse{Recorded: true})
}
