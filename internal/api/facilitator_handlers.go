package api

import (
	"errors"
	"net/http"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/facilitator"
)

// The x402 facilitator of a bot's own paid API: what stock x402 server
// middleware calls, with the bot's API key as its auth header.

func (s *Server) facilitatorSupported(w http.ResponseWriter, _ *http.Request, _ botpay.Bot) {
	writeJSON(w, http.StatusOK, s.svc.Payments().Facilitator().Supported())
}

func (s *Server) facilitatorVerify(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	body, err := readBody(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out, err := s.svc.Payments().Facilitator().Verify(r.Context(), bot.ID, body)
	if err != nil {
		writeError(w, r, facilitatorError(err))
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) facilitatorSettle(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	body, err := readBody(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out, err := s.svc.Payments().Facilitator().Settle(r.Context(), bot.ID, body)
	if err != nil {
		writeError(w, r, facilitatorError(err))
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// facilitatorError names a body that is no facilitator call at all.
func facilitatorError(err error) error {
	if errors.Is(err, facilitator.ErrBody) {
		return botpay.ValidationError(map[string]string{"body": err.Error()[len("facilitator: "):]})
	}
	return err
}
