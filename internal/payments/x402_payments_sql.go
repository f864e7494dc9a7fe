package payments

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// X402Payment is one authorization presented to an x402 endpoint.
// (payer, nonce) is unique: the database, not a replica's memory, decides
// that an authorization is settled at most once.
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
	// Live mode (x402_chain_sql.go): the token contract, the signed relayer
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
	// bot as BotID); the claim holds the link (x402_links_sql.go).
	LinkID string
	// A v2 payer's payment identifier and the route it is scoped to; the
	// claim binds them (x402_payment_identifiers_sql.go). Empty: none.
	Route     string
	PaymentID string
	// What a person paying from a buyer page told the seller (optional);
	// the sale records them.
	BuyerEmail string
	BuyerName  string
}

// States of an x402 payment: claimed while the settler works, confirmed
// once the sale is recorded (live mode adds submitted and failed,
// x402_chain_sql.go).
const (
	X402Settling  = "settling"
	X402Confirmed = "confirmed"
)

// x402PaymentByNonce reads the payment of an authorization; ok is false
// when it was never presented.
func (s *Service) x402PaymentByNonce(ctx context.Context, payer, nonce string) (p X402Payment, ok bool, err error) {
	p, err = scanX402Payment(s.db.QueryRow(ctx, `SELECT `+x402PaymentColumns+`
		FROM x402_payments WHERE payer = $1 AND nonce = $2`, strings.ToLower(payer), strings.ToLower(nonce)))
	if isNoRows(err) {
		return X402Payment{}, false, nil
	}
	return p, err == nil, wrapErr(err, "x402 payment by nonce")
}

// claimX402Payment records that an authorization is being settled. A
// second claim of the same (payer, nonce) — a replay, from any replica —
// is kernel.ErrUnique.
func (s *Service) claimX402Payment(ctx context.Context, p X402Payment) (int64, error) {
	var id int64
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		if p.LinkID != "" {
			if err := s.holdLink(ctx, tx, p); err != nil {
				return err
			}
		}
		err := tx.QueryRow(ctx, `INSERT INTO x402_payments (payer, nonce, page_id, invoice_ref, amount_micro, status, created_at, token,
			bot_id, resource_url, link_id, buyer_email, buyer_name) VALUES ($1, $2, $3, $4, $5, 'settling', $6, $7, $8, $9, $10, $11, $12)
			RETURNING id`, strings.ToLower(p.Payer), strings.ToLower(p.Nonce), nullString(p.PageID), p.InvoiceRef, int64(p.Amount),
			ms(s.clock.Now()), strings.ToLower(p.Token), nullString(p.BotID), nullString(p.ResourceURL), nullString(p.LinkID),
			nullString(p.BuyerEmail), nullString(p.BuyerName)).Scan(&id)
		if err != nil {
			return err
		}
		return s.bindPaymentIdentifier(ctx, tx, p, id)
	})
	if errors.Is(err, ErrPaymentIdentifierTaken) {
		return 0, err
	}
	if err != nil {
		err = s.db.Driver().Classify(err)
	}
	if p.LinkID != "" && errors.Is(err, kernel.ErrUnique) {
		// The link's own unique index, behind holdLink: another
		// authorization holds the link, unless this one was seen before.
		if _, seen, rerr := s.x402PaymentByNonce(ctx, p.Payer, p.Nonce); rerr == nil && !seen {
			return 0, errLinkNotPending("being paid by another authorization")
		}
	}
	return id, wrapErr(err, "claim x402 payment")
}

