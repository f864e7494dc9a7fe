package accounts

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// Login throttling (docs/api.md) counts failed logins per (e-mail, client
// address), never per e-mail alone: a guesser slows down only itself, and
// the owner logging in from anywhere else is never locked out. The first
// loginFreeFailures failures cost nothing; each one after that makes the
// pair wait twice as long as the one before (1 s, 2 s, 4 s, … up to
// loginMaxBackoff). A success, or a day without failures, starts over.
const (
	loginFreeFailures = 5
	loginMaxBackoff   = 15 * time.Minute
	loginForgetAfter  = 24 * time.Hour
)

// LoginBackoff is the wait after the given number of consecutive failures.
func LoginBackoff(failures int) time.Duration {
	if failures <= loginFreeFailures {
		return 0
	}
	shift := failures - loginFreeFailures - 1
	if shift > 20 {
		return loginMaxBackoff
	}
	return min(time.Second<<shift, loginMaxBackoff)
}

// loginThrottled refuses an attempt while the pair must wait.
func (s *Service) loginThrottled(ctx context.Context, email, clientIP string) error {
	var until int64
	err := s.queryRow(ctx, `SELECT locked_until FROM login_failures WHERE email = $1 AND client_ip = $2`, email, clientIP).Scan(&until)
	if isNoRows(err) {
		return nil
	}
	if err != nil {
		return wrapErr(err, "login throttled")
	}
	return wrapErr(throttled(fromMS(until).Sub(s.clock.Now())), "login throttled")
}

func throttled(wait time.Duration) error {
	if wait <= 0 {
		return nil
	}
	return &botpay.Error{Kind: botpay.KindRateLimited, Code: botpay.CodeRateLimited,
		Message:           "too many failed logins for this e-mail from this address; wait before trying again, or reset the password",
		RetryAfterSeconds: int((wait + time.Second - 1) / time.Second)}
}

// recordLoginFailure counts a failed login of the pair and sets its wait.
func (s *Service) recordLoginFailure(ctx context.Context, email, clientIP string) error {
	now := s.clock.Now()
	return wrapErr(s.inTx(ctx, func(tx *kernel.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO login_failures (email, client_ip, failures, last_failed_at, locked_until)
			VALUES ($1, $2, 0, $3, 0) ON CONFLICT DO NOTHING`, email, clientIP, ms(now)); err != nil {
			return err
		}
		var failures int
		var last int64
		if err := tx.QueryRow(ctx, `SELECT failures, last_failed_at FROM login_failures WHERE email = $1 AND client_ip = $2`+tx.ForUpdate(),
			email, clientIP).Scan(&failures, &last); err != nil {
			return err
		}
		if now.Sub(fromMS(last)) > loginForgetAfter {
			failures = 0
		}
		failures++
		_, err := tx.Exec(ctx, `UPDATE login_failures SET failures = $1, last_failed_at = $2, locked_until = $3
			WHERE email = $4 AND client_ip = $5`, failures, ms(now), ms(now.Add(LoginBackoff(failures))), email, clientIP)
		return err
	}), "record login failure")
}

// clearLoginFailures forgets the pair's failures after a success.
func (s *Service) clearLoginFailures(ctx context.Context, email, clientIP string) error {
	return wrapErr(s.inTx(ctx, func(tx *kernel.Tx) error {
		_, err := tx.Exec(ctx, `DELETE FROM login_failures WHERE email = $1 AND client_ip = $2`, email, clientIP)
		return err
	}), "clear login failures")
}
