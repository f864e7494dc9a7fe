package bots

import (
	"context"
	"fmt"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
)

// Default grace periods of a rotation (docs/api.md): the owner rotating is
// usually containing a leak (revoke at once); the bot rotating is usually
// routine, and gets an hour to switch its running copies over.
const (
	OwnerRotationGrace = 0
	BotRotationGrace   = 3600
)

// KeyRotation is a new API key, shown once, and when the key it replaced
// stops working.
type KeyRotation struct {
	APIKey               string
	PreviousKeyExpiresAt time.Time
}

// RotateAPIKeyAsOwner gives an owned bot a new API key; the previous one
// works for graceSeconds more (0 revokes it at once).
func (s *Service) RotateAPIKeyAsOwner(ctx context.Context, owner botpay.Owner, botID string, graceSeconds int) (KeyRotation, error) {
	return s.rotateAPIKey(ctx, RotateKey{OwnerID: owner.ID, BotID: botID}, graceSeconds, "you (the owner)")
}

// RotateAPIKeyAsBot is the bot's own rotation, with its current key
// (apiKey); a frozen bot is refused.
func (s *Service) RotateAPIKeyAsBot(ctx context.Context, bot botpay.Bot, apiKey string, graceSeconds int) (KeyRotation, error) {
	k := RotateKey{BotID: bot.ID, PresentedKeyHash: botpay.Digest(apiKey)}
	return s.rotateAPIKey(ctx, k, graceSeconds, "the bot itself (with its API key)")
}

func (s *Service) rotateAPIKey(ctx context.Context, k RotateKey, graceSeconds int, by string) (KeyRotation, error) {
	if graceSeconds < 0 || graceSeconds > botpay.MaxKeyGraceSeconds {
		return KeyRotation{}, botpay.ValidationError(map[string]string{
			"grace_seconds": fmt.Sprintf("must be an integer from 0 to %d", botpay.MaxKeyGraceSeconds)})
	}
	key := botpay.NewSecret(botpay.APIKeyPrefix)
	k.NewKeyHash, k.Grace = botpay.Digest(key), time.Duration(graceSeconds)*time.Second
	r, err := s.commitRotation(ctx, k)
	if err != nil {
		return KeyRotation{}, err
	}
	s.botAuth.forgetEpoch() // this replica refuses the old key at once
	s.notifyKeyRotated(ctx, r, graceSeconds, by)
	return KeyRotation{APIKey: key, PreviousKeyExpiresAt: r.PreviousKeyExpiresAt}, nil
}

func (s *Service) notifyKeyRotated(ctx context.Context, r committedRotation, graceSeconds int, by string) {
	to, err := s.ownerMail.OwnerAddress(ctx, r.Bot)
	if err != nil {
		s.log.WarnContext(ctx, "key rotation mail: no owner address", "bot_id", r.Bot.ID, "err", err)
		return
	}
	previous := "The previous key stopped working at once."
	if graceSeconds > 0 {
		previous = "The previous key keeps working until " + r.PreviousKeyExpiresAt.UTC().Format("2006-01-02 15:04:05") + " UTC."
	}
	text := fmt.Sprintf("The API key of your bot %q (%s) was rotated by %s.\n\n%s\n\n"+
		"If you did not expect this, freeze the bot and rotate its key yourself from the owner API "+
		"(POST /api/v1/owner/bots/%s/api-key/rotate): that ends every other key at once.\n\nDashboard: %s/dashboard/bots/%s\n",
		r.Bot.Name, r.Bot.ID, by, previous, r.Bot.ID, s.baseURL, r.Bot.ID)
	s.ownerMail.NotifyAboutBot(ctx, r.Bot, mail.Message{To: to, Subject: "API key rotated for your bot", Text: text})
}

// keyFacts are what a rotation decides on, read under the bot's row lock.
type keyFacts struct {
	found   bool
	current string // the digest of the bot's current key
	owner   string
	frozen  bool
}

// rotationRefusal decides whether k may rotate the key of the bot f
// describes: an owner only their own bot (anything else is the same 404);
// the bot only with its current key (a previous key in its grace period
// cannot rotate) and not while frozen.
func rotationRefusal(k RotateKey, f keyFacts) error {
	if !f.found || (k.OwnerID != "" && f.owner != k.OwnerID) {
		return botpay.ErrNotFound("bot")
	}
	if k.OwnerID == "" {
		if !botpay.DigestsEqual(f.current, k.PresentedKeyHash) {
			return botpay.ErrKeySuperseded
		}
		if f.frozen {
			return errBotFrozen
		}
	}
	return nil
}
