package api

import (
	"bytes"
	"net/http"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/wire"
)

func (s *Server) rotateKeyAsOwner(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	grace, err := graceSeconds(r, bots.OwnerRotationGrace)
	if err != nil {
		writeError(w, r, err)
		return
	}
	rot, err := s.svc.Bots().RotateAPIKeyAsOwner(r.Context(), o, pathID(r, "bot_id"), grace)
	writeRotation(w, r, rot, err)
}

func (s *Server) rotateKeyAsBot(w http.ResponseWriter, r *http.Request, b botpay.Bot) {
	grace, err := graceSeconds(r, bots.BotRotationGrace)
	if err != nil {
		writeError(w, r, err)
		return
	}
	rot, err := s.svc.Bots().RotateAPIKeyAsBot(r.Context(), b, bearer(r), grace)
	writeRotation(w, r, rot, err)
}

// writeRotation answers a rotation; its answer is never replayed: a retry
// with its key (the previous key's included) gets 409
// idempotency_key_reused, and a bot that lost the answer still holds its
// previous key through the grace period while its owner rotates again.
func writeRotation(w http.ResponseWriter, r *http.Request, rot bots.KeyRotation, err error) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	noteNeverReplayed(r)
	writeJSON(w, http.StatusOK, wire.KeyRotation{APIKey: rot.APIKey, PreviousKeyExpiresAt: at(rot.PreviousKeyExpiresAt)})
}

// graceSeconds reads {"grace_seconds"} from a body that may be empty (the
// default then applies).
func graceSeconds(r *http.Request, def int) (int, error) {
	data, err := readBody(r)
	if err != nil {
		return 0, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return def, nil
	}
	body, err := decodeObject(data)
	if err != nil {
		return 0, err
	}
	var req wire.KeyRotationRequest
	body.into(&req).integer(&req.GraceSeconds)
	if req.GraceSeconds != nil {
		def = *req.GraceSeconds
	}
	return def, body.err()
}
