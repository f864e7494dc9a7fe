package store

import (
	"database/sql"
	"encoding/json"

	"github.com/botpay/botpay/internal/botpay"
)

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
