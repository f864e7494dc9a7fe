package store

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
)

// Processor wallets (creating, funding, reading them) are
// internal/payments; settlement still debits them here.

// ErrNoProcessorWallet is the 404 of the signing endpoint and of funding
// the processor_wallet rail (docs/decisions.md).
var ErrNoProcessorWallet = botpay.ErrNoProcessorWallet

type scanner = interface{ Scan(...any) error }

func (t *Tx) appendProcessorLedger(ctx context.Context, botID, typ string, amount, after botpay.Micro, description string, at int64) (int64, error) {
	var id int64
	err := t.queryRow(ctx, `INSERT INTO processor_ledger (bot_id, type, amount_micro, balance_after_micro, description, created_at)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, botID, typ, int64(amount), int64(after), description, at).Scan(&id)
	return id, err
}

// ProcessorLedgerSum adds up a bot's processor ledger (for reconciliation).
func (s *Store) ProcessorLedgerSum(ctx context.Context, botID string) (botpay.Micro, error) {
	var sum botpay.Micro
	err := s.queryRow(ctx, `SELECT COALESCE(SUM(amount_micro), 0) FROM processor_ledger WHERE bot_id = $1`, botID).Scan(&sum)
	return sum, wrapErr(err, "processor ledger sum %s", botID)
}
