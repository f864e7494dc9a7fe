package accounts

import (
	"context"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
)

// Sessions lists the owner's live sessions and API tokens; current is the
// credential of the request.
func (s *Service) Sessions(ctx context.Context, owner botpay.Owner, current string) ([]botpay.OwnerToken, error) {
	return s.ownerTokens(ctx, owner.ID, botpay.Digest(current))
}

// RevokeSession ends one of the owner's sessions or tokens by its id.
func (s *Service) RevokeSession(ctx context.Context, owner botpay.Owner, id string) error {
	if !strings.HasPrefix(id, "tok_") || len(id) > 64 {
		return botpay.ErrNotFound("session")
	}
	return s.revokeOwnerTokenByID(ctx, owner.ID, id)
}
