package store

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/botpay/botpay/internal/botpay"
)

// Procurement reads a claimed bot's procurement controls (empty lists when
// the owner never set them).
func (s *Store) Procurement(ctx context.Context, ownerID, botID string) (botpay.Procurement, error) {
	if _, err := s.OwnedBot(ctx, ownerID, botID); err != nil {
		return botpay.Procurement{}, wrapErr(err, "procurement %s", botID)
	}
	return scanProcurement(s.queryRow(ctx, procurementQuery, botID))
}

// procurementLists are the lists of a LEFT JOIN procurement p, scanned into
// [procurementListCount]sql.NullString and parsed by parseProcurement: the
// spending decisions read the controls in the statement that reads the
// rest of their rules.
const procurementLists = `p.allowed_domains, p.blocked_domains, p.allowed_merchants, p.blocked_merchants, p.allowed_recipients,
	p.blocked_recipients`

const procurementListCount = 6

// listsOf are p's lists in the order of procurementLists.
func listsOf(p *botpay.Procurement) [procurementListCount]*[]string {
	return [...]*[]string{&p.AllowedDomains, &p.BlockedDomains, &p.AllowedMerchants, &p.BlockedMerchants, &p.AllowedRecipients,
		&p.BlockedRecipients}
}

// parseProcurement fills p's lists from procurementLists (NULL: no controls).
func parseProcurement(lists [procurementListCount]sql.NullString, p *botpay.Procurement) error {
	for i, dst := range listsOf(p) {
		if lists[i].Valid {
			if err := json.Unmarshal([]byte(lists[i].String), dst); err != nil {
				return err
			}
		}
	}
	return nil
}

const procurementQuery = `SELECT allowed_domains, blocked_domains, allowed_merchants, blocked_merchants, allowed_recipients, blocked_recipients,
	updated_at FROM procurement WHERE bot_id = $1`

func scanProcurement(row interface{ Scan(...any) error }) (botpay.Procurement, error) {
	p := botpay.Procurement{AllowedDomains: []string{}, BlockedDomains: []string{}, AllowedMerchants: []string{},
		BlockedMerchants: []string{}, AllowedRecipients: []string{}, BlockedRecipients: []string{}}
	var lists [procurementListCount]sql.NullString
	var updated int64
	err := row.Scan(&lists[0], &lists[1], &lists[2], &lists[3], &lists[4], &lists[5], &updated)
	if isNoRows(err) {
		return p, nil
	}
	if err == nil {
		err = parseProcurement(lists, &p)
	}
	p.UpdatedAt = fromMS(updated)
	return p, err
}

// SetProcurement replaces an owned bot's procurement controls and emits
// rails.updated (limits_updated).
func (s *Store) SetProcurement(ctx context.Context, ownerID, botID string, p botpay.Procurement) error {
	enc := func(l []string) string { b, _ := json.Marshal(nonNil(l)); return string(b) }
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		if err := tx.ownedClaimedBot(ctx, ownerID, botID); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `INSERT INTO procurement (bot_id, allowed_domains, blocked_domains, allowed_merchants, blocked_merchants,
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
		return tx.emit(railsUpdated(botID, botpay.ActionLimitsUpdated, "Your owner changed where you may buy.", p.UpdatedAt))
	}), "set procurement %s", botID)
}
