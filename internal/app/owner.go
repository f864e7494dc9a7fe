package app

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
)

// OwnerSession is a signed-up or logged-in owner with a fresh token.
type OwnerSession struct {
	Owner botpay.Owner
	Token string
}

func validateCredentials(email, password string) (string, error) {
	p := problems{}
	email = p.email("email", email)
	validPassword(p, "password", password, email)
	return email, p.err()
}

// validPassword applies the password rules of docs/api.md: at least 12
// characters, at most 1024 bytes, and not easy to guess (weak_password.go).
func validPassword(p problems, field, password, email string) {
	switch n := utf8.RuneCountInString(password); {
	case n < 12:
		p.add(field, "must be at least 12 characters")
	case len(password) > 1024:
		p.add(field, "must be at most 1024 bytes")
	case weakPassword(password, email):
		p.add(field, "is too common or too easy to guess (a known password, a sequence, a keyboard pattern or a repeat); "+
			"a few unrelated words make a strong one")
	}
}

// DashboardSessionFor is how long a dashboard session's token
// authenticates, on the server as in the browser's cookie.
const DashboardSessionFor = 30 * 24 * time.Hour

// Signup creates an owner account with an owner API token (which expires
// 90 days after its last use) and e-mails a link that verifies the
// address. Signups are limited per client IP (clientIP empty: the
// operator's command line, not limited); a taken e-mail counts too, since
// the limit is what stops anyone from testing addresses at scale.
func (s *Service) Signup(ctx context.Context, email, password, clientIP string) (OwnerSession, error) {
	return s.signup(ctx, email, password, clientIP, time.Time{})
}

// SignupForDashboard is Signup for the dashboard: its token is the
// session's and stops authenticating after DashboardSessionFor.
func (s *Service) SignupForDashboard(ctx context.Context, email, password, clientIP string) (OwnerSession, error) {
	return s.signup(ctx, email, password, clientIP, s.clock.Now().Add(DashboardSessionFor))
}

func (s *Service) signup(ctx context.Context, email, password, clientIP string, expires time.Time) (OwnerSession, error) {
	email, err := validateCredentials(email, password)
	if err != nil {
		return OwnerSession{}, err
	}
	if clientIP != "" {
		l := store.Limit{Bucket: addressBucket("signup-ip", clientIP), Max: s.limits.SignupPerHour, Window: time.Hour}
		if err := s.store.Take(ctx, l); err != nil {
			return OwnerSession{}, err
		}
	}
	o := botpay.Owner{ID: botpay.NewID("own_"), Email: email, CreatedAt: s.clock.Now()}
	token := botpay.NewSecret(botpay.OwnerTokenPrefix)
	if err := s.store.CreateOwner(ctx, o, hashPassword(password), botpay.Digest(token), expires); err != nil {
		return OwnerSession{}, err
	}
	s.sendVerification(ctx, o)
	return OwnerSession{Owner: o, Token: token}, nil
}

var errBadCredentials = botpay.Errorf(botpay.KindUnauthenticated, botpay.CodeInvalidCredentials, "e-mail or password is wrong")

// Login checks credentials and issues a new owner API token. Failures are
// throttled per (e-mail, client IP) with a doubling wait
// (store.LoginBackoff), and attempts are limited per client IP, so a
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
	if err := s.store.LoginThrottled(ctx, email, client); err != nil {
		return OwnerSession{}, err
	}
	if err := s.store.Take(ctx, store.Limit{Bucket: addressBucket("login-ip", clientIP), Max: s.limits.LoginPerHour, Window: time.Hour}); err != nil {
		return OwnerSession{}, err
	}
	o, err := s.checkCredentials(ctx, email, password)
	if e := botpay.AsError(err); e != nil && e.Code == botpay.CodeInvalidCredentials {
		if rerr := s.store.RecordLoginFailure(ctx, email, client); rerr != nil {
			return OwnerSession{}, rerr
		}
	}
	if err != nil {
		return OwnerSession{}, err
	}
	if err := s.store.ClearLoginFailures(ctx, email, client); err != nil {
		return OwnerSession{}, err
	}
	token := botpay.NewSecret(botpay.OwnerTokenPrefix)
	if err := s.store.AddOwnerToken(ctx, o.ID, botpay.Digest(token), expires); err != nil {
		return OwnerSession{}, err
	}
	return OwnerSession{Owner: o, Token: token}, nil
}

// checkCredentials compares the password, taking as long whether or not
// the account exists.
func (s *Service) checkCredentials(ctx context.Context, email, password string) (botpay.Owner, error) {
	o, hash, err := s.store.OwnerCredentials(ctx, email)
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
	return s.store.RevokeOwnerToken(ctx, botpay.Digest(token))
}

// AuthenticateOwner resolves an owner token.
func (s *Service) AuthenticateOwner(ctx context.Context, token string) (botpay.Owner, error) {
	if !botpay.WellFormedSecret(token, botpay.OwnerTokenPrefix) {
		return botpay.Owner{}, errOwnerAuth
	}
	o, err := s.store.OwnerByTokenHash(ctx, botpay.Digest(token))
	if botpay.AsError(err) != nil {
		return o, errOwnerAuth
	}
	return o, err
}

var errOwnerAuth = botpay.Errorf(botpay.KindUnauthenticated, botpay.CodeAuthRequired, "a valid owner token is required")

// PairingCode is a fresh pairing code, shown once.
type PairingCode struct {
	Code      string
	ExpiresAt time.Time
}

// CreatePairingCode issues a single-use 6-digit code valid for one hour.
func (s *Service) CreatePairingCode(ctx context.Context, owner botpay.Owner) (PairingCode, error) {
	for attempt := 0; attempt < 10; attempt++ {
		code := botpay.NewPairingCode()
		expires := s.clock.Now().Add(time.Hour)
		err := s.store.CreatePairingCode(ctx, owner.ID, botpay.Digest(code), expires, s.limits.PairingPerHour)
		if errors.Is(err, store.ErrUnique) {
			continue // collides with another owner's live code
		}
		if err != nil {
			return PairingCode{}, err
		}
		return PairingCode{Code: code, ExpiresAt: expires}, nil
	}
	return PairingCode{}, errors.New("could not draw a free pairing code")
}
