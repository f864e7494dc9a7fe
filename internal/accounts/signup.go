package accounts

import (
	"context"
	"time"
	"unicode/utf8"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/validate"
)

// OwnerSession is a signed-up or logged-in owner with a fresh token.
type OwnerSession struct {
	Owner botpay.Owner
	Token string
}

func validateCredentials(email, password string) (string, error) {
	p := validate.Problems{}
	email = p.Email("email", email)
	validPassword(p, "password", password, email)
	return email, p.Err()
}

// validPassword applies the password rules of docs/api.md: at least 12
// characters, at most 1024 bytes, and not easy to guess (weak_password.go).
func validPassword(p validate.Problems, field, password, email string) {
	switch n := utf8.RuneCountInString(password); {
	case n < 12:
		p.Add(field, "must be at least 12 characters")
	case len(password) > 1024:
		p.Add(field, "must be at most 1024 bytes")
	case weakPassword(password, email):
		p.Add(field, "is too common or too easy to guess (a known password, a sequence, a keyboard pattern or a repeat); "+
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
		l := Limit{Bucket: addressBucket("signup-ip", clientIP), Max: s.limits.SignupPerHour, Window: time.Hour}
		if err := s.rates.Take(ctx, l); err != nil {
			return OwnerSession{}, err
		}
	}
	o := botpay.Owner{ID: botpay.NewID("own_"), Email: email, CreatedAt: s.clock.Now()}
	token := botpay.NewSecret(botpay.OwnerTokenPrefix)
	if err := s.createOwner(ctx, o, hashPassword(password), botpay.Digest(token), expires); err != nil {
		return OwnerSession{}, err
	}
	s.sendVerification(ctx, o)
	return OwnerSession{Owner: o, Token: token}, nil
}
