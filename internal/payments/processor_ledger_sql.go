package payments

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// ProcessorTransaction is one movement of a bot's processor wallet (USDC).
type ProcessorTransaction struct {
	ID           int64
	Type         string
	Amount       botpay.Micro
	BalanceAfter botpay.Micro
	Description  string
	CreatedAt    time.Time
}

// ProcessorTransactions lists a bot's most recent processor wallet
// movements, newest first (the owner's bot page merges them with the card
// wallet's ledger).
func (s *Service) ProcessorTransactions(ctx context.Context, botID string, limit int) ([]ProcessorTransaction, error) {
	rows, err := s.db.Query(ctx, `SELECT id, type, amount_micro, balance_after_micro, description, created_at
		FROM processor_ledger WHERE bot_id = $1 ORDER BY id DESC LIMIT $2`, botID, limit)
	if err != nil {
		return nil, wrapErr(err, "processor transactions %s", botID)
	}
	defer rows.Close()
	var out []ProcessorTransaction
	for rows.Next() {
		var t ProcessorTransaction
		var created int64
		if err := rows.Scan(&t.ID, &t.Type, &t.Amount, &t.BalanceAfter, &t.Description, &created); err != nil {
			return nil, wrapErr(err, "processor transactions %s", botID)
		}
		t.CreatedAt = fromMS(created)
		out = append(out, t)
	}
	return out, wrapErr(rows.Err(), "processor transactions %s", botID)
}

// ProcessorLedgerSum adds up a bot's processor ledger (for reconciliation:
// it must equal the wallet's balance).
func (s *Service) ProcessorLedgerSum(ctx context.Context, botID string) (botpay.Micro, error) {
	var sum botpay.Micro
	err := s.db.QueryRow(ctx, `SELECT COALESCE(SUM(amount_micro), 0) FROM processor_ledger WHERE bot_id = $1`, botID).Scan(&sum)
	return sum, wrapErr(err, "processor ledger sum %s", botID)
}
