package store

import (
	"context"
	"encoding/json"

	"github.com/botpay/botpay/internal/ledger"

	"github.com/botpay/botpay/internal/botpay"
)

// CreateRail5Card stores a rail5 card (its key sealed) on an owned, claimed
// bot together with its rail5.card.delivered event, which carries the
// encrypted card file.
func (s *Store) CreateRail5Card(ctx context.Context, c botpay.Rail5Card, keySealed []byte, delivered botpay.Event) error {
	return wrapErr(s.inTx(ctx, func(tx *Tx) error {
		if err := tx.ownedClaimedBot(ctx, c.OwnerID, c.BotID); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `INSERT INTO rail5_cards (id, bot_id, owner_id, name, last4, status, key_sealed, delivery_event_id, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			c.ID, c.BotID, c.OwnerID, c.Name, c.Last4, c.Status, keySealed, delivered.ID, ms(c.CreatedAt)); err != nil {
			return err
		}
		return tx.emit(delivered)
	}), "create rail5 card")
}

// ConfirmRail5Delivery moves the bot's card (cardID, or its oldest card
// awaiting delivery) to confirmed and scrubs the card file from the
// delivery event and any staged copy of it: after confirmation the service
// keeps no copy of the file (docs/decisions.md).
func (s *Store) ConfirmRail5Delivery(ctx context.Context, botID, cardID string) (botpay.Rail5Card, error) {
	now := s.clock.Now()
	var c botpay.Rail5Card
	err := s.inTx(ctx, func(tx *Tx) error {
		q := `SELECT id, name, last4, status, delivery_event_id FROM rail5_cards WHERE bot_id = $1 AND status = $2`
		args := []any{botID, botpay.Rail5PendingDelivery}
		if cardID != "" {
			q = `SELECT id, name, last4, status, delivery_event_id FROM rail5_cards WHERE bot_id = $1 AND id = $2`
			args = []any{botID, cardID}
		}
		var eventID string
		err := tx.queryRow(ctx, q+` ORDER BY seq LIMIT 1`+tx.forUpdate(), args...).Scan(&c.ID, &c.Name, &c.Last4, &c.Status, &eventID)
		if isNoRows(err) {
			var n int
			if err := tx.queryRow(ctx, `SELECT COUNT(*) FROM rail5_cards WHERE bot_id = $1`, botID).Scan(&n); err != nil {
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
		if _, err := tx.exec(ctx, `UPDATE rail5_cards SET status = $1, confirmed_at = $2 WHERE id = $3`, c.Status, ms(now), c.ID); err != nil {
			return err
		}
		return tx.scrubCardFile(ctx, eventID)
	})
	return c, wrapErr(err, "confirm rail5 delivery %s", cardID)
}

var errInvalidCardStatus = botpay.Errorf(botpay.KindConflict, botpay.CodeInvalidCardStatus, "the rail5 card is not awaiting delivery")

// scrubCardFile removes file_content from the delivery event and its staged
// pending messages, and drops any managed-tunnel relay of it (whose stored
// body is the signed delivery itself).
func (t *Tx) scrubCardFile(ctx context.Context, eventID string) error {
	if _, err := t.exec(ctx, `DELETE FROM tunnel_requests WHERE headers LIKE $1`, "%"+eventID+"%"); err != nil {
		return err
	}
	for _, table := range []string{"outbox", "pending_messages"} {
		rows, err := t.query(ctx, `SELECT id, data FROM `+table+` WHERE event_id = $1`, eventID)
		if err != nil {
			return err
		}
		type row struct {
			id   int64
			data string
		}
		var found []row
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.id, &r.data); err != nil {
				rows.Close()
				return err
			}
			found = append(found, r)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, r := range found {
			var data map[string]any
			if err := json.Unmarshal([]byte(r.data), &data); err != nil {
				return err
			}
			data["file_content"] = "(removed after the bot confirmed delivery)"
			scrubbed, _ := json.Marshal(data)
			if _, err := t.exec(ctx, `UPDATE `+table+` SET data = $1 WHERE id = $2`, string(scrubbed), r.id); err != nil {
				return err
			}
		}
	}
	return nil
}

// Rail5CheckoutInput is a validated rail5 checkout.
type Rail5CheckoutInput struct {
	BotID   string
	CardID  string // optional with one confirmed card
	Request botpay.CheckoutRequest
	Item    string
	Limit   Limit
}

// Rail5Checkout evaluates a rail5 spend with the same guardrail chain as a
// card-wallet checkout (no wallet balance: the owner's card is charged) and
// records it approved. A spend the approval mode would hold for the owner is
// refused with 403 approval_required: rail5 has no hold.
func (s *Store) Rail5Checkout(ctx context.Context, in Rail5CheckoutInput) (botpay.Rail5Checkout, error) {
	now := s.clock.Now()
	var out botpay.Rail5Checkout
	var refusal *botpay.Error
	err := s.inTx(ctx, func(tx *Tx) error {
		w, claimed, err := tx.lockWallet(ctx, in.BotID)
		if err != nil {
			return err
		}
		if err := botpay.CheckWallet(claimed, w.Frozen); err != nil {
			return err
		}
		if err := tx.checkoutRateLimit(ctx, w, in.Limit, now); err != nil {
			return err
		}
		cardID, err := tx.confirmedRail5Card(ctx, in.BotID, in.CardID)
		if err != nil {
			return err
		}
		rules := botpay.SpendingRules{Profile: botpay.PaymentProfile{Index: 1, AllowanceDuration: botpay.AllowanceMonth, Allowance: botpay.MaxMoney}}
		if rules.Bot, err = scanGuardrails(tx.queryRow(ctx, guardrailsQuery, in.BotID)); err != nil {
			return err
		}
		if rules.Master, err = scanMasterGuardrails(tx.queryRow(ctx, masterGuardrailsQuery, w.OwnerID)); err != nil {
			return err
		}
		if rules.Procurement, err = scanProcurement(tx.queryRow(ctx, procurementQuery, in.BotID)); err != nil {
			return err
		}
		usage, err := tx.usage(ctx, in.BotID, w.OwnerID, rules, now)
		if err != nil {
			return err
		}
		usage.Profile, usage.Available = 0, botpay.MaxMoney
		verdict, refused := botpay.EvaluateCheckout(in.Request, rules, usage)
		if refused == nil && verdict == botpay.Hold {
			refused = botpay.Errorf(botpay.KindForbidden, botpay.CodeApprovalRequired,
				"your guardrails require your owner's approval for this amount; rail5 spends cannot wait for approval, use the card wallet checkout")
		}
		out = botpay.Rail5Checkout{ID: botpay.NewID("r5chk_"), BotID: in.BotID, OwnerID: w.OwnerID, CardID: cardID,
			Amount: in.Request.Amount, MerchantName: in.Request.MerchantName, MerchantURL: in.Request.MerchantURL,
			ItemName: in.Item, Status: botpay.Rail5CheckoutApproved, CreatedAt: now}
		if refused != nil {
			// Kept as declined: it counts against the rate limit only.
			refusal, out.Status = refused, botpay.Rail5CheckoutDeclined
			if err := tx.emit(botpay.NewEvent(in.BotID, botpay.SpendDeclinedData{
				Amount: in.Request.Amount, Currency: "USD", Vendor: in.Request.MerchantName, Reason: refused.Message,
			}, now)); err != nil {
				return err
			}
		}
		_, err = tx.exec(ctx, `INSERT INTO rail5_checkouts (id, bot_id, owner_id, card_id, amount_cents, merchant_name, merchant_url,
				item_name, status, created_at, bot_seq) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
			out.ID, out.BotID, out.OwnerID, out.CardID, int64(out.Amount), out.MerchantName, out.MerchantURL, out.ItemName, out.Status, ms(now),
			w.Seq+1)
		ledger.NumberCheckout(tx.k, in.BotID, w.Seq+1)
		if refused == nil {
			ledger.CountSpend(tx.k, ledger.Rail5Scopes(out.BotID, out.OwnerID), ms(now), out.Amount)
		}
		return err
	})
	if err == nil && refusal != nil {
		return out, refusal
	}
	return out, wrapErr(err, "rail5 checkout")
}

