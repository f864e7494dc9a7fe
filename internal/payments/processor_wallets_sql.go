package payments

import (
	"context"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// createProcessorWallet gives an owned bot its processor wallet and emits
// rails.updated (wallet_created). A second wallet for the same bot is
// kernel.ErrUnique.
func (s *Service) createProcessorWallet(ctx context.Context, ownerID, botID, address string, sealedKey []byte) error {
	now := s.clock.Now()
	return wrapErr(s.db.InTx(ctx, func(tx *kernel.Tx) error {
		var owned int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM bots WHERE id = $1 AND owner_id = $2`, botID, ownerID).Scan(&owned); err != nil {
			return err
		}
		if owned == 0 {
			return botpay.ErrNotFound("bot")
		}
		if _, err := tx.Exec(ctx, `INSERT INTO processor_wallets (bot_id, address, sealed_key, balance_micro, created_at, updated_at)
			VALUES ($1, $2, $3, 0, $4, $4)`, botID, strings.ToLower(address), sealedKey, ms(now)); err != nil {
			return err
		}
		rail := botpay.RailProcessorWallet
		return s.outbox.Emit(tx, botpay.NewEvent(botID, botpay.RailsUpdatedData{
			Action: "wallet_created", Rail: &rail, BotID: botID,
			Message: "Your processor wallet " + address + " was created.",
		}, now))
	}), "create processor wallet %s", botID)
}

// processorColumns read a wallet at the time $2 (ms): its reservations are
// the running total less what ran out since it was swept
// (reservations_sql.go).
var processorColumns = `w.bot_id, w.address, w.sealed_key, w.balance_micro,
	w.reserved_micro - (` + expiredReservations("w.bot_id", "$2") + `)`

func scanProcessor(row scanner) (botpay.ProcessorWallet, error) {
	var w botpay.ProcessorWallet
	err := row.Scan(&w.BotID, &w.Address, &w.SealedKey, &w.Balance, &w.Reserved)
	return w, err
}

// readProcessorWallet reads a bot's processor wallet; ok is false without
// one.
func (s *Service) readProcessorWallet(ctx context.Context, botID string) (w botpay.ProcessorWallet, ok bool, err error) {
	w, err = scanProcessor(s.db.QueryRow(ctx, `SELECT `+processorColumns+` FROM processor_wallets w WHERE w.bot_id = $1`,
		botID, ms(s.clock.Now())))
	if isNoRows(err) {
		return w, false, nil
	}
	return w, err == nil, wrapErr(err, "processor wallet %s", botID)
}

// ProcessorWalletByAddress finds the processor wallet with a chain address
// (any case); ok is false when the address is not one of ours.
func (s *Service) ProcessorWalletByAddress(ctx context.Context, address string) (w botpay.ProcessorWallet, ok bool, err error) {
	w, err = scanProcessor(s.db.QueryRow(ctx, `SELECT `+processorColumns+` FROM processor_wallets w WHERE w.address = $1`,
		strings.ToLower(address), ms(s.clock.Now())))
	if isNoRows(err) {
		return w, false, nil
	}
	return w, err == nil, wrapErr(err, "processor wallet by address")
}

// processorFunding is the outcome of funding a processor wallet.
type processorFunding struct {
	Transaction botpay.Transaction // amounts in cents, as every ledger answer shows them
	Wallet      botpay.ProcessorWallet
}

// fundProcessorWallet credits an owned bot's processor wallet with amount
// micro-USDC, writes its processor_ledger row and emits wallet.funded, in
// one transaction. No processor wallet is no_processor_wallet.
func (s *Service) fundProcessorWallet(ctx context.Context, ownerID, botID string, amount botpay.Micro, description string) (processorFunding, error) {
	now := s.clock.Now()
	var f processorFunding
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		err := tx.QueryRow(ctx, `UPDATE processor_wallets SET balance_micro = balance_micro + $1, updated_at = $2
			WHERE bot_id = $3 AND bot_id IN (SELECT id FROM bots WHERE owner_id = $4)
			RETURNING address, balance_micro`, int64(amount), ms(now), botID, ownerID).Scan(&f.Wallet.Address, &f.Wallet.Balance)
		if isNoRows(err) {
			return ErrNoProcessorWallet
		}
		if err != nil {
			return err
		}
		f.Wallet.BotID = botID
		var id int64
		if err := tx.QueryRow(ctx, `INSERT INTO processor_ledger (bot_id, type, amount_micro, balance_after_micro, description, created_at)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, botID, botpay.TxFund, int64(amount), int64(f.Wallet.Balance), description,
			ms(now)).Scan(&id); err != nil {
			return err
		}
		after := f.Wallet.Balance.CentsCeil()
		f.Transaction = botpay.Transaction{ID: id, BotID: botID, Type: botpay.TxFund, Amount: amount.CentsCeil(),
			BalanceAfter: &after, Description: description, CreatedAt: now}
		return s.outbox.Emit(tx, botpay.NewEvent(botID, botpay.WalletFundedData{
			WalletID: f.Wallet.Address, Rail: botpay.RailProcessorWallet, Amount: amount, Currency: "USDC",
			NewBalance: f.Wallet.Balance,
		}, now))
	})
	return f, wrapErr(err, "fund processor wallet %s", botID)
}
