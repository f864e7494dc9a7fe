package spending

import (
	"context"
	"strconv"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/ledger"
)

// WriteStatementByStatement (tests only) makes s write every approved
// checkout statement by statement even where the engine could write it in
// one, so the tests compare the two paths.
func (s *Service) WriteStatementByStatement() { s.inOne = false }

// The tests of the books compare the purchases with the running totals
// budgets read.

// PurchaseTotals (tests only) adds up a bot's pending purchases (what its
// hold must equal) and today's approved and unexpired held real purchases.
func (s *Service) PurchaseTotals(ctx context.Context, botID string, now time.Time) (held, today botpay.Money, err error) {
	err = s.db.QueryRow(ctx, `SELECT
			COALESCE(SUM(CASE WHEN status = 'pending' AND decoy = $3 THEN amount_cents ELSE 0 END), 0),
			COALESCE(SUM(CASE WHEN decoy = $3 AND created_at >= $2
				AND (status = 'approved' OR (status = 'pending' AND expires_at > $4)) THEN amount_cents ELSE 0 END), 0)
		FROM purchases WHERE bot_id = $1`, botID, ms(botpay.DayStart(now)), false, ms(now)).Scan(&held, &today)
	return held, today, err
}

// BotSpentToday (tests only) reads a bot's committed spend of today from the
// running totals, as budgets read it.
func (s *Service) BotSpentToday(ctx context.Context, botID string, now time.Time) (botpay.Money, error) {
	var spent botpay.Money
	err := s.db.QueryRow(ctx, `SELECT day FROM `+ledger.CommittedDays("bot_id"), ledger.CommittedArgs("bot:"+botID, botID, now)...).Scan(&spent)
	return spent, err
}

// ProfileSpent (tests only) reads what counts against a payment profile's
// allowance since from, from the running totals and from the purchases
// themselves (approved, or held inside their window; decoys included).
func (s *Service) ProfileSpent(ctx context.Context, cardID string, index int, from, now time.Time) (totals, purchases botpay.Money, err error) {
	err = s.db.QueryRow(ctx, `SELECT
			(SELECT COALESCE(SUM(cents), 0) FROM spend_days WHERE scope = $1 AND day >= $2)
			- (SELECT COALESCE(SUM(amount_cents), 0) FROM purchases WHERE status = 'pending' AND expires_at <= $3
				AND card_id = $4 AND profile_index = $5 AND created_at >= $2),
			(SELECT COALESCE(SUM(amount_cents), 0) FROM purchases WHERE card_id = $4 AND profile_index = $5 AND created_at >= $2
				AND (status = 'approved' OR (status = 'pending' AND expires_at > $3)))`,
		"profile:"+cardID+":"+strconv.Itoa(index), ms(from), ms(now), cardID, index).Scan(&totals, &purchases)
	return totals, purchases, err
}

// QueueTask (tests only) queues a task built by the test, id included, so
// that both checkout paths' tables can be compared row by row.
func (s *Service) QueueTask(ctx context.Context, ownerID string, t botpay.Task) error {
	return s.queueTask(ctx, ownerID, t)
}

// WriteProcurement (tests only) replaces the bot's procurement controls
// with p as given, unmerged and unchecked.
func (s *Service) WriteProcurement(ctx context.Context, ownerID, botID string, p botpay.Procurement) error {
	return s.writeProcurement(ctx, ownerID, botID, p)
}
