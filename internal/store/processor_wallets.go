package store

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
)

// Processor wallets (creating, funding, reading them, settlement's
// debits) are internal/payments.

// ErrNoProcessorWallet is the 404 of the signing endpoint and of funding
// the processor_wallet rail (docs/decisions.md).
var ErrNoProcessorWallet = botpay.ErrNoProcessorWallet

type scanner = interface{ Scan(...any) error }

// ProcessorLedgerSum adds up a bot's processor ledger (for reconciliation).
func (s *Store) ProcessorLedgerSum(ctx context.Context, botID string) (botpay.Micro, error) {
	var sum botpay.Micro
	err := s.queryRow(ctx, `SELECT COALESCE(SUM(amount_micro), 0) FROM processor_ledger WHERE bot_id = $1`, botID).Scan(&sum)
	return sum, wrapErr(err, "processor ledger sum %s", botID)
}
