package store

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// IdempotencyWindow is how long a key's first response is replayed.
const IdempotencyWindow = 24 * time.Hour

// idempotencyLease bounds how long a crashed request can block its key.
const idempotencyLease = 2 * time.Minute

// Replay is a stored first response of an idempotent request.
type Replay struct {
	StatusCode     int
	SealedResponse []byte
}

// BeginIdempotent claims (scope, key) for a request whose body hashes to
// requestHash. It returns a Replay when the key already completed with the
// same body, 409 idempotency_key_reused when it was used with another body,
// 409 idempotency_key_in_use while the first request is still running, and
// (nil, nil) when the caller should run the request and then call
// FinishIdempotent or AbandonIdempotent.
func (s *Store) BeginIdempotent(ctx context.Context, scope, key, requestHash string) (*Replay, error) {
	now := s.clock.Now()
	var replay *Replay
	err := s.inTx(ctx, func(tx *Tx) error {
		res, err := tx.exec(ctx, `INSERT INTO idempotency_keys (scope, idem_key, request_hash, created_at, locked_until)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`, scope, key, requestHash, ms(now), ms(now.Add(idempotencyLease)))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return nil
		}
		var hash string
		var status *int
		var body []byte
		var created, locked int64
		if err := tx.queryRow(ctx, `SELECT request_hash, status_code, response_sealed, created_at, locked_until
			FROM idempotency_keys WHERE scope = $1 AND idem_key = $2`+tx.forUpdate(), scope, key).
			Scan(&hash, &status, &body, &created, &locked); err != nil {
			return err
		}
		expired := fromMS(created).Add(IdempotencyWindow).Before(now)
		switch {
		case expired || (status == nil && fromMS(locked).Before(now)):
			_, err := tx.exec(ctx, `UPDATE idempotency_keys SET request_hash = $1, status_code = NULL, response_sealed = NULL,
				created_at = $2, locked_until = $3 WHERE scope = $4 AND idem_key = $5`,
				requestHash, ms(now), ms(now.Add(idempotencyLease)), scope, key)
			return err
		case hash != requestHash:
			return botpay.Errorf(botpay.KindConflict, botpay.CodeIdempotencyReused,
				"this Idempotency-Key was already used with a different request body")
		case status == nil:
			return botpay.Errorf(botpay.KindConflict, botpay.CodeIdempotencyInUse,
				"a request with this Idempotency-Key is still being processed; retry shortly")
		default:
			replay = &Replay{StatusCode: *status, SealedResponse: body}
			return nil
		}
	})
	return replay, wrapErr(err, "begin idempotent")
}

// FinishIdempotent stores the response to replay for (scope, key).
func (s *Store) FinishIdempotent(ctx context.Context, scope, key string, status int, sealed []byte) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `UPDATE idempotency_keys SET status_code = $1, response_sealed = $2 WHERE scope = $3 AND idem_key = $4`,
			status, sealed, scope, key)
		return err
	}), "finish idempotent")
}

// AbandonIdempotent frees (scope, key) after a response that must not be
// replayed (a server error or a rate limit), so a retry runs afresh.
func (s *Store) AbandonIdempotent(ctx context.Context, scope, key string) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `DELETE FROM idempotency_keys WHERE scope = $1 AND idem_key = $2 AND status_code IS NULL`, scope, key)
		return err
	}), "abandon idempotent")
}

// HoldIdempotent keeps (scope, key) claimed for the rest of its window
// after a request whose outcome is unknown (its connection broke after
// COMMIT was sent): a retry with the key answers 409 idempotency_key_in_use
// instead of running the change a second time.
func (s *Store) HoldIdempotent(ctx context.Context, scope, key string) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `UPDATE idempotency_keys SET locked_until = created_at + $1
			WHERE scope = $2 AND idem_key = $3 AND status_code IS NULL`, IdempotencyWindow.Milliseconds(), scope, key)
		return err
	}), "hold idempotent")
}
