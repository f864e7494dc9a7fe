package store

import (
	"context"
	"fmt"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// The SQL of a card checkout. The decisions are app's (app/checkout.go),
// made with pure functions of botpay; app runs them between the phases of
// a CheckoutTx, inside the one transaction InCheckout opens.

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

// CardPicker picks a checkout's card and profile among the bot's cards
// (botpay.PickCheckoutCard).
type CardPicker func(cards []botpay.Card, cardID string, profileIndex int) (botpay.Card, botpay.PaymentProfile, error)

// CheckoutFacts are what a checkout is judged on, read under the bot's
// wallet lock. When the wallet is not claimed or is frozen, only Claimed
// and Frozen are set.
type CheckoutFacts struct {
	Now           time.Time
	Claimed       bool
	Frozen        bool
	OwnerID       string
	HasGuardrails bool                 // false: the bot was never claimed
	Rules         botpay.SpendingRules // the bot's and owner's, without card and profile
	Card          botpay.Card
	Profile       botpay.PaymentProfile
	PickErr       error        // why no card or profile could be picked
	Usage         botpay.Usage // the bot's, card's and profile's, and the available balance
	QuotathLatest *time.Time   // the bot's Limit.Max-th most recent checkout, if any
	SealedDetails []byte       // of Card's Profile
}

// CheckoutTx is one checkout's transaction (InCheckout).
type CheckoutTx struct {
	tx      *Tx
	in      CheckoutInput
	now     time.Time
	w       lockedWallet
	claimed bool
	u       checkoutUsage
}

// InCheckout runs a checkout's phases, fn, in one transaction: committed
// when fn returns nil (a declined checkout commits its record too).
func (s *Store) InCheckout(ctx context.Context, in CheckoutInput, fn func(*CheckoutTx) error) error {
	err := s.inTx(ctx, func(tx *Tx) error {
		return fn(&CheckoutTx{tx: tx, in: in, now: s.clock.Now()})
	})
	return wrapErr(err, "checkout by %s", in.BotID)
}

// Open locks the bot's wallet and reads the facts: on PostgreSQL, with the
// configuration in memory, the lock and the usage take one round trip. The
// usage read with the lock is for the card pick picks from the
// configuration in memory; when that was stale, or overdue holds of the
// bot had to be expired first (they stop counting when their window
// closes), the usage is read again.
func (c *CheckoutTx) Open(ctx context.Context, pick CardPicker) (CheckoutFacts, error) {
	t, in, s := c.tx, c.in, c.tx.s
	cfg := s.configs.get(in.BotID)
	card, profile, pickErr := pickFrom(cfg, pick, in)
	if err := t.pipeline(ctx, walletStep(t, in.BotID, &c.w, &c.claimed), usageStep(in, card.ID, profile, c.now, &c.u)); err != nil {
		return CheckoutFacts{}, err
	}
	f := CheckoutFacts{Now: c.now, Claimed: c.claimed, Frozen: c.w.Frozen}
	if !c.claimed || c.w.Frozen {
		return f, nil
	}
	reread := false
	if cfg == nil || cfg.walletID != c.w.ID || cfg.version != c.w.ConfigVersion {
		fresh, err := t.readCheckoutConfig(ctx, c.w)
		if err != nil {
			return f, err
		}
		s.configs.put(in.BotID, fresh)
		wasCard, wasProfile := card.ID, profile
		cfg = fresh
		card, profile, pickErr = pickFrom(cfg, pick, in)
		reread = card.ID != wasCard || profile != wasProfile
	}
	if c.w.Held > 0 { // only a bot with holds can have overdue ones
		n, err := t.expireOverdueOf(ctx, in.BotID, c.now)
		if err != nil {
			return f, err
		}
		if n > 0 { // released holds changed the wallet and the totals
			if err := t.pipeline(ctx, walletStep(t, in.BotID, &c.w, &c.claimed)); err != nil {
				return f, err
			}
			reread = true
		}
	}
	if reread && pickErr == nil {
		if err := t.pipeline(ctx, usageStep(in, card.ID, profile, c.now, &c.u)); err != nil {
			return f, err
		}
	}
	f.OwnerID, f.HasGuardrails, f.Rules = c.w.OwnerID, cfg.claimed, cfg.rules
	f.Card, f.Profile, f.PickErr = card, profile, pickErr
	f.Usage, f.QuotathLatest = c.u.usage(), fromNullableMS(c.u.maxthLatest)
	f.Usage.Available = c.w.Available()
	f.SealedDetails = cfg.details[cardProfile{card.ID, profile.Index}]
	return f, nil
}

// pickFrom picks with cfg's cards (nothing without a configuration).
func pickFrom(cfg *checkoutConfig, pick CardPicker, in CheckoutInput) (botpay.Card, botpay.PaymentProfile, error) {
	if cfg == nil {
		return botpay.Card{}, botpay.PaymentProfile{}, nil
	}
	return pick(cfg.cards, in.CardID, in.ProfileIndex)
}

func fromNullableMS(v *int64) *time.Time {
	if v == nil {
		return nil
	}
	t := fromMS(*v)
	return &t
}

// TaskStatus locks the checkout's task and reads its status; found is false
// when the bot has no task of that id.
func (c *CheckoutTx) TaskStatus(ctx context.Context) (status string, found bool, err error) {
	err = c.tx.queryRow(ctx, `SELECT status FROM tasks WHERE id = $1 AND bot_id = $2`+c.tx.forUpdate(), c.in.TaskID, c.in.BotID).Scan(&status)
	if isNoRows(err) {
		return "", false, nil
	}
	return status, err == nil, err
}

// OwnerUsage adds the owner's usage across bots to u (when master budgets
// apply), locking the owner row first, so checkouts of several bots of one
// owner cannot together pass a master budget.
func (c *CheckoutTx) OwnerUsage(ctx context.Context, u botpay.Usage) (botpay.Usage, error) {
	return c.tx.ownerUsage(ctx, c.w.OwnerID, u, c.now)
}

// RecordDeclined keeps a declined checkout (it counts against the rate
// limit, never against budgets) with its wallet.spend.declined event.
func (c *CheckoutTx) RecordDeclined(ctx context.Context, p botpay.Purchase, reason string) error {
	if err := c.tx.insertPurchase(ctx, p, c.w.Seq+1); err != nil {
		return err
	}
	c.tx.numberCheckout(p.BotID, c.w.Seq+1)
	return c.tx.emit(botpay.NewEvent(p.BotID, botpay.SpendDeclinedData{
		Amount: p.Amount, Currency: "USD", Vendor: p.MerchantName, Reason: reason,
	}, c.now))
}

// Record writes an admitted checkout: its purchase row, the debit with its
// spend ledger row and wallet.spend.authorized (approved), or the hold
// (held), or nothing more (a decoy moves no money), its count in the
// running totals, and the task it completes. Where the dialect says so
// (checkoutInOne), an approved real purchase is all one statement
// (recordApprovedInOne), sent with COMMIT.
func (c *CheckoutTx) Record(ctx context.Context, p botpay.Purchase) (*LowBalance, error) {
	t := c.tx
	var low *LowBalance
	var err error
	if t.s.checkoutInOne && !p.Decoy && p.Status == botpay.PurchaseApproved {
		low, err = t.recordApprovedInOne(c.w, p, c.now)
	} else {
		low, err = t.recordAdmitted(ctx, c.w, &p, c.now)
	}
	if err != nil {
		return nil, err
	}
	if c.in.TaskID != "" {
		err = t.completeTask(ctx, c.in.TaskID, p.ID, ms(c.now))
	}
	return low, err
}

// wrapErr adds context to an error of the store's boundary; errors.Is and
// errors.As still see the cause. nil stays nil, and so does a domain
// error (*botpay.Error): it is the answer to the caller, whose message
// says already what was refused.
func wrapErr(err error, format string, args ...any) error {
	if _, domain := err.(*botpay.Error); err == nil || domain {
		return err
	}
	return fmt.Errorf("store: "+format+": %w", append(args, err)...)
}
