package notifications

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// Tunnel request states.
const (
	tunnelQueued    = "queued"    // written by a dispatcher
	tunnelSent      = "sent"      // handed to the tunnel client
	tunnelAnswered  = "answered"  // the client reported the gateway's answer
	tunnelAbandoned = "abandoned" // the dispatcher stopped waiting
)

// touchTunnelSession records that the bot's tunnel client (session) is
// polling. When no live session existed (first connection, or a reconnect
// after a disconnect or a long silence) it resets the webhook health of the
// managed-tunnel bot to active/0: connecting the tunnel is how such a bot
// points its webhook somewhere (docs/api.md recovery). It reports
// whether the session is new.
func (h *Hub) touchTunnelSession(ctx context.Context, botID, session string, staleAfter time.Duration) (bool, error) {
	now := h.db.Clock().Now()
	var fresh bool
	err := h.db.InTx(ctx, func(tx *kernel.Tx) error {
		var current string
		var seen int64
		err := tx.QueryRow(ctx, `SELECT session_id, seen_at FROM tunnel_sessions WHERE bot_id = $1`+tx.ForUpdate(), botID).Scan(&current, &seen)
		switch {
		case isNoRows(err):
			fresh = true
			_, err = tx.Exec(ctx, `INSERT INTO tunnel_sessions (bot_id, session_id, connected_at, seen_at) VALUES ($1, $2, $3, $3)`,
				botID, session, ms(now))
		case err != nil:
			return err
		default:
			fresh = current != session || seen <= ms(now.Add(-staleAfter))
			if fresh {
				_, err = tx.Exec(ctx, `UPDATE tunnel_sessions SET session_id = $1, connected_at = $2, seen_at = $2 WHERE bot_id = $3`,
					session, ms(now), botID)
			} else {
				_, err = tx.Exec(ctx, `UPDATE tunnel_sessions SET seen_at = $1 WHERE bot_id = $2`, ms(now), botID)
			}
		}
		if err != nil || !fresh {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE bots SET webhook_status = $1, webhook_fail_count = 0, updated_at = $2
			WHERE id = $3 AND callback_url IS NULL`, botpay.WebhookActive, ms(now), botID)
		return err
	})
	return fresh, wrapErr(err, "touch tunnel session %s", botID)
}

// closeTunnelSession ends the session when its client went away, and fails
// the requests handed to it but not answered, so dispatchers stop waiting.
func (h *Hub) closeTunnelSession(ctx context.Context, botID, session string) error {
	return wrapErr(h.db.InTx(ctx, func(tx *kernel.Tx) error {
		res, err := tx.Exec(ctx, `DELETE FROM tunnel_sessions WHERE bot_id = $1 AND session_id = $2`, botID, session)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil // a newer session took over
		}
		_, err = tx.Exec(ctx, `UPDATE tunnel_requests SET state = $1, error = 'tunnel client disconnected', answered_at = $2
			WHERE bot_id = $3 AND state IN ($4, $5)`, tunnelAnswered, ms(h.db.Clock().Now()), botID, tunnelQueued, tunnelSent)
		return err
	}), "close tunnel session %s", botID)
}

// tunnelLive reports whether the bot's tunnel client polled within
// staleAfter.
func (h *Hub) tunnelLive(ctx context.Context, botID string, staleAfter time.Duration) (bool, error) {
	var n int
	err := h.db.QueryRow(ctx, `SELECT COUNT(*) FROM tunnel_sessions WHERE bot_id = $1 AND seen_at > $2`,
		botID, ms(h.db.Clock().Now().Add(-staleAfter))).Scan(&n)
	return n > 0, wrapErr(err, "tunnel live %s", botID)
}

// TunnelRequest is one delivery travelling through a tunnel.
type TunnelRequest struct {
	ID      int64
	Path    string
	Headers http.Header
	Body    []byte
}

// queueTunnelRequest queues a delivery for the bot's tunnel client.
func (h *Hub) queueTunnelRequest(ctx context.Context, botID string, r TunnelRequest, expires time.Time) (int64, error) {
	headers, err := json.Marshal(r.Headers)
	if err != nil {
		return 0, wrapErr(err, "queue tunnel request %s", botID)
	}
	var id int64
	err = h.db.InTx(ctx, func(tx *kernel.Tx) error {
		return tx.QueryRow(ctx, `INSERT INTO tunnel_requests (bot_id, path, headers, body, state, created_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
			botID, r.Path, string(headers), string(r.Body), tunnelQueued, ms(h.db.Clock().Now()), ms(expires)).Scan(&id)
	})
	return id, wrapErr(err, "queue tunnel request %s", botID)
}

// claimTunnelRequest hands the oldest unexpired queued request of the bot to
// its client.
func (h *Hub) claimTunnelRequest(ctx context.Context, botID string) (*TunnelRequest, error) {
	skipLocked := h.db.Driver().SkipLocked()
	var out *TunnelRequest
	err := h.db.InTx(ctx, func(tx *kernel.Tx) error {
		var r TunnelRequest
		var headers, body string
		err := tx.QueryRow(ctx, `UPDATE tunnel_requests SET state = $1 WHERE id = (SELECT id FROM tunnel_requests
			WHERE bot_id = $2 AND state = $3 AND expires_at > $4 ORDER BY id LIMIT 1`+skipLocked+`)
			RETURNING id, path, headers, body`, tunnelSent, botID, tunnelQueued, ms(h.db.Clock().Now())).Scan(&r.ID, &r.Path, &headers, &body)
		if isNoRows(err) {
			return nil
		}
		if err != nil {
			return err
		}
		r.Body = []byte(body)
		if err := json.Unmarshal([]byte(headers), &r.Headers); err != nil {
			return err
		}
		out = &r
		return nil
	})
	return out, wrapErr(err, "claim tunnel request %s", botID)
}

// answerTunnelRequest records the gateway's answer (status) or the client's
// failure to reach it (errText). Only a request handed out to this bot and
// not yet answered can be answered.
func (h *Hub) answerTunnelRequest(ctx context.Context, botID string, id int64, status int, errText string) error {
	return wrapErr(h.db.InTx(ctx, func(tx *kernel.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE tunnel_requests SET state = $1, status_code = $2, error = $3, answered_at = $4
			WHERE id = $5 AND bot_id = $6 AND state = $7`,
			tunnelAnswered, status, nullString(errText), ms(h.db.Clock().Now()), id, botID, tunnelSent)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return botpay.ErrNotFound("tunnel request")
		}
		return nil
	}), "answer tunnel request %s", botID)
}

// tunnelAnswer reads a request's answer; done is false while it waits.
func (h *Hub) tunnelAnswer(ctx context.Context, id int64) (done bool, status int, errText string, err error) {
	var state string
	var code sql.NullInt64
	var e sql.NullString
	err = h.db.QueryRow(ctx, `SELECT state, status_code, error FROM tunnel_requests WHERE id = $1`, id).Scan(&state, &code, &e)
	return state == tunnelAnswered, int(code.Int64), e.String, wrapErr(err, "tunnel answer")
}

// abandonTunnelRequest stops a request nobody answered in time; a late
// answer is then refused.
func (h *Hub) abandonTunnelRequest(ctx context.Context, id int64) error {
	return wrapErr(h.db.InTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE tunnel_requests SET state = $1 WHERE id = $2 AND state IN ($3, $4)`,
			tunnelAbandoned, id, tunnelQueued, tunnelSent)
		return err
	}), "abandon tunnel request")
}

// hooksTokenSealed is the bot's sealed hooks token, which the tunnel adds
// to a delivery when its client takes it (never stored with the request).
func (s *Service) hooksTokenSealed(ctx context.Context, botID string) ([]byte, error) {
	var sealed []byte
	err := s.db.QueryRow(ctx, `SELECT hooks_token_sealed FROM bots WHERE id = $1`, botID).Scan(&sealed)
	if isNoRows(err) {
		return nil, botpay.ErrNotFound("bot")
	}
	if err != nil {
		return nil, fmt.Errorf("read hooks token of %s: %w", botID, err)
	}
	return sealed, nil
}
