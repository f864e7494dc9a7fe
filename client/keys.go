package client

import (
	"context"
	"net/http"

	"github.com/botpay/botpay/wire"
)

// DefaultKeyGraceSeconds is the grace period the service applies when a
// bot rotates its own key without naming one: the previous key keeps
// working for an hour.
const DefaultKeyGraceSeconds = 3600

// KeyRotation is the answer of RotateAPIKey and OwnerClient.RotateBotAPIKey:
// a new API key (shown once: store it now) and the time the key it replaced
// stops working.
type KeyRotation = wire.KeyRotation

// RotateAPIKey replaces the bot's API key (POST /api/v1/bot/api-key/rotate).
// The key this client holds keeps working for graceSeconds (0 to 604800; 0
// ends it at once); switch with c.WithAPIKey(rotation.APIKey). Only the
// current key can rotate, and not while the owner has frozen the bot.
// Retrying with the same Idempotency-Key returns the same new key.
func (c *Client) RotateAPIKey(ctx context.Context, graceSeconds int, opts ...CallOption) (*KeyRotation, error) {
	var out KeyRotation
	in := wire.KeyRotationRequest{GraceSeconds: &graceSeconds}
	if err := c.do(ctx, http.MethodPost, "/api/v1/bot/api-key/rotate", in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// RotateBotAPIKey gives an owned bot a new API key
// (POST /api/v1/owner/bots/{bot_id}/api-key/rotate); the previous key works
// for graceSeconds more (0 revokes it at once, the way to contain a leak).
func (o *OwnerClient) RotateBotAPIKey(ctx context.Context, botID string, graceSeconds int, opts ...CallOption) (*KeyRotation, error) {
	var out KeyRotation
	in := wire.KeyRotationRequest{GraceSeconds: &graceSeconds}
	if err := o.do(ctx, http.MethodPost, botPath(botID, "/api-key/rotate"), in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}
