package wallets

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
)

// fund credits an owned, claimed bot's card wallet. The balance change, its
// ledger row, the wallet.funded event and the fulfilment of every pending
// top-up request the amount covers (oldest first, each with its
// wallet.topup.completed) are one transaction.
func (s *Service) fund(ctx context.Context, ownerID, botID string, amount botpay.Money, description string) (botpay.Funding, error) {
	now := s.clock.Now()
	var f botpay.Funding
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		var walletID string
		err := tx.QueryRow(ctx, `UPDATE wallets SET balance_cents = balance_cents + $1, updated_at = $2
			WHERE bot_id = $3 AND bot_id IN (SELECT id FROM bots WHERE owner_id = $4)
			RETURNING id, balance_cents, held_cents`, int64(amount), ms(now), botID, ownerID).
			Scan(&walletID, &f.Wallet.Balance, &f.Wallet.Held)
		if isNoRows(err) {
			return botpay.ErrNotFound("bot")
		}
		if err != nil {
			return err
		}
		f.Wallet.BotID = botID
		f.Transaction, err = ledger.Append(ctx, tx, botID, botpay.TxFund, amount, &f.Wallet.Balance, description, now)
		if err != nil {
			return err
		}
		if err := s.outbox.Emit(tx, botpay.NewEvent(botID, botpay.WalletFundedData{
			WalletID: walletID, Amount: amount, Currency: "USD", NewBalance: f.Wallet.Available(),
		}, now)); err != nil {
			return err
		}
		f.Fulfilled, err = s.fulfilTopups(ctx, tx, botID, walletID, amount, f.Wallet.Available(), now)
		return err
	})
	return f, wrapErr(err, "fund %s", botID)
}

// fulfilTopups marks fulfilled the open top-up requests funded covers,
// oldest first, stopping at the first it does not cover: a request is
// never skipped for a smaller, newer one.
func (s *Service) fulfilTopups(ctx context.Context, tx *kernel.Tx, botID, walletID string, funded, newBalance botpay.Money, now time.Time) ([]botpay.TopupRequest, error) {
	rows, err := tx.Query(ctx, `SELECT id, amount_cents FROM topup_requests WHERE bot_id = $1 AND status = 'sent' ORDER BY id`, botID)
	if err != nil {
		return nil, err
	}
	var covered []botpay.TopupRequest
	for rows.Next() {
		var r botpay.TopupRequest
		if err := rows.Scan(&r.ID, &r.Amount); err != nil {
			rows.Close()
			return nil, err
		}
		if r.Amount > funded {
			break
		}
		funded -= r.Amount
		covered = append(covered, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range covered {
		r := &covered[i]
		r.BotID, r.Status = botID, botpay.TopupFulfilled
		if _, err := tx.Exec(ctx, `UPDATE topup_requests SET status = 'fulfilled', fulfilled_at = $1 WHERE id = $2`, ms(now), r.ID); err != nil {
			return nil, err
		}
		if err := s.outbox.Emit(tx, botpay.NewEvent(botID, botpay.WalletTopupCompletedData{
			WalletID: walletID, Amount: r.Amount, Currency: "USD", NewBalance: newBalance,
		}, now)); err != nil {
			return nil, err
		}
	}
	return covered, nil
}
