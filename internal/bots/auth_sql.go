package bots

import (
	"context"
	"database/sql"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
)

// botByAPIKey authenticates an API key digest: the bot's current key, or
// its previous one until the grace period of a rotation ends. keyExpires is
// when the key stops working (zero for the current key, which does not).
func (s *Service) botByAPIKey(ctx context.Context, keyHash string) (b botpay.Bot, keyExpires time.Time, err error) {
	var expires sql.NullInt64
	row := s.db.QueryRow(ctx, `SELECT `+ledger.PrefixedBotColumns+`,
		CASE WHEN b.api_key_hash = $1 THEN NULL ELSE b.previous_api_key_expires_at END
		FROM bots b WHERE `+ledger.APIKeyMatch, keyHash, kernel.MS(s.clock.Now()))
	b, err = ledger.ScanBot(row, &expires)
	if isNoRows(err) {
		return b, time.Time{}, botpay.ErrNotFound("bot")
	}
	return b, fromNullMS(expires), wrapErr(err, "bot by api key")
}

// apiKeyEpoch is the number of API key rotations so far, service-wide.
func (s *Service) apiKeyEpoch(ctx context.Context) (int64, error) {
	var epoch int64
	err := s.db.QueryRow(ctx, `SELECT epoch FROM api_key_epoch WHERE id = 1`).Scan(&epoch)
	return epoch, wrapErr(err, "api key epoch")
}
