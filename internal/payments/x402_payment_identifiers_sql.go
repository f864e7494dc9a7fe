package payments

import (
	"context"
	"errors"

	"github.com/botpay/botpay/internal/kernel"
)

// ErrPaymentIdentifierTaken refuses a claim whose payment identifier is
// already bound, on the same route, to another authorization.
var ErrPaymentIdentifierTaken = errors.New("payments: the payment identifier was used with another authorization")

// x402PaymentByIdentifier is the payment a v2 payment identifier was first
// used for on route; ok is false when it is unused.
func (s *Service) x402PaymentByIdentifier(ctx context.Context, route, paymentID string) (p X402Payment, ok bool, err error) {
	p, err = scanX402Payment(s.db.QueryRow(ctx, `SELECT `+x402PaymentColumns+`
		FROM x402_payments WHERE id = (SELECT payment_row FROM x402_payment_identifiers WHERE route = $1 AND payment_id = $2)`,
		route, paymentID))
	if isNoRows(err) {
		return X402Payment{}, false, nil
	}
	return p, err == nil, wrapErr(err, "x402 payment by identifier")
}

// bindPaymentIdentifier ties p's payment identifier to its claim (row) in
// the claim's transaction. An identifier bound to another claim is
// ErrPaymentIdentifierTaken; two claims racing for one identifier meet at
// the primary key (kernel.ErrUnique for the loser, who then finds it
// taken).
func (s *Service) bindPaymentIdentifier(ctx context.Context, tx *kernel.Tx, p X402Payment, row int64) error {
	if p.PaymentID == "" {
		return nil
	}
	var bound int64
	err := tx.QueryRow(ctx, `SELECT payment_row FROM x402_payment_identifiers WHERE route = $1 AND payment_id = $2`,
		p.Route, p.PaymentID).Scan(&bound)
	switch {
	case err == nil:
		return ErrPaymentIdentifierTaken
	case !isNoRows(err):
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO x402_payment_identifiers (route, payment_id, payment_row, created_at) VALUES ($1, $2, $3, $4)`,
		p.Route, p.PaymentID, row, ms(s.clock.Now()))
	return err
}
