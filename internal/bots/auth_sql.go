package bots

import (
	"context"
	"database/sql"
	"regexp"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// apiKeyMatch selects the bot (alias b) whose current key is $1, or whose
// previous key is $1 and still inside its grace period at $2.
const apiKeyMatch = `(b.api_key_hash = $1 OR (b.previous_api_key_hash = $1 AND b.previous_api_key_expires_at > $2))`

// prefixedBotColumns is botColumns qualified with the bots alias "b".
var prefixedBotColumns = regexp.MustCompile(`(^|,\s*)([a-z_]+)`).ReplaceAllString(botColumns, "${1}b.${2}")

// botByAPIKey authenticates an API key digest: the bot's current key, or
// its previous one until the grace period of a rotation ends. keyExpires is
// when the key stops working (zero for the current key, which does not).
func (s *Service) botByAPIKey(ctx context.Context, keyHash string) (b botpay.Bot, keyExpires time.Time, err error) {
	var expires sql.NullInt64
	row := s.db.QueryRow(ctx, `SELECT `+prefixedBotColumns+`,
		CASE WHEN b.api_key_hash = $1 THEN NULL ELSE b.previous_api_key_expires_at END
		FROM bots b WHERE `+apiKeyMatch, keyHash, kernel.MS(s.clock.Now()))
	b, err = scanBot(withExtra{row: row, extra: []any{&expires}})
	if isNoRows(err) {
		return b, time.Time{}, botpay.ErrNotFound("bot")
	}
	return b, fromNullMS(expires), wrapErr(err, "bot by api key")
}

// withExtra scans the bot's columns through scanBot and the columns after
// them into extra.
type withExtra struct {
	row   *sql.Row
	extra []any
}

func (w withExtra) Scan(dest ...any) error { return w.row.Scan(append(dest, w.extra...)...) }

// apiKeyEpoch is the number of API key rotations so far, service-wide.
func (s *Service) apiKeyEpoch(ctx context.Context) (int64, error) {
	var epoch int64
	err := s.db.QueryRow(ctx, `SELECT epoch FROM api_key_epoch WHERE id = 1`).Scan(&epoch)
	return epoch, wrapErr(err, "api key epoch")
}
