package app

import (
	"context"

	"github.com/botpay/botpay/internal/accounts"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
)

// Accounts runs the owner account use cases: signup, login, sessions,
// e-mail verification, password reset and pairing codes.
func (s *Service) Accounts() *accounts.Service { return s.accounts }

// newAccounts builds the account use cases over the store's kernel; their
// rate limits and owner mail stay the service's, shared with the rest.
func (s *Service) newAccounts(c Config) *accounts.Service {
	return accounts.New(accounts.Deps{DB: c.Store.Kernel(), Clock: s.clock, Logger: s.log, Mail: ownerMail{s},
		Rates: s.windows, BaseURL: s.baseURL,
		Limits: accounts.Limits{SignupPerHour: s.limits.SignupPerHour, LoginPerHour: s.limits.LoginPerHour,
			ResetPerHour: s.limits.ResetPerHour, PairingPerHour: s.limits.PairingPerHour}})
}

// ownerMail sends the account mails as every owner notification, kept for
// another attempt when the mail server fails (mail_retries.go).
type ownerMail struct{ s *Service }

func (m ownerMail) NotifyOwner(ctx context.Context, msg mail.Message) { m.s.notifyOwner(ctx, msg) }

var errEmailNotVerified = botpay.Errorf(botpay.KindForbidden, botpay.CodeEmailNotVerified,
	"your owner has not verified their e-mail address yet; invoices are e-mailed on a bot's behalf only once they have "+
		"(they can open the link mailed at signup, or ask for a new one from the dashboard)")

// requireVerifiedOwner refuses, in live mode, to e-mail strangers on
// behalf of a bot whose owner never proved an address: otherwise anyone
// could sign up as anyone and send mail under the service's name.
func (s *Service) requireVerifiedOwner(ctx context.Context, bot botpay.Bot) error {
	if !s.live {
		return nil
	}
	o, err := s.accounts.OwnerByID(ctx, bot.OwnerID)
	if err != nil {
		return err
	}
	if !o.EmailVerified() {
		return errEmailNotVerified
	}
	return nil
}
