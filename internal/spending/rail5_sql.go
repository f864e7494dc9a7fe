package spending

import (
	"context"
	"encoding/json"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
)

// AddRail5Card stores a rail5 card (its key sealed) on an owned, claimed
// bot together with its rail5.card.delivered event, which carries the
// encrypted card file.
func (s *Service) AddRail5Card(ctx context.Context, c botpay.Rail5Card, keySealed []byte, delivered botpay.Event) error {
	return wrapErr(s.db.InTx(ctx, func(tx *kernel.Tx) error {
		if err := ownedClaimedBot(ctx, tx, c.OwnerID, c.BotID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO rail5_cards (id, bot_id, owner_id, name, last4, status, key_sealed, delivery_event_id, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			c.ID, c.BotID, c.OwnerID, c.Name, c.Last4, c.Status, keySealed, delivered.ID, ms(c.CreatedAt)); err != nil {
			return err
		}
		return s.outbox.Emit(tx, delivered)
	}), "create rail5 card")
}

// confirmRail5Delivery moves the bot's card (cardID, or its oldest card
// awaiting delivery) to confirmed and scrubs the card file from the
// delivery event and any staged copy of it: after confirmation the service
// keeps no copy of the file (docs/decisions.md).
func (s *Service) confirmRail5Delivery(ctx context.Context, botID, cardID string) (botpay.Rail5Card, error) {
	now := s.clock.Now()
	var c botpay.Rail5Card
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		q := `SELECT id, name, last4, status, delivery_event_id FROM rail5_cards WHERE bot_id = $1 AND status = $2`
		args := []any{botID, botpay.Rail5PendingDelivery}
		if cardID != "" {
			q = `SELECT id, name, last4, status, delivery_event_id FROM rail5_cards WHERE bot_id = $1 AND id = $2`
			args = []any{botID, cardID}
		}
		var eventID string
		err := tx.QueryRow(ctx, q+` ORDER BY seq LIMIT 1`+tx.ForUpdate(), args...).Scan(&c.ID, &c.Name, &c.Last4, &c.Status, &eventID)
		if isNoRows(err) {
			var n int
			if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM rail5_cards WHERE bot_id = $1`, botID).Scan(&n); err != nil {
				return err
			}
			if n == 0 || cardID != "" {
				return botpay.Errorf(botpay.KindNotFound, botpay.CodeCardNotFound, "no rail5 card awaits delivery to this bot")
			}
			return errInvalidCardStatus
		}
		if err != nil {
			return err
		}
		if c.Status != botpay.Rail5PendingDelivery {
			return errInvalidCardStatus
		}
		c.Status, c.BotID = botpay.Rail5Confirmed, botID
		if _, err := tx.Exec(ctx, `UPDATE rail5_cards SET status = $1, confirmed_at = $2 WHERE id = $3`, c.Status, ms(now), c.ID); err != nil {
			return err
		}
		return scrubCardFile(ctx, tx, eventID)
	})
	return c, wrapErr(err, "confirm rail5 delivery %s", cardID)
}

var errInvalidCardStatus = botpay.Errorf(botpay.KindConflict, botpay.CodeInvalidCardStatus, "the rail5 card is not awaiting delivery")

// scrubCardFile removes file_content from the delivery event and its staged
// pending messages, and drops any managed-tunnel relay of it (whose stored
// body is the signed delivery itself).
func scrubCardFile(ctx context.Context, tx *kernel.Tx, eventID string) error {
	if _, err := tx.Exec(ctx, `DELETE FROM tunnel_requests WHERE headers LIKE $1`, "%"+eventID+"%"); err != nil {
		return err
	}
	for _, table := range []string{"outbox", "pending_messages"} {
		type row struct {
			id   int64
			data string
		}
		var found []row
		// An outbox row staged at emit has no data: its copy is the pending message's.
		err := tx.EachRow(ctx, kernel.Step{Query: `SELECT id, data FROM ` + table + ` WHERE event_id = $1 AND data IS NOT NULL`, Args: []any{eventID},
			Each: func(sc kernel.Scanner) error {
				var r row
				err := sc.Scan(&r.id, &r.data)
				found = append(found, r)
				return err
			}})
		if err != nil {
			return err
		}
		for _, r := range found {
			var data map[string]any
			if err := json.Unmarshal([]byte(r.data), &data); err != nil {
				return err
			}
			data["file_content"] = "(removed after the bot confirmed delivery)"
			scrubbed, _ := json.Marshal(data)
			if _, err := tx.Exec(ctx, `UPDATE `+table+` SET data = $1 WHERE id = $2`, string(scrubbed), r.id); err != nil {
				return err
			}
		}
	}
	return nil
}

// rail5Checkout is where a rail5 spend is decided, as one unit of work in
// one transaction: lock the bot's wallet and read the facts, decide on
// them (decideRail5, pure), record the checkout with its count and, when
// refused, its event. A refusal commits its declined record, then is
// returned.
func (s *Service) rail5Checkout(ctx context.Context, ask rail5Ask) (botpay.Rail5Checkout, error) {
	now := s.clock.Now()
	var out botpay.Rail5Checkout
	var refusal *botpay.Error
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		f, err := s.readRail5Facts(ctx, tx, ask, now)
		if err != nil {
			return err
		}
		out, refusal = decideRail5(f, ask, now)
		return s.writeRail5Checkout(ctx, tx, f.wallet, out, refusal, now)
	})
	if err == nil && refusal != nil {
		return out, refusal
	}
	return out, wrapErr(err, "rail5 checkout")
}

// readRail5Facts locks the bot's wallet, refuses an unclaimed or frozen
// one and a bot over its checkout rate limit, then reads the confirmed
// card, the owner-set rules and what already counts against the budgets.
func (s *Service) readRail5Facts(ctx context.Context, tx *kernel.Tx, ask rail5Ask, now time.Time) (rail5Facts, error) {
	var f rail5Facts
	w, claimed, err := ledger.LockWallet(ctx, tx, ask.BotID)
	if err != nil {
		return f, err
	}
	f.wallet = w
	if err := botpay.CheckWallet(claimed, w.Frozen); err != nil {
		return f, err
	}
	if err := checkoutRateLimit(ctx, tx, w, ask.PerWindow, ask.Window, now); err != nil {
		return f, err
	}
	if f.cardID, err = confirmedRail5Card(ctx, tx, ask.BotID, ask.CardID); err != nil {
		return f, err
	}
	if f.rules, err = rail5Rules(ctx, tx, ask.BotID, w.OwnerID); err != nil {
		return f, err
	}
	f.rules.Profile = botpay.PaymentProfile{Index: 1, AllowanceDuration: botpay.AllowanceMonth, Allowance: botpay.MaxMoney}
	if f.usage, err = rail5Usage(ctx, tx, ask.BotID, w.OwnerID, f.rules, now); err != nil {
		return f, err
	}
	f.usage.Profile, f.usage.Available = 0, botpay.MaxMoney
	return f, nil
}

// writeRail5Checkout records a decided rail5 checkout under the bot's next
// checkout number: a refused one as declined with wallet.spend.declined
// (it counts against the rate limit only), an approved one counted in the
// running totals.
func (s *Service) writeRail5Checkout(ctx context.Context, tx *kernel.Tx, w ledger.Wallet, out botpay.Rail5Checkout, refused *botpay.Error, now time.Time) error {
	if refused != nil {
		if err := s.outbox.Emit(tx, botpay.NewEvent(out.BotID, botpay.SpendDeclinedData{
			Amount: out.Amount, Currency: "USD", Vendor: out.MerchantName, Reason: refused.Message,
		}, now)); err != nil {
			return err
		}
	}
	_, err := tx.Exec(ctx, `INSERT INTO rail5_checkouts (id, bot_id, owner_id, card_id, amount_cents, merchant_name, merchant_url,
			item_name, status, created_at, bot_seq) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		out.ID, out.BotID, out.OwnerID, out.CardID, int64(out.Amount), out.MerchantName, out.MerchantURL, out.ItemName, out.Status, ms(now),
		w.Seq+1)
	ledger.NumberCheckout(tx, out.BotID, w.Seq+1)
	if refused == nil {
		ledger.CountSpend(tx, ledger.Rail5Scopes(out.BotID, out.OwnerID), ms(now), out.Amount)
	}
	return err
}

// checkoutRateLimit refuses a rail5 checkout when the bot already made max
// checkouts (card wallet or rail5, decided or declined ones all count) in
// the rolling window. The checkouts themselves are the hits: no counter
// rows are written, and the caller's wallet lock serialises the bot's
// checkouts. w is the bot's locked wallet. (Card checkouts read the same
// probe with their usage, usageStep.)
func checkoutRateLimit(ctx context.Context, tx *kernel.Tx, w ledger.Wallet, max int, window time.Duration, now time.Time) error {
	if max <= 0 {
		return nil
	}
	var at *int64
	err := tx.QueryRow(ctx, `SELECT `+ledger.MaxthLatestCheckout("$1", "$2"), w.BotID, w.Seq+1-int64(max)).Scan(&at)
	if err != nil {
		return err
	}
	return botpay.CheckoutRateLimit(max, window, fromNullableMS(at), now)
}

// rail5Usage reads what already counts against the bot's budgets, for a
// rail5 checkout (a rail5 card has no card or profile allowance here).
func rail5Usage(ctx context.Context, tx *kernel.Tx, botID, ownerID string, r botpay.SpendingRules, now time.Time) (botpay.Usage, error) {
	var u botpay.Usage
	err := tx.QueryRow(ctx, `SELECT day, month FROM `+ledger.CommittedDays("bot_id"), ledger.CommittedArgs("bot:"+botID, botID, now)...).
		Scan(&u.BotDay, &u.BotMonth)
	if err != nil {
		return u, err
	}
	if !botpay.MasterBudgetsApply(r) {
		return u, nil
	}
	return ledger.OwnerUsage(ctx, tx, ownerID, u, now)
}

// confirmedRail5Card picks the rail5 card a checkout spends with: cardID,
// or the bot's one confirmed card.
func confirmedRail5Card(ctx context.Context, tx *kernel.Tx, botID, cardID string) (string, error) {
	q, args := `SELECT id, status FROM rail5_cards WHERE bot_id = $1 ORDER BY seq`, []any{botID}
	if cardID != "" {
		q, args = `SELECT id, status FROM rail5_cards WHERE bot_id = $1 AND id = $2`, []any{botID, cardID}
	}
	var confirmed []string
	seen := 0
	err := tx.EachRow(ctx, kernel.Step{Query: q, Args: args, Each: func(row kernel.Scanner) error {
		var id, status string
		if err := row.Scan(&id, &status); err != nil {
			return err
		}
		seen++
		if status == botpay.Rail5Confirmed {
			confirmed = append(confirmed, id)
		}
		return nil
	}})
	if err != nil {
		return "", err
	}
	switch {
	case cardID != "" && seen == 0:
		return "", botpay.ErrCardNotFound
	case len(confirmed) == 0:
		return "", botpay.Errorf(botpay.KindForbidden, botpay.CodeCardNotActive, "no confirmed rail5 card: confirm delivery of your card file first")
	case len(confirmed) > 1:
		return "", botpay.Errorf(botpay.KindInvalid, botpay.CodeCardIDRequired, "this bot has %d rail5 cards; say which one with card_id", len(confirmed))
	}
	return confirmed[0], nil
}

// releaseRail5Key hands out the sealed key of an approved rail5 checkout's
// card, once: the checkout moves to key_released.
func (s *Service) releaseRail5Key(ctx context.Context, botID, checkoutID string) (botpay.Rail5Checkout, []byte, error) {
	now := s.clock.Now()
	var c botpay.Rail5Checkout
	var sealed []byte
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		var err error
		if c, err = lockRail5Checkout(ctx, tx, botID, checkoutID); err != nil {
			return err
		}
		if c.Status != botpay.Rail5CheckoutApproved {
			return botpay.Errorf(botpay.KindConflict, botpay.CodeKeyAlreadyReleased, "the key of this checkout was already released")
		}
		if err := tx.QueryRow(ctx, `SELECT key_sealed FROM rail5_cards WHERE id = $1`, c.CardID).Scan(&sealed); err != nil {
			return err
		}
		c.Status = botpay.Rail5CheckoutKeyReleased
		_, err = tx.Exec(ctx, `UPDATE rail5_checkouts SET status = $1, key_released_at = $2 WHERE id = $3`, c.Status, ms(now), c.ID)
		return err
	})
	return c, sealed, wrapErr(err, "release rail5 key %s", checkoutID)
}