func (t *Tx) confirmedRail5Card(ctx context.Context, botID, cardID string) (string, error) {
	q, args := `SELECT id, status FROM rail5_cards WHERE bot_id = $1 ORDER BY seq`, []any{botID}
	if cardID != "" {
		q, args = `SELECT id, status FROM rail5_cards WHERE bot_id = $1 AND id = $2`, []any{botID, cardID}
	}
	rows, err := t.query(ctx, q, args...)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var confirmed []string
	seen := 0
	for rows.Next() {
		var id, status string
		if err := rows.Scan(&id, &status); err != nil {
			return "", err
		}
		seen++
		if status == botpay.Rail5Confirmed {
			confirmed = append(confirmed, id)
		}
	}
	if err := rows.Err(); err != nil {
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

// ReleaseRail5Key hands out the sealed key of an approved rail5 checkout's
// card, once: the checkout moves to key_released.
func (s *Store) ReleaseRail5Key(ctx context.Context, botID, checkoutID string) (botpay.Rail5Checkout, []byte, error) {
	now := s.clock.Now()
	var c botpay.Rail5Checkout
	var sealed []byte
	err := s.inTx(ctx, func(tx *Tx) error {
		var err error
		if c, err = tx.rail5Checkout(ctx, botID, checkoutID); err != nil {
			return err
		}
		if c.Status != botpay.Rail5CheckoutApproved {
			return botpay.Errorf(botpay.KindConflict, botpay.CodeKeyAlreadyReleased, "the key of this checkout was already released")
		}
		if err := tx.queryRow(ctx, `SELECT key_sealed FROM rail5_cards WHERE id = $1`, c.CardID).Scan(&sealed); err != nil {
			return err
		}
		c.Status = botpay.Rail5CheckoutKeyReleased
		_, err = tx.exec(ctx, `UPDATE rail5_checkouts SET status = $1, key_released_at = $2 WHERE id = $3`, c.Status, ms(now), c.ID)
		return err
	})
	return c, sealed, wrapErr(err, "release rail5 key %s", checkoutID)
}

// CompleteRail5Checkout records the bot's report on a checkout whose key was
// released and emits rail5.checkout.completed or rail5.checkout.failed. A
// failed checkout stops counting against budgets.
func (s *Store) CompleteRail5Checkout(ctx context.Context, botID, checkoutID string, success bool, reason string) (botpay.Rail5Checkout, error) {
	now := s.clock.Now()
	var c botpay.Rail5Checkout
	err := s.inTx(ctx, func(tx *Tx) error {
		var err error
		if c, err = tx.rail5Checkout(ctx, botID, checkoutID); err != nil {
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
			ledger.CountSpend(tx.k, ledger.Rail5Scopes(botID, c.OwnerID), ms(c.CreatedAt), -c.Amount)
		}
		if _, err := tx.exec(ctx, `UPDATE rail5_checkouts SET status = $1, reason = $2, completed_at = $3 WHERE id = $4`,
			c.Status, reason, ms(now), c.ID); err != nil {
			return err
		}
		return tx.emit(botpay.NewEvent(botID, data, now))
	})
	return c, wrapErr(err, "complete rail5 checkout %s", checkoutID)
}

func (t *Tx) rail5Checkout(ctx context.Context, botID, id string) (botpay.Rail5Checkout, error) {
	c := botpay.Rail5Checkout{ID: id, BotID: botID}
	var created int64
	err := t.queryRow(ctx, `SELECT owner_id, card_id, amount_cents, merchant_name, merchant_url, item_name, status, reason, created_at
		FROM rail5_checkouts WHERE id = $1 AND bot_id = $2`+t.forUpdate(), id, botID).
		Scan(&c.OwnerID, &c.CardID, &c.Amount, &c.MerchantName, &c.MerchantURL, &c.ItemName, &c.Status, &c.Reason, &created)
	if isNoRows(err) {
		return c, botpay.ErrNotFound("rail5 checkout")
	}
	c.CreatedAt = fromMS(created)
	return c, err
}
