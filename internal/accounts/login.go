package accounts

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/botpay/botpay/internal/botpay"
)

var errBadCredentials = botpay.Errorf(botpay.KindUnauthenticated, botpay.CodeInvalidCredentials, "e-mail or password is wrong")

// Login checks credentials and issues a new owner API token. Failures are
// throttled per (e-mail, client IP) with a doubling wait
// (LoginBackoff), and attempts are limited per client IP, so a
// guesser slows down only itself and never locks the owner out from
// another address.
func (s *Service) Login(ctx context.Context, email, password, clientIP string) (OwnerSession, error) {
	return s.login(ctx, email, password, clientIP, time.Time{})
}

// LoginForDashboard is Login for the dashboard: its token is the session's
// and stops authenticating after DashboardSessionFor.
func (s *Service) LoginForDashboard(ctx context.Context, email, password, clientIP string) (OwnerSession, error) {
	return s.login(ctx, email, password, clientIP, s.clock.Now().Add(DashboardSessionFor))
}

func (s *Service) login(ctx context.Context, email, password, clientIP string, expires time.Time) (OwnerSession, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	if email == "" || password == "" || !utf8.ValidString(email) || strings.ContainsRune(email, 0) || len(email) > 254 {
		return OwnerSession{}, errBadCredentials
	}
	client := botpay.AddressKey(clientIP) // the failure backoff counts a /64 as one client too
	if err := s.loginThrottled(ctx, email, client); err != nil {
		return OwnerSession{}, err
	}
	if err := s.rates.Take(ctx, Limit{Bucket: addressBucket("login-ip", clientIP), Max: s.limits.LoginPerHour, Window: time.Hour}); err != nil {
		return OwnerSession{}, err
	}
	o, err := s.checkCredentials(ctx, email, password)
	if e := botpay.AsError(err); e != nil && e.Code == botpay.CodeInvalidCredentials {
		if rerr := s.recordLoginFailure(ctx, email, client); rerr != nil {
			return OwnerSession{}, rerr
		}
	}
	if err != nil {
		return OwnerSession{}, err
	}
	if err := s.clearLoginFailures(ctx, email, client); err != nil {
		return OwnerSession{}, err
	}
	token := botpay.NewSecret(botpay.OwnerTokenPrefix)
	if err := s.addOwnerToken(ctx, o.ID, botpay.Digest(token), expires); err != nil {
		return OwnerSession{}, err
	}
	return OwnerSession{Owner: o, Token: token}, nil
}

// checkCredentials compares the password, taking as long whether or not
// the account exists.
func (s *Service) checkCredentials(ctx context.Context, email, password string) (botpay.Owner, error) {
	o, hash, err := s.ownerCredentials(ctx, email)
	if botpay.AsError(err) != nil {
		checkPassword(dummyHash, password)
		return o, errBadCredentials
	}
	if err != nil {
		return o, err
	}
	if !checkPassword(hash, password) {
		return o, errBadCredentials
	}
	return o, nil
}

// Logout revokes one owner token.
func (s *Service) Logout(ctx context.Context, token string) error {
	return s.revokeOwnerToken(ctx, botpay.Digest(token))
}

// AuthenticateOwner resolves an owner token.
func (s *Service) AuthenticateOwner(ctx context.Context, token string) (botpay.Owner, error) {
	if !botpay.WellFormedSecret(token, botpay.OwnerTokenPrefix) {
		return botpay.Owner{}, errOwnerAuth
	}
	o, err := s.ownerByTokenHash(ctx, botpay.Digest(token))
	if botpay.AsError(err) != nil {
		return o, errOwnerAuth
	}
	return o, err
}

var errOwnerAuth = botpay.Errorf(botpay.KindUnauthenticated, botpay.CodeAuthRequired, "a valid owner token is required")