// completeRail5Checkout records the bot's report on a checkout whose key
// was released and emits rail5.checkout.completed or rail5.checkout.failed.
// A failed checkout stops counting against budgets.
func (s *Service) completeRail5Checkout(ctx context.Context, botID, checkoutID string, success bool, reason string) (botpay.Rail5Checkout, error) {
	now := s.clock.Now()
	var c botpay.Rail5Checkout
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		var err error
		if c, err = lockRail5Checkout(ctx, tx, botID, checkoutID); err != nil {
			return err
		}
		if c.Status != botpay.Rail5CheckoutKeyReleased {
			return botpay.Errorf(botpay.KindConflict, botpay.CodeInvalidCheckoutState,
				"a checkout can be reported once, after its key was released (it is %s)", c.Status)
		}
		c.Status, c.Reason = botpay.Rail5CheckoutCompleted, reason
		var data botpay.EventData = botpay.Rail5CheckoutCompletedData{CardID: c.CardID, Amount: c.Amount, Currency: "USD",
			Vendor: c.MerchantName, Description: c.ItemName + " at " + c.MerchantName + " (" + c.ID + ")"}
		if !success {
			c.Status = botpay.Rail5CheckoutFailed
			data = botpay.Rail5CheckoutFailedData{CardID: c.CardID, Amount: c.Amount, Currency: "USD", Vendor: c.MerchantName, Reason: reason}
			ledger.CountSpend(tx, ledger.Rail5Scopes(botID, c.OwnerID), ms(c.CreatedAt), -c.Amount)
		}
		if _, err := tx.Exec(ctx, `UPDATE rail5_checkouts SET status = $1, reason = $2, completed_at = $3 WHERE id = $4`,
			c.Status, reason, ms(now), c.ID); err != nil {
			return err
		}
		return s.outbox.Emit(tx, botpay.NewEvent(botID, data, now))
	})
	return c, wrapErr(err, "complete rail5 checkout %s", checkoutID)
}

