package notifications

import (
	"context"
	"fmt"
	"strconv"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/seal"
)

// TunnelBots finds the bot a managed-tunnel token belongs to; the bots'
// columns are read where bots are kept.
type TunnelBots interface {
	BotByTunnelTokenHash(ctx context.Context, hash string) (botpay.Bot, error)
}

// Deps is what the Service is built from.
type Deps struct {
	DB     *kernel.DB
	Sealer *seal.Sealer
	Bots   TunnelBots
	// BotAuthFailed is the error of a tunnel token that authenticates no
	// bot: the same as a bad API key's, so the two cannot be told apart.
	BotAuthFailed error
}

// Service is what a bot reads of its notifications: its pending messages
// and the managed tunnel's authentication.
type Service struct {
	db            *kernel.DB
	sealer        *seal.Sealer
	bots          TunnelBots
	botAuthFailed error
}

// NewService builds the Service.
func NewService(d Deps) *Service {
	return &Service{db: d.DB, sealer: d.Sealer, bots: d.Bots, botAuthFailed: d.BotAuthFailed}
}

// MaxAckIDs bounds one acknowledgement request.
const MaxAckIDs = 1000

// PendingMessages pages through the bot's staged events, oldest first.
func (s *Service) PendingMessages(ctx context.Context, bot botpay.Bot, page botpay.PageRequest) (botpay.Page[botpay.PendingMessage], error) {
	return s.pendingMessages(ctx, bot.ID, page)
}

// AckMessages acknowledges staged events so they are not handed out again.
// Duplicate ids are acknowledged once.
func (s *Service) AckMessages(ctx context.Context, bot botpay.Bot, ids []int64) (acked, notFound []int64, err error) {
	if len(ids) > MaxAckIDs {
		return nil, nil, botpay.ValidationError(map[string]string{"message_ids": "must hold at most " + strconv.Itoa(MaxAckIDs) + " ids"})
	}
	seen := make(map[int64]bool, len(ids))
	unique := make([]int64, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			unique = append(unique, id)
		}
	}
	return s.ackMessages(ctx, bot.ID, unique)
}

// AuthenticateTunnel resolves a managed-tunnel client's token by its digest,
// exactly as API keys are checked. Malformed tokens fail before any lookup.
func (s *Service) AuthenticateTunnel(ctx context.Context, token string) (botpay.Bot, error) {
	if !botpay.WellFormedSecret(token, botpay.TunnelTokenPrefix) {
		return botpay.Bot{}, s.botAuthFailed
	}
	b, err := s.bots.BotByTunnelTokenHash(ctx, botpay.Digest(token))
	if botpay.AsError(err) != nil {
		return b, s.botAuthFailed
	}
	if err == nil && b.CallbackURL != "" {
		// The bot has since given its own callback URL; the tunnel is unused.
		return b, botpay.Errorf(botpay.KindConflict, botpay.CodeTunnelNotInUse, "this bot delivers to its callback_url, not through the tunnel")
	}
	return b, err
}

// TunnelAuthorization is the Authorization header a tunnel delivery carries
// to the bot's gateway. It is added when the client takes the delivery, not
// stored with the queued request, so the hooks token stays sealed at rest.
func (s *Service) TunnelAuthorization(ctx context.Context, botID string) (string, error) {
	sealed, err := s.hooksTokenSealed(ctx, botID)
	if err != nil {
		return "", err
	}
	if len(sealed) == 0 {
		return "", fmt.Errorf("bot %s has no hooks token", botID)
	}
	hooks, err := s.sealer.Open(sealed, []byte("hooks_token:"+botID))
	if err != nil {
		return "", fmt.Errorf("open hooks token of %s: %w", botID, err)
	}
	return "Bearer " + string(hooks), nil
}
