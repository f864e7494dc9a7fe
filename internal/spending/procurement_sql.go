package spending

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// readProcurement reads a claimed bot's procurement controls (empty lists
// when the owner never set them).
func (s *Service) readProcurement(ctx context.Context, ownerID, botID string) (botpay.Procurement, error) {
	if err := s.ownedBot(ctx, ownerID, botID); err != nil {
		return botpay.Procurement{}, wrapErr(err, "procurement %s", botID)
	}
	return scanProcurement(s.db.QueryRow(ctx, procurementQuery, botID))
}

const procurementQuery = `SELECT allowed_domains, blocked_domains, allowed_merchants, blocked_merchants, allowed_recipients, blocked_recipients,
	updated_at FROM procurement WHERE bot_id = $1`

func scanProcurement(row kernel.Scanner) (botpay.Procurement, error) {
	p := botpay.Procurement{AllowedDomains: []string{}, BlockedDomains: []string{}, AllowedMerchants: []string{},
		BlockedMerchants: []string{}, AllowedRecipients: []string{}, BlockedRecipients: []string{}}
	var lists [6]sql.NullString
	var updated int64
	err := row.Scan(&lists[0], &lists[1], &lists[2], &lists[3], &lists[4], &lists[5], &updated)
	if isNoRows(err) {
		return p, nil
	}
	for i, dst := range []*[]string{&p.AllowedDomains, &p.BlockedDomains, &p.AllowedMerchants, &p.BlockedMerchants,
		&p.AllowedRecipients, &p.BlockedRecipients} {
		if err == nil && lists[i].Valid { // NULL: no controls
			err = json.Unmarshal([]byte(lists[i].String), dst)
		}
	}
	p.UpdatedAt = fromMS(updated)
	return p, err
}

// writeProcurement replaces an owned bot's procurement controls and emits
// rails.updated (limits_updated).
func (s *Service) writeProcurement(ctx context.Context, ownerID, botID string, p botpay.Procurement) error {
	enc := func(l []string) string {
		if l == nil {
			l = []string{}
		}
		b, _ := json.Marshal(l)
		return string(b)
	}
	return wrapErr(s.db.InTx(ctx, func(tx *kernel.Tx) error {
		if err := ownedClaimedBot(ctx, tx, ownerID, botID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO procurement (bot_id, allowed_domains, blocked_domains, allowed_merchants, blocked_merchants,
				allowed_recipients, blocked_recipients, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
			ON CONFLICT (bot_id) DO UPDATE SET allowed_domains = excluded.allowed_domains, blocked_domains = excluded.blocked_domains,
				allowed_merchants = excluded.allowed_merchants, blocked_merchants = excluded.blocked_merchants,
				allowed_recipients = excluded.allowed_recipients,
				blocked_recipients = excluded.blocked_recipients, updated_at = excluded.updated_at`,
			botID, enc(p.AllowedDomains), enc(p.BlockedDomains), enc(p.AllowedMerchants), enc(p.BlockedMerchants),
			enc(p.AllowedRecipients), enc(p.BlockedRecipients), ms(p.UpdatedAt)); err != nil {
			return err
		}
		return s.outbox.Emit(tx, railsUpdated(botID, botpay.ActionLimitsUpdated, "Your owner changed where you may buy.", p.UpdatedAt))
	}), "set procurement %s", botID)
}
