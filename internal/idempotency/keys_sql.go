package idempotency

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// Window is how long a key's first response is replayed.
const Window = 24 * time.Hour

// idempotencyLease bounds how long a crashed request can block its key.
const idempotencyLease = 2 * time.Minute

// Keys are the idempotency keys of requests, in the database so that a
// retry reaching another replica replays the same first response.
type Keys struct {
	db *kernel.DB
}

// New is the keys of db.
func New(db *kernel.DB) *Keys { return &Keys{db: db} }

// wrapErr adds the package and the context to a database error at its
// boundary.
var wrapErr = kernel.ErrorWrapper("idempotency")

// Replay is a stored first response of an idempotent request.
type Replay struct {
	StatusCode     int
	SealedResponse []byte
}

// Begin claims (scope, key) for a request whose body hashes to
// requestHash. It returns a Replay when the key already completed with the
// same body, 409 idempotency_key_reused when it was used with another body,
// 409 idempotency_key_in_use while the first request is still running, and
// (nil, nil) when the caller should run the request and then call
// Finish or Abandon.
func (s *Keys) Begin(ctx context.Context, scope, key, requestHash string) (*Replay, error) {
	now := s.db.Clock().Now()
	var replay *Replay
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		res, err := tx.Exec(ctx, `INSERT INTO idempotency_keys (scope, idem_key, request_hash, created_at, locked_until)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`, scope, key, requestHash, kernel.MS(now), kernel.MS(now.Add(idempotencyLease)))
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
		if err := tx.QueryRow(ctx, `SELECT request_hash, status_code, response_sealed, created_at, locked_until
			FROM idempotency_keys WHERE scope = $1 AND idem_key = $2`+tx.ForUpdate(), scope, key).
			Scan(&hash, &status, &body, &created, &locked); err != nil {
			return err
		}
		expired := kernel.FromMS(created).Add(Window).Before(now)
		switch {
		case expired || (status == nil && kernel.FromMS(locked).Before(now)):
			_, err := tx.Exec(ctx, `UPDATE idempotency_keys SET request_hash = $1, status_code = NULL, response_sealed = NULL,
				created_at = $2, locked_until = $3 WHERE scope = $4 AND idem_key = $5`,
				requestHash, kernel.MS(now), kernel.MS(now.Add(idempotencyLease)), scope, key)
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

// Finish stores the response to replay for (scope, key).
func (s *Keys) Finish(ctx context.Context, scope, key string, status int, sealed []byte) error {
	return wrapErr(s.db.InTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE idempotency_keys SET status_code = $1, response_sealed = $2 WHERE scope = $3 AND idem_key = $4`,
			status, sealed, scope, key)
		return err
	}), "finish idempotent")
}

// Abandon frees (scope, key) after a response that must not be
// replayed (a server error or a rate limit), so a retry runs afresh.
func (s *Keys) Abandon(ctx context.Context, scope, key string) error {
	return wrapErr(s.db.InTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `DELETE FROM idempotency_keys WHERE scope = $1 AND idem_key = $2 AND status_code IS NULL`, scope, key)
		return err
	}), "abandon idempotent")
}

// Hold keeps (scope, key) claimed for the rest of its window
// after a request whose outcome is unknown (its connection broke after
// COMMIT was sent): a retry with the key answers 409 idempotency_key_in_use
// instead of running the change a second time.
func (s *Keys) Hold(ctx context.Context, scope, key string) error {
	return wrapErr(s.db.InTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE idempotency_keys SET locked_until = created_at + $1
			WHERE scope = $2 AND idem_key = $3 AND status_code IS NULL`, Window.Milliseconds(), scope, key)
		return err
	}), "hold idempotent")
}
