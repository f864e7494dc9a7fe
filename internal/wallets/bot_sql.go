package wallets

import (
	"context"
	"database/sql"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// botColumns and scanBot read a bots row as the store's and internal/bots'
// bot reads do; the copies stay in step until those reads have one home.
const botColumns = `id, name, owner_email, description, bot_type, owner_id, claimed_at, callback_url,
	webhook_status, webhook_fail_count, local_port, webhook_path, frozen, created_at`

func scanBot(row interface{ Scan(...any) error }) (botpay.Bot, error) {
	var b botpay.Bot
	var owner, callback, path sql.NullString
	var claimed, port sql.NullInt64
	var created int64
	err := row.Scan(&b.ID, &b.Name, &b.OwnerEmail, &b.Description, &b.BotType, &owner, &claimed, &callback,
		&b.WebhookStatus, &b.WebhookFailCount, &port, &path, &b.Frozen, &created)
	b.OwnerID, b.CallbackURL, b.WebhookPath = owner.String, callback.String, path.String
	b.ClaimedAt, b.LocalPort, b.CreatedAt = kernel.FromNullMS(claimed), int(port.Int64), fromMS(created)
	return b, err
}

// bot loads a bot by ID.
func (s *Service) bot(ctx context.Context, id string) (botpay.Bot, error) {
	b, err := scanBot(s.db.QueryRow(ctx, `SELECT `+botColumns+` FROM bots WHERE id = $1`, id))
	if isNoRows(err) {
		return b, botpay.ErrNotFound("bot")
	}
	return b, wrapErr(err, "bot %s", id)
}
