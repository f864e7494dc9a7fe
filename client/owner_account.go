package client

import (
	"context"
	"net/http"
	"net/url"

	"github.com/botpay/botpay/wire"
)

// PasswordResetRequested is the answer of RequestPasswordReset, the same
// whether or not an account has the e-mail.
type PasswordResetRequested = wire.RequestPasswordResetResponse

// RequestPasswordReset e-mails a single-use reset link to the owner with
// email, if there is one; 429 rate_limited when asked too often.
func (o *OwnerClient) RequestPasswordReset(ctx context.Context, email string, opts ...CallOption) (*PasswordResetRequested, error) {
	var out PasswordResetRequested
	in := wire.RequestPasswordResetRequest{Email: email}
	if err := o.do(ctx, http.MethodPost, "/api/v1/owner/password-reset", in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// PasswordReset is the answer of ConfirmPasswordReset: the owner whose
// password a reset link's token set.
type PasswordReset = wire.ConfirmPasswordResetResponse

// ConfirmPasswordReset sets password with the token of a reset link and
// ends every session and token of the owner; 404 invalid_link for a used,
// expired or unknown token, 400 validation_error for a weak password.
func (o *OwnerClient) ConfirmPasswordReset(ctx context.Context, token, password string, opts ...CallOption) (*PasswordReset, error) {
	var out PasswordReset
	in := wire.ConfirmPasswordResetRequest{Token: token, Password: password}
	if err := o.do(ctx, http.MethodPost, "/api/v1/owner/password-reset/confirm", in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// EmailVerification is the answer of ResendEmailVerification: whether the
// owner's e-mail is verified; a fresh link was sent when it is not.
type EmailVerification = wire.ResendEmailVerificationResponse

// ResendEmailVerification e-mails the owner a fresh verification link
// (nothing when the e-mail is already verified).
func (o *OwnerClient) ResendEmailVerification(ctx context.Context, opts ...CallOption) (*EmailVerification, error) {
	var out EmailVerification
	if err := o.do(ctx, http.MethodPost, "/api/v1/owner/email-verification", nil, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// Session kinds of OwnerSessionInfo.Kind.
const (
	SessionKindDashboard = "session"
	SessionKindAPIToken  = "api_token"
)

// OwnerSessionInfo is one live dashboard session or API token of the
// owner, the items of Sessions. LastUsedAt is nil for one never used since
// it was issued; Current marks the session or token of this very call.
type OwnerSessionInfo = wire.OwnerSessionInfo

// Sessions lists the owner's live dashboard sessions and API tokens.
func (o *OwnerClient) Sessions(ctx context.Context, opts ...CallOption) ([]OwnerSessionInfo, error) {
	var out wire.ListOwnerSessionsResponse
	if err := o.do(ctx, http.MethodGet, "/api/v1/owner/sessions", nil, &out, opts); err != nil {
		return nil, err
	}
	return out.Sessions, nil
}

// RevokeSession ends one session or API token of the owner by its id; 404
// not_found for one that is not the owner's or no longer live.
func (o *OwnerClient) RevokeSession(ctx context.Context, id string, opts ...CallOption) error {
	return o.do(ctx, http.MethodDelete, "/api/v1/owner/sessions/"+url.PathEscape(id), nil, nil, opts)
}