// releaseX402Payment drops a claim whose settlement failed, so the payer
// may present the authorization again.
func (s *Service) releaseX402Payment(ctx context.Context, id int64) error {
	return wrapErr(s.db.InTx(ctx, func(tx *kernel.Tx) error {
		// The payer may present its payment identifier again with a new
		// authorization: nothing was paid under it.
		if _, err := tx.Exec(ctx, `DELETE FROM x402_payment_identifiers WHERE payment_row = $1
			AND EXISTS (SELECT 1 FROM x402_payments WHERE id = $1 AND status = 'settling')`, id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM x402_payments WHERE id = $1 AND status = 'settling'`, id)
		return err
	}), "release x402 payment")
}

// internalDebit moves a payment inside the service: the payer is one of our
// processor wallets, so its balance pays instead of a chain.
type internalDebit struct {
	Payer  string // address, any case
	Nonce  string
	Amount botpay.Micro
}

// ErrPayerBalance refuses an internal payment the payer cannot cover.
var ErrPayerBalance = botpay.Errorf(botpay.KindPaymentRequired, botpay.CodeInsufficientTokens, "the paying wallet's balance does not cover the payment")

// completeX402Payment turns a claim into a sale in one transaction: debit
// the payer's processor wallet when the money moves inside the ledger
// (releasing the signature's reservation), record the sale along the one
// sale path, and confirm the claim with its sale and transaction hash.
func (s *Service) completeX402Payment(ctx context.Context, id int64, in botpay.SaleInput, debit *internalDebit) (botpay.SaleResult, error) {
	var res botpay.SaleResult
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		if debit != nil {
			if err := s.debitProcessor(ctx, tx, *debit); err != nil {
				return err
			}
		}
		var err error
		if res, err = s.sales.RecordSaleIn(ctx, tx, in); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE x402_payments SET status = 'confirmed', sale_id = $1, tx_hash = $2 WHERE id = $3`,
			res.Sale.ID, in.TxHash, id)
		return err
	})
	return res, wrapErr(err, "complete x402 payment")
}

func (s *Service) debitProcessor(ctx context.Context, tx *kernel.Tx, d internalDebit) error {
	now := s.clock.Now()
	var botID string
	var balance botpay.Micro
	err := tx.QueryRow(ctx, `UPDATE processor_wallets SET balance_micro = balance_micro - $1, updated_at = $2
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
	if err := settleSignature(ctx, tx, botID, d.Nonce); err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO processor_ledger (bot_id, type, amount_micro, balance_after_micro, description, created_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, botID, "x402_payment", -int64(d.Amount), int64(balance),
		"x402 payment, nonce "+strings.ToLower(d.Nonce), ms(now))
	return err
}

// settleSignature ends the reservation of the bot's signature with nonce,
// if it made one that is still outstanding; the caller holds the wallet's
// row lock.
func settleSignature(ctx context.Context, tx *kernel.Tx, botID, nonce string) error {
	var until int64
	var amount botpay.Micro
	err := tx.QueryRow(ctx, `UPDATE signing_requests SET status = 'settled' WHERE bot_id = $1 AND nonce = $2 AND status = 'signed'
		RETURNING reserved_until, amount_micro`, botID, strings.ToLower(nonce)).Scan(&until, &amount)
	if isNoRows(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return releaseReservation(ctx, tx, botID, amount, until, 0)
}

// X402PaymentByID reads one payment.
func (s *Service) X402PaymentByID(ctx context.Context, id int64) (X402Payment, error) {
	p, err := scanX402Payment(s.db.QueryRow(ctx, `SELECT `+x402PaymentColumns+` FROM x402_payments WHERE id = $1`, id))
	if isNoRows(err) {
		return p, botpay.ErrNotFound("x402 payment")
	}
	return p, wrapErr(err, "x402 payment by id")
}

const x402PaymentColumns = `id, payer, nonce, page_id, invoice_ref, amount_micro, status, sale_id, tx_hash, created_at,
	token, raw_tx, relayer_nonce, failure, submitted_at, bot_id, resource_url, link_id, buyer_email, buyer_name`

func scanX402Payment(row scanner) (X402Payment, error) {
	var p X402Payment
	var page, sale, tx, raw, failure, bot, resource, link, email, name sql.NullString
	var relayerNonce, submitted sql.NullInt64
	var created int64
	err := row.Scan(&p.ID, &p.Payer, &p.Nonce, &page, &p.InvoiceRef, &p.Amount, &p.Status, &sale, &tx, &created,
		&p.Token, &raw, &relayerNonce, &failure, &submitted, &bot, &resource, &link, &email, &name)
	p.PageID, p.BotID, p.ResourceURL, p.LinkID = page.String, bot.String, resource.String, link.String
	p.BuyerEmail, p.BuyerName = email.String, name.String
	p.SaleID, p.TxHash, p.RawTx, p.Failure, p.CreatedAt = sale.String, tx.String, raw.String, failure.String, fromMS(created)
	if submitted.Valid {
		p.SubmittedAt = fromMS(submitted.Int64)
	}
	p.RelayerNonce = uint64(relayerNonce.Int64)
	return p, err
}
