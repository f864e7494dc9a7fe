package ledger

import (
	"context"
	"strconv"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// Args collects the arguments of a statement built in pieces, numbering
// their placeholders in order.
type Args []any

// Add appends v and returns its placeholder.
func (a *Args) Add(v any) string {
	*a = append(*a, v)
	if n := len(*a); n < len(placeholders) {
		return placeholders[n]
	}
	return "$" + strconv.Itoa(len(*a))
}

// placeholders are "$1"… made once: the one-statement checkout numbers
// about forty arguments per request.
var placeholders = func() (p [128]string) {
	for i := range p {
		p[i] = "$" + strconv.Itoa(i)
	}
	return p
}()

// EntrySQL is the insert of one ledger row as a SELECT, so that a caller can
// put it in a statement of its own; balanceAfter is an SQL expression
// (a placeholder, or a column of a debit that runs in the same statement).
func EntrySQL(a *Args, botID, typ string, amount botpay.Money, balanceAfter, description string, now time.Time) string {
	return `INSERT INTO ledger (bot_id, type, amount_cents, balance_after_cents, description, created_at) SELECT ` +
		a.Add(botID) + `, ` + a.Add(typ) + `, ` + a.Add(int64(amount)) + `, ` + balanceAfter + `, ` +
		a.Add(description) + `, ` + a.Add(kernel.MS(now))
}

// Append writes one ledger row of the bot (its balance after the change
// when known) and returns it with its id.
func Append(ctx context.Context, tx *kernel.Tx, botID, typ string, amount botpay.Money, after *botpay.Money, description string, now time.Time) (botpay.Transaction, error) {
	tr := botpay.Transaction{BotID: botID, Type: typ, Amount: amount, BalanceAfter: after, Description: description, CreatedAt: now}
	var a Args
	q := EntrySQL(&a, botID, typ, amount, a.Add(centsPtr(after)), description, now) + ` RETURNING id`
	err := tx.QueryRow(ctx, q, a...).Scan(&tr.ID)
	return tr, err
}

func centsPtr(m *botpay.Money) *int64 {
	if m == nil {
		return nil
	}
	v := int64(*m)
	return &v
}
