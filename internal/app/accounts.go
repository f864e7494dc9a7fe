package app

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/store"
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
	if err := s.store.CreateOwnerLink(ctx, o.ID, store.LinkVerifyEmail, botpay.Digest(token), expires); err != nil {
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
	if err := s.store.Take(ctx, store.Limit{Bucket: "verify-owner:" + owner.ID, Max: resetsPerAddressPerHour, Window: time.Hour, Unannounced: true}); err != nil {
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
	return s.store.VerifyEmail(ctx, botpay.Digest(token))
}

var errInvalidLink = botpay.Errorf(botpay.KindNotFound, botpay.CodeInvalidLink,
	"this link is not valid: it was already used, has expired or was replaced by a newer one; ask for a new one")

// RequestPasswordReset e-mails a reset link when email names an owner. The
// answer never says whether it does: requests are limited per client IP
// (429), and mails per address, silently.
func (s *Service) RequestPasswordReset(ctx context.Context, email, clientIP string) error {
	p := problems{}
	email = p.email("email", email)
	if err := p.err(); err != nil {
		return err
	}
	if err := s.store.Take(ctx, store.Limit{Bucket: addressBucket("reset-ip", clientIP), Max: s.limits.ResetPerHour, Window: time.Hour}); err != nil {
		return err
	}
	// The same work whatever the address: a token drawn and hashed, one
	// write transaction taking the address's mail budget and storing the
	// link only if the account exists (docs/security.md).
	token := botpay.NewSecret(linkTokenPrefix)
	budget := store.Limit{Bucket: "reset-address:" + botpay.Digest(email), Max: resetsPerAddressPerHour, Window: time.Hour, Unannounced: true}
	found, err := s.store.IssuePasswordReset(ctx, email, budget, botpay.Digest(token), s.clock.Now().Add(resetLinkLife))
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
	o, err := s.store.OwnerByLink(ctx, store.LinkPasswordReset, botpay.Digest(token))
	if err != nil {
		return o, err
	}
	p := problems{}
	validPassword(p, "password", password, o.Email)
	if err := p.err(); err != nil {
		return o, err
	}
	return s.store.ResetPassword(ctx, botpay.Digest(token), hashPassword(password))
}

// Sessions lists the owner's live sessions and API tokens; current is the
// credential of the request.
func (s *Service) Sessions(ctx context.Context, owner botpay.Owner, current string) ([]botpay.OwnerToken, error) {
	return s.store.OwnerTokens(ctx, owner.ID, botpay.Digest(current))
}

// RevokeSession ends one of the owner's sessions or tokens by its id.
func (s *Service) RevokeSession(ctx context.Context, owner botpay.Owner, id string) error {
	if !strings.HasPrefix(id, "tok_") || len(id) > 64 {
		return botpay.ErrNotFound("session")
	}
	return s.store.RevokeOwnerTokenByID(ctx, owner.ID, id)
}

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
	o, err := s.store.OwnerByID(ctx, bot.OwnerID)
	if err != nil {
		return err
	}
	if !o.EmailVerified() {
		return errEmailNotVerified
	}
	return nil
}
