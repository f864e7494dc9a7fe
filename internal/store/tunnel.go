package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// Tunnel request states.
const (
	tunnelQueued    = "queued"    // written by a dispatcher
	tunnelSent      = "sent"      // handed to the tunnel client
	tunnelAnswered  = "answered"  // the client reported the gateway's answer
	tunnelAbandoned = "abandoned" // the dispatcher stopped waiting
)

// BotByTunnelTokenHash authenticates a tunnel client, by digest as API keys
// are.
func (s *Store) BotByTunnelTokenHash(ctx context.Context, hash string) (botpay.Bot, error) {
	b, err := scanBot(s.queryRow(ctx, `SELECT `+botColumns+` FROM bots WHERE tunnel_token_hash = $1`, hash))
	if isNoRows(err) {
		return b, botpay.ErrNotFound("bot")
	}
	return b, wrapErr(err, "bot by tunnel token hash")
}

// HooksTokenSealed is the bot's sealed hooks token, which the tunnel adds
// to a delivery when its client takes it (never stored with the request).
func (s *Store) HooksTokenSealed(ctx context.Context, botID string) ([]byte, error) {
	var sealed []byte
	err := s.queryRow(ctx, `SELECT hooks_token_sealed FROM bots WHERE id = $1`, botID).Scan(&sealed)
	if isNoRows(err) {
		return nil, botpay.ErrNotFound("bot")
	}
	if err != nil {
		return nil, fmt.Errorf("read hooks token of %s: %w", botID, err)
	}
	return sealed, nil
}

// TouchTunnelSession records that the bot's tunnel client (session) is
// polling. When no live session existed (first connection, or a reconnect
// after a disconnect or a long silence) it resets the webhook health of the
// managed-tunnel bot to active/0: connecting the tunnel is how such a bot
// points its webhook somewhere (docs/api.md recovery). It reports
// whether the session is new.
func (s *Store) TouchTunnelSession(ctx context.Context, botID, session string, staleAfter time.Duration) (bool, error) {
	now := s.clock.Now()
	var fresh bool
	err := s.inTx(ctx, func(tx *Tx) error {
		var current string
		var seen int64
		err := tx.queryRow(ctx, `SELECT session_id, seen_at FROM tunnel_sessions WHERE bot_id = $1`+tx.forUpdate(), botID).Scan(&current, &seen)
		switch {
		case isNoRows(err):
			fresh = true
			_, err = tx.exec(ctx, `INSERT INTO tunnel_sessions (bot_id, session_id, connected_at, seen_at) VALUES ($1, $2, $3, $3)`,
				botID, session, ms(now))
		case err != nil:
			return err
		default:
			fresh = current != session || seen <= ms(now.Add(-staleAfter))
			if fresh {
				_, err = tx.exec(ctx, `UPDATE tunnel_sessions SET session_id = $1, connected_at = $2, seen_at = $2 WHERE bot_id = $3`,
					session, ms(now), botID)
			} else {
				_, err = tx.exec(ctx, `UPDATE tunnel_sessions SET seen_at = $1 WHERE bot_id = $2`, ms(now), botID)
			}
		}
		if err != nil || !fresh {
			return err
		}
		_, err = tx.exec(ctx, `UPDATE bots SET webhook_status = $1, webhook_fail_count = 0, updated_at = $2
			WHERE id = $3 AND callback_url IS NULL`, botpay.WebhookActive, ms(now), botID)
		return err
	})
	return fresh, wrapErr(err, "touch tunnel session %s", botID)
}

// CloseTunnelSession ends the session when its client went away, and fails
// the requests handed to it but not answered, so dispatchers stop waiting.
func (s *Store) CloseTunnelSession(ctx context.Context, botID, session string) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		res, err := tx.exec(ctx, `DELETE FROM tunnel_sessions WHERE bot_id = $1 AND session_id = $2`, botID, session)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil // a newer session took over
		}
		_, err = tx.exec(ctx, `UPDATE tunnel_requests SET state = $1, error = 'tunnel client disconnected', answered_at = $2
			WHERE bot_id = $3 AND state IN ($4, $5)`, tunnelAnswered, ms(s.clock.Now()), botID, tunnelQueued, tunnelSent)
		return err
	}), "close tunnel session %s", botID)
}

