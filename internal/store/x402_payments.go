package store

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// X402Payment is one authorization presented to a checkout page's x402
// endpoint. (payer, nonce) is unique: the database, not a replica's
// memory, decides that an authorization is settled at most once.
type X402Payment struct {
	ID         int64
	Payer      string // lower-case 0x hex
	Nonce      string // lower-case 0x hex
	PageID     string
	InvoiceRef string
	Amount     botpay.Micro
	Status     string // X402Settling or X402Confirmed
	SaleID     string
	TxHash     string
	CreatedAt  time.Time
	// Live mode (x402_chain.go): the token contract, the signed relayer
	// transaction and its nonce, and why the chain refused it.
	Token        string
	RawTx        string
	RelayerNonce uint64
	Failure      string
	SubmittedAt  time.Time // when its newest transaction was stored
	// A settlement through the facilitator has no page: it pays BotID's
	// processor wallet for ResourceURL.
	BotID       string
	ResourceURL string
	// A payment at a payment link's x402 route names the link (and its
	// bot as BotID); the claim holds the link (x402_links.go).
	LinkID string
	// A v2 payer's payment identifier and the route it is scoped to; the
	// claim binds them (x402_payment_identifiers.go). Empty: none.
	Route     string
	PaymentID string
	// What a person paying from a buyer page told the seller (optional);
	// the sale records them.
	BuyerEmail string
	BuyerName  string
}

// States of an x402 payment: claimed while the settler works, confirmed
// once the sale is recorded (live mode adds submitted and failed,
// x402_chain.go).
const (
	X402Settling  = "settling"
	X402Confirmed = "confirmed"
)

// X402PaymentByNonce reads the payment of an authorization; ok is false
// when it was never presented.
func (s *Store) X402PaymentByNonce(ctx context.Context, payer, nonce string) (p X402Payment, ok bool, err error) {
	p, err = scanX402Payment(s.queryRow(ctx, `SELECT `+x402PaymentColumns+`
		FROM x402_payments WHERE payer = $1 AND nonce = $2`, strings.ToLower(payer), strings.ToLower(nonce)))
	if isNoRows(err) {
		return X402Payment{}, false, nil
	}
	return p, err == nil, wrapErr(err, "x402 payment by nonce")
}

// ClaimX402Payment records that an authorization is being settled. A
// second claim of the same (payer, nonce) — a replay, from any replica —
// is ErrUnique.
func (s *Store) ClaimX402Payment(ctx context.Context, p X402Payment) (int64, error) {
	var id int64
	err := s.inTx(ctx, func(tx *Tx) error {
		if p.LinkID != "" {
			if err := tx.holdLink(ctx, p); err != nil {
				return err
			}
		}
		err := tx.queryRow(ctx, `INSERT INTO x402_payments (payer, nonce, page_id, invoice_ref, amount_micro, status, created_at, token,
			bot_id, resource_url, link_id, buyer_email, buyer_name) VALUES ($1, $2, $3, $4, $5, 'settling', $6, $7, $8, $9, $10, $11, $12)
			RETURNING id`, strings.ToLower(p.Payer), strings.ToLower(p.Nonce), nullString(p.PageID), p.InvoiceRef, int64(p.Amount),
			ms(s.clock.Now()), strings.ToLower(p.Token), nullString(p.BotID), nullString(p.ResourceURL), nullString(p.LinkID),
			nullString(p.BuyerEmail), nullString(p.BuyerName)).Scan(&id)
		if err != nil {
			return err
		}
		return tx.bindPaymentIdentifier(ctx, p, id)
	})
	if errors.Is(err, ErrPaymentIdentifierTaken) {
		return 0, err
	}
	err = s.classify(err)
	if p.LinkID != "" && errors.Is(err, ErrUnique) {
		// The link's own unique index, behind holdLink: another
		// authorization holds the link, unless this one was seen before.
		if _, seen, rerr := s.X402PaymentByNonce(ctx, p.Payer, p.Nonce); rerr == nil && !seen {
			return 0, errLinkNotPending("being paid by another authorization")
		}
	}
	return id, wrapErr(err, "claim x402 payment")
}

