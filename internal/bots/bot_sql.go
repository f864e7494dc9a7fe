package bots

import (
	"context"
	"database/sql"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
)

// scanBot reads a bots row (ledger.BotColumns), for kernel.ReadPage.
func scanBot(row interface{ Scan(...any) error }) (botpay.Bot, error) { return ledger.ScanBot(row) }

// Bot loads a bot by ID.
func (s *Service) Bot(ctx context.Context, id string) (botpay.Bot, error) {
	b, err := scanBot(s.db.QueryRow(ctx, `SELECT `+ledger.BotColumns+` FROM bots WHERE id = $1`, id))
	if isNoRows(err) {
		return b, botpay.ErrNotFound("bot")
	}
	return b, wrapErr(err, "bot %s", id)
}

// OwnedBot loads a bot only if ownerID owns it; anything else is the same 404.
func (s *Service) OwnedBot(ctx context.Context, ownerID, botID string) (botpay.Bot, error) {
	b, err := scanBot(s.db.QueryRow(ctx, `SELECT `+ledger.BotColumns+` FROM bots WHERE id = $1 AND owner_id = $2`, botID, ownerID))
	if isNoRows(err) {
		return b, botpay.ErrNotFound("bot")
	}
	return b, wrapErr(err, "owned bot %s", botID)
}

// OwnerBots pages through an owner's bots, oldest first.
func (s *Service) OwnerBots(ctx context.Context, ownerID string, page botpay.PageRequest) (botpay.Page[botpay.Bot], error) {
	q, args := kernel.Keyset(`SELECT `+ledger.BotColumns+`, seq FROM bots WHERE owner_id = $1`, []any{ownerID}, "seq", kernel.OldestFirst, page)
	v, err := kernel.ReadPage(ctx, s.db, q, args, page.Limit, scanBot)
	return v, wrapErr(err, "owner bots %s", ownerID)
}

// BotByTunnelTokenHash finds the bot a managed-tunnel token belongs to, by
// digest as API keys are.
func (s *Service) BotByTunnelTokenHash(ctx context.Context, hash string) (botpay.Bot, error) {
	b, err := scanBot(s.db.QueryRow(ctx, `SELECT `+ledger.BotColumns+` FROM bots WHERE tunnel_token_hash = $1`, hash))
	if isNoRows(err) {
		return b, botpay.ErrNotFound("bot")
	}
	return b, wrapErr(err, "bot by tunnel token hash")
}

// take admits one hit of l in tx; a limit without a maximum counts nothing.
func (s *Service) take(ctx context.Context, tx *kernel.Tx, l Limit, now time.Time) error {
	if l.Max <= 0 {
		return nil
	}
	return s.rateLimits.TakeIn(ctx, tx, l, now)
}

func nullInt(v int) sql.NullInt64 { return sql.NullInt64{Int64: int64(v), Valid: v != 0} }

// wrapErr adds the package and the context to a database error at its
// boundary.
var wrapErr = kernel.ErrorWrapper("bots")

// The NULL and no-rows helpers of the kernel, by their short names here.
var (
	fromNullMS = kernel.FromNullMS
	nullString = kernel.NullString
	isNoRows   = kernel.IsNoRows
)