// TunnelLive reports whether the bot's tunnel client polled within
// staleAfter.
func (s *Store) TunnelLive(ctx context.Context, botID string, staleAfter time.Duration) (bool, error) {
	var n int
	err := s.queryRow(ctx, `SELECT COUNT(*) FROM tunnel_sessions WHERE bot_id = $1 AND seen_at > $2`,
		botID, ms(s.clock.Now().Add(-staleAfter))).Scan(&n)
	return n > 0, wrapErr(err, "tunnel live %s", botID)
}

// TunnelRequest is one delivery travelling through a tunnel.
type TunnelRequest struct {
	ID      int64
	Path    string
	Headers http.Header
	Body    []byte
}

// QueueTunnelRequest queues a delivery for the bot's tunnel client.
func (s *Store) QueueTunnelRequest(ctx context.Context, botID string, r TunnelRequest, expires time.Time) (int64, error) {
	headers, err := json.Marshal(r.Headers)
	if err != nil {
		return 0, wrapErr(err, "queue tunnel request %s", botID)
	}
	var id int64
	err = s.inTx(ctx, func(tx *Tx) error {
		return tx.queryRow(ctx, `INSERT INTO tunnel_requests (bot_id, path, headers, body, state, created_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
			botID, r.Path, string(headers), string(r.Body), tunnelQueued, ms(s.clock.Now()), ms(expires)).Scan(&id)
	})
	return id, wrapErr(err, "queue tunnel request %s", botID)
}

// ClaimTunnelRequest hands the oldest unexpired queued request of the bot to
// its client.
func (s *Store) ClaimTunnelRequest(ctx context.Context, botID string) (*TunnelRequest, error) {
	skipLocked := s.driver.SkipLocked()
	var out *TunnelRequest
	err := s.inTx(ctx, func(tx *Tx) error {
		var r TunnelRequest
		var headers, body string
		err := tx.queryRow(ctx, `UPDATE tunnel_requests SET state = $1 WHERE id = (SELECT id FROM tunnel_requests
			WHERE bot_id = $2 AND state = $3 AND expires_at > $4 ORDER BY id LIMIT 1`+skipLocked+`)
			RETURNING id, path, headers, body`, tunnelSent, botID, tunnelQueued, ms(s.clock.Now())).Scan(&r.ID, &r.Path, &headers, &body)
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

// AnswerTunnelRequest records the gateway's answer (status) or the client's
// failure to reach it (errText). Only a request handed out to this bot and
// not yet answered can be answered.
func (s *Store) AnswerTunnelRequest(ctx context.Context, botID string, id int64, status int, errText string) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		res, err := tx.exec(ctx, `UPDATE tunnel_requests SET state = $1, status_code = $2, error = $3, answered_at = $4
			WHERE id = $5 AND bot_id = $6 AND state = $7`,
			tunnelAnswered, status, nullString(errText), ms(s.clock.Now()), id, botID, tunnelSent)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return botpay.ErrNotFound("tunnel request")
		}
		return nil
	}), "answer tunnel request %s", botID)
}

// TunnelAnswer reads a request's answer; done is false while it waits.
func (s *Store) TunnelAnswer(ctx context.Context, id int64) (done bool, status int, errText string, err error) {
	var state string
	var code sql.NullInt64
	var e sql.NullString
	err = s.queryRow(ctx, `SELECT state, status_code, error FROM tunnel_requests WHERE id = $1`, id).Scan(&state, &code, &e)
	return state == tunnelAnswered, int(code.Int64), e.String, wrapErr(err, "tunnel answer")
}

// AbandonTunnelRequest stops a request nobody answered in time; a late
// answer is then refused.
func (s *Store) AbandonTunnelRequest(ctx context.Context, id int64) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `UPDATE tunnel_requests SET state = $1 WHERE id = $2 AND state IN ($3, $4)`,
			tunnelAbandoned, id, tunnelQueued, tunnelSent)
		return err
	}), "abandon tunnel request")
}