// lockRail5Checkout reads and locks one of the bot's rail5 checkouts;
// another bot's is the same 404 as a missing one.
func lockRail5Checkout(ctx context.Context, tx *kernel.Tx, botID, id string) (botpay.Rail5Checkout, error) {
	c := botpay.Rail5Checkout{ID: id, BotID: botID}
	var created int64
	err := tx.QueryRow(ctx, `SELECT owner_id, card_id, amount_cents, merchant_name, merchant_url, item_name, status, reason, created_at
		FROM rail5_checkouts WHERE id = $1 AND bot_id = $2`+tx.ForUpdate(), id, botID).
		Scan(&c.OwnerID, &c.CardID, &c.Amount, &c.MerchantName, &c.MerchantURL, &c.ItemName, &c.Status, &c.Reason, &created)
	if isNoRows(err) {
		return c, botpay.ErrNotFound("rail5 checkout")
	}
	c.CreatedAt = fromMS(created)
	return c, err
}

// rail5Rules reads the bot's guardrails, its owner's master guardrails and
// the bot's procurement controls (a rail5 card has no payment profiles),
// under the wallet lock the caller holds.
func rail5Rules(ctx context.Context, tx *kernel.Tx, botID, ownerID string) (botpay.SpendingRules, error) {
	var rules botpay.SpendingRules
	var err error
	if rules.Bot, err = scanGuardrails(tx.QueryRow(ctx, guardrailsQuery, botID)); err != nil {
		return rules, err
	}
	if rules.Master, err = scanMasterGuardrails(tx.QueryRow(ctx, masterGuardrailsQuery, ownerID)); err != nil {
		return rules, err
	}
	rules.Procurement, err = scanProcurement(tx.QueryRow(ctx, procurementQuery, botID))
	return rules, err
}
