package accounts

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/validate"
)

// Owner account upkeep (docs/api.md): verifying the address, resetting a
// password by e-mailed link, listing and revoking sessions and tokens.
// Link tokens are 192-bit secrets, stored as digests, single use.
const (
	resetLinkLife  = time.Hour
	verifyLinkLife = 7 * 24 * time.Hour
	// resetsPerAddressPerHour bounds the reset mails one address receives;
	// requests past it are answered the same and send nothing.
	resetsPerAddressPerHour = 3
)

const linkTokenPrefix = "bpl_"

// sendVerification e-mails the owner a link that verifies the address.
func (s *Service) sendVerification(ctx context.Context, o botpay.Owner) {
	token := botpay.NewSecret(linkTokenPrefix)
	expires := s.clock.Now().Add(verifyLinkLife)
	if err := s.createOwnerLink(ctx, o.ID, linkVerifyEmail, botpay.Digest(token), expires); err != nil {
		s.log.WarnContext(ctx, "verification link not stored", "owner", o.ID, "err", err)
		return
	}
	link := s.baseURL + "/verify-email?token=" + url.QueryEscape(token)
	s.notifyOwner(ctx, mail.Message{To: o.Email, Subject: "Verify your botpay e-mail address",
		Text: fmt.Sprintf("Open this link to confirm that %s is your address:\n\n%s\n\nIt works once, for 7 days. "+
			"Until the address is verified, a live botpay service does not e-mail invoices on your bots' behalf.\n"+
			"If you did not sign up, ignore this message.\n", o.Email, link)})
}

// ResendVerification sends a fresh verification link (the earlier one
// stops working); a verified owner gets none.
func (s *Service) ResendVerification(ctx context.Context, owner botpay.Owner) error {
	if owner.EmailVerified() {
		return nil
	}
	if err := s.rates.Take(ctx, Limit{Bucket: "verify-owner:" + owner.ID, Max: resetsPerAddressPerHour, Window: time.Hour, Unannounced: true}); err != nil {
		return err
	}
	s.sendVerification(ctx, owner)
	return nil
}

// VerifyEmail consumes a verification link.
func (s *Service) VerifyEmail(ctx context.Context, token string) (botpay.Owner, error) {
	if !botpay.WellFormedSecret(token, linkTokenPrefix) {
		return botpay.Owner{}, errInvalidLink
	}
	return s.markEmailVerified(ctx, botpay.Digest(token))
}

var errInvalidLink = botpay.Errorf(botpay.KindNotFound, botpay.CodeInvalidLink,
	"this link is not valid: it was already used, has expired or was replaced by a newer one; ask for a new one")

// RequestPasswordReset e-mails a reset link when email names an owner. The
// answer never says whether it does: requests are limited per client IP
// (429), and mails per address, silently.
func (s *Service) RequestPasswordReset(ctx context.Context, email, clientIP string) error {
	p := validate.Problems{}
	email = p.Email("email", email)
	if err := p.Err(); err != nil {
		return err
	}
	if err := s.rates.Take(ctx, Limit{Bucket: addressBucket("reset-ip", clientIP), Max: s.limits.ResetPerHour, Window: time.Hour}); err != nil {
		return err
	}
	// The same work whatever the address: a token drawn and hashed, one
	// write transaction taking the address's mail budget and storing the
	// link only if the account exists (docs/security.md).
	token := botpay.NewSecret(linkTokenPrefix)
	budget := Limit{Bucket: "reset-address:" + botpay.Digest(email), Max: resetsPerAddressPerHour, Window: time.Hour, Unannounced: true}
	found, err := s.issuePasswordReset(ctx, email, budget, botpay.Digest(token), s.clock.Now().Add(resetLinkLife))
	if botpay.AsError(err) != nil {
		return nil // the address's budget is spent: the same answer, nothing sent
	}
	if err != nil || !found {
		return err // no such owner: the same answer, nothing sent
	}
	link := s.baseURL + "/reset?token=" + url.QueryEscape(token)
	// Sent in the background: an answer that waited for the mail server
	// only when the account exists would tell who has one.
	go s.notifyOwner(context.WithoutCancel(ctx), mail.Message{To: email, Subject: "Reset your botpay password",
		Text: fmt.Sprintf("Someone (we hope you) asked to reset the password of the botpay account %s.\n\n"+
			"Choose a new password here (the link works once, for one hour):\n\n%s\n\n"+
			"Setting it logs out every session and ends every owner API token of the account.\n"+
			"If you did not ask, ignore this message: your password stays as it is.\n", email, link)})
	return nil
}

// ConfirmPasswordReset sets a new password through a reset link and ends
// every session and token of the owner.
func (s *Service) ConfirmPasswordReset(ctx context.Context, token, password string) (botpay.Owner, error) {
	if !botpay.WellFormedSecret(token, linkTokenPrefix) {
		return botpay.Owner{}, errInvalidLink
	}
	o, err := s.ownerByLink(ctx, linkPasswordReset, botpay.Digest(token))
	if err != nil {
		return o, err
	}
	p := validate.Problems{}
	validPassword(p, "password", password, o.Email)
	if err := p.Err(); err != nil {
		return o, err
	}
	return s.resetPassword(ctx, botpay.Digest(token), hashPassword(password))
}
