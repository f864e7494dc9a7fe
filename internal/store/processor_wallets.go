package store

import (
	"context"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
)

// CreateProcessorWallet gives an owned bot its processor wallet and emits
// rails.updated (wallet_created). A second wallet for the same bot is
// ErrUnique.
func (s *Store) CreateProcessorWallet(ctx context.Context, ownerID, botID, address string, sealedKey []byte) error {
	now := s.clock.Now()
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		var owned int
		if err := tx.queryRow(ctx, `SELECT COUNT(*) FROM bots WHERE id = $1 AND owner_id = $2`, botID, ownerID).Scan(&owned); err != nil {
			return err
		}
		if owned == 0 {
			return botpay.ErrNotFound("bot")
		}
		if _, err := tx.exec(ctx, `INSERT INTO processor_wallets (bot_id, address, sealed_key, balance_micro, created_at, updated_at)
			VALUES ($1, $2, $3, 0, $4, $4)`, botID, strings.ToLower(address), sealedKey, ms(now)); err != nil {
			return err
		}
		rail := botpay.RailProcessorWallet
		return tx.emit(botpay.NewEvent(botID, botpay.RailsUpdatedData{
			Action: "wallet_created", Rail: &rail, BotID: botID,
			Message: "Your processor wallet " + address + " was created.",
		}, now))
	}), "create processor wallet %s", botID)
}

// processorColumns read a wallet at the time $2 (ms): its reservations are
// the running total less what ran out since it was swept (reservations.go).
var processorColumns = `w.bot_id, w.address, w.sealed_key, w.balance_micro,
	w.reserved_micro - (` + expiredReservations("w.bot_id", "$2") + `)`

type scanner = interface{ Scan(...any) error }

func scanProcessor(row scanner) (botpay.ProcessorWallet, error) {
	var w botpay.ProcessorWallet
	err := row.Scan(&w.BotID, &w.Address, &w.SealedKey, &w.Balance, &w.Reserved)
	return w, err
}

// ProcessorWallet reads a bot's processor wallet; ok is false without one.
func (s *Store) ProcessorWallet(ctx context.Context, botID string) (w botpay.ProcessorWallet, ok bool, err error) {
	w, err = scanProcessor(s.queryRow(ctx, `SELECT `+processorColumns+` FROM processor_wallets w WHERE w.bot_id = $1`,
		botID, ms(s.clock.Now())))
	if isNoRows(err) {
		return w, false, nil
	}
	return w, err == nil, wrapErr(err, "processor wallet %s", botID)
}

// ProcessorWalletByAddress finds the processor wallet with a chain address
// (any case); ok is false when the address is not one of ours.
func (s *Store) ProcessorWalletByAddress(ctx context.Context, address string) (w botpay.ProcessorWallet, ok bool, err error) {
	w, err = scanProcessor(s.queryRow(ctx, `SELECT `+processorColumns+` FROM processor_wallets w WHERE w.address = $1`,
		strings.ToLower(address), ms(s.clock.Now())))
	if isNoRows(err) {
		return w, false, nil
	}
	return w, err == nil, wrapErr(err, "processor wallet by address")
}

// ProcessorFunding is the outcome of funding a processor wallet.
type ProcessorFunding struct {
	Transaction botpay.Transaction // amounts in cents, as every ledger answer shows them
	Wallet      botpay.ProcessorWallet
}

// FundProcessorWallet credits an owned bot's processor wallet with amount
// micro-USDC, writes its processor_ledger row and emits wallet.funded, in
// one transaction. No processor wallet is no_processor_wallet.
func (s *Store) FundProcessorWallet(ctx context.Context, ownerID, botID string, amount botpay.Micro, description string) (ProcessorFunding, error) {
	now := s.clock.Now()
	var f ProcessorFunding
	err := s.inTx(ctx, func(tx *Tx) error {
		err := tx.queryRow(ctx, `UPDATE processor_wallets SET balance_micro = balance_micro + $1, updated_at = $2
			WHERE bot_id = $3 AND bot_id IN (SELECT id FROM bots WHERE owner_id = $4)
			RETURNING address, balance_micro`, int64(amount), ms(now), botID, ownerID).Scan(&f.Wallet.Address, &f.Wallet.Balance)
		if isNoRows(err) {
			return ErrNoProcessorWallet
		}
		if err != nil {
			return err
		}
		f.Wallet.BotID = botID
		id, err := tx.appendProcessorLedger(ctx, botID, botpay.TxFund, amount, f.Wallet.Balance, description, ms(now))
		if err != nil {
			return err
		}
		after := f.Wallet.Balance.CentsCeil()
		f.Transaction = botpay.Transaction{ID: id, BotID: botID, Type: botpay.TxFund, Amount: amount.CentsCeil(),
			BalanceAfter: &after, Description: description, CreatedAt: now}
		return tx.emit(botpay.NewEvent(botID, botpay.WalletFundedData{
			WalletID: f.Wallet.Address, Rail: botpay.RailProcessorWallet, Amount: amount, Currency: "USDC",
			NewBalance: f.Wallet.Balance,
		}, now))
	})
	return f, wrapErr(err, "fund processor wallet %s", botID)
}

// ErrNoProcessorWallet is the 404 of the signing endpoint and of funding
// the processor_wallet rail (docs/decisions.md).
var ErrNoProcessorWallet = botpay.ErrNoProcessorWallet

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