// ReleaseX402Payment drops a claim whose settlement failed, so the payer
// may present the authorization again.
func (s *Store) ReleaseX402Payment(ctx context.Context, id int64) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		// The payer may present its payment identifier again with a new
		// authorization: nothing was paid under it.
		if _, err := tx.exec(ctx, `DELETE FROM x402_payment_identifiers WHERE payment_row = $1
			AND EXISTS (SELECT 1 FROM x402_payments WHERE id = $1 AND status = 'settling')`, id); err != nil {
			return err
		}
		_, err := tx.exec(ctx, `DELETE FROM x402_payments WHERE id = $1 AND status = 'settling'`, id)
		return err
	}), "release x402 payment")
}

// InternalDebit moves a payment inside the service: the payer is one of our
// processor wallets, so its balance pays instead of a chain.
type InternalDebit struct {
	Payer  string // address, any case
	Nonce  string
	Amount botpay.Micro
}

// ErrPayerBalance refuses an internal payment the payer cannot cover.
var ErrPayerBalance = botpay.Errorf(botpay.KindPaymentRequired, botpay.CodeInsufficientTokens, "the paying wallet's balance does not cover the payment")

// CompleteX402Payment turns a claim into a sale in one transaction: debit
// the payer's processor wallet when the money moves inside the ledger
// (releasing the signature's reservation), record the sale along the one
// sale path, and confirm the claim with its sale and transaction hash.
func (s *Store) CompleteX402Payment(ctx context.Context, id int64, in botpay.SaleInput, debit *InternalDebit, record SaleRecorder) (botpay.SaleResult, error) {
	var res botpay.SaleResult
	err := s.inTx(ctx, func(tx *Tx) error {
		if debit != nil {
			if err := tx.debitProcessor(ctx, *debit); err != nil {
				return err
			}
		}
		var err error
		if res, err = record(ctx, tx.k, in); err != nil {
			return err
		}
		_, err = tx.exec(ctx, `UPDATE x402_payments SET status = 'confirmed', sale_id = $1, tx_hash = $2 WHERE id = $3`,
			res.Sale.ID, in.TxHash, id)
		return err
	})
	return res, wrapErr(err, "complete x402 payment")
}

func (tx *Tx) debitProcessor(ctx context.Context, d InternalDebit) error {
	now := tx.s.clock.Now()
	var botID string
	var balance botpay.Micro
	err := tx.queryRow(ctx, `UPDATE processor_wallets SET balance_micro = balance_micro - $1, updated_at = $2
		WHERE address = $3 AND balance_micro >= $1 RETURNING bot_id, balance_micro`,
		int64(d.Amount), ms(now), strings.ToLower(d.Payer)).Scan(&botID, &balance)
	if isNoRows(err) {
		return ErrPayerBalance
	}
	if err != nil {
		return err
	}
	// A signature of ours stops being reserved once it is paid: the wallet
	// row, locked by the debit above, gives up its amount.
	var until int64
	var amount botpay.Micro
	err = tx.queryRow(ctx, `UPDATE signing_requests SET status = 'settled' WHERE bot_id = $1 AND nonce = $2 AND status = 'signed'
		RETURNING reserved_until, amount_micro`, botID, strings.ToLower(d.Nonce)).Scan(&until, &amount)
	switch {
	case err == nil:
		err = tx.releaseReservation(ctx, botID, amount, until, 0)
	case isNoRows(err):
		err = nil
	}
	if err != nil {
		return err
	}
	_, err = tx.appendProcessorLedger(ctx, botID, "x402_payment", -d.Amount, balance, "x402 payment, nonce "+strings.ToLower(d.Nonce), ms(now))
	return err
}
