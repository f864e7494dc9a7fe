package spending

import (
	"context"
	"errors"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
)

// checkoutConfig is the part of a checkout's rules that changes only when an
// owner changes it: the bot's guardrails, its owner's master guardrails, its
// procurement controls and its cards with their payment profiles. It is
// read under the wallet lock and kept in memory under the wallet's id and
// configuration version (migration 0009 bumps the version, by trigger, with
// every change to those rows), so most checkouts read only their usage.
type checkoutConfig struct {
	walletID string
	version  int64
	claimed  bool // false: the bot has no guardrails (never claimed)
	rules    botpay.SpendingRules
	cards    []botpay.Card // every card of the bot, any status, oldest first
	details  map[cardProfile][]byte
}

// cardProfile names one payment profile of one card.
type cardProfile struct {
	card  string
	index int
}

// readCheckoutConfig reads the bot's configuration. The caller holds w's
// lock, under which no configuration change can commit (its trigger waits
// for the lock), so the statements agree with each other and with
// w.ConfigVersion.
func (s *Service) readCheckoutConfig(ctx context.Context, tx *kernel.Tx, w ledger.Wallet) (*checkoutConfig, error) {
	c := &checkoutConfig{walletID: w.ID, version: w.ConfigVersion, details: map[cardProfile][]byte{}}
	rules, cards, claimed, err := checkoutRules(ctx, tx, w.BotID, w.OwnerID)
	if err != nil || !claimed {
		return c, err
	}
	c.claimed, c.rules, c.cards = true, rules, cards
	err = tx.EachRow(ctx, kernel.Step{Query: `SELECT p.card_id, p.profile_index, p.details_sealed FROM card_profiles p
			JOIN cards c ON c.id = p.card_id WHERE c.bot_id = $1`, Args: []any{w.BotID},
		Each: func(row kernel.Scanner) error {
			var k cardProfile
			var sealed []byte
			if err := row.Scan(&k.card, &k.index, &sealed); err != nil {
				return err
			}
			c.details[k] = sealed
			return nil
		}})
	return c, err
}

// checkoutRules reads the bot's guardrails (claimed false when it has
// none: never claimed), its owner's master guardrails and procurement
// controls, and every card of the bot with its payment profiles, any
// status, oldest first. The caller holds the bot's wallet lock, under
// which no configuration change can commit (its trigger waits for the
// lock), so the statements agree with each other.
func checkoutRules(ctx context.Context, tx *kernel.Tx, botID, ownerID string) (botpay.SpendingRules, []botpay.Card, bool, error) {
	var rules botpay.SpendingRules
	g, err := scanGuardrails(tx.QueryRow(ctx, guardrailsQuery, botID))
	if errors.Is(err, botpay.ErrWalletNotActive) {
		return rules, nil, false, nil
	}
	if err != nil {
		return rules, nil, false, err
	}
	rules.Bot = g
	if rules.Master, err = scanMasterGuardrails(tx.QueryRow(ctx, masterGuardrailsQuery, ownerID)); err != nil {
		return rules, nil, false, err
	}
	if rules.Procurement, err = scanProcurement(tx.QueryRow(ctx, procurementQuery, botID)); err != nil {
		return rules, nil, false, err
	}
	var cards []botpay.Card
	err = tx.EachRow(ctx, kernel.Step{Query: cardsQuery(`c.bot_id = $1`), Args: []any{botID}, Each: cardCollector(&cards)})
	return rules, cards, true, err
}
