package ledger

import (
	"database/sql"
	"regexp"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// BotColumns and ScanBot read a bots row as every capability that answers
// with a bot reads it: internal/bots' lookups and authentication, and the
// wallet check, which reads the bot in the statement of its wallet.
const BotColumns = `id, name, owner_email, description, bot_type, owner_id, claimed_at, callback_url,
	webhook_status, webhook_fail_count, local_port, webhook_path, frozen, created_at`

// PrefixedBotColumns is BotColumns qualified with the bots alias "b".
var PrefixedBotColumns = regexp.MustCompile(`(^|,\s*)([a-z_]+)`).ReplaceAllString(BotColumns, "${1}b.${2}")

// APIKeyMatch selects the bot (alias b) whose current key is $1, or whose
// previous key is $1 and still inside its grace period at $2.
const APIKeyMatch = `(b.api_key_hash = $1 OR (b.previous_api_key_hash = $1 AND b.previous_api_key_expires_at > $2))`

// ScanBot scans BotColumns, then the row's further columns into extra.
func ScanBot(row kernel.Scanner, extra ...any) (botpay.Bot, error) {
	var b botpay.Bot
	var owner, callback, path sql.NullString
	var claimed, port sql.NullInt64
	var created int64
	err := row.Scan(append([]any{&b.ID, &b.Name, &b.OwnerEmail, &b.Description, &b.BotType, &owner, &claimed, &callback,
		&b.WebhookStatus, &b.WebhookFailCount, &port, &path, &b.Frozen, &created}, extra...)...)
	b.OwnerID, b.CallbackURL, b.WebhookPath = owner.String, callback.String, path.String
	b.ClaimedAt, b.LocalPort, b.CreatedAt = kernel.FromNullMS(claimed), int(port.Int64), kernel.FromMS(created)
	return b, err
}
