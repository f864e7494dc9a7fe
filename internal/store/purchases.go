package store

import (
	"context"
	"errors"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// CheckoutInput is one bot checkout request (docs/api.md), already
// validated.
type CheckoutInput struct {
	BotID        string
	CardID       string // optional
	ProfileIndex int
	Request      botpay.CheckoutRequest
	ItemName     string
	TaskID       string // optional
	Limit        Limit  // checkouts per bot
}

// CheckoutResult is an admitted checkout. SealedDetails are the profile's
// sealed card details when the purchase was approved at once.
type CheckoutResult struct {
	Purchase      botpay.Purchase
	SealedDetails []byte
	LowBalance    *LowBalance // set when the checkout crossed the threshold
}

// lockedWallet is a claimed bot's wallet row, locked for this transaction.
type lockedWallet struct {
	id        string
	botID     string
	ownerID   string
	frozen    bool
	balance   botpay.Money
	held      botpay.Money
	threshold botpay.Money
	seq       int64 // the number of the bot's latest checkout (card or rail5)
	// configVersion is the version of the bot's spending configuration
	// (checkoutConfig).
	configVersion int64
}

func (w lockedWallet) available() botpay.Money { return w.balance - w.held }

// lockWallet locks the bot's wallet for the rest of the
// transaction: every change to a bot's money or purchases takes this lock
// first, so concurrent checkouts, decisions and expiries of one bot run one
// after another and budgets and balances are read exactly. ok is false when
// the bot has no wallet (not claimed).
func (t *Tx) lockWallet(ctx context.Context, botID string) (w lockedWallet, ok bool, err error) {
	err = t.pipeline(ctx, walletStep(t, botID, &w, &ok))
	return w, ok, err
}

// lockWalletRow locks only the wallet row, and in the mode an UPDATE of its
// balance takes: the bot row stays free for the foreign-key checks of
// inserts that reference the bot (the dispatcher's pending messages, other
// requests' rows), which FOR UPDATE on it would make wait.
func (t *Tx) lockWalletRow() string { return t.s.dialect.lockForNoKeyUpdate("w") }

// walletStep is lockWallet as a pipeline step.
func walletStep(t *Tx, botID string, w *lockedWallet, found *bool) step {
	w.botID = botID
	return step{query: `SELECT w.id, b.owner_id, b.frozen, w.balance_cents, w.held_cents, w.low_balance_cents, w.checkout_seq,
			w.config_version FROM wallets w JOIN bots b ON b.id = w.bot_id WHERE w.bot_id = $1` + t.lockWalletRow(), args: []any{botID},
		dest: []any{&w.id, &w.ownerID, &w.frozen, &w.balance, &w.held, &w.threshold, &w.seq, &w.configVersion}, found: found}
}

// Checkout evaluates and applies a checkout in one transaction: wallet
// checks, rate limit, card and profile, usage, the pure guardrail
// evaluation, then the purchase with its debit or hold, ledger row, events
// and task completion. A guardrail refusal commits its
// wallet.spend.declined event and rate-limit hit, then returns the refusal.
//
// On PostgreSQL an auto-approved checkout takes two round trips: BEGIN, the
// wallet lock and the usage; the writes and COMMIT. The cards and rules
// come from memory (checkoutConfig) unless the wallet's configuration
// version says they changed, which costs one more read.
func (s *Store) Checkout(ctx context.Context, in CheckoutInput) (CheckoutResult, error) {
	now := s.clock.Now()
	var res CheckoutResult
	var refusal *botpay.Error
	err := s.inTx(ctx, func(tx *Tx) error {
		var w lockedWallet
		var claimed bool
		var u checkoutUsage
		// The usage read with the wallet lock is for the card and profile of
		// the configuration in memory; when that turns out to be stale, the
		// fresh one's are read again.
		cfg := s.configs.get(in.BotID)
		card, profile, pickErr := pickCheckoutCard(cfg, in)
		if err := tx.pipeline(ctx, walletStep(tx, in.BotID, &w, &claimed), usageStep(in, card.ID, profile, now, &u)); err != nil {
			return err
		}
		if err := botpay.CheckWallet(claimed, w.frozen); err != nil {
			return err
		}
		reread := false
		if cfg == nil || cfg.walletID != w.id || cfg.version != w.configVersion {
			fresh, err := tx.readCheckoutConfig(ctx, w)
			if err != nil {
				return err
			}
			s.configs.put(in.BotID, fresh)
			wasCard, wasProfile := card.ID, profile
			cfg = fresh
			card, profile, pickErr = pickCheckoutCard(cfg, in)
			reread = card.ID != wasCard || profile != wasProfile
		}
		if w.held > 0 { // only a bot with holds can have overdue ones
			n, err := tx.expireOverdueOf(ctx, in.BotID, now)
			if err != nil {
				return err
			}
			if n > 0 { // released holds changed the wallet and the totals
				if err := tx.pipeline(ctx, walletStep(tx, in.BotID, &w, &claimed)); err != nil {
					return err
				}
				reread = true
			}
		}
		if pickErr != nil {
			return pickErr
		}
		if reread {
			if err := tx.pipeline(ctx, usageStep(in, card.ID, profile, now, &u)); err != nil {
				return err
			}
		}
		if in.TaskID != "" {
			if err := tx.claimTaskForCheckout(ctx, in.BotID, in.TaskID); err != nil {
				return err
			}
		}
		if !cfg.claimed {
			return errors.New("checkout: the bot has no guardrails")
		}
		if err := rateLimited(in.Limit, u.maxthLatest, now); err != nil {
			return err
		}
		rules, details := cfg.rulesFor(card, profile), cfg.details[cardProfile{card.ID, profile.Index}]
		usage, err := tx.ownerUsage(ctx, w.ownerID, rules, u.usage(), now)
		if err != nil {
			return err
		}
		usage.Available = w.available()
		verdict, refused := botpay.EvaluateCheckout(in.Request, rules, usage)
		p := botpay.Purchase{ID: botpay.NewID("chk_"), BotID: in.BotID, OwnerID: w.ownerID, CardID: card.ID,
			ProfileIndex: profile.Index, Decoy: rules.Decoy, Amount: in.Request.Amount, MerchantName: in.Request.MerchantName,
			MerchantURL: in.Request.MerchantURL, ItemName: in.ItemName, Category: in.Request.Category,
			Status: botpay.PurchaseApproved, CreatedAt: now}
		if refused != nil {
			// The declined request is kept (it counts against the rate
			// limit, never against budgets) with its event.
			refusal = refused
			p.Status, p.DecidedAt = botpay.PurchaseDeclined, now
			if err := tx.insertPurchase(ctx, p, w.seq+1); err != nil {
				return err
			}
			tx.numberCheckout(in.BotID, w.seq+1)
			return tx.emit(botpay.NewEvent(in.BotID, botpay.EventSpendDeclined, map[string]any{
				"amount": in.Request.Amount, "currency": "USD", "vendor": in.Request.MerchantName, "reason": refused.Message,
			}, now))
		}
		p.TaskID = in.TaskID
		if verdict == botpay.Hold {
			p.Status, p.ExpiresAt = botpay.PurchasePending, now.Add(botpay.HoldWindow)
		} else {
			p.DecidedAt = now
		}
		if tx.s.dialect.insertInsideWith && !p.Decoy && p.Status == botpay.PurchaseApproved {
			res.LowBalance, err = tx.debitAndRecordPG(w, p, now)
		} else {
			res.LowBalance, err = tx.applyNewPurchase(ctx, w, &p, now)
			if err == nil {
				err = tx.insertPurchase(ctx, p, w.seq+1)
			}
			tx.numberCheckout(in.BotID, w.seq+1)
			tx.countSpend(purchaseScopes(p), ms(now), p.Amount)
		}
		if err != nil {
			return err
		}
		if in.TaskID != "" {
			if err := tx.completeTask(ctx, in.TaskID, p.ID, ms(now)); err != nil {
				return err
			}
		}
		res.Purchase = p
		if p.Status == botpay.PurchaseApproved {
			res.SealedDetails = details
		}
		return nil
	})
	if err == nil && refusal != nil {
		return CheckoutResult{}, refusal
	}
	return res, err
}

// pickCheckoutCard picks the card and profile of a checkout from cfg (none
// without a configuration).
func pickCheckoutCard(cfg *checkoutConfig, in CheckoutInput) (botpay.Card, botpay.PaymentProfile, error) {
	if cfg == nil {
		return botpay.Card{}, botpay.PaymentProfile{}, nil
	}
	card, err := checkoutCard(cfg.checkoutCards(in.CardID), in.CardID)
	if err != nil {
		return card, botpay.PaymentProfile{}, err
	}
	profile, ok := card.Profile(in.ProfileIndex)
	if !ok {
		return card, profile, botpay.Errorf(botpay.KindInvalid, botpay.CodeInvalidProfile, "card %s has no payment profile %d", card.ID, in.ProfileIndex)
	}
	return card, profile, nil
}

// applyNewPurchase moves the money of a new purchase: a real approved one is
// debited with its spend ledger row, a held one places a hold; a decoy moves
// nothing and writes nothing.
// It runs before the purchase row is written, so the row is inserted with
// its ledger id.
func (t *Tx) applyNewPurchase(ctx context.Context, w lockedWallet, p *botpay.Purchase, now time.Time) (*LowBalance, error) {
	if p.Decoy {
		return nil, nil
	}
	before := w.available()
	if p.Status == botpay.PurchasePending {
		if _, err := t.exec(ctx, `UPDATE wallets SET held_cents = held_cents + $1, updated_at = $2 WHERE bot_id = $3`,
			int64(p.Amount), ms(now), p.BotID); err != nil {
			return nil, err
		}
		return t.lowBalance(w, before, before-p.Amount, now)
	}
	ledgerID, err := t.capture(ctx, *p, false, now)
	if err != nil {
		return nil, err
	}
	p.LedgerID = ledgerID
	return t.lowBalance(w, before, before-p.Amount, now)
}

// capture debits an approved purchase (from the hold when it was held) and
// writes its spend ledger row and wallet.spend.authorized. It returns the
// ledger row's id.
func (t *Tx) capture(ctx context.Context, p botpay.Purchase, fromHold bool, now time.Time) (int64, error) {
	held := int64(0)
	if fromHold {
		held = int64(p.Amount)
	}
	var balance, heldNow botpay.Money
	if err := t.queryRow(ctx, `UPDATE wallets SET balance_cents = balance_cents - $1, held_cents = held_cents - $2, updated_at = $3
		WHERE bot_id = $4 RETURNING balance_cents, held_cents`, int64(p.Amount), held, ms(now), p.BotID).Scan(&balance, &heldNow); err != nil {
		return 0, err
	}
	tr, err := t.appendLedger(ctx, p.BotID, botpay.TxSpend, -p.Amount, &balance, purchaseDescription(p), now)
	if err != nil {
		return 0, err
	}
	return tr.ID, t.emit(botpay.NewEvent(p.BotID, botpay.EventSpendAuthorized, map[string]any{
		"amount": p.Amount, "currency": "USD", "vendor": p.MerchantName, "description": purchaseDescription(p),
		"remaining_balance": balance - heldNow,
	}, now))
}

func purchaseDescription(p botpay.Purchase) string {
	return p.ItemName + " at " + p.MerchantName + " (" + p.ID + ")"
}

// LowBalance says that a change took the available balance below the bot's
// low-balance threshold.
type LowBalance struct{ Available, Threshold botpay.Money }

// lowBalance emits wallet.balance.low when the available balance falls
// below the bot's threshold: once per crossing, not on every later debit.
func (t *Tx) lowBalance(w lockedWallet, before, after botpay.Money, now time.Time) (*LowBalance, error) {
	if before < w.threshold || after >= w.threshold {
		return nil, nil
	}
	err := t.emit(botpay.NewEvent(w.botID, botpay.EventBalanceLow, map[string]any{
		"wallet_id": w.id, "current_balance": after, "currency": "USD",
		"message": "Your available balance is below $" + w.threshold.USD() + "; ask your owner for a top-up (POST /api/v1/bot/wallet/topup-request).",
	}, now))
	return &LowBalance{Available: after, Threshold: w.threshold}, err
}

// checkoutRateLimit refuses a checkout (card wallet or rail5, decided or
// declined ones all count) when the bot already made l.Max of them in the
// rolling window. The checkouts themselves are the hits: no counter rows
// are written, and the caller's wallet lock serialises the bot's checkouts.
// w is the bot's locked wallet. (Card checkouts read the same probe with
// their usage, in usageStep.)
func (t *Tx) checkoutRateLimit(ctx context.Context, w lockedWallet, l Limit, now time.Time) error {
	if l.Max <= 0 {
		return nil
	}
	var at *int64
	err := t.queryRow(ctx, `SELECT `+maxthLatestCheckout("$1", "$2"), w.botID, w.seq+1-int64(l.Max)).Scan(&at)
	if err != nil {
		return err
	}
	return rateLimited(l, at, now)
}

// rateLimited refuses a checkout while the bot's l.Max-th most recent
// checkout, made at maxthLatest (nil when the bot has made fewer), is inside
// the window: l.Max checkouts are in it. The wait is until that one leaves.
func rateLimited(l Limit, maxthLatest *int64, now time.Time) error {
	if l.Max <= 0 || maxthLatest == nil || *maxthLatest <= ms(now.Add(-l.Window)) {
		return nil
	}
	secs := max(1, int((fromMS(*maxthLatest).Add(l.Window).Sub(now)+time.Second-1)/time.Second))
	return &botpay.Error{Kind: botpay.KindRateLimited, Code: botpay.CodeRateLimited,
		Message: "too many checkout requests; try again later", RetryAfterSeconds: secs,
		Limit: &botpay.RateLimit{Policy: "checkout", Quota: l.Max, WindowSeconds: int(l.Window / time.Second)}}
}

// numberCheckout records, with COMMIT, seq as the number of the bot's latest
// checkout (the caller holds the wallet lock and inserted that checkout).
func (t *Tx) numberCheckout(botID string, seq int64) {
	t.atCommit(step{query: `UPDATE wallets SET checkout_seq = $1 WHERE bot_id = $2`, args: []any{seq, botID}})
}
