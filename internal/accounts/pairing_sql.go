package accounts

import (
	"context"
	"time"

	"github.com/botpay/botpay/internal/kernel"
)

// createPairingCode stores a pairing code digest valid until expires, at most
// perHour codes per owner per rolling hour. A digest that collides with a
// live code is reported as kernel.ErrUnique so the caller draws another code.
func (s *Service) createPairingCode(ctx context.Context, ownerID, codeHash string, expires time.Time, perHour int) error {
	now := s.clock.Now()
	return wrapErr(s.inTx(ctx, func(tx *kernel.Tx) error {
		l := Limit{Bucket: "pairing:" + ownerID, Max: perHour, Window: time.Hour}
		if err := s.rates.TakeIn(ctx, tx, l, now); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM pairing_codes WHERE code_hash = $1 AND (used_at IS NOT NULL OR expires_at <= $2)`, codeHash, ms(now)); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO pairing_codes (code_hash, owner_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
			codeHash, ownerID, ms(now), ms(expires))
		return err
	}), "create pairing code %s", ownerID)
}
